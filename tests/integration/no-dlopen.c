/* no-dlopen.c - LD_PRELOAD: dlopen() of the soname in $KIC_NO_DLOPEN fails,
 * as on a system where that library is not installed (cli.sh) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

void *
dlopen (const char *file, int mode)
{
  static void *(*real) (const char *, int);
  const char *refused = getenv ("KIC_NO_DLOPEN");

  if (file != NULL && refused != NULL && strcmp (file, refused) == 0)
    return NULL;
  if (real == NULL)
    real = (void *(*) (const char *, int)) dlsym (RTLD_NEXT, "dlopen");
  return real (file, mode);
}
