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

void
restore_time (DirHandle *handle)
{
  /* keep the directory's time: GTK caches and KDE 4 compare it */
  if (handle->changed)
    futimens (handle->fd, handle->times);
  handle->changed = FALSE;
}

void
dir_handle_free (gpointer data)
{
  DirHandle *handle = data;

  restore_time (handle);
  close (handle->fd);
  g_free (handle);
}

gboolean
set_errno_error (GError **error, int errsv, const char *what, const char *path)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot %s '%s': %s",
               what, path, g_strerror (errsv));
  return FALSE;
}

char *
host_path (const Writer *w, const char *path)
{
  return g_strconcat (w->prefix, path, NULL);
}

/* mkdir -p of DIR inside the root, each new directory mode 0755; the
 * directories created are added to MADE (may be NULL). */
gboolean
make_dirs (Writer *w, const char *dir, GPtrArray *made, GError **error)
{
  if (kic_mkdirs_in_root (w->rootfd, dir, made) < 0)
    {
      int errsv = errno;
      g_autofree char *host = host_path (w, dir);
      g_autofree char *obstacle = kic_mkdirs_obstacle (w->rootfd, dir);

      if (obstacle != NULL)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "cannot use directory '%s': %s inside the root (it must be a real directory)",
                       host, obstacle);
          return FALSE;
        }
      return set_errno_error (error, errsv, "create directory", host);
    }
  return TRUE;
}

/* The directory DIR (a real path inside the root), opened once.  A
 * directory a killed run changed gets the time its journal recorded. */
DirHandle *
open_dir (Writer *w, const char *dir, gboolean create, GError **error)
{
  DirHandle *handle = g_hash_table_lookup (w->dirs, dir);
  g_autofree char *host = NULL;
  gint64 sec;
  glong nsec;
  struct stat st;
  int fd;

  if (handle != NULL)
    return handle;
  if (create && !make_dirs (w, dir, NULL, error))
    return NULL;
  host = host_path (w, dir);
  /* DIR is a real path: a link anywhere in it now is refused */
  fd = kic_open_in_root (w->rootfd, dir, O_RDONLY | O_DIRECTORY, TRUE);
  if (fd < 0 || fstat (fd, &st) < 0)
    {
      set_errno_error (error, errno, "open directory", host);
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  handle = g_new0 (DirHandle, 1);
  handle->fd = fd;
  handle->times[0] = st.st_atim;
  handle->times[1] = st.st_mtim;
  if (!w->options.dry_run && w->old->journal && kic_manifest_get_mtime (w->old, dir, &sec, &nsec))
    {
      handle->times[1].tv_sec = (time_t) sec;
      handle->times[1].tv_nsec = nsec;
      handle->changed = TRUE;
    }
  g_hash_table_insert (w->dirs, g_strdup (dir), handle);
  return handle;
}

/* The target of the link NAME in DIR; NULL when there is nothing there,
 * "" when there is something that is not a link. */
char *
read_link (int dirfd, const char *name)
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
sha256_of_fd (int fd)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  char buf[65536];
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_checksum_update (sum, (const guchar *) buf, n);
  if (n < 0)
    return NULL;
  return g_strdup (g_checksum_get_string (sum));
}

/* Open NAME in DIRFD for reading when it is a regular file (not through a
 * link, without waiting on a FIFO); -1 otherwise. */
static int
open_regular_at (int dirfd, const char *name)
{
  int fd = openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;

  if (fd >= 0 && (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode)))
    {
      close (fd);
      errno = EINVAL;
      return -1;
    }
  return fd;
}

/* The SHA-256 of the regular file NAME in DIRFD; NULL when it is not one. */
char *
sha256_at (int dirfd, const char *name)
{
  int fd = open_regular_at (dirfd, name);
  char *sum;

  if (fd < 0)
    return NULL;
  sum = sha256_of_fd (fd);
  close (fd);
  return sum;
}

/* The temporary name of NAME: fixed, so that what a killed run left is
 * known (the lock keeps two runs from sharing it). */
char *
temp_name (const char *name)
{
  return g_strconcat (TEMP_PREFIX, name, TEMP_SUFFIX, NULL);
}

/* Can PATH get a temporary name beside it?  A name that cannot is left
 * out, with one warning (a real run would fail on it every time). */
gboolean
name_fits (Writer *w, const char *path)
{
  g_autofree char *name = g_path_get_basename (path);

  if (strlen (TEMP_PREFIX) + strlen (name) + strlen (TEMP_SUFFIX) <= NAME_MAX)
    return TRUE;
  if (!g_hash_table_contains (w->too_long, name))
    {
      kic_warning ("'%s': the name is too long to be written safely (%zu bytes): not cached",
                   path, strlen (name));
      g_hash_table_add (w->too_long, g_strdup (name));
    }
  return FALSE;
}

/* Write DATA as NAME in DIR: a temporary file, mode 0644, rename; with
 * DURABLE, fsync before the rename and of the directory after it.  The
 * store copies are written without (one syncfs() of the store's file
 * system makes them all durable at once before any link to them is
 * made: sync_store()); the manifest and the fingerprint with.  With
 * MTIME the file gets that modification time (a copy keeps its source's,
 * so that gtk-update-icon-cache, which follows links, does not see a
 * newer file in a theme). */
gboolean
write_file_at (DirHandle *dir, const char *name, const char *data, gsize length,
               const struct timespec *mtime, gboolean durable, const char *what, GError **error)
{
  g_autofree char *tmp = temp_name (name);
  gsize done = 0;
  int fd;

  unlinkat (dir->fd, tmp, 0);
  fd = openat (dir->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return set_errno_error (error, errno, "create", what);
  while (done < length)
    {
      ssize_t n = write (fd, data + done, length - done);

      if (n < 0)
        {
          int errsv = errno;

          close (fd);
          unlinkat (dir->fd, tmp, 0);
          return set_errno_error (error, errsv, "write", what);
        }
      done += n;
    }
  if (mtime != NULL)
    {
      struct timespec times[2] = { { 0, UTIME_OMIT }, *mtime };

      futimens (fd, times);
    }
  if (fchmod (fd, 0644) < 0 || (durable && fsync (fd) < 0) || close (fd) < 0)
    {
      int errsv = errno;

      unlinkat (dir->fd, tmp, 0);
      return set_errno_error (error, errsv, "write", what);
    }
  if (renameat (dir->fd, tmp, dir->fd, name) < 0)
    {
      int errsv = errno;

      unlinkat (dir->fd, tmp, 0);
      return set_errno_error (error, errsv, "rename into place", what);
    }
  if (durable)
    fsync (dir->fd);
  dir->changed = TRUE;
  return TRUE;
}

/* Open PATH (inside the root, no links) for reading: a regular file, or
 * an error that says what it is instead. */
static int
open_regular (Writer *w, const char *path, GError **error)
{
  g_autofree char *host = host_path (w, path);
  int fd = kic_open_in_root (w->rootfd, path, O_RDONLY | O_NONBLOCK, TRUE);
  struct stat st;

  if (fd < 0)
    {
      set_errno_error (error, errno, "open", host);
      return -1;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' is not a regular file", host);
      return -1;
    }
  return fd;
}

/* Read PATH (inside the root, no links, a regular file) into *DATA. */
gboolean
read_in_root (Writer *w, const char *path, char **data, gsize *length, GError **error)
{
  g_autofree char *host = host_path (w, path);
  int fd = open_regular (w, path, error);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = kic_read_fd (fd, host, data, length, error);
  close (fd);
  return ok;
}

/* A stream over the directory FD, which it takes over (closing it when
 * that fails); NULL when FD is -1 or not a directory. */
DIR *
dir_stream (int fd)
{
  DIR *d = fd >= 0 ? fdopendir (fd) : NULL;

  if (d == NULL && fd >= 0)
    close (fd);
  return d;
}
