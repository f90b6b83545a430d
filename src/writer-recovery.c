/* writer-recovery.c - what a killed run or a damaged manifest left:
 * the manifest read (and completed from the disk when damaged), the
 * journal's temporary names and directory times put right
 */
#include "writer-private.h"

#include "kic.h"
#include "safeopen.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Links into the store below the directory FD (the real path PATH), and
 * the copies they point to, added to MANIFEST: what a damaged manifest
 * lost is found on disk. */
static void
find_links_into_store (Writer *w, int fd, const char *path, KicManifest *manifest, GHashTable *visited,
                       guint depth)
{
  DIR *d = dir_stream (dup (fd));
  struct dirent *de;

  if (d == NULL)
    return;
  while ((de = readdir (d)) != NULL)
    {
      g_autofree char *child = NULL;
      struct stat st;

      /* icon files are most of a theme: no stat for what readdir says is one */
      if (de->d_type == DT_REG || strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0
          || fstatat (fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        continue;
      child = g_strconcat (strcmp (path, "/") == 0 ? "" : path, "/", de->d_name, NULL);
      if (S_ISDIR (st.st_mode) && depth < MAX_LINK_DEPTH)
        {
          g_autofree char *key = g_strdup_printf ("%ju:%ju", (uintmax_t) st.st_dev, (uintmax_t) st.st_ino);
          int sub;

          if (g_hash_table_contains (visited, key) || strcmp (child, w->options.store) == 0)
            continue;
          g_hash_table_add (visited, g_steal_pointer (&key));
          sub = openat (fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (sub >= 0)
            {
              find_links_into_store (w, sub, child, manifest, visited, depth + 1);
              close (sub);
            }
        }
      else if (S_ISLNK (st.st_mode) && kic_manifest_path_ok (child))
        {
          g_autofree char *target = read_link (fd, de->d_name);
          g_autofree char *copy = target != NULL ? store_copy_of_link (w, child, target) : NULL;
          g_autofree char *sum = NULL;
          int copy_fd;

          if (copy == NULL)
            continue;
          if (!g_hash_table_contains (manifest->entries, child))
            kic_manifest_add (manifest, KIC_ENTRY_LINK, child, target, NULL);
          if (g_hash_table_contains (manifest->entries, copy) || !kic_manifest_path_ok (copy))
            continue;
          copy_fd = kic_open_in_root (w->rootfd, copy, O_RDONLY | O_NONBLOCK, TRUE);
          if (copy_fd < 0)
            continue;
          if (fstat (copy_fd, &st) == 0 && S_ISREG (st.st_mode))
            sum = sha256_of_fd (copy_fd);
          close (copy_fd);
          /* the copy of SOURCE is <store>/files/SOURCE */
          if (sum != NULL)
            kic_manifest_add (manifest, KIC_ENTRY_FILE, copy, copy + strlen (w->files) - 1, sum);
        }
    }
  closedir (d);
}

/* The manifest is damaged, or missing beside a store: take the links into
 * the store under the theme bases as ours (no one else links there). */
static void
recover_from_disk (Writer *w)
{
  g_autoptr (GHashTable) visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint before = g_hash_table_size (w->old->entries);

  for (guint i = 0; w->options.link_dirs != NULL && w->options.link_dirs[i] != NULL; i++)
    {
      g_autofree char *real = kic_fs_index_realpath (w->options.index, w->options.link_dirs[i]);
      int fd;

      if (real == NULL)
        continue;
      fd = kic_open_in_root (w->rootfd, real, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd < 0)
        continue;
      find_links_into_store (w, fd, real, w->old, visited, 0);
      close (fd);
    }
  kic_debug ("the manifest was damaged or missing: %u entries found on disk",
             g_hash_table_size (w->old->entries) - before);
}

/* Read the manifest; a damaged one is completed from the disk. */
gboolean
read_manifest (Writer *w, GError **error)
{
  g_autofree char *path = manifest_path (w);
  g_autofree char *host = host_path (w, path);
  g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize length;
  int fd;

  if (!read_in_root (w, path, &data, &length, &local))
    {
      if (!g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      w->old = kic_manifest_new ();
      /* no manifest, but copies: a manifest lost */
      fd = kic_open_in_root (w->rootfd, files, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd >= 0)
        {
          close (fd);
          w->old->damaged = TRUE;
        }
    }
  else
    w->old = kic_manifest_parse (data, length, host);
  if (w->old->damaged)
    recover_from_disk (w);
  return TRUE;
}

/* What a killed run left: its temporary names beside every entry of its
 * journal that can be ours, and the times of the directories it changed
 * (open_dir() takes them from the journal). */
void
recover_killed_run (Writer *w)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, w->old->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicManifestEntry *entry = value;
      g_autofree char *dir = g_path_get_dirname (key);
      g_autofree char *name = g_path_get_basename (key);
      g_autofree char *tmp = temp_name (name);
      g_autofree char *copy = entry->kind == KIC_ENTRY_LINK ? store_copy_of_link (w, key, entry->target) : NULL;
      DirHandle *handle;

      if (copy == NULL && !in_store (w, key))
        continue;
      handle = open_dir (w, dir, FALSE, NULL);
      if (handle != NULL && unlinkat (handle->fd, tmp, 0) == 0)
        handle->changed = TRUE;
    }
  g_hash_table_iter_init (&iter, w->old->mtimes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    open_dir (w, key, FALSE, NULL);
}

/* Record in JOURNAL the times of the directories its links are in, before
 * anything in them changes. */
void
journal_dir_times (Writer *w, KicManifest *journal)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, journal->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *dir = NULL;
      DirHandle *handle;

      if (((KicManifestEntry *) value)->kind != KIC_ENTRY_LINK)
        continue;
      dir = g_path_get_dirname (key);
      handle = open_dir (w, dir, FALSE, NULL);
      if (handle != NULL)
        kic_manifest_set_mtime (journal, dir, handle->times[1].tv_sec, handle->times[1].tv_nsec);
    }
}

void
restore_dir_times (Writer *w)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, w->dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    restore_time (value);
}
