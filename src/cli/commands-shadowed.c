/* commands-shadowed.c - --shadowed: the names whose own files of the user
 * running it a link now shadows
 *
 * Root's rebuild cannot see a user's ~/.local/share/icons nor their own
 * Flatpak installation's exports (SECURITY.md), which KDE searches for
 * that user: a link planted in breeze for NAME is found before the user's
 * hicolor NAME.png.  Run as that user, in their session's environment,
 * this models their KDE (their XDG_DATA_HOME first, the session's data
 * directories, paths.h) and asks each name they hold a file for, at each
 * size, with the links and with the links the manifest lists hidden; a
 * name whose answer without the links is the user's own file and with them
 * another is printed: NAME<TAB>SIZE<TAB>WITH-THE-LINKS<TAB>THEIR-OWN.
 */
#include "commands.h"

#include "commands-private.h"
#include "config.h"
#include "diag.h"
#include "hash.h"
#include "sorted.h"
#include "paths.h"
#include "resolver.h"

#include <stdio.h>
#include <string.h>

/* the sizes asked when --size gives none: the menus' and larger */
static const int default_sizes[] = { 16, 22, 32, 48, 64, 128, 256, 0 };

/* Add the stems of the icon files below DIR (DEPTH levels at most) to
 * STEMS. */
static void
add_stems (KicFsIndex *index, const char *dir, guint depth, GHashTable *stems)
{
  g_autoptr (GPtrArray) names = kic_fs_index_list (index, dir);

  for (guint i = 0; names != NULL && i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      KicFsType type = kic_fs_index_stat (index, path);

      if (type == KIC_FS_DIR && depth > 1)
        add_stems (index, path, depth - 1, stems);
      else if (type == KIC_FS_FILE && kic_icon_name_extension (name) != NULL)
        g_hash_table_add (stems, kic_icon_name_strip_extension (name));
    }
}

/* The user's own icon names: every stem of their icon themes, pixmaps and
 * own Flatpak installation's exported icons.  transfer full */
static GPtrArray *
own_names (KicFsIndex *index, const char *home)
{
  g_autoptr (GHashTable) stems = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *icons = g_build_filename (home, "icons", NULL);
  g_autofree char *pixmaps = g_build_filename (home, "pixmaps", NULL);
  g_autofree char *exports = g_build_filename (home, "flatpak", "exports", "share", "icons", NULL);
  g_autoptr (GPtrArray) keys = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  /* THEME/SIZE/CONTEXT/FILE, or THEME/CONTEXT/SIZE/FILE, and scaled */
  add_stems (index, icons, 5, stems);
  add_stems (index, exports, 5, stems);
  add_stems (index, pixmaps, 1, stems);
  keys = kic_sorted_keys (stems);
  for (guint i = 0; i < keys->len; i++)
    g_ptr_array_add (names, g_strdup (g_ptr_array_index (keys, i)));
  return names;
}

static gboolean
is_below (const char *path, const char *dir)
{
  gsize n = strlen (dir);

  return path != NULL && strncmp (path, dir, n) == 0 && path[n] == '/';
}

gboolean
kic_command_shadowed (const KicCommandOptions *options, GError **error)
{
  KicCommandOptions mine = *options;
  g_autofree char *home = kic_paths_data_home ();
  g_autoptr (KicSystem) system = NULL;
  g_autoptr (KicOverlay) hidden = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GHashTable) shadowed = g_hash_table_new (kic_str_hash, g_str_equal);
  guint n_sizes;

  if (home == NULL)
    {
      g_set_error_literal (error, KIC_ERROR, KIC_ERROR_USAGE, "--shadowed: no data home ($XDG_DATA_HOME or $HOME)");
      return FALSE;
    }
  mine.system.user_data_home = home;
  system = commands_load_system (&mine, error);
  if (system == NULL)
    return FALSE;
  hidden = commands_our_links_hidden (&mine, system);
  names = own_names (system->index, home);
  /* the sizes asked (--size), else the default ones */
  n_sizes = options->sizes->len > 0 ? options->sizes->len : G_N_ELEMENTS (default_sizes) - 1;
  for (guint i = 0; hidden != NULL && i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);

      for (guint s = 0; s < n_sizes; s++)
        {
          int size = options->sizes->len > 0 ? g_array_index (options->sizes, KicTarget, s).size : default_sizes[s];
          g_autoptr (KicResult) with = kic_resolve (system->resolver, name, size, FALSE);
          g_autoptr (KicResult) without = NULL;

          kic_resolver_set_overlay (system->resolver, hidden);
          without = kic_resolve (system->resolver, name, size, FALSE);
          kic_resolver_set_overlay (system->resolver, NULL);
          if (is_below (without->path, home) && g_strcmp0 (with->path, without->path) != 0)
            {
              printf ("%s\t%d\t%s\t%s\n", name, size, with->path != NULL ? with->path : "-", without->path);
              g_hash_table_add (shadowed, (char *) name);
            }
        }
    }
  if (!kic_quiet)
    g_printerr ("kde-icon-cache: %u of your %u icon names %s by the system's links%s\n",
                g_hash_table_size (shadowed), names->len,
                g_hash_table_size (shadowed) == 1 ? "is shadowed" : "are shadowed",
                g_hash_table_size (shadowed) > 0
                  ? ": your administrator can leave them out (ExcludeNames= in /etc/kde-icon-cache.conf)" : "");
  return kic_fs_index_complete (system->index, error);
}
