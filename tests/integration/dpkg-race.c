/* dpkg-race.c - an LD_PRELOAD hook for hardening-3.sh: just before the
 * first symlinkat(2) of a process, a "package" changes the directory the
 * link goes into, as dpkg unpacking at that moment would:
 *   KIC_RACE_NAME=N      adds the file N;
 *   KIC_RACE_REPLACE=N   replaces N by a symbolic link to N.dpkg-new
 *                        (made beside it and renamed over it: the
 *                        directory keeps its names);
 *   KIC_RACE_FAIL_NOW=1  makes futimens(2) fail with EIO when it sets a
 *                        time to now (the writer's answer to such a
 *                        change), and only then.
 * (The tool's writer makes its links with symlinkat relative to the
 * directory's descriptor.) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int symlinkat (const char *target, int dirfd, const char *linkpath);
int futimens (int fd, const struct timespec times[2]);

int
symlinkat (const char *target, int dirfd, const char *linkpath)
{
  static int done;
  int (*real) (const char *, int, const char *) = (int (*) (const char *, int, const char *)) dlsym (RTLD_NEXT, "symlinkat");
  const char *name = getenv ("KIC_RACE_NAME");
  const char *replace = getenv ("KIC_RACE_REPLACE");

  if (!done && name != NULL)
    {
      int fd = openat (dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

      if (fd >= 0)
        {
          (void) write (fd, "\x89PNG\r\n\x1a\n", 8);
          close (fd);
        }
    }
  if (!done && replace != NULL)
    {
      char tmp[PATH_MAX], to[PATH_MAX];

      snprintf (tmp, sizeof tmp, ".%s.kic-race", replace);
      snprintf (to, sizeof to, "%s.dpkg-new", replace);
      if (real (to, dirfd, tmp) == 0)
        (void) renameat (dirfd, tmp, dirfd, replace);
    }
  done = 1;
  return real (target, dirfd, linkpath);
}

int
futimens (int fd, const struct timespec times[2])
{
  int (*real) (int, const struct timespec *) = (int (*) (int, const struct timespec *)) dlsym (RTLD_NEXT, "futimens");

  if (getenv ("KIC_RACE_FAIL_NOW") != NULL && times != NULL && times[1].tv_nsec == UTIME_NOW)
    {
      errno = EIO;
      return -1;
    }
  return real (fd, times);
}
