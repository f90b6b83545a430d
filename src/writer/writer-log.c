/* writer-log.c - /var/log/kde-icon-cache.log: every change a run made,
 * opened so that no user can point it elsewhere (writer-log.h) */
#include "writer-log.h"

#include "diag.h"
#include "trusted.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_DIR "/var/log"
#define LOG_DIR_RELATIVE "var/log" /* LOG_DIR below the root's descriptor */
#define LOG_NAME "kde-icon-cache.log"

struct _KicChangeLog {
  int rootfd;
  char *host_root;
  char *mode;
  int fd;            /* -1: not open (yet, or for good) */
  gboolean tried;    /* the first change came: opened, or refused */
  gboolean failed;   /* a write failed: said once, no more lines */
  gsize written;     /* bytes of this run's change lines */
  guint dropped;     /* change lines past KIC_LOG_RUN_MAX_BYTES, not written */
};

KicChangeLog *
kic_change_log_new (int rootfd, const char *host_root, const char *mode)
{
  KicChangeLog *log = g_new0 (KicChangeLog, 1);

  log->rootfd = rootfd;
  log->host_root = g_strdup (host_root ? host_root : "");
  log->mode = g_strdup (mode);
  log->fd = -1;
  return log;
}

/* The log file in DIRFD (trusted), created when absent: a regular file of
 * ours with one link, or -1 with *WHY.  O_NOFOLLOW: a link at the name is
 * refused, not followed; O_NONBLOCK: a FIFO there cannot stall the run
 * (S_ISREG then refuses it). */
static int
open_log_file (int dirfd, const char *host, char **why)
{
  int fd = openat (dirfd, LOG_NAME, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                   0644);
  struct stat st;

  if (fd < 0)
    {
      *why = errno == ELOOP ? g_strdup_printf ("'%s' is a symbolic link", host)
                            : g_strdup_printf ("cannot open '%s': %s", host, g_strerror (errno));
      return -1;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || st.st_nlink != 1
      || (st.st_uid != 0 && st.st_uid != geteuid ()))
    {
      *why = g_strdup_printf ("'%s' is not a regular file of root's with one link", host);
      close (fd);
      return -1;
    }
  /* back to blocking writes: a full disk must be an error, not EAGAIN */
  fcntl (fd, F_SETFL, O_WRONLY | O_APPEND);
  return fd;
}

/* The generations moved up by one, the oldest dropped, and the log
 * renamed kde-icon-cache.log.1 in DIRFD (trusted: only root names files
 * there); FALSE with *WHY when the log cannot be renamed. */
static gboolean
rotate (int dirfd, const char *host, char **why)
{
  for (int g = KIC_LOG_GENERATIONS - 1; g >= 1; g--)
    {
      g_autofree char *from = g_strdup_printf ("%s.%d", LOG_NAME, g);
      g_autofree char *to = g_strdup_printf ("%s.%d", LOG_NAME, g + 1);

      if (renameat (dirfd, from, dirfd, to) < 0 && errno != ENOENT)
        kic_warning ("cannot rename '%s.%d' to '%s': %s", host, g, to, g_strerror (errno));
    }
  if (renameat (dirfd, LOG_NAME, dirfd, LOG_NAME ".1") < 0)
    {
      *why = g_strdup_printf ("cannot rename '%s' to '%s': %s", host, LOG_NAME ".1", g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* Open the log at the first change: /var/log must be a trusted directory
 * of the root; a root without one (a test tree, a bare chroot) keeps no
 * log, said only with -v.  A log that cannot be written is said even
 * with --quiet (kic_warning_loud()): the periodic jobs run quiet, and a
 * change no log records is one the admin cannot trace. */
static void
open_log (KicChangeLog *log)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *host = g_strconcat (log->host_root, LOG_DIR "/" LOG_NAME, NULL);
  g_autofree char *why = NULL;
  struct stat st;
  int dirfd;

  log->tried = TRUE;
  if (log->rootfd < 0)
    return;
  dirfd = kic_trusted_dir_open (log->rootfd, log->host_root, LOG_DIR, &local);
  if (dirfd < 0)
    {
      if (fstatat (log->rootfd, LOG_DIR_RELATIVE, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
        kic_debug ("no %s%s: the changes are not logged", log->host_root, LOG_DIR);
      else
        kic_warning_loud ("%s: the changes are not logged in '%s'", local->message, host);
      return;
    }
  log->fd = open_log_file (dirfd, host, &why);
  /* the size bound: a log past it becomes the old one, and a new one is
   * started (as logrotate's "size" would, but without it) */
  if (log->fd >= 0 && fstat (log->fd, &st) == 0 && st.st_size >= KIC_LOG_MAX_BYTES)
    {
      close (log->fd);
      log->fd = -1;
      if (rotate (dirfd, host, &why))
        log->fd = open_log_file (dirfd, host, &why);
    }
  close (dirfd);
  if (log->fd < 0)
    kic_warning_loud ("%s: the changes are not logged", why);
}

/* TEXT as one field of a line: a tab, a newline or a carriage return in
 * it (a file name may hold any) would break the line's shape, and each
 * becomes a space.  transfer full */
static char *
field_text (const char *text)
{
  char *clean = g_strdup (text);

  for (char *p = clean; *p != '\0'; p++)
    if (*p == '\t' || *p == '\n' || *p == '\r')
      *p = ' ';
  return clean;
}

/* One line, written whole with one write(2) (O_APPEND); a change line
 * (CHANGE) past the run's bound only counted. */
static void
put_line (KicChangeLog *log, gboolean change, const char *action, const char *path, const char *detail)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  g_autofree char *clean_path = field_text (path);
  g_autofree char *clean_detail = field_text (detail ? detail : "");
  g_autofree char *line = g_strdup_printf ("%s\t%ld\t%s\t%s\t%s\n", when, (long) getpid (), action, clean_path,
                                           clean_detail);
  size_t length = strlen (line);
  ssize_t done;

  if (log->fd < 0 || log->failed)
    return;
  if (change && log->written + length > KIC_LOG_RUN_MAX_BYTES)
    {
      log->dropped++;
      return;
    }
  if (change)
    log->written += length;
  done = write (log->fd, line, length);
  if (done != (ssize_t) length)
    {
      kic_warning_loud ("cannot write '%s%s': %s: the rest of the changes are not logged", log->host_root,
                        LOG_DIR "/" LOG_NAME, done < 0 ? g_strerror (errno) : "short write");
      log->failed = TRUE;
    }
}

void
kic_change_log_add (KicChangeLog *log, const char *action, const char *path, const char *detail)
{
  if (!log->tried)
    {
      g_autofree char *version = g_strdup_printf ("kde-icon-cache %s", kic_version);

      open_log (log);
      put_line (log, FALSE, "start", log->mode, version);
    }
  put_line (log, TRUE, action, path, detail);
}

void
kic_change_log_finish (KicChangeLog *log, const char *result)
{
  if (log->fd < 0)
    return;
  if (log->dropped > 0)
    {
      g_autofree char *more = g_strdup_printf ("%u changes not logged (past %d KiB in one run)", log->dropped,
                                               KIC_LOG_RUN_MAX_BYTES / 1024);

      put_line (log, FALSE, "more", log->mode, more);
    }
  put_line (log, FALSE, "end", log->mode, result);
  if (!log->failed && fdatasync (log->fd) < 0)
    kic_warning_loud ("cannot write '%s%s': %s", log->host_root, LOG_DIR "/" LOG_NAME, g_strerror (errno));
  close (log->fd);
  log->fd = -1;
}

void
kic_change_log_free (KicChangeLog *log)
{
  if (log == NULL)
    return;
  if (log->fd >= 0)
    close (log->fd);
  g_free (log->host_root);
  g_free (log->mode);
  g_free (log);
}
