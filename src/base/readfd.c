/* readfd.c - bounded reads of a descriptor (readfd.h) */
#include "readfd.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean
kic_read_fd (int fd, const char *what, char **contents, gsize *length, GError **error)
{
  return kic_read_fd_max (fd, what, KIC_MAX_FILE, -1, contents, length, error);
}

/* One allocation of the file's size (given, or from fstat()) and one read,
 * plus one that sees the end: a copy of every 64 KiB through a growing
 * string was most of what reading the 750 KB state back cost.  A file
 * that grows while it is read, or one with no size (a pipe), is read on
 * into a buffer that doubles, up to MAX. */
gboolean
kic_read_fd_max (int fd, const char *what, gsize max, goffset size, char **contents, gsize *length,
                 GError **error)
{
  struct stat st;
  gsize cap;
  gsize len = 0;
  char *buf;
  ssize_t n;

  if (size < 0)
    size = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) ? st.st_size : -1;
  cap = size >= 0 && (guint64) size <= max ? (gsize) size + 2 : 8192;
  cap = MIN (cap, max + 2);
  buf = g_malloc (cap);
  for (;;)
    {
      /* (room for the NUL; past MAX + 1 bytes the read has failed below) */
      if (len + 1 == cap)
        {
          cap = cap > (max + 2) / 2 ? max + 2 : cap * 2;
          buf = g_realloc (buf, cap);
        }
      if ((n = read (fd, buf + len, cap - 1 - len)) <= 0)
        break;
      /* nothing we read is legitimately that big: a bounded read keeps a
       * hostile file from exhausting memory */
      if (len + n > max)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, "'%s' is larger than %" G_GSIZE_FORMAT " MiB",
                       what, max >> 20);
          g_free (buf);
          return FALSE;
        }
      len += n;
    }
  if (n < 0)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot read '%s': %s",
                   what, g_strerror (errsv));
      g_free (buf);
      return FALSE;
    }
  buf[len] = '\0';
  if (length != NULL)
    *length = len;
  *contents = buf;
  return TRUE;
}
