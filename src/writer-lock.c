/* writer-lock.c - the store's lock: one run at a time
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

/* Open the lock file LOCK: an existing one as it is, a new one created
 * (only then is its mode set: a lock that is a hard link to another file
 * must not change that file).  It must be a regular file with one name. */
static int
open_lock (Writer *w, const char *lock, GError **error)
{
  g_autofree char *host = host_path (w, lock);
  struct stat st;
  int fd;

  for (int tries = 0; tries < 10; tries++)
    {
      fd = kic_open_in_root (w->rootfd, lock, O_RDWR | O_NONBLOCK, TRUE);
      if (fd >= 0 || errno != ENOENT)
        break;
      fd = kic_open_in_root (w->rootfd, lock, O_RDWR | O_NONBLOCK | O_CREAT | O_EXCL, TRUE);
      if (fd >= 0)
        {
          if (fchmod (fd, 0644) < 0)
            kic_debug ("cannot set the mode of '%s': %s", host, g_strerror (errno));
          break;
        }
      if (errno != EEXIST)
        break;
    }
  if (fd < 0)
    {
      set_errno_error (error, errno, "open lock", host);
      return -1;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || st.st_nlink != 1)
    {
      close (fd);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
                   "'%s' is not a lock file of ours (a regular file with one name): left alone", host);
      return -1;
    }
  return fd;
}

/* Is FD still the file at LOCK?  A --clean that held the lock before us
 * may have removed it with the store. */
static gboolean
lock_is_current (Writer *w, const char *lock, int fd)
{
  int now = kic_open_in_root (w->rootfd, lock, O_PATH, TRUE);
  struct stat a, b;
  gboolean same;

  if (now < 0)
    return FALSE;
  same = fstat (fd, &a) == 0 && fstat (now, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
         && a.st_nlink > 0;
  close (now);
  return same;
}

/* flock on "<store>/lock", waiting up to wait_seconds for another run. */
gboolean
take_lock (Writer *w, GError **error)
{
  g_autofree char *lock = g_build_filename (w->options.store, "lock", NULL);
  g_autofree char *host = host_path (w, lock);
  gint64 deadline = g_get_monotonic_time () + (gint64) w->options.wait_seconds * G_USEC_PER_SEC;

  for (guint attempt = 0;; attempt++)
    {
      int fd;

      if (attempt == 100)
        {
          g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' keeps being removed: cannot lock the store", host);
          return FALSE;
        }

      if (!make_dirs (w, w->options.store, w->made, error))
        return FALSE;
      fd = open_lock (w, lock, error);
      if (fd < 0)
        return FALSE;
      while (flock (fd, LOCK_EX | LOCK_NB) < 0)
        {
          int errsv = errno;

          if (errsv != EWOULDBLOCK && errsv != EINTR)
            {
              close (fd);
              return set_errno_error (error, errsv, "lock", host);
            }
          if (g_get_monotonic_time () >= deadline)
            {
              close (fd);
              g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
                           "another kde-icon-cache holds '%s'; try again, or give --wait SECONDS", host);
              return FALSE;
            }
          g_usleep (100 * 1000);
        }
      if (lock_is_current (w, lock, fd))
        {
          w->lock = fd;
          return TRUE;
        }
      close (fd); /* the lock we waited for went with its store: again */
    }
}
