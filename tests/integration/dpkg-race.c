/* dpkg-race.c - an LD_PRELOAD hook for hardening-3.sh: just before the
 * first symlinkat(2) of a process, a "package" adds the file
 * $KIC_RACE_NAME to the directory the link goes into, as dpkg unpacking
 * at that moment would.  (The tool's writer makes its links with
 * symlinkat relative to the directory's descriptor.) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int symlinkat (const char *target, int dirfd, const char *linkpath);

int
symlinkat (const char *target, int dirfd, const char *linkpath)
{
  static int done;
  int (*real) (const char *, int, const char *) = (int (*) (const char *, int, const char *)) dlsym (RTLD_NEXT, "symlinkat");
  const char *name = getenv ("KIC_RACE_NAME");

  if (!done && name != NULL)
    {
      int fd = openat (dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

      done = 1;
      if (fd >= 0)
        {
          (void) write (fd, "\x89PNG\r\n\x1a\n", 8);
          close (fd);
        }
    }
  return real (target, dirfd, linkpath);
}
