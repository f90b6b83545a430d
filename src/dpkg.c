/* dpkg.c - package owners, asked of dpkg-query (the interface dpkg gives;
 * its database files are its own business) */
#include "dpkg.h"

#include <string.h>

GHashTable *
kic_dpkg_owners (KicFsIndex *index, GHashTable *wanted)
{
  GHashTable *owners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *root = kic_fs_index_root (index);
  g_autofree char *admindir = g_build_filename (root[0] ? root : "/", "var", "lib", "dpkg", NULL);
  g_autofree char *admin_option = g_strconcat ("--admindir=", admindir, NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTableIter iter;
  gpointer key;

  if (g_hash_table_size (wanted) == 0 || !g_file_test (admindir, G_FILE_TEST_IS_DIR))
    return owners;
  g_ptr_array_add (argv, "dpkg-query");
  g_ptr_array_add (argv, admin_option);
  g_ptr_array_add (argv, "--search");
  g_ptr_array_add (argv, "--");
  g_hash_table_iter_init (&iter, wanted);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (argv, key);
  g_ptr_array_add (argv, NULL);
  /* exit status 1 only says some paths belong to no package */
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL, NULL))
    return owners;
  /* "package[, package...]: /path"; "diversion by ..." lines say nothing */
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *sep = strstr (lines[i], ": /");

      if (sep == NULL || g_str_has_prefix (lines[i], "diversion "))
        continue;
      *sep = '\0';
      if (g_hash_table_contains (wanted, sep + 2) && !g_hash_table_contains (owners, sep + 2))
        g_hash_table_insert (owners, g_strdup (sep + 2), g_strdup (lines[i]));
    }
  return owners;
}
