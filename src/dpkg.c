/* dpkg.c - package owners from the .list files of /var/lib/dpkg/info */
#include "dpkg.h"

#include <string.h>

#define KIC_DPKG_INFO "/var/lib/dpkg/info"

GHashTable *
kic_dpkg_owners (KicFsIndex *index, GHashTable *wanted)
{
  GHashTable *owners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GPtrArray) lists = kic_fs_index_list (index, KIC_DPKG_INFO);

  for (guint i = 0; lists != NULL && i < lists->len && g_hash_table_size (owners) < g_hash_table_size (wanted); i++)
    {
      const char *file = g_ptr_array_index (lists, i);
      g_autofree char *path = NULL;
      g_autofree char *data = NULL;
      g_autofree char *package = NULL;
      char *line, *next;

      if (!g_str_has_suffix (file, ".list"))
        continue;
      path = g_build_filename (KIC_DPKG_INFO, file, NULL);
      if (!kic_fs_index_read_file (index, path, &data, NULL, NULL))
        continue;
      package = g_strndup (file, strlen (file) - strlen (".list"));
      for (line = data; line != NULL && *line != '\0'; line = next)
        {
          next = strchr (line, '\n');
          if (next != NULL)
            *next++ = '\0';
          if (g_hash_table_contains (wanted, line) && !g_hash_table_contains (owners, line))
            g_hash_table_insert (owners, g_strdup (line), g_strdup (package));
        }
    }
  return owners;
}
