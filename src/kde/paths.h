/* paths.h - the XDG directories, the only user of libxdg-basedir
 *
 * kde-icon-cache runs as root from dpkg and cron, for every user at once,
 * so it works in "system mode": the data directories are $XDG_DATA_DIRS
 * (default /usr/local/share:/usr/share) and the configuration directories
 * $XDG_CONFIG_DIRS (default /etc/xdg); root's own ~/.local and ~/.config
 * are not sources.  Paths are returned as KDE's process would see them
 * inside the root: cleaned, relative entries dropped, duplicates removed
 * (Qt's xdgDataDirs() does the same).
 */
#ifndef KIC_PATHS_H
#define KIC_PATHS_H

#include <glib.h>

/* transfer full */
char **kic_paths_data_dirs (void);
/* transfer full */
char **kic_paths_config_dirs (void);

#endif /* KIC_PATHS_H */
