/* writer-fs.c - the writer's file operations, relative to directory
 * descriptors
 *
 * Every change is made relative to a directory file descriptor opened with
 * O_NOFOLLOW on the real path (links resolved inside the root by the
 * index), so nothing is written through a link.  Files and links get fixed
 * modes whatever the caller's umask.  Everything read is opened O_NONBLOCK
 * and checked to be a regular file, so a FIFO cannot hang a run that holds
 * the lock.
 */
#include "writer-private.h"

#include "diag.h"
#include "hash.h"
#include "path.h"
#include "readfd.h"
#include "safeopen.h"
#include "sha256.h"
#include "trusted.h"

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

const char WRITER_LEFT_GONE[] = "";
const char WRITER_LEFT_FILE[] = "";

/* The run changed NAME in the directory HANDLE and left WHAT there: the
 * target of a link, WRITER_LEFT_GONE, or WRITER_LEFT_FILE. */
void
writer_dir_left (DirHandle *handle, const char *name, const char *what)
{
  if (handle->left == NULL)
    handle->left = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  handle->changed = TRUE;
  /* (the table holds const strings: the two markers, interned targets) */
  g_hash_table_replace (handle->left, g_strdup (name),
                        (gpointer) (what == WRITER_LEFT_GONE || what == WRITER_LEFT_FILE ? what
                                                                                         : g_intern_string (what)));
}

/* Someone else changed the directory HANDLE while the run ran (a name
 * appeared where a link was to go, or went where one was): its time must
 * not be put back. */
void
writer_dir_foreign (DirHandle *handle)
{
  handle->changed = TRUE;
  handle->foreign = TRUE;
}

/* Is NAME in the directory open as FD a link to TARGET? */
static gboolean
link_is (int fd, const char *name, const char *target)
{
  g_autofree char *have = writer_read_link (fd, name);

  return have != NULL && strcmp (have, target) == 0;
}

/* Is the entry NAME of the directory HANDLE, of kind KIND now, still what
 * the listing's entry WAS says: the same kind, and for a link a lookup
 * followed, the same target (joined to the directory and cleaned, as
 * the index keeps it)? */
static gboolean
entry_as_read (DirHandle *handle, const char *name, char kind, const KicFsListingEntry *was)
{
  g_autofree char *target = NULL;
  g_autofree char *clean = NULL;

  if (kind != was->kind)
    return FALSE;
  if (was->kind != 'l' || was->target == NULL)
    return TRUE;
  target = writer_read_link (handle->fd, name);
  if (target == NULL || target[0] == '\0')
    return FALSE;
  clean = kic_fs_link_target (handle->path, target);
  return strcmp (clean, was->target) == 0;
}

/* Is the directory HANDLE (open) as this run's reading found it, but for
 * what the run itself changed in it?  Its entries now are read and
 * compared with the index's listing, when the run read one: a package
 * that added, removed or replaced a name meanwhile shows there (as a name
 * that came or went, or another kind or link target under a name),
 * whatever the times say (two changes in one tick of the clock have one
 * time).  A listing taken from the state leaves out our links (state.c):
 * a name it does not have is ours when the last manifest lists a link of
 * ours there and the link is still that one.  A directory the run did not
 * read hides nothing from the fingerprint. */
static gboolean
dir_as_read (Writer *w, DirHandle *handle)
{
  g_autoptr (GPtrArray) read = NULL;
  g_autoptr (GHashTable) listed = NULL;
  g_autoptr (GHashTable) seen = NULL;
  struct dirent *de;
  gboolean same = TRUE;
  DIR *d;
  int fd;

  if (handle->foreign)
    return FALSE;
  /* the store is no input of the fingerprint, and nobody else writes there */
  if (strcmp (handle->path, w->options.store) == 0 || g_str_has_prefix (handle->path, w->files))
    return TRUE;
  read = kic_fs_index_listing_read (w->options.index, handle->path);
  if (read == NULL)
    return TRUE;
  listed = g_hash_table_new (kic_str_hash, g_str_equal);
  for (guint i = 0; i < read->len; i++)
    {
      const KicFsListingEntry *e = g_ptr_array_index (read, i);

      g_hash_table_insert (listed, e->name, (gpointer) e);
    }
  fd = openat (handle->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || (d = fdopendir (fd)) == NULL)
    {
      if (fd >= 0)
        close (fd);
      kic_debug ("'%s': cannot read it again (%s): its time is left as it is", handle->path, g_strerror (errno));
      return FALSE;
    }
  seen = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  while (same)
    {
      const KicFsListingEntry *was;
      const char *left;

      errno = 0;
      if ((de = readdir (d)) == NULL)
        {
          same = errno == 0;
          break;
        }
      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      g_hash_table_add (seen, g_strdup (de->d_name));
      if (handle->left != NULL && (left = g_hash_table_lookup (handle->left, de->d_name)) != NULL)
        same = left != WRITER_LEFT_GONE
               && (left == WRITER_LEFT_FILE || link_is (handle->fd, de->d_name, left));
      else if ((was = g_hash_table_lookup (listed, de->d_name)) != NULL)
        same = entry_as_read (handle, de->d_name, kic_fs_kind_letter (kic_fs_entry_type (handle->fd, de)), was);
      else
        {
          g_autofree char *path = g_build_filename (handle->path, de->d_name, NULL);
          const KicManifestEntry *ours = g_hash_table_lookup (w->old->entries, path);

          same = ours != NULL && ours->kind == KIC_ENTRY_LINK
                 && link_is (handle->fd, de->d_name, ours->target);
        }
    }
  closedir (d);
  /* and nothing the listing has, or the run left, went */
  for (guint i = 0; same && i < read->len; i++)
    {
      const KicFsListingEntry *e = g_ptr_array_index (read, i);

      same = g_hash_table_contains (seen, e->name)
             || (handle->left != NULL && g_hash_table_lookup (handle->left, e->name) == WRITER_LEFT_GONE);
    }
  if (same && handle->left != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, handle->left);
      while (same && g_hash_table_iter_next (&iter, &key, &value))
        same = value == WRITER_LEFT_GONE || g_hash_table_contains (seen, key);
    }
  if (!same)
    kic_debug ("'%s' changed while kde-icon-cache ran: its time is left as it is", handle->path);
  return same;
}

/* Put back the time of the directory HANDLE (open) when the run changed
 * it: GTK caches and KDE 4 compare it.  Unless someone else changed it
 * too (dir_as_read()): the fingerprint stamps a directory only root may
 * write by its modification time, and the time put back would hide that
 * change from the next run, and a package's new icon from GTK.  The check
 * comes after the time is put back: a change before it shows in the
 * names, one after moves the time again. */
gboolean
writer_restore_time (Writer *w, DirHandle *handle, GError **error)
{
  static const struct timespec now[2] = { { 0, UTIME_OMIT }, { 0, UTIME_NOW } };
  g_autofree char *host = NULL;

  if (!handle->changed || handle->fd < 0)
    return TRUE;
  handle->changed = FALSE;
  if (futimens (handle->fd, handle->times) != 0)
    {
      host = writer_host_path (w, handle->path);
      return writer_set_errno_error (error, errno, "put back the modification time of", host);
    }
  if (dir_as_read (w, handle))
    return TRUE;
  /* another process changed it during the run: its time must move */
  if (futimens (handle->fd, now) != 0)
    {
      host = writer_host_path (w, handle->path);
      return writer_set_errno_error (error, errno, "give the present time (another process changed it during the run) to",
                                     host);
    }
  return TRUE;
}

/* Close HANDLE's descriptor, its time put back first; an error there is
 * kept for the end of the run (w->deferred). */
static void
close_dir (Writer *w, DirHandle *handle)
{
  g_autoptr (GError) local = NULL;

  if (handle->fd < 0)
    return;
  if (!writer_restore_time (w, handle, &local) && w->deferred == NULL)
    w->deferred = g_steal_pointer (&local);
  close (handle->fd);
  handle->fd = -1;
  g_queue_delete_link (&w->open, handle->open_link);
  handle->open_link = NULL;
}

void
writer_dir_handle_free (gpointer data)
{
  DirHandle *handle = data;

  /* (the writer closed it: kic_writer_free() closes every one first) */
  if (handle->fd >= 0)
    close (handle->fd);
  if (handle->left != NULL)
    g_hash_table_unref (handle->left);
  g_free (handle->path);
  g_free (handle);
}

/* Close every directory still open (kic_writer_free()). */
void
writer_close_all_dirs (Writer *w)
{
  while (w->open.head != NULL)
    close_dir (w, w->open.head->data);
}

gboolean
writer_set_errno_error (GError **error, int errsv, const char *what, const char *path)
{
  /* (a quota is a full disk for this run: writer_error_is_global()) */
  g_set_error (error, G_FILE_ERROR, errsv == EDQUOT ? G_FILE_ERROR_NOSPC : g_file_error_from_errno (errsv),
               "cannot %s '%s': %s", what, path, g_strerror (errsv));
  return FALSE;
}

gboolean
writer_error_is_global (const GError *error)
{
  static const GFileError global[] = {
    G_FILE_ERROR_NOSPC, G_FILE_ERROR_ROFS, G_FILE_ERROR_IO, G_FILE_ERROR_NOMEM, G_FILE_ERROR_MFILE,
    G_FILE_ERROR_NFILE,
  };

  for (guint i = 0; error != NULL && error->domain == G_FILE_ERROR && i < G_N_ELEMENTS (global); i++)
    if (error->code == (int) global[i])
      return TRUE;
  return FALSE;
}

/* Does an error of a call on one name stop the whole run?  A full or
 * read-only file system, an I/O error, no memory: every other name would
 * fail the same way, and the run must stop with the previous state.
 * Anything else (a name in the way, a directory not ours) is that name's:
 * it is skipped with a warning and the run goes on (issue 19, row 9). */
gboolean
writer_errno_is_global (int errsv)
{
  return errsv == ENOSPC || errsv == EDQUOT || errsv == EROFS || errsv == EIO || errsv == ENOMEM
         || errsv == EMFILE || errsv == ENFILE;
}

char *
writer_host_path (const Writer *w, const char *path)
{
  return g_strconcat (w->prefix, path, NULL);
}

/* mkdir -p of DIR inside the root, each new directory mode 0755; the
 * directories created are added to MADE (may be NULL). */
gboolean
writer_make_dirs (Writer *w, const char *dir, GPtrArray *made, GError **error)
{
  if (kic_mkdirs_in_root (w->rootfd, dir, made) < 0)
    {
      int errsv = errno;
      g_autofree char *host = writer_host_path (w, dir);
      g_autofree char *obstacle = kic_mkdirs_obstacle (w->rootfd, dir);

      if (obstacle != NULL)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "cannot use directory '%s': %s inside the root (it must be a real directory)",
                       host, obstacle);
          return FALSE;
        }
      return writer_set_errno_error (error, errsv, "create directory", host);
    }
  return TRUE;
}

/* DIR (HOST names it) opened by the trusted walk (trusted.h): one step
 * below its parent, opened trusted the same way (so kept open among the
 * writer's directories: the link directories of a run share their
 * parents), which is the walk from the root with the steps above taken
 * once.  Where that fails, the walk from the root again, for its message
 * (which names the first component refused). */
static int
trusted_open (Writer *w, const char *dir, const char *host, GError **error)
{
  if (strcmp (dir, "/") != 0 && kic_path_is_clean (dir))
    {
      g_autofree char *parent = g_path_get_dirname (dir);
      g_autofree char *name = g_path_get_basename (dir);
      DirHandle *up = writer_open_dir (w, parent, OPEN_TRUSTED, NULL);
      int fd = up != NULL ? kic_trusted_dir_open_at (up->fd, host, name, NULL) : -1;

      if (fd >= 0)
        return fd;
    }
  return kic_trusted_dir_open (w->rootfd, w->prefix, dir, error);
}

/* The directory DIR (a path inside the root with no link in it), open:
 * with OPEN_TRUSTED a directory root may plant in (kic_trusted_dir_open()
 * on the path as it is now).  At most MAX_OPEN_DIRS are open at once: the
 * least recently used is closed, its time put back; opened again, it must
 * still be the same directory.  A directory a killed run changed gets the
 * time its journal recorded. */
DirHandle *
writer_open_dir (Writer *w, const char *dir, int flags, GError **error)
{
  DirHandle *handle = g_hash_table_lookup (w->dirs, dir);
  g_autofree char *host = NULL;
  gboolean trusted = (flags & OPEN_TRUSTED) != 0;
  gint64 sec;
  glong nsec;
  struct stat st;
  int fd;

  if (handle != NULL && handle->fd >= 0 && (handle->trusted || !trusted))
    {
      /* the most recently used first */
      g_queue_unlink (&w->open, handle->open_link);
      g_queue_push_head_link (&w->open, handle->open_link);
      return handle;
    }
  if ((flags & OPEN_CREATE) && !writer_make_dirs (w, dir, NULL, error))
    return NULL;
  host = writer_host_path (w, dir);
  if (trusted)
    fd = trusted_open (w, dir, host, error);
  else
    {
      /* DIR is a real path: a link anywhere in it now is refused */
      fd = kic_open_in_root (w->rootfd, dir, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd < 0)
        writer_set_errno_error (error, errno, "open directory", host);
    }
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) < 0)
    {
      writer_set_errno_error (error, errno, "open directory", host);
      close (fd);
      return NULL;
    }
  if (handle == NULL)
    {
      handle = g_new0 (DirHandle, 1);
      handle->path = g_strdup (dir);
      handle->fd = -1;
      handle->dev = st.st_dev;
      handle->ino = st.st_ino;
      handle->times[0] = st.st_atim;
      handle->times[1] = st.st_mtim;
      if (!w->options.dry_run && w->old->journal && kic_manifest_get_mtime (w->old, dir, &sec, &nsec))
        {
          handle->times[1].tv_sec = (time_t) sec;
          handle->times[1].tv_nsec = nsec;
          handle->changed = TRUE;
        }
      g_hash_table_insert (w->dirs, g_strdup (dir), handle);
    }
  else if (st.st_dev != handle->dev || st.st_ino != handle->ino)
    {
      close (fd);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' was replaced while kde-icon-cache ran", host);
      return NULL;
    }
  if (handle->fd >= 0)
    {
      /* open already, now trusted too: the same directory (checked) */
      close (handle->fd);
      handle->fd = fd;
      handle->trusted = TRUE;
      g_queue_unlink (&w->open, handle->open_link);
      g_queue_push_head_link (&w->open, handle->open_link);
      return handle;
    }
  handle->fd = fd;
  handle->trusted = trusted;
  g_queue_push_head (&w->open, handle);
  handle->open_link = w->open.head;
  while (w->open.length > MAX_OPEN_DIRS)
    close_dir (w, w->open.tail->data);
  return handle;
}

/* The target of the link NAME in DIR; NULL when there is nothing there,
 * "" when there is something that is not a link. */
char *
writer_read_link (int dirfd, const char *name)
{
  char buf[4096];
  struct stat st;
  ssize_t n;

  if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return NULL;
  if (!S_ISLNK (st.st_mode))
    return g_strdup ("");
  n = readlinkat (dirfd, name, buf, sizeof buf - 1);
  if (n < 0)
    return g_strdup ("");
  buf[n] = '\0';
  return g_strdup (buf);
}

char *
writer_sha256_of_fd (int fd)
{
  KicSha256 sum;
  char buf[65536];
  ssize_t n;

  kic_sha256_init (&sum);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    kic_sha256_update (&sum, buf, n);
  if (n < 0)
    return NULL;
  return kic_sha256_dup_hex (&sum);
}

/* The SHA-256 of the regular file NAME in DIRFD; NULL when it is not one
 * (its type is known before it is opened: kic_open_regular_at()). */
char *
writer_sha256_at (int dirfd, const char *name)
{
  struct stat st;
  int fd = kic_open_regular_at (dirfd, name, &st);
  char *sum;

  if (fd < 0)
    return NULL;
  sum = writer_sha256_of_fd (fd);
  close (fd);
  return sum;
}

/* A new run's token for its temporary names: letters and digits. */
char *
writer_new_temp_token (void)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  char token[TEMP_TOKEN_LEN + 1];

  for (guint i = 0; i < TEMP_TOKEN_LEN; i++)
    token[i] = alphabet[g_random_int_range (0, sizeof alphabet - 1)];
  token[TEMP_TOKEN_LEN] = '\0';
  return g_strdup (token);
}

/* The temporary name of NAME for this run: ".NAME.kic-TOKEN".  The token
 * is new for every run and is in its journal: a name there that the run
 * did not make (a package's file, a user's) is never removed or taken
 * over (issue 19, row 9); the next run knows what a killed one left. */
char *
writer_temp_name (const Writer *w, const char *name)
{
  return g_strconcat (TEMP_PREFIX, name, TEMP_INFIX, w->token, NULL);
}

/* Can PATH get a temporary name beside it?  A name that cannot is left
 * out, with one warning (a real run would fail on it every time). */
gboolean
writer_name_fits (Writer *w, const char *path)
{
  g_autofree char *name = g_path_get_basename (path);

  if (kic_manifest_name_fits (name))
    return TRUE;
  if (!g_hash_table_contains (w->too_long, name))
    {
      kic_warning ("'%s': the name is too long to be written safely (%zu bytes): not cached",
                   path, strlen (name));
      g_hash_table_add (w->too_long, g_strdup (name));
    }
  return FALSE;
}

/* Write DATA as NAME in DIR: a temporary file of this run's (created
 * O_EXCL: anything already at that name is left alone), mode MODE,
 * rename; with DURABLE, fsync before the rename and of the directory
 * after it.  The store copies are written without (one syncfs() of the
 * store's file system makes them all durable at once before any link to
 * them is made: writer_sync_store()); the manifest and the fingerprint with.
 * With MTIME the file gets that modification time (a copy keeps its
 * source's, so that gtk-update-icon-cache, which follows links, does not
 * see a newer file in a theme). */
gboolean
writer_write_file_at (Writer *w, DirHandle *dir, const char *name, const char *data, gsize length,
               const struct timespec *mtime, mode_t mode, gboolean durable, const char *what,
               GError **error)
{
  g_autofree char *tmp = writer_temp_name (w, name);
  gsize done = 0;
  int fd;

  fd = openat (dir->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return writer_set_errno_error (error, errno, "create", what);
  writer_dir_left (dir, tmp, WRITER_LEFT_GONE);
  while (done < length)
    {
      ssize_t n = write (fd, data + done, length - done);

      if (n < 0)
        {
          int errsv = errno;

          close (fd);
          unlinkat (dir->fd, tmp, 0);
          return writer_set_errno_error (error, errsv, "write", what);
        }
      done += n;
    }
  if (mtime != NULL)
    {
      struct timespec times[2] = { { 0, UTIME_OMIT }, *mtime };

      if (futimens (fd, times) < 0)
        {
          int errsv = errno;

          close (fd);
          unlinkat (dir->fd, tmp, 0);
          return writer_set_errno_error (error, errsv, "set the modification time of", what);
        }
    }
  if (fchmod (fd, mode) < 0 || (durable && fsync (fd) < 0) || close (fd) < 0)
    {
      int errsv = errno;

      unlinkat (dir->fd, tmp, 0);
      return writer_set_errno_error (error, errsv, "write", what);
    }
  if (renameat (dir->fd, tmp, dir->fd, name) < 0)
    {
      int errsv = errno;

      unlinkat (dir->fd, tmp, 0);
      return writer_set_errno_error (error, errsv, "rename into place", what);
    }
  writer_dir_left (dir, name, WRITER_LEFT_FILE);
  /* the rename itself must reach the disk before the manifest says so */
  if (durable && fsync (dir->fd) < 0)
    {
      g_autofree char *host = writer_host_path (w, dir->path);

      return writer_set_errno_error (error, errno, "sync directory", host);
    }
  return TRUE;
}

/* Open PATH (inside the root, no links) for reading: a regular file, or
 * an error that says what it is instead (its type is known before it is
 * opened: a device node is never opened, kic_open_regular_in_root()). */
static int
open_regular (Writer *w, const char *path, GError **error)
{
  g_autofree char *host = writer_host_path (w, path);
  struct stat st;
  int fd = kic_open_regular_in_root (w->rootfd, path, &st);

  if (fd < 0 && errno == EINVAL)
    g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' is not a regular file", host);
  else if (fd < 0)
    writer_set_errno_error (error, errno, "open", host);
  return fd;
}

/* Read PATH (inside the root, no links, a regular file) into *DATA. */
gboolean
writer_read_in_root (Writer *w, const char *path, char **data, gsize *length, GError **error)
{
  g_autofree char *host = writer_host_path (w, path);
  int fd = open_regular (w, path, error);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = kic_read_fd (fd, host, data, length, error);
  close (fd);
  return ok;
}

/* Does PATH (inside the root, no links, a regular file) hold exactly the
 * LENGTH bytes of TEXT?  A file of another size is not read. */
gboolean
writer_file_holds (Writer *w, const char *path, const char *text, gsize length)
{
  g_autofree char *host = writer_host_path (w, path);
  g_autofree char *data = NULL;
  struct stat st;
  gsize have = 0;
  int fd = kic_open_regular_in_root (w->rootfd, path, &st);
  gboolean same;

  if (fd < 0)
    return FALSE;
  same = (guint64) st.st_size == length && kic_read_fd_max (fd, host, length, st.st_size, &data, &have, NULL)
         && have == length && memcmp (data, text, length) == 0;
  close (fd);
  return same;
}

/* After readdir() of D (HOST) returned NULL: was that the end, or an
 * error (a listing cut short must not be taken as complete)?  Closes D. */
gboolean
writer_read_dir_end (DIR *d, const char *host, GError **error)
{
  int errsv = errno;

  closedir (d);
  if (errsv != 0)
    return writer_set_errno_error (error, errsv, "read directory", host);
  return TRUE;
}

/* A stream over the directory FD, which it takes over (closing it when
 * that fails); NULL when FD is -1 or not a directory. */
DIR *
writer_dir_stream (int fd)
{
  DIR *d = fd >= 0 ? fdopendir (fd) : NULL;

  if (d == NULL && fd >= 0)
    close (fd);
  return d;
}
