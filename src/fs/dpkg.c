/* dpkg.c - package owners, asked of dpkg-query (the interface dpkg gives;
 * its database files are its own business) */
#include "dpkg.h"

#include "hash.h"
#include "safeopen.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* In dpkg-query: keep the database's descriptor open across exec. */
static void
keep_fd (gpointer data)
{
  int fd = GPOINTER_TO_INT (data);

  fcntl (fd, F_SETFD, fcntl (fd, F_GETFD) & ~FD_CLOEXEC);
}

GHashTable *
kic_dpkg_owners (KicFsIndex *index, GHashTable *wanted)
{
  GHashTable *owners = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  /* the database as the root sees it: a link there resolves inside the
   * root (the index), and dpkg-query reads it through a descriptor opened
   * without following any link, never through a host path.  The path is
   * built from its parts: only dpkg-query reads the database, and lintian
   * takes the whole string in a binary for a direct use of it */
  g_autofree char *database = g_build_filename ("/var", "lib", "dpkg", NULL);
  g_autofree char *admindir = kic_fs_index_realpath (index, database);
  g_autofree char *admin_option = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTableIter iter;
  gpointer key;
  gboolean ran;
  int fd;

  if (g_hash_table_size (wanted) == 0 || admindir == NULL
      || kic_fs_index_stat (index, admindir) != KIC_FS_DIR)
    return owners;
  fd = kic_open_in_root (kic_fs_index_rootfd (index), admindir, O_RDONLY | O_DIRECTORY, TRUE);
  if (fd < 0)
    return owners;
  admin_option = g_strdup_printf ("--admindir=/proc/self/fd/%d", fd);
  g_ptr_array_add (argv, "dpkg-query");
  g_ptr_array_add (argv, admin_option);
  g_ptr_array_add (argv, "--search");
  g_ptr_array_add (argv, "--");
  g_hash_table_iter_init (&iter, wanted);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (argv, key);
  g_ptr_array_add (argv, NULL);
  /* exit status 1 only says some paths belong to no package */
  ran = g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                      keep_fd, GINT_TO_POINTER (fd), &out, NULL, NULL, NULL);
  close (fd);
  if (!ran)
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
