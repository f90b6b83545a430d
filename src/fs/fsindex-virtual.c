/* fsindex-virtual.c - a virtual index: directories and files made in
 * memory (kic_fs_index_add), which the unit tests and the fuzz targets give
 * the resolver and the planner instead of a disk
 */
#include "fsindex-private.h"

#include "path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

KicFsIndex *
kic_fs_index_new_virtual (void)
{
  return fsindex_index_new ("", TRUE);
}

/* Make sure directory REAL exists in the index (virtual parents too). */
static KicFsDir *
ensure_dir (KicFsIndex *index, const char *real)
{
  KicFsDir *dir = fsindex_get_dir (index, real);

  if (dir != NULL)
    return dir;
  if (strcmp (real, "/") != 0)
    {
      g_autofree char *parent = g_path_get_dirname (real);
      g_autofree char *base = g_path_get_basename (real);

      kic_fs_index_add (index, parent, base, KIC_FS_DIR);
    }
  dir = fsindex_fs_dir_new (real);
  g_hash_table_replace (index->dirs, g_strdup (real), dir);
  return dir;
}

static gboolean
is_null_value (gpointer key, gpointer value, gpointer user_data)
{
  (void) key;
  (void) user_data;
  return value == NULL;
}

void
kic_fs_index_add (KicFsIndex *index, const char *dir, const char *name, KicFsType type)
{
  g_autofree char *clean = kic_path_clean (dir);
  /* a copy: the cache it comes from may be emptied below */
  g_autofree char *real = g_strdup (fsindex_real_path_cached (index, clean));
  KicFsDir *listing;
  KicFsEntry *entry;

  index->generation++;
  if (real == NULL)
    {
      /* a virtual directory: its path is its real path */
      g_hash_table_replace (index->real_paths, g_strdup (clean), g_strdup (clean));
      real = g_strdup (clean);
    }
  listing = ensure_dir (index, real);
  /* a path that was missing may exist now; one below a removed or new
   * directory may have gone */
  if (type == KIC_FS_NONE || type == KIC_FS_DIR)
    g_hash_table_remove_all (index->real_paths);
  else
    g_hash_table_foreach_remove (index->real_paths, is_null_value, NULL);
  if (listing->by_hash != NULL)
    g_clear_pointer (&listing->by_hash, g_array_unref);
  entry = g_new0 (KicFsEntry, 1);
  entry->d_type = type == KIC_FS_DIR ? DT_DIR : DT_REG;
  entry->resolved = TRUE;
  entry->type = type;
  kic_fs_dir_own_entries (index, listing);
  g_hash_table_replace (listing->entries, g_strdup (name), entry);
  if (type == KIC_FS_NONE)
    g_hash_table_remove (listing->entries, name);
  /* a directory of a virtual index exists, empty, once it is added: it
   * has a listing (the overlay's key, kic_fs_dir_real(), as on disk) */
  if (type == KIC_FS_DIR && index->is_virtual)
    {
      g_autofree char *child = g_build_filename (real, name, NULL);

      if (g_hash_table_lookup (index->dirs, child) == NULL)
        g_hash_table_replace (index->dirs, g_strdup (child), fsindex_fs_dir_new (child));
    }
}

void
kic_fs_index_add_contents (KicFsIndex *index, const char *dir, const char *name, const void *data,
                           gsize length)
{
  g_autofree char *clean = kic_path_clean (dir);
  KicFsEntry *entry;

  g_return_if_fail (index->is_virtual);
  kic_fs_index_add (index, clean, name, KIC_FS_FILE);
  /* a virtual directory is its own real path */
  entry = g_hash_table_lookup (fsindex_dir_entries (fsindex_get_dir (index, clean)), name);
  entry->contents = g_bytes_new (data, length);
}

/* kic_fs_index_read_file_max() of a virtual index: the bytes given to
 * kic_fs_index_add_contents(), under the same bound as a disk file. */
gboolean
fsindex_read_virtual_file (KicFsIndex *index, const char *path, gsize max, char **contents, gsize *length,
                   GError **error)
{
  g_autofree char *real = kic_fs_index_realpath (index, path);
  g_autofree char *parent = NULL;
  g_autofree char *base = NULL;
  KicFsDir *dir;
  KicFsEntry *entry = NULL;
  gsize size;
  const char *bytes;

  if (real != NULL && strcmp (real, "/") != 0)
    {
      parent = g_path_get_dirname (real);
      base = g_path_get_basename (real);
      dir = fsindex_get_dir (index, parent);
      entry = dir != NULL ? g_hash_table_lookup (fsindex_dir_entries (dir), base) : NULL;
    }
  if (entry == NULL || entry->type != KIC_FS_FILE || entry->contents == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "'%s': no such file", path);
      return FALSE;
    }
  bytes = g_bytes_get_data (entry->contents, &size);
  if (size > max)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, "'%s' is larger than %" G_GSIZE_FORMAT " MiB",
                   path, max >> 20);
      return FALSE;
    }
  /* NUL-terminated, as a disk file's contents are */
  *contents = g_malloc (size + 1);
  memcpy (*contents, bytes, size);
  (*contents)[size] = '\0';
  if (length != NULL)
    *length = size;
  return TRUE;
}
