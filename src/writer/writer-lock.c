/* writer-lock.c - the store's lock: one run at a time, and only root's
 *
 * The lock is "<store>/lock", a regular file with one name, mode 0600,
 * owned by root (or by the user running the tool on a scratch tree of
 * their own, trusted.h), in a store directory that only its owner can
 * write: the store is opened with kic_trusted_dir_open() (from the root
 * down, no link, every directory owned by root and writable by nobody
 * else) and the lock relative to that descriptor.  flock() needs only a
 * descriptor, even a read-only one: a lock others may open is a lock any
 * user can hold for ever, and with it stall every rebuild, every dpkg
 * trigger and the prerm's --clean (issue 19, row 4).  So no other user can
 * open it, nor put another file in its place.
 *
 * The lock is opened O_PATH | O_NOFOLLOW and fstat'ed first, and opened
 * for real only when it is a regular file (kic_open_regular_at()): a
 * device node there (root inside a chroot may put one) is never opened
 * (row 10), a FIFO never waited on.
 *
 * An existing lock that is not one of ours -- not a regular file, a hard
 * link to another file, owned by another user -- is refused, never
 * changed, and the error names it: only root can have put it into a
 * directory only root can write.  A lock of ours with another mode (0644,
 * made by a version before issue 19) may be held open by any user since
 * before the upgrade: it is replaced, not chmod'ed (a chmod does not take
 * back a descriptor).  The replacement is made while holding the old
 * lock, when that can be had within --wait (an old run still working
 * keeps it), else without it (a user holding it delays that one run by
 * --wait, once): a new 0600 lock, flock'ed, is exchanged in for it.
 */
#include "writer-private.h"

#include "diag.h"
#include "safeopen.h"
#include "trusted.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_NAME "lock"
#define LOCK_MODE 0600

/* Is ST a lock we may use: a regular file with one name, owned by root or
 * by the user running the tool? */
static gboolean
lock_is_ours (const struct stat *st)
{
  return S_ISREG (st->st_mode) && st->st_nlink == 1 && (st->st_uid == 0 || st->st_uid == geteuid ());
}

static void
not_ours (GError **error, const char *host)
{
  g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
               "'%s' is not a lock file of ours (a regular file with one name, owned by root, mode 0600):"
               " left alone; remove it to go on",
               host);
}

/* A new lock NAME in STOREFD: mode 0600 whatever the umask.  -1 and errno
 * (EEXIST when something has that name). */
static int
create_lock (int storefd, const char *name)
{
  int fd = openat (storefd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, LOCK_MODE);

  if (fd >= 0 && fchmod (fd, LOCK_MODE) < 0)
    {
      int errsv = errno;

      close (fd);
      unlinkat (storefd, name, 0);
      errno = errsv;
      return -1;
    }
  return fd;
}

/* Open the lock in STOREFD (HOST names it): an existing one once its type
 * is known, else a new one.  *LEGACY is set when it is ours but others may
 * open it (another mode than 0600); ST gets its state. */
static int
open_lock (int storefd, const char *host, struct stat *st, gboolean *legacy, GError **error)
{
  int fd = -1;

  *legacy = FALSE;
  for (int tries = 0; tries < 10; tries++)
    {
      fd = kic_open_regular_at (storefd, LOCK_NAME, st);
      if (fd >= 0 || errno != ENOENT)
        break;
      fd = create_lock (storefd, LOCK_NAME);
      if (fd >= 0)
        {
          if (fstat (fd, st) < 0)
            {
              int errsv = errno;

              close (fd);
              return writer_set_errno_error (error, errsv, "stat lock", host), -1;
            }
          break;
        }
      if (errno != EEXIST)
        break;
    }
  if (fd < 0)
    {
      /* EINVAL: not a regular file (kic_open_regular_at()); ELOOP: a link */
      if (errno == EINVAL || errno == ELOOP)
        not_ours (error, host);
      else
        writer_set_errno_error (error, errno, "open lock", host);
      return -1;
    }
  if (!lock_is_ours (st))
    {
      close (fd);
      not_ours (error, host);
      return -1;
    }
  *legacy = (st->st_mode & 07777) != LOCK_MODE;
  return fd;
}

/* Is FD still the file at the lock's path?  A --clean that held the lock
 * before us may have removed it with the store (the store renamed away:
 * the path is looked up from the root again). */
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

/* Replace the lock OLD (in STOREFD, state OLD_ST), which others may have
 * open, by a new 0600 one: a flock'ed descriptor of it, or -1 (ERROR set
 * when it is an error; unset: someone else replaced it first, try again). */
static int
replace_lock (Writer *w, int storefd, const struct stat *old_st, const char *host, GError **error)
{
  g_autofree char *temp = writer_temp_name (w, LOCK_NAME);
  struct stat out;
  int fd = create_lock (storefd, temp);

  if (fd < 0)
    return writer_set_errno_error (error, errno, "create a new lock beside", host), -1;
  /* new: nobody else can hold it yet */
  if (flock (fd, LOCK_EX | LOCK_NB) < 0)
    {
      int errsv = errno;

      close (fd);
      unlinkat (storefd, temp, 0);
      return writer_set_errno_error (error, errsv, "lock", host), -1;
    }
  if (renameat2 (storefd, temp, storefd, LOCK_NAME, RENAME_EXCHANGE) == 0)
    {
      /* what came out must be the lock we found; else another run
       * replaced it first: theirs goes back (ours stays locked until
       * then, so no one takes it for the lock meanwhile) */
      if (fstatat (storefd, temp, &out, AT_SYMLINK_NOFOLLOW) == 0 && out.st_dev == old_st->st_dev
          && out.st_ino == old_st->st_ino)
        {
          unlinkat (storefd, temp, 0);
          kic_debug ("replaced the lock '%s' (mode %04o) by one only root can open", host,
                     (unsigned) (old_st->st_mode & 07777));
          return fd;
        }
      if (renameat2 (storefd, temp, storefd, LOCK_NAME, RENAME_EXCHANGE) < 0)
        kic_debug ("cannot put back the lock '%s': %s", host, g_strerror (errno));
      unlinkat (storefd, temp, 0);
      close (fd);
      return -1;
    }
  if (errno == ENOENT)
    {
      /* our new one is gone: another run's recovery took it for a killed
       * run's leftover (it holds the lock, so the old one is no more) */
      close (fd);
      return -1;
    }
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
    {
      int errsv = errno;

      unlinkat (storefd, temp, 0);
      close (fd);
      return writer_set_errno_error (error, errsv, "replace lock", host), -1;
    }
  /* a file system without RENAME_EXCHANGE: a plain rename (the directory
   * is root's alone; a race with another run of ours replacing it too is
   * caught by lock_is_current() for one of the two) */
  if (renameat (storefd, temp, storefd, LOCK_NAME) < 0)
    {
      int errsv = errno;

      unlinkat (storefd, temp, 0);
      close (fd);
      return writer_set_errno_error (error, errsv, "replace lock", host), -1;
    }
  return fd;
}

/* Wait for flock on FD until DEADLINE: TRUE when held; FALSE with *BUSY
 * when another holds it still, or with ERROR on an error. */
static gboolean
wait_for_flock (int fd, gint64 deadline, const char *host, gboolean *busy, GError **error)
{
  *busy = FALSE;
  while (flock (fd, LOCK_EX | LOCK_NB) < 0)
    {
      int errsv = errno;

      if (errsv != EWOULDBLOCK && errsv != EINTR)
        return writer_set_errno_error (error, errsv, "lock", host);
      if (g_get_monotonic_time () >= deadline)
        {
          *busy = TRUE;
          return FALSE;
        }
      g_usleep (100 * 1000);
    }
  return TRUE;
}

/* flock on "<store>/lock", waiting up to wait_seconds for another run. */
gboolean
writer_take_lock (Writer *w, GError **error)
{
  g_autofree char *lock = g_build_filename (w->options.store, LOCK_NAME, NULL);
  g_autofree char *host = writer_host_path (w, lock);
  gint64 deadline = g_get_monotonic_time () + (gint64) w->options.wait_seconds * G_USEC_PER_SEC;

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr (GError) local = NULL;
      gboolean legacy, busy, held;
      struct stat st;
      int storefd, fd;

      if (attempt == 100)
        {
          g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' keeps being removed: cannot lock the store", host);
          return FALSE;
        }

      if (!writer_make_dirs (w, w->options.store, w->made, error))
        return FALSE;
      storefd = kic_trusted_dir_open (w->rootfd, w->prefix, w->options.store, &local);
      if (storefd < 0)
        {
          g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
                       "cannot lock the store: %s (the lock must be in a directory only root can write)",
                       local->message);
          return FALSE;
        }
      fd = open_lock (storefd, host, &st, &legacy, error);
      if (fd < 0)
        {
          close (storefd);
          return FALSE;
        }
      held = wait_for_flock (fd, deadline, host, &busy, error);
      if (!held && !busy)
        {
          close (fd);
          close (storefd);
          return FALSE;
        }
      if (legacy)
        {
          /* held: an old run is done with it; busy: whoever holds it
           * since before the upgrade cannot keep us out any longer */
          g_autoptr (GError) failed = NULL;
          int fresh = replace_lock (w, storefd, &st, host, &failed);

          close (fd);
          fd = fresh;
          if (fd < 0)
            {
              close (storefd);
              if (failed != NULL)
                {
                  g_propagate_error (error, g_steal_pointer (&failed));
                  return FALSE;
                }
              continue; /* another run replaced it first: theirs, again */
            }
        }
      else if (busy)
        {
          close (fd);
          close (storefd);
          g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
                       "another kde-icon-cache holds '%s'; try again, or give --wait SECONDS", host);
          return FALSE;
        }
      close (storefd);
      if (lock_is_current (w, lock, fd))
        {
          w->lock = fd;
          return TRUE;
        }
      close (fd); /* the lock we waited for went with its store: again */
    }
}
