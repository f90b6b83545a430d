/* writer-store.c - the store: copies of the icon files, the manifest,
 * and removing what is ours when it is no longer wanted
 */
#include "writer-private.h"

#include "diag.h"
#include "fingerprint.h"
#include "path.h"
#include "raster.h"
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
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* Does a link at LINK with target TARGET point at a copy in our store?
 * Then it is ours whatever the manifest says; nothing else is.  The
 * store copy's path, or NULL.  transfer full */
char *
writer_store_copy_of_link (const Writer *w, const char *link, const char *target)
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
writer_in_store (const Writer *w, const char *path)
{
  return kic_path_is_clean (path) && g_str_has_prefix (path, w->files) && path[strlen (w->files)] != '\0';
}

char *
writer_manifest_path (const Writer *w)
{
  return g_build_filename (w->options.store, "manifest", NULL);
}

/* Is the copy WAS of the whole manifest, recorded with content SUM, the
 * file it was when the last run left it, ST being what is there now
 * (KicWriterOptions.store_stamps)?  Then it still has that content. */
static gboolean
copy_settled (const Writer *w, const KicManifestEntry *was, const char *sum, const struct stat *st)
{
  const KicFsStamp *then;
  KicFsStamp now;

  if (w->options.store_stamps == NULL || was == NULL || was->kind != KIC_ENTRY_FILE || was->sha256 == NULL
      || strcmp (was->sha256, sum) != 0 || w->old->journal || w->old->damaged
      || (then = g_hash_table_lookup (w->options.store_stamps, was->path)) == NULL)
    return FALSE;
  kic_fs_stamp_of_stat (&now, KIC_FS_FILE, st);
  return kic_fs_stamp_unchanged (then, &now);
}

/* STORE, a copy found with its content (ST, stated after the clock said
 * READ_NS), is in place: the run leaves it as it is. */
static void
in_place (Writer *w, const char *store, const struct stat *st, gint64 read_ns)
{
  KicFsStamp *stamp = g_new0 (KicFsStamp, 1);

  kic_fs_stamp_of_stat (stamp, KIC_FS_FILE, st);
  stamp->read_ns = read_ns;
  g_hash_table_replace (w->in_place, g_strdup (store), stamp);
}

/* May the copy with content SUM go to STORE?  Yes when nothing is there,
 * when the same content is (then it is in place), or a copy of ours the
 * old manifest records with the content it has now.  Anything else there
 * (a file not ours, a link, a FIFO, a socket, a directory, a parent that
 * is not a directory) is left alone, and so are the links to it.  DIRS
 * (kic_kept_dirs_new()) keeps the store directories opened: the copies of
 * a run share a few, which only root can change (a missing one stays
 * missing: the writer makes them later). */
gboolean
writer_store_slot_ok (Writer *w, GHashTable *dirs, const char *store, const char *sum)
{
  g_autofree char *dir = g_path_get_dirname (store);
  g_autofree char *name = g_path_get_basename (store);
  g_autofree char *have = NULL;
  const KicManifestEntry *was = g_hash_table_lookup (w->old->entries, store);
  struct stat st;
  gboolean ok = FALSE;
  gboolean owned = FALSE;
  gint64 read_ns;
  int fd, errsv = 0;

  if (kic_kept_dirs_lookup (dirs, dir, &fd))
    errsv = fd < 0 ? ENOENT : 0;
  else
    {
      fd = kic_open_in_root (w->rootfd, dir, O_RDONLY | O_DIRECTORY, TRUE);
      errsv = fd < 0 ? errno : 0;
      /* only a missing directory is kept as missing (every copy there
       * is then to be made); any other refusal is asked again */
      if (fd >= 0 || errsv == ENOENT)
        owned = !kic_kept_dirs_keep (dirs, dir, fd);
    }
  /* (the clock before the stat: the stamp kept of a copy in place,
   * stamp.c's racy rule) */
  read_ns = kic_fs_stamp_clock ();
  if (fd < 0)
    ok = errsv == ENOENT;
  else if (fstatat (fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    ok = errno == ENOENT;
  else if (S_ISREG (st.st_mode) && copy_settled (w, was, sum, &st))
    {
      in_place (w, store, &st, read_ns);
      ok = TRUE;
    }
  else if (S_ISREG (st.st_mode) && (have = writer_sha256_at (fd, name)) != NULL)
    {
      if (strcmp (have, sum) == 0)
        {
          in_place (w, store, &st, read_ns);
          ok = TRUE;
        }
      else
        ok = was != NULL && was->kind == KIC_ENTRY_FILE && strcmp (have, was->sha256) == 0;
    }
  if (owned)
    close (fd);
  if (!ok)
    kic_warning ("'%s%s' is in the way and is no copy of ours: left alone, and the icon is not cached",
                 w->prefix, store);
  return ok;
}

/* The bytes of the store file STORE: those of SOURCE, whose content is
 * CONTENT, or the PNG made from them when STORE is its twin (raster.h),
 * as the plan asked by its name; *SHA256 (transfer none) gets their
 * SHA-256, *MTIME SOURCE's modification time.  Both come from the one
 * read of SOURCE that its content was hashed from (content.h): what is
 * copied is what the planner compared.  MTIME is NULL when only the
 * SHA-256 is asked (the desired manifest); with it, the copy is about to
 * be made, and SOURCE is checked to be still the file that was read.
 * transfer none */
GBytes *
writer_store_content (Writer *w, const char *store, const char *source, const KicContent *content,
               const char **sha256, struct timespec *mtime, GError **error)
{
  const char *why = NULL;
  GBytes *bytes;
  GBytes *png;

  /* the bytes were read when the plan compared them: the file must still
   * be that one, and copyable, now (a copy of what a user just made
   * private, or put there since, is no copy every user could make) */
  if (mtime != NULL && !kic_content_unchanged (content, error))
    return NULL;
  bytes = kic_content_bytes (content, mtime, error);
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
      g_autofree char *host = writer_host_path (w, source);

      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' cannot be made a PNG: %s", host, why);
    }
  return png;
}

/* The free space the store's file system keeps whatever we copy: a tenth
 * of it, at most 256 MiB (on a 2 GiB /var, 200 MiB; on anything of
 * 2.5 GiB or more, 256 MiB), and a tenth of its inodes, at most 10 000. */
#define RESERVE_FRACTION 10
#define RESERVE_MAX_BYTES ((guint64) 256 << 20)
#define RESERVE_MAX_INODES 10000

/* May a copy of LENGTH bytes be written in DIR (of the store)?  Not when
 * the file system would then keep less than its reserve free (as
 * statvfs(3) tells it to users, not to root): then one warning, and no
 * new copy is written this run -- a hostile tree cannot fill /var, and a
 * small /var is never filled (issue 19, row 7). */
gboolean
writer_store_budget_allows (Writer *w, DirHandle *dir, gsize length)
{
  struct statvfs vfs;
  guint64 block, total, avail, reserve, inode_reserve;

  if (w->budget_spent)
    return FALSE;
  if (fstatvfs (dir->fd, &vfs) < 0)
    return TRUE; /* cannot tell: a full disk is still an error */
  block = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
  total = (guint64) vfs.f_blocks * block;
  avail = (guint64) vfs.f_bavail * block;
  reserve = MIN (total / RESERVE_FRACTION, RESERVE_MAX_BYTES);
  inode_reserve = MIN ((guint64) vfs.f_files / RESERVE_FRACTION, RESERVE_MAX_INODES);
  /* (the copy's last block and its inode; file systems without a count
   * of inodes say 0 of 0) */
  if (avail >= reserve + length + block && (vfs.f_files == 0 || (guint64) vfs.f_favail > inode_reserve + 1))
    return TRUE;
  kic_warning ("the file system of '%s%s' has %" G_GUINT64_FORMAT " KiB and %" G_GUINT64_FORMAT
               " inodes free, and keeps %" G_GUINT64_FORMAT " KiB and %" G_GUINT64_FORMAT
               " inodes free for its users: no more icons are cached in this run",
               w->prefix, w->options.store, avail >> 10, (guint64) vfs.f_favail, reserve >> 10, inode_reserve);
  w->budget_spent = TRUE;
  return FALSE;
}

/* A copy that cannot be written this run: it and its links are left out,
 * with one warning, and the run goes on (issue 19, row 9). */
static void
lose (Writer *w, const KicManifestEntry *entry, const char *why)
{
  if (why != NULL)
    kic_warning ("%s; its links are left out", why);
  g_hash_table_add (w->lost, g_strdup (entry->path));
  w->stats->files_written--;
}

/* Step 2: a store copy whose content is not there yet.  FALSE only when
 * the run must stop (writer_error_is_global()): a copy whose source changed
 * while it was read, that is in the way, or that the store's budget has
 * no room for is left out (lose()). */
gboolean
writer_put_file (Writer *w, const KicManifestEntry *entry, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  const KicContent *content = g_hash_table_lookup (w->contents, entry->path);
  g_autoptr (GError) local = NULL;
  const char *sum = NULL;
  struct timespec mtime;
  const char *data;
  DirHandle *handle;
  GBytes *bytes;
  gsize length;

  if (g_hash_table_contains (w->in_place, entry->path))
    return TRUE;
  w->stats->files_written++;
  if (w->options.dry_run)
    {
      writer_say (w, "copy", entry->path, entry->target);
      return TRUE;
    }
  handle = writer_open_dir (w, dir, OPEN_CREATE, &local);
  bytes = handle != NULL ? writer_store_content (w, entry->path, entry->target, content, &sum, &mtime, &local) : NULL;
  if (bytes == NULL)
    {
      if (writer_error_is_global (local))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      lose (w, entry, local->message);
      return TRUE;
    }
  if (strcmp (sum, entry->sha256) != 0)
    {
      g_autofree char *why = g_strdup_printf ("'%s%s' changed while kde-icon-cache ran", w->prefix, entry->target);

      lose (w, entry, why);
      return TRUE;
    }
  data = g_bytes_get_data (bytes, &length);
  if (!writer_store_budget_allows (w, handle, length))
    {
      lose (w, entry, NULL);
      return TRUE;
    }
  if (!writer_write_file_at (w, handle, name, data, length, &mtime, 0644, FALSE, entry->path, &local))
    {
      if (writer_error_is_global (local))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      lose (w, entry, local->message);
      return TRUE;
    }
  /* a real run tells what it did, once it is done (the change log) */
  writer_say (w, "copy", entry->path, entry->target);
  return TRUE;
}

/* The store copies written so far made durable, before the first link
 * to any of them: one syncfs(2) of the store's file system instead of an
 * fsync per copy (a power cut after it finds every copy whole; one
 * before it finds no link to a copy that may not be). */
gboolean
writer_sync_store (Writer *w, GError **error)
{
  DirHandle *store = writer_open_dir (w, w->options.store, 0, error);

  if (store == NULL)
    return FALSE;
  if (syncfs (store->fd) < 0)
    return writer_set_errno_error (error, errno, "sync the file system of", w->options.store);
  return TRUE;
}

/* Write the manifest text, unless it is already exactly that. */
gboolean
writer_put_manifest (Writer *w, const char *text, GError **error)
{
  g_autofree char *path = writer_manifest_path (w);
  DirHandle *handle;

  if (writer_file_holds (w, path, text, strlen (text)))
    return TRUE;
  if (w->options.dry_run)
    return TRUE;
  handle = writer_open_dir (w, w->options.store, OPEN_CREATE, error);
  if (handle == NULL || !writer_write_file_at (w, handle, "manifest", text, strlen (text), NULL, 0644, TRUE, path, error))
    return FALSE;
  handle->changed = FALSE; /* the store's own time may move */
  return TRUE;
}

/* Remove the empty directories below DIRFD (HOST), DEPTH below the
 * store's files; the store's tree of copies shrinks as copies go.  Nothing
 * but empty directories is removed.  The names are read first and the
 * stream closed before going down, so that a deep tree needs one
 * descriptor per level, not two. */
static gboolean
remove_empty_below (int dirfd, const char *host, guint depth, GError **error)
{
  DIR *d = writer_dir_stream (dup (dirfd));
  g_autoptr (GPtrArray) subdirs = g_ptr_array_new_with_free_func (g_free);
  struct dirent *de;

  if (d == NULL)
    return TRUE;
  while ((errno = 0, de = readdir (d)) != NULL)
    if (de->d_type == DT_DIR && strcmp (de->d_name, ".") != 0 && strcmp (de->d_name, "..") != 0)
      g_ptr_array_add (subdirs, g_strdup (de->d_name));
  if (!writer_read_dir_end (d, host, error))
    return FALSE;
  for (guint i = 0; i < subdirs->len; i++)
    {
      const char *name = g_ptr_array_index (subdirs, i);
      g_autofree char *sub_host = g_strconcat (host, "/", name, NULL);
      int sub;

      /* (a source path is at most PATH_MAX: so is the tree of copies) */
      if (depth >= PATH_MAX / 2)
        break;
      sub = openat (dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0)
        continue;
      if (!remove_empty_below (sub, sub_host, depth + 1, error))
        {
          close (sub);
          return FALSE;
        }
      close (sub);
      unlinkat (dirfd, name, AT_REMOVEDIR); /* fails when not empty: then it stays */
    }
  return TRUE;
}

/* The store's "files" directory: empty directories go. */
gboolean
writer_prune_store (Writer *w, GError **error)
{
  g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
  g_autofree char *host = writer_host_path (w, files);
  int fd = kic_open_in_root (w->rootfd, files, O_RDONLY | O_DIRECTORY, TRUE);
  gboolean ok;

  if (fd < 0)
    return TRUE;
  ok = remove_empty_below (fd, host, 0, error);
  close (fd);
  return ok;
}

/* Does the directory NAME in PARENTFD hold nothing but "lock"? */
static gboolean
holds_only_lock (int parentfd, const char *name)
{
  DIR *d = writer_dir_stream (openat (parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct dirent *de;
  gboolean only = TRUE;

  if (d == NULL)
    return FALSE;
  while ((errno = 0, de = readdir (d)) != NULL)
    if (strcmp (de->d_name, ".") != 0 && strcmp (de->d_name, "..") != 0 && strcmp (de->d_name, "lock") != 0)
      only = FALSE;
  /* a listing cut short is no proof of emptiness */
  return writer_read_dir_end (d, name, NULL) && only;
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

/* The temporary names a killed run left in the store directory FD (of
 * the manifest, the fingerprint, the state and a lock being replaced:
 * ".manifest.kic-*"), regular files: no one else writes there. */
void
writer_remove_store_temps (int fd)
{
  DIR *d = writer_dir_stream (dup (fd));
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  struct dirent *de;

  if (d == NULL)
    return;
  while ((errno = 0, de = readdir (d)) != NULL)
    if ((g_str_has_prefix (de->d_name, TEMP_PREFIX "manifest" TEMP_INFIX)
         || g_str_has_prefix (de->d_name, TEMP_PREFIX KIC_FINGERPRINT_FILE TEMP_INFIX)
         || g_str_has_prefix (de->d_name, TEMP_PREFIX KIC_STATE_FILE TEMP_INFIX)
         || g_str_has_prefix (de->d_name, TEMP_PREFIX "lock" TEMP_INFIX))
        && de->d_type == DT_REG)
      g_ptr_array_add (names, g_strdup (de->d_name));
  closedir (d);
  for (guint i = 0; i < names->len; i++)
    unlinkat (fd, g_ptr_array_index (names, i), 0);
}

/* The store, with the lock held: our copies and manifest are gone; it is
 * renamed away first, so that the lock is never removed from a store
 * that exists (a run that waited on it sees that it went, and starts
 * over), then removed when nothing but the lock is left. */
void
writer_remove_store (Writer *w)
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
      writer_remove_store_temps (fd);
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
