/* safeopen.c - openat2(RESOLVE_IN_ROOT), or a careful walk */
#include "safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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
      g_string_append_printf (path, "/%s", parts[i]);
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
      g_string_append_printf (path, "/%s", parts[i]);
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
