/* fsindex-read.c - the files a run reads through the index, each opened
 * only once it is known to be a regular file */
#include "fsindex-private.h"

#include "readfd.h"
#include "safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int
kic_fs_index_open_file (KicFsIndex *index, const char *real)
{
  struct stat st;
  gint64 read_ns;
  int fd, errsv;

  if (index->is_virtual)
    {
      errno = ENOENT;
      return -1;
    }
  /* its type known before it is opened: never a device node (safeopen.h) */
  read_ns = kic_fs_stamp_clock ();
  fd = kic_open_regular_in_root (index->rootfd, real, &st);
  errsv = errno;
  fsindex_keep_stat (index, KIC_FS_FILE, real, fd >= 0 ? &st : NULL, read_ns);
  errno = errsv;
  return fd;
}

gboolean
kic_fs_index_read_file (KicFsIndex *index, const char *path,
                        char **contents, gsize *length, GError **error)
{
  return kic_fs_index_read_file_max (index, path, KIC_MAX_FILE, contents, length, error);
}

gboolean
kic_fs_index_read_file_max (KicFsIndex *index, const char *path, gsize max,
                            char **contents, gsize *length, GError **error)
{
  g_autofree char *real = NULL;
  g_autofree char *host = kic_fs_index_host_path (index, path);
  struct stat st;
  gint64 read_ns;
  int fd, errsv;
  gboolean ok;

  if (index->is_virtual)
    return fsindex_read_virtual_file (index, path, max, contents, length, error);
  if (kic_fs_index_stat (index, path) != KIC_FS_FILE)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "'%s': no such file", host);
      return FALSE;
    }
  real = kic_fs_index_realpath (index, path);
  /* its type known before it is opened: a device node or a FIFO put
   * there since the listing is neither opened nor waited on (safeopen.h) */
  read_ns = kic_fs_stamp_clock ();
  fd = kic_open_regular_in_root (index->rootfd, real, &st);
  errsv = errno;
  fsindex_keep_stat (index, KIC_FS_FILE, real, fd >= 0 ? &st : NULL, read_ns);
  if (fd < 0)
    {
      if (errsv == EINVAL)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "'%s' is not a regular file", host);
      else
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot open '%s': %s",
                     host, g_strerror (errsv));
      return FALSE;
    }
  ok = kic_read_fd_max (fd, host, max, st.st_size, contents, length, error);
  close (fd);
  return ok;
}
