/* mime-icons.c - the mime icon name -> generic icon name table KDE's
 * generic fallback reads (shared-mime-info's files under each data
 * directory), as each generation builds it
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless a
 * release is named.
 */
#include "mime-icons.h"

#include "diag.h"
#include "hash.h"
#include "sorted.h"

#include <string.h>

/* The text of the shared-mime-info file PATH, or NULL when there is none;
 * one that is there but cannot be read is warned about: the generic icon
 * fallback KDE makes from it may then differ from ours. */
static char *
read_mime_file (KicFsIndex *index, const char *path)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;

  if (kic_fs_index_stat (index, path) != KIC_FS_FILE)
    return NULL;
  if (!kic_fs_index_read_file (index, path, &data, NULL, &error))
    kic_warning ("%s; generic icons for media types may be modelled wrongly", error->message);
  return data;
}

/* "type/subtype" as an icon name: "type-subtype". */
static char *
mime_icon_name (const char *type)
{
  char *name = g_strdup (type);
  char *slash = strchr (name, '/');

  if (slash != NULL)
    *slash = '-';
  return name;
}

/* The "type/subtype:value" lines of "<datadir>/mime/FILE" for every data
 * directory, a later line and file winning, into MAP (type -> value; with
 * BY_ICON_NAME, the type's icon name -> value). */
static void
read_mime_table (KicFsIndex *index, char **data_dirs, const char *file, GHashTable *map, gboolean by_icon_name)
{
  for (guint i = 0; data_dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (data_dirs[i], "mime", file, NULL);
      g_autofree char *data = read_mime_file (index, path);
      g_auto (GStrv) lines = NULL;

      if (data == NULL)
        continue;
      lines = g_strsplit (data, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        {
          char *colon = strchr (lines[l], ':');

          if (lines[l][0] == '\0' || lines[l][0] == '#' || colon == NULL)
            continue;
          *colon = '\0';
          g_hash_table_replace (map, by_icon_name ? mime_icon_name (lines[l]) : g_strdup (lines[l]), g_strdup (colon + 1));
        }
    }
}

/* The mime icon name -> generic icon name table.  KF5 (KIconLoaderGlobalData,
 * :155-227): the lines of "<datadir>/mime/generic-icons", each under its
 * type's icon name, a later line and file winning.  KF6 (@v6.13.0 kiconloader.cpp:229-240): QMimeDatabase's every
 * type, its icon name (mime/icons, else the type with '-' for '/') to its
 * generic icon name (mime/generic-icons, else "<media>-x-generic"); the
 * types are those of mime/types, which update-mime-database writes beside
 * the mime.cache Qt reads, so only directories with a mime.cache count
 * (measured against KF6: tests/oracle/kf6/FINDINGS.md). */
GHashTable *
kic_mime_generic_icons (KicFsIndex *index, const KicProfileTable *profile, char **data_dirs)
{
  GHashTable *map = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) generic = NULL;
  g_autoptr (GHashTable) icons = NULL;
  g_autoptr (GHashTable) types = NULL;
  g_autoptr (GPtrArray) sorted = NULL;

  if (profile->generation != KIC_KDE_KF6)
    {
      /* (keyed by icon name as each line is read: of two types with one
       * icon name, "x/y-z" and "x-y/z", the later line wins, as
       * QHash::insert() has it) */
      read_mime_table (index, data_dirs, "generic-icons", map, TRUE);
      return map;
    }
  generic = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  icons = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  types = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  /* Qt reads a mime directory's compiled mime.cache; the text files
   * update-mime-database writes beside it say the same */
  for (guint i = 0; data_dirs[i] != NULL; i++)
    {
      g_autofree char *cache = g_build_filename (data_dirs[i], "mime", "mime.cache", NULL);
      char *one[] = { data_dirs[i], NULL };

      if (kic_fs_index_stat (index, cache) != KIC_FS_FILE)
        continue;
      read_mime_table (index, one, "generic-icons", generic, FALSE);
      read_mime_table (index, one, "icons", icons, FALSE);
    }
  for (guint i = 0; data_dirs[i] != NULL; i++)
    {
      g_autofree char *cache = g_build_filename (data_dirs[i], "mime", "mime.cache", NULL);
      g_autofree char *path = g_build_filename (data_dirs[i], "mime", "types", NULL);
      g_autofree char *data = NULL;
      g_auto (GStrv) lines = NULL;

      if (kic_fs_index_stat (index, cache) != KIC_FS_FILE || (data = read_mime_file (index, path)) == NULL)
        continue;
      lines = g_strsplit (data, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        if (strchr (lines[l], '/') != NULL)
          g_hash_table_replace (types, g_strdup (lines[l]), NULL);
    }
  /* Types that share an icon name: in KF6 the last one QHash::insert()
   * meets wins, in the order QMimeDatabase::allMimeTypes() gives (not
   * measured: no tree here has two such types with different generic
   * icons).  Here the last by name, so that the table does not depend on
   * the order of our hash table. */
  sorted = kic_sorted_keys (types);
  for (guint t = 0; t < sorted->len; t++)
    {
      const char *type = g_ptr_array_index (sorted, t);
      const char *icon = g_hash_table_lookup (icons, type);
      const char *explicit_generic = g_hash_table_lookup (generic, type);
      char *generic_name = explicit_generic ? g_strdup (explicit_generic)
                                            : g_strdup_printf ("%.*s-x-generic", (int) strcspn (type, "/"), type);

      g_hash_table_replace (map, icon ? g_strdup (icon) : mime_icon_name (type), generic_name);
    }
  return map;
}
