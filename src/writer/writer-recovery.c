/* writer-recovery.c - what a killed run or a damaged manifest left:
 * the manifest read (and completed from the disk when damaged), the
 * journal's temporary names and directory times put right
 */
#include "writer-private.h"

#include "diag.h"
#include "hash.h"
#include "safeopen.h"
#include "sorted.h"

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
static gboolean
find_links_into_store (Writer *w, int fd, const char *path, KicManifest *manifest, GHashTable *visited,
                       guint depth, GError **error)
{
  DIR *d = writer_dir_stream (dup (fd));
  g_autofree char *host = writer_host_path (w, path);
  struct dirent *de;

  if (d == NULL)
    return TRUE;
  while ((errno = 0, de = readdir (d)) != NULL)
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
              gboolean ok = find_links_into_store (w, sub, child, manifest, visited, depth + 1, error);

              close (sub);
              if (!ok)
                {
                  closedir (d);
                  return FALSE;
                }
            }
        }
      else if (S_ISLNK (st.st_mode) && kic_manifest_path_ok (child))
        {
          g_autofree char *target = writer_read_link (fd, de->d_name);
          g_autofree char *copy = target != NULL ? writer_store_copy_of_link (w, child, target) : NULL;
          g_autofree char *sum = NULL;
          int copy_fd;

          if (copy == NULL)
            continue;
          if (!g_hash_table_contains (manifest->entries, child))
            kic_manifest_add (manifest, KIC_ENTRY_LINK, child, target, NULL);
          if (g_hash_table_contains (manifest->entries, copy) || !kic_manifest_path_ok (copy))
            continue;
          /* (its type known before it is opened) */
          copy_fd = kic_open_regular_in_root (w->rootfd, copy, &st);
          if (copy_fd < 0)
            continue;
          sum = writer_sha256_of_fd (copy_fd);
          close (copy_fd);
          /* the copy of SOURCE is <store>/files/SOURCE */
          if (sum != NULL)
            kic_manifest_add (manifest, KIC_ENTRY_FILE, copy, copy + strlen (w->files) - 1, sum);
        }
    }
  /* a listing cut short would lose links of ours for good */
  return writer_read_dir_end (d, host, error);
}

/* The manifest is damaged, or missing beside a store: take the links into
 * the store under the theme bases as ours (no one else links there). */
static gboolean
recover_from_disk (Writer *w, GError **error)
{
  g_autoptr (GHashTable) visited = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  guint before = g_hash_table_size (w->old->entries);
  gboolean ok;

  for (guint i = 0; w->options.link_dirs != NULL && w->options.link_dirs[i] != NULL; i++)
    {
      g_autofree char *real = kic_fs_index_realpath (w->options.index, w->options.link_dirs[i]);
      int fd;

      if (real == NULL)
        continue;
      fd = kic_open_in_root (w->rootfd, real, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd < 0)
        continue;
      ok = find_links_into_store (w, fd, real, w->old, visited, 0, error);
      close (fd);
      if (!ok)
        return FALSE;
    }
  kic_debug ("the manifest was damaged or missing: %u entries found on disk",
             g_hash_table_size (w->old->entries) - before);
  return TRUE;
}

/* Read the manifest; a damaged one is completed from the disk. */
gboolean
writer_read_manifest (Writer *w, GError **error)
{
  g_autofree char *path = writer_manifest_path (w);
  g_autofree char *host = writer_host_path (w, path);
  g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize length;
  int fd;

  if (!writer_read_in_root (w, path, &data, &length, &local))
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
    return recover_from_disk (w, error);
  return TRUE;
}

/* Is NAME in DIRFD what a run of ours leaves under a temporary name there:
 * beside a link, a link into the store (a new one, or the old one it
 * replaced); in the store, a regular file (the store is ours: no one else
 * writes there).  Anything else at that name is someone else's and stays
 * (issue 19, review: recovery deleted '.NAME.kic-tmp' unchecked). */
static gboolean
left_by_us (Writer *w, int dirfd, const char *dir, const char *name, gboolean in_store_dir)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *target = NULL;
  g_autofree char *copy = NULL;
  struct stat st;

  if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return FALSE;
  if (in_store_dir)
    return S_ISREG (st.st_mode);
  if (!S_ISLNK (st.st_mode) || (target = writer_read_link (dirfd, name)) == NULL)
    return FALSE;
  copy = writer_store_copy_of_link (w, path, target);
  return copy != NULL;
}

/* Remove TMP in the directory HANDLE when a run of ours left it. */
static gboolean
remove_left (Writer *w, DirHandle *handle, const char *tmp, gboolean in_store_dir, GError **error)
{
  if (!left_by_us (w, handle->fd, handle->path, tmp, in_store_dir))
    return TRUE;
  if (unlinkat (handle->fd, tmp, 0) < 0 && errno != ENOENT)
    {
      g_autofree char *path = g_build_filename (handle->path, tmp, NULL);
      g_autofree char *host = writer_host_path (w, path);

      return writer_set_errno_error (error, errno, "remove what a killed run left,", host);
    }
  writer_dir_left (handle, tmp, WRITER_LEFT_GONE);
  return TRUE;
}

/* What a killed run left: its temporary names beside every entry of its
 * journal that can be ours (the names its journal's token makes, and the
 * fixed names of runs before tokens), when they are what it would have
 * left there, and the times of the directories it changed (writer_open_dir()
 * takes them from the journal). */
gboolean
writer_recover_killed_run (Writer *w, GError **error)
{
  g_autoptr (GPtrArray) paths = kic_sorted_keys (w->old->entries);
  GHashTableIter iter;
  gpointer key;

  /* (by path: a failure stops at the same entry whatever a hash table's order) */
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      const KicManifestEntry *entry = g_hash_table_lookup (w->old->entries, path);
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *legacy = g_strconcat (TEMP_PREFIX, name, TEMP_SUFFIX, NULL);
      g_autofree char *tokened = w->old->temp_token
                                   ? g_strconcat (TEMP_PREFIX, name, TEMP_INFIX, w->old->temp_token, NULL)
                                   : NULL;
      g_autofree char *copy = entry->kind == KIC_ENTRY_LINK ? writer_store_copy_of_link (w, path, entry->target) : NULL;
      gboolean store_file = entry->kind == KIC_ENTRY_FILE && writer_in_store (w, path);
      DirHandle *handle;

      if (copy == NULL && !store_file)
        continue;
      handle = writer_open_dir (w, dir, 0, NULL);
      if (handle == NULL)
        continue;
      if (!remove_left (w, handle, legacy, store_file, error)
          || (tokened != NULL && !remove_left (w, handle, tokened, store_file, error)))
        return FALSE;
    }
  g_hash_table_iter_init (&iter, w->old->mtimes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    writer_open_dir (w, key, 0, NULL);
  /* the manifest's and the fingerprint's, which no journal lists */
  {
    DirHandle *store = writer_open_dir (w, w->options.store, 0, NULL);

    if (store != NULL)
      writer_remove_store_temps (store->fd);
  }
  return TRUE;
}

/* Record in JOURNAL the times of the directories its links are in, before
 * anything in them changes. */
void
writer_journal_dir_times (Writer *w, KicManifest *journal)
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
      handle = writer_open_dir (w, dir, 0, NULL);
      if (handle != NULL)
        kic_manifest_set_mtime (journal, dir, handle->times[1].tv_sec, handle->times[1].tv_nsec);
    }
}

/* Put back the times of the directories the run changed; the first error
 * is reported, after trying them all. */
gboolean
writer_restore_dir_times (Writer *w, GError **error)
{
  /* (by path: the error reported is the same whatever a hash table's order) */
  g_autoptr (GPtrArray) paths = kic_sorted_keys (w->dirs);
  gboolean ok = TRUE;

  for (guint i = 0; i < paths->len; i++)
    {
      DirHandle *handle = g_hash_table_lookup (w->dirs, g_ptr_array_index (paths, i));

      if (!handle->changed)
        continue;
      /* (a directory closed since has its time back already: one open
       * again is the same directory, writer_open_dir() checks) */
      if (handle->fd < 0 && writer_open_dir (w, handle->path, 0, ok ? error : NULL) == NULL)
        {
          ok = FALSE;
          continue;
        }
      if (!writer_restore_time (w, handle, ok ? error : NULL))
        ok = FALSE;
    }
  return ok;
}
