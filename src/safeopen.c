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

int
kic_mkdirs_in_root (int rootfd, const char *dir)
{
  g_auto (GStrv) parts = g_strsplit (dir, "/", -1);
  int fd = dup (rootfd);

  for (guint i = 0; fd >= 0 && parts[i] != NULL; i++)
    {
      int next;

      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      if (strcmp (parts[i], "..") == 0)
        {
          close (fd);
          errno = EACCES;
          return -1;
        }
      /* a new directory gets 0755 whatever the umask */
      if (mkdirat (fd, parts[i], 0755) == 0)
        {
          if (fchmodat (fd, parts[i], 0755, 0) < 0)
            {
              close (fd);
              return -1;
            }
        }
      else if (errno != EEXIST)
        {
          close (fd);
          return -1;
        }
      next = openat (fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      close (fd);
      fd = next;
    }
  if (fd >= 0)
    close (fd);
  return fd >= 0 ? 0 : -1;
}
