/* safeopen.c - openat2(RESOLVE_IN_ROOT), or a careful walk */
#include "safeopen.h"
#include "hash.h"
#include "readfd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

uid_t
kic_run_euid (void)
{
  static gsize once = 0;
  static uid_t euid;

  if (g_once_init_enter (&once))
    {
      euid = geteuid ();
      g_once_init_leave (&once, 1);
    }
  return euid;
}

gboolean
kic_others_may_write (guint32 uid, guint32 mode)
{
  return (uid != 0 && uid != kic_run_euid ()) || (mode & (S_IWGRP | S_IWOTH)) != 0;
}

int
kic_root_open (const char *root)
{
  return open (root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Without openat2: one component at a time, no links at all. */
static int
walk (int rootfd, const char *path, int flags)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  guint n = g_strv_length (parts);
  int fd = dup (rootfd);

  for (guint i = 0; fd >= 0 && i < n; i++)
    {
      const char *c = parts[i];
      gboolean last = TRUE;
      int next;

      if (c[0] == '\0' || strcmp (c, ".") == 0)
        continue;
      if (strcmp (c, "..") == 0)
        {
          close (fd);
          errno = EACCES;
          return -1;
        }
      for (guint j = i + 1; j < n; j++)
        if (parts[j][0] != '\0' && strcmp (parts[j], ".") != 0)
          last = FALSE;
      if (last)
        next = openat (fd, c, flags | O_NOFOLLOW | O_CLOEXEC, 0644);
      else
        next = openat (fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      close (fd);
      fd = next;
    }
  return fd;
}

int
kic_open_in_root (int rootfd, const char *path, int flags, gboolean no_links)
{
  struct open_how how;
  const char *rel = path;
  int fd;

  while (*rel == '/')
    rel++;
  if (*rel == '\0')
    rel = ".";
  memset (&how, 0, sizeof how);
  how.flags = (unsigned) (flags | O_CLOEXEC | (no_links ? O_NOFOLLOW : 0));
  how.mode = (flags & O_CREAT) ? 0644 : 0;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | (no_links ? RESOLVE_NO_SYMLINKS : 0);
  fd = (int) syscall (SYS_openat2, rootfd, rel, &how, sizeof how);
  if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
    return fd;
  return walk (rootfd, path, flags);
}

int
kic_reopen_regular (int pathfd, struct stat *st)
{
  char proc[64];
  int fd;

  if (fstat (pathfd, st) < 0)
    return -1;
  if (!S_ISREG (st->st_mode))
    {
      errno = EINVAL;
      return -1;
    }
  g_snprintf (proc, sizeof proc, "/proc/self/fd/%d", pathfd);
  fd = open (proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  return fd;
}

/* Without /proc: BASE and WHERE opened again for reading, the second open
 * of kic_open_regular_at() or kic_open_regular_in_root(). */
typedef int (*OpenAgain) (int base, const char *where);

static int
open_again_at (int dirfd, const char *name)
{
  return openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

static int
open_again_in_root (int rootfd, const char *path)
{
  return kic_open_in_root (rootfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY, TRUE);
}

/* A file others may write, open as FD: its dirty pages written back
 * before it is read.  After the first write to a page of a shared mapping
 * Linux moves the file's times again only once that page was written back
 * (write-back write-protects it): a write through a mapping after the read
 * then moves them, so a stamp taken before the read tells it (issue 39,
 * held out).  A file with nothing dirty costs no I/O. */
static void
settle (int fd, const struct stat *st)
{
  int errsv = errno;

  if (kic_others_may_write (st->st_uid, st->st_mode))
    (void) fdatasync (fd);
  errno = errsv;
}

/* The O_PATH descriptor PATHFD (closed here) reopened for reading when it
 * is a regular file (kic_reopen_regular()); without /proc, WHERE in BASE
 * opened again, and checked to be the file whose type was checked (a
 * window, between the two, in which the name may be replaced by a node:
 * then that node is opened, not read). */
static int
reopen_closing (int pathfd, struct stat *st, OpenAgain again, int base, const char *where)
{
  struct stat now;
  int fd = kic_reopen_regular (pathfd, st);
  int errsv = errno;

  if (fd < 0 && errsv == ENOENT && S_ISREG (st->st_mode))
    {
      fd = again (base, where);
      if (fd >= 0 && (fstat (fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino))
        {
          close (fd);
          fd = -1;
          errsv = EAGAIN;
        }
      else
        errsv = errno;
    }
  close (pathfd);
  if (fd >= 0)
    settle (fd, st);
  errno = errsv;
  return fd;
}

int
kic_open_regular_at (int dirfd, const char *name, struct stat *st)
{
  int pathfd = openat (dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

  return pathfd < 0 ? -1 : reopen_closing (pathfd, st, open_again_at, dirfd, name);
}

int
kic_open_regular_in_root (int rootfd, const char *path, struct stat *st)
{
  int pathfd = kic_open_in_root (rootfd, path, O_PATH, TRUE);

  return pathfd < 0 ? -1 : reopen_closing (pathfd, st, open_again_in_root, rootfd, path);
}

/* Say which component of DIR (inside the root) is in the way: a link or
 * something not a directory.  NULL when none is (the error was another). */
char *
kic_mkdirs_obstacle (int rootfd, const char *dir)
{
  g_auto (GStrv) parts = g_strsplit (dir, "/", -1);
  g_autoptr (GString) path = g_string_new (NULL);
  int fd = dup (rootfd);

  for (guint i = 0; fd >= 0 && parts[i] != NULL; i++)
    {
      struct stat st;
      int next;

      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      g_string_append_c (path, '/');
      g_string_append (path, parts[i]);
      if (fstatat (fd, parts[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
        break;
      if (S_ISLNK (st.st_mode))
        {
          close (fd);
          return g_strdup_printf ("'%s' is a symbolic link", path->str);
        }
      if (!S_ISDIR (st.st_mode))
        {
          close (fd);
          return g_strdup_printf ("'%s' is not a directory", path->str);
        }
      next = openat (fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      close (fd);
      fd = next;
    }
  if (fd >= 0)
    close (fd);
  return NULL;
}

int
kic_mkdirs_in_root (int rootfd, const char *dir, GPtrArray *made)
{
  g_auto (GStrv) parts = g_strsplit (dir, "/", -1);
  g_autoptr (GString) path = g_string_new (NULL);
  int fd = dup (rootfd);

  for (guint i = 0; fd >= 0 && parts[i] != NULL; i++)
    {
      gboolean created = FALSE;
      struct stat st;
      int next;

      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      if (strcmp (parts[i], "..") == 0)
        {
          close (fd);
          errno = EACCES;
          return -1;
        }
      g_string_append_c (path, '/');
      g_string_append (path, parts[i]);
      if (mkdirat (fd, parts[i], 0755) == 0)
        created = TRUE;
      else if (errno != EEXIST)
        {
          close (fd);
          return -1;
        }
      /* whoever owns the parent may have put a link there since mkdirat:
       * the directory is opened without following one, and only that
       * descriptor is changed */
      next = openat (fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      close (fd);
      fd = next;
      if (fd >= 0 && created)
        {
          /* a new directory gets 0755 whatever the umask */
          if (fstat (fd, &st) < 0 || !S_ISDIR (st.st_mode) || fchmod (fd, 0755) < 0)
            {
              int errsv = errno;

              close (fd);
              errno = errsv;
              return -1;
            }
          if (made != NULL)
            g_ptr_array_add (made, g_strdup (path->str));
        }
    }
  if (fd >= 0)
    close (fd);
  return fd >= 0 ? 0 : -1;
}

int
kic_walk_step (int dirfd, const char *component, GString *host, int flags, KicDirRule rule, gpointer data,
               char **why)
{
  struct stat st;
  int fd;

  if (component[0] == '\0' || strcmp (component, ".") == 0)
    return KIC_WALK_SKIP;
  g_string_append_c (host, '/');
  g_string_append (host, component);
  if (strcmp (component, "..") == 0)
    {
      *why = g_strdup_printf ("'%s' is reached through '..'", host->str);
      return -1;
    }
  fd = openat (dirfd, component, flags | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    {
      int errsv = errno;

      if (fstatat (dirfd, component, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK (st.st_mode))
        *why = g_strdup_printf ("'%s' is a symbolic link", host->str);
      else if (errsv == ENOTDIR)
        *why = g_strdup_printf ("'%s' is not a directory", host->str);
      else
        *why = g_strdup_printf ("cannot open '%s': %s", host->str, g_strerror (errsv));
      return -1;
    }
  *why = rule (fd, host->str, data);
  if (*why == NULL)
    return fd;
  /* O_PATH | O_NOFOLLOW opens a link itself, which every rule refuses as
   * no directory: named for what it is (asked only then, so that a step
   * that passes costs the rule's fstat alone) */
  if ((flags & O_PATH) && fstat (fd, &st) == 0 && S_ISLNK (st.st_mode))
    {
      g_free (*why);
      *why = g_strdup_printf ("'%s' is a symbolic link", host->str);
    }
  close (fd);
  return -1;
}

static void
close_kept (gpointer data)
{
  int fd = GPOINTER_TO_INT (data) - 1;

  if (fd >= 0)
    close (fd);
}

GHashTable *
kic_kept_dirs_new (void)
{
  /* path -> GINT (1 + the descriptor), 0: it does not open */
  return g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, close_kept);
}

gboolean
kic_kept_dirs_lookup (GHashTable *dirs, const char *path, int *fd)
{
  gpointer value;

  if (!g_hash_table_lookup_extended (dirs, path, NULL, &value))
    return FALSE;
  *fd = GPOINTER_TO_INT (value) - 1;
  return TRUE;
}

gboolean
kic_kept_dirs_keep (GHashTable *dirs, const char *path, int fd)
{
  if (fd >= 0 && g_hash_table_size (dirs) >= KIC_KEPT_DIRS)
    return FALSE;
  g_hash_table_insert (dirs, g_strdup (path), GINT_TO_POINTER (fd + 1));
  return TRUE;
}

char *
kic_read_regular_in_root (int rootfd, const char *path, gsize max, gsize *length)
{
  char *text = NULL;
  struct stat st;
  int fd = kic_open_regular_in_root (rootfd, path, &st);

  if (fd < 0)
    return NULL;
  if (!kic_read_fd_max (fd, path, max, st.st_size, &text, length, NULL))
    text = NULL;
  close (fd);
  return text;
}
