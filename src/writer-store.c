/* writer-store.c - the store: copies of the icon files, the manifest,
 * and removing what is ours when it is no longer wanted
 */
#include "writer-private.h"

#include "fingerprint.h"
#include "raster.h"
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

/* Does a link at LINK with target TARGET point at a copy in our store?
 * Then it is ours whatever the manifest says; nothing else is.  The
 * store copy's path, or NULL.  transfer full */
char *
store_copy_of_link (const Writer *w, const char *link, const char *target)
{
  g_autofree char *dir = g_path_get_dirname (link);
  g_autofree char *joined = target[0] == '/' ? g_strdup (target) : g_strconcat (dir, "/", target, NULL);
  char *clean = kic_path_clean (joined);

  if (g_str_has_prefix (clean, w->files) && clean[strlen (w->files)] != '\0')
    return clean;
  g_free (clean);
  return NULL;
}

/* Is PATH a store copy path (clean, below "<store>/files/")? */
gboolean
in_store (const Writer *w, const char *path)
{
  g_autofree char *clean = kic_path_clean (path);

  return strcmp (clean, path) == 0 && g_str_has_prefix (path, w->files) && path[strlen (w->files)] != '\0';
}

char *
manifest_path (const Writer *w)
{
  return g_build_filename (w->options.store, "manifest", NULL);
}

/* May the copy with content SUM go to STORE?  Yes when nothing is there,
 * when the same content is (then it is in place), or a copy of ours the
 * old manifest records with the content it has now.  Anything else there
 * (a file not ours, a link, a FIFO, a socket, a directory, a parent that
 * is not a directory) is left alone, and so are the links to it. */
gboolean
store_slot_ok (Writer *w, const char *store, const char *sum)
{
  g_autofree char *dir = g_path_get_dirname (store);
  g_autofree char *name = g_path_get_basename (store);
  g_autofree char *have = NULL;
  const KicManifestEntry *was = g_hash_table_lookup (w->old->entries, store);
  struct stat st;
  gboolean ok = FALSE;
  int fd = kic_open_in_root (w->rootfd, dir, O_RDONLY | O_DIRECTORY, TRUE);

  if (fd < 0)
    ok = errno == ENOENT;
  else if (fstatat (fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    ok = errno == ENOENT;
  else if (S_ISREG (st.st_mode) && (have = sha256_at (fd, name)) != NULL)
    {
      if (strcmp (have, sum) == 0)
        {
          g_hash_table_add (w->in_place, g_strdup (store));
          ok = TRUE;
        }
      else
        ok = was != NULL && was->kind == KIC_ENTRY_FILE && strcmp (have, was->sha256) == 0;
    }
  if (fd >= 0)
    close (fd);
  if (!ok)
    kic_warning ("'%s%s' is in the way and is no copy of ours: left alone, and the icon is not cached",
                 w->prefix, store);
  return ok;
}

/* The bytes of the store file STORE: those of SOURCE, whose content is
 * CONTENT, or the PNG made from them when STORE is its twin (raster.h),
 * as the plan asked by its name; *SHA256 (transfer none) gets their
 * SHA-256, *MTIME (may be NULL) SOURCE's modification time.  Both come
 * from the one read of SOURCE that its content was hashed from
 * (content.h): what is copied is what the planner compared.  transfer
 * none */
GBytes *
store_content (Writer *w, const char *store, const char *source, const KicContent *content,
               const char **sha256, struct timespec *mtime, GError **error)
{
  GBytes *bytes = kic_content_bytes (content, mtime, error);
  const char *why = NULL;
  GBytes *png;

  if (bytes == NULL)
    return NULL;
  if (!kic_raster_is_png_of_xpm (store, source))
    {
      *sha256 = kic_content_sha256 (content);
      return bytes;
    }
  png = kic_content_png (content, sha256, &why);
  if (png == NULL)
    {
      g_autofree char *host = host_path (w, source);

      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' cannot be made a PNG: %s", host, why);
    }
  return png;
}

/* Step 2: a store copy whose content is not there yet. */
gboolean
put_file (Writer *w, const KicManifestEntry *entry, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  const KicContent *content = g_hash_table_lookup (w->contents, entry->path);
  const char *sum = NULL;
  struct timespec mtime;
  const char *data;
  DirHandle *handle;
  GBytes *bytes;
  gsize length;

  if (g_hash_table_contains (w->in_place, entry->path))
    return TRUE;
  say (w, "copy", entry->path, entry->target);
  w->stats->files_written++;
  if (w->options.dry_run)
    return TRUE;
  handle = open_dir (w, dir, TRUE, error);
  if (handle == NULL)
    return FALSE;
  bytes = store_content (w, entry->path, entry->target, content, &sum, &mtime, error);
  if (bytes == NULL)
    return FALSE;
  if (strcmp (sum, entry->sha256) != 0)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s%s' changed while kde-icon-cache ran", w->prefix, entry->target);
      return FALSE;
    }
  data = g_bytes_get_data (bytes, &length);
  return write_file_at (handle, name, data, length, &mtime, FALSE, entry->path, error);
}

/* The store copies written so far made durable, before the first link
 * to any of them: one syncfs(2) of the store's file system instead of an
 * fsync per copy (a power cut after it finds every copy whole; one
 * before it finds no link to a copy that may not be). */
gboolean
sync_store (Writer *w, GError **error)
{
  DirHandle *store = open_dir (w, w->options.store, FALSE, error);

  if (store == NULL)
    return FALSE;
  if (syncfs (store->fd) < 0)
    return set_errno_error (error, errno, "sync the file system of", w->options.store);
  return TRUE;
}

/* Write the manifest text, unless it is already exactly that. */
gboolean
put_manifest (Writer *w, const char *text, GError **error)
{
  g_autofree char *path = manifest_path (w);
  g_autofree char *have = NULL;
  DirHandle *handle;

  if (read_in_root (w, path, &have, NULL, NULL) && strcmp (have, text) == 0)
    return TRUE;
  if (w->options.dry_run)
    return TRUE;
  handle = open_dir (w, w->options.store, TRUE, error);
  if (handle == NULL || !write_file_at (handle, "manifest", text, strlen (text), NULL, TRUE, path, error))
    return FALSE;
  handle->changed = FALSE; /* the store's own time may move */
  return TRUE;
}

/* Remove the empty directories below DIRFD; the store's tree of copies
 * shrinks as copies go.  Nothing but empty directories is removed. */
static void
remove_empty_below (int dirfd)
{
  DIR *d = dir_stream (dup (dirfd));
  struct dirent *de;

  if (d == NULL)
    return;
  while ((de = readdir (d)) != NULL)
    {
      int sub;

      if (de->d_type != DT_DIR || strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      sub = openat (dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0)
        continue;
      remove_empty_below (sub);
      close (sub);
      unlinkat (dirfd, de->d_name, AT_REMOVEDIR);
    }
  closedir (d);
}

/* The store's "files" directory: empty directories go. */
void
prune_store (Writer *w)
{
  g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
  int fd = kic_open_in_root (w->rootfd, files, O_RDONLY | O_DIRECTORY, TRUE);

  if (fd < 0)
    return;
  remove_empty_below (fd);
  close (fd);
}

/* Does the directory NAME in PARENTFD hold nothing but "lock"? */
static gboolean
holds_only_lock (int parentfd, const char *name)
{
  DIR *d = dir_stream (openat (parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct dirent *de;
  gboolean only = TRUE;

  if (d == NULL)
    return FALSE;
  while ((de = readdir (d)) != NULL)
    if (strcmp (de->d_name, ".") != 0 && strcmp (de->d_name, "..") != 0 && strcmp (de->d_name, "lock") != 0)
      only = FALSE;
  closedir (d);
  return only;
}

/* Remove the directory NAME in PARENTFD, which holds only its lock. */
static gboolean
remove_locked_dir (int parentfd, const char *name)
{
  int fd = openat (parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  unlinkat (fd, "lock", 0);
  close (fd);
  return unlinkat (parentfd, name, AT_REMOVEDIR) == 0;
}

/* The store, with the lock held: our copies and manifest are gone; it is
 * renamed away first, so that the lock is never removed from a store
 * that exists (a run that waited on it sees that it went, and starts
 * over), then removed when nothing but the lock is left. */
void
remove_store (Writer *w)
{
  g_autofree char *parent = g_path_get_dirname (w->options.store);
  g_autofree char *base = g_path_get_basename (w->options.store);
  g_autofree char *away = g_strconcat (".", base, ".kic-clean", NULL);
  int pfd = kic_open_in_root (w->rootfd, parent, O_RDONLY | O_DIRECTORY, TRUE);
  int fd = kic_open_in_root (w->rootfd, w->options.store, O_RDONLY | O_DIRECTORY, TRUE);

  if (fd >= 0)
    {
      g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
      g_autofree char *files_name = g_path_get_basename (files);

      unlinkat (fd, files_name, AT_REMOVEDIR);
      unlinkat (fd, "manifest", 0);
      unlinkat (fd, TEMP_PREFIX "manifest" TEMP_SUFFIX, 0); /* a killed run's */
      unlinkat (fd, KIC_FINGERPRINT_FILE, 0);
      unlinkat (fd, TEMP_PREFIX KIC_FINGERPRINT_FILE TEMP_SUFFIX, 0);
      unlinkat (fd, KIC_STATE_FILE, 0);
      unlinkat (fd, TEMP_PREFIX KIC_STATE_FILE TEMP_SUFFIX, 0);
      close (fd);
    }
  if (pfd < 0)
    return;
  /* what a killed --clean left */
  if (holds_only_lock (pfd, away))
    remove_locked_dir (pfd, away);
  if (!holds_only_lock (pfd, base) || renameat2 (pfd, base, pfd, away, RENAME_NOREPLACE) < 0)
    kic_warning ("'%s%s' is not empty: left in place", w->prefix, w->options.store);
  else if (!remove_locked_dir (pfd, away))
    kic_warning ("cannot remove '%s%s/%s': %s", w->prefix, parent, away, g_strerror (errno));
  close (pfd);
}
