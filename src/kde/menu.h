/* menu.h - the icon names KDE's menu looks up
 *
 * Scanning belongs to the planner's caller: the planner is given the
 * names.  The menu's names are the Icon= values of the applications
 * (.desktop files), of the menu's categories (.directory files) and the
 * configured extra names, in that order.
 */
#ifndef KIC_MENU_H
#define KIC_MENU_H

#include "desktop.h"
#include "iconloader.h"

#include <glib.h>

/* The Icon= values of SYSTEM's menu, as written, then EXTRA_NAMES (may
 * be NULL); *N_FILES is the number of .desktop and .directory files
 * read; MEMO (may be NULL) as for kic_desktop_scan().  transfer full: a
 * GPtrArray of strings */
GPtrArray *kic_menu_icons (KicSystem *system, char **extra_names, KicDesktopMemo *memo, guint *n_files);

#endif /* KIC_MENU_H */
