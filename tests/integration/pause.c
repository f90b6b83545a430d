/* pause.c - an LD_PRELOAD hook that holds a run still at a chosen call
 * until the test has made its move, so that a race happens in the same
 * order however loaded the machine is (no timed delay):
 *   KIC_PAUSE=CALL:N[:after][,CALL:N[:after]...]
 *                   the Nth call of CALL (renameat, renameat2, symlinkat,
 *                   mkdirat, unlinkat, flock) in this process waits, before
 *                   the call is made (or, with "after", once it has
 *                   returned);
 *   KIC_PAUSE_DIR=D the Ith point of the list creates D/paused.I and waits
 *                   until D/go.I exists (lib.sh: paused_run, at_pause,
 *                   resume).
 * Only the program KIC_PAUSE_PROGRAM names (a base name: kde-icon-cache
 * unless set) holds, so that another between (strace, say) passes the
 * settings on; a process it starts (dpkg-query) inherits no pause.  The hook speaks to the file system by raw system calls, so
 * that it counts and meets none of its own. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_POINTS 8

struct point
{
  char call[16];
  long n;
  int after;
};

static struct point points[MAX_POINTS];
static int n_points;
static char dir[4096];

__attribute__ ((constructor)) static void
pause_init (void)
{
  const char *spec = getenv ("KIC_PAUSE"), *d = getenv ("KIC_PAUSE_DIR");
  char buf[512], *save = NULL;
  const char *program = getenv ("KIC_PAUSE_PROGRAM");

  if (strcmp (program_invocation_short_name, program != NULL ? program : "kde-icon-cache") != 0)
    return;
  if (spec == NULL || d == NULL || strlen (d) >= sizeof dir - 16 || strlen (spec) >= sizeof buf)
    return;
  snprintf (dir, sizeof dir, "%s", d);
  snprintf (buf, sizeof buf, "%s", spec);
  for (char *item = strtok_r (buf, ",", &save); item != NULL && n_points < MAX_POINTS;
       item = strtok_r (NULL, ",", &save))
    {
      struct point *p = &points[n_points];
      char *colon = strchr (item, ':');

      if (colon == NULL || colon - item >= (long) sizeof p->call)
        continue;
      memcpy (p->call, item, (size_t) (colon - item));
      p->call[colon - item] = '\0';
      p->n = strtol (colon + 1, &colon, 10);
      p->after = strcmp (colon, ":after") == 0;
      n_points++;
    }
  unsetenv ("KIC_PAUSE"); /* (a process the run starts: no pause) */
}

static int
exists (const char *path)
{
  return syscall (SYS_faccessat, AT_FDCWD, path, F_OK, 0) == 0;
}

static void
hold (int i)
{
  char path[sizeof dir + 32];
  struct timespec ts = { 0, 5 * 1000 * 1000 };
  long fd;

  snprintf (path, sizeof path, "%s/paused.%d", dir, i + 1);
  fd = syscall (SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0)
    syscall (SYS_close, fd);
  snprintf (path, sizeof path, "%s/go.%d", dir, i + 1);
  while (!exists (path))
    nanosleep (&ts, NULL);
}

/* Count a call of CALL; hold at a point it reaches, before or after. */
static void
reached (const char *call, int after)
{
  static long counts[MAX_POINTS];
  int errsv = errno; /* (the call's own, for its caller) */

  for (int i = 0; i < n_points; i++)
    if (strcmp (points[i].call, call) == 0)
      {
        if (!after)
          counts[i]++;
        if (counts[i] == points[i].n && points[i].after == after)
          hold (i);
      }
  errno = errsv;
}

#define REAL(name, type) ((type) dlsym (RTLD_NEXT, name))

int renameat (int, const char *, int, const char *);
int renameat2 (int, const char *, int, const char *, unsigned int);
int symlinkat (const char *, int, const char *);
int mkdirat (int, const char *, mode_t);
int unlinkat (int, const char *, int);
int flock (int, int);

int
renameat (int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
  int r;

  reached ("renameat", 0);
  r = REAL ("renameat", int (*) (int, const char *, int, const char *)) (olddirfd, oldpath, newdirfd, newpath);
  reached ("renameat", 1);
  return r;
}

int
renameat2 (int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags)
{
  int r;

  reached ("renameat2", 0);
  r = REAL ("renameat2", int (*) (int, const char *, int, const char *, unsigned int)) (olddirfd, oldpath, newdirfd,
                                                                                       newpath, flags);
  reached ("renameat2", 1);
  return r;
}

int
symlinkat (const char *target, int dirfd, const char *linkpath)
{
  int r;

  reached ("symlinkat", 0);
  r = REAL ("symlinkat", int (*) (const char *, int, const char *)) (target, dirfd, linkpath);
  reached ("symlinkat", 1);
  return r;
}

int
mkdirat (int dirfd, const char *path, mode_t mode)
{
  int r;

  reached ("mkdirat", 0);
  r = REAL ("mkdirat", int (*) (int, const char *, mode_t)) (dirfd, path, mode);
  reached ("mkdirat", 1);
  return r;
}

int
unlinkat (int dirfd, const char *path, int flags)
{
  int r;

  reached ("unlinkat", 0);
  r = REAL ("unlinkat", int (*) (int, const char *, int)) (dirfd, path, flags);
  reached ("unlinkat", 1);
  return r;
}

int
flock (int fd, int operation)
{
  int r;

  reached ("flock", 0);
  r = REAL ("flock", int (*) (int, int)) (fd, operation);
  reached ("flock", 1);
  return r;
}
