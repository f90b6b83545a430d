/* menu.c - the icon names KDE's menu looks up (menu.h) */
#include "menu.h"

#include "desktop.h"

/* The Icon= values KDE's menu looks up: of the applications (.desktop),
 * of the menu's categories (.directory: Kickoff shows them when it opens,
 * at sizes where breeze often has no file of its own,
 * tests/oracle/FINDINGS.md) and EXTRA_NAMES.  Duplicates are the
 * planner's to fold (it knows the lookup name of an Icon= value). */
GPtrArray *
kic_menu_icons (KicSystem *system, char **extra_names, KicDesktopMemo *memo, guint *n_files)
{
  g_autoptr (GPtrArray) entries = kic_desktop_scan (system->index, system->data_dirs, memo);
  g_autoptr (GPtrArray) directories = kic_desktop_scan_directories (system->index, system->data_dirs,
                                                                    system->config_dirs, memo);
  GPtrArray *icons = g_ptr_array_new_with_free_func (g_free);

  *n_files = entries->len + directories->len;
  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (icons, g_strdup (((const KicDesktopEntry *) g_ptr_array_index (entries, i))->icon));
  for (guint i = 0; i < directories->len; i++)
    g_ptr_array_add (icons, g_strdup (((const KicDesktopEntry *) g_ptr_array_index (directories, i))->icon));
  for (guint i = 0; extra_names != NULL && extra_names[i] != NULL; i++)
    g_ptr_array_add (icons, g_strdup (extra_names[i]));
  return icons;
}
