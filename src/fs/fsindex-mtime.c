/* fsindex-mtime.c - the modification times a KIconThemes that reads GTK's
 * icon-theme.cache compares (theme-gtkcache.c): the cache's, the theme
 * directory's and those of the directories it lists
 */
#include "fsindex-private.h"

#include "safeopen.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean
kic_fs_index_mtime (KicFsIndex *index, const char *path, gint64 *mtime_ns)
{
  g_autofree char *real = kic_fs_index_realpath (index, path);
  struct stat st;
  gboolean ok;
  int fd;

  if (real == NULL)
    return FALSE;
  if (index->is_virtual)
    {
      const gint64 *kept = index->mtimes ? g_hash_table_lookup (index->mtimes, real) : NULL;

      *mtime_ns = kept ? *kept : 0;
      return TRUE;
    }
  /* the real path has no link: O_PATH through none (a link put in since
   * is not followed out of the root) */
  if ((fd = kic_open_in_root (index->rootfd, real, O_PATH, TRUE)) < 0)
    return FALSE;
  ok = fstat (fd, &st) == 0;
  /* a time compared is an input like a file read: a cache older than its
   * directory is never read, and a touch makes it count, with no listing
   * changed (issue 39, held out).  Stamped as a listing or a read stamps
   * it, unless one did already. */
  if (ok && index->stamps != NULL && !g_hash_table_contains (index->stamps, real))
    fsindex_keep_stamp (index, S_ISDIR (st.st_mode) ? KIC_FS_DIR : KIC_FS_FILE, real, fd);
  close (fd);
  if (ok)
    *mtime_ns = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
  return ok;
}

void
kic_fs_index_set_mtime (KicFsIndex *index, const char *path, gint64 mtime_ns)
{
  g_return_if_fail (index->is_virtual);
  if (index->mtimes == NULL)
    index->mtimes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (index->mtimes, g_strdup (path), g_memdup2 (&mtime_ns, sizeof mtime_ns));
}
