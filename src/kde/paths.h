/* paths.h - the XDG directories, the only user of libxdg-basedir
 *
 * kde-icon-cache runs as root from dpkg and cron, for every user at once,
 * so it works in "system mode": the data directories are $XDG_DATA_DIRS
 * (default /usr/local/share:/usr/share) and the configuration directories
 * $XDG_CONFIG_DIRS (default /etc/xdg); root's own ~/.local and ~/.config
 * are not sources.  Paths are returned as KDE's process would see them
 * inside the root: cleaned, relative entries dropped, duplicates removed
 * (Qt's xdgDataDirs() does the same).  A login on the root may add to
 * them: kic_paths_session_data_dirs().
 */
#ifndef KIC_PATHS_H
#define KIC_PATHS_H

#include "fsindex.h"

#include <glib.h>

/* transfer full */
char **kic_paths_data_dirs (void);
/* transfer full */
char **kic_paths_config_dirs (void);
/* $XDG_DATA_HOME (default ~/.local/share) of the user running the tool:
 * only for a command a user runs for themself (--shadowed), never for
 * root's rebuild.  NULL when there is none.  transfer full */
char *kic_paths_data_home (void);

/* What a login session adds to the data directories (paths-session.c):
 * the directories KDE's process sees are kic_paths_session_data_dirs()
 * of the caller's, read from the root through INDEX.  ORIGINS says which
 * file added or set what, HIDDEN the directories a login puts first that
 * only each user can see (their own Flatpak installation's exports, an
 * environment.d line naming $HOME).  With USER_DATA_HOME set (a command a
 * user runs for themself, not root), the user's own Flatpak exports below
 * it are searched like the rest. */
#define KIC_SESSION_USER_FLATPAK "~/.local/share/flatpak/exports/share"

typedef struct {
  char *user_data_home; /* in: NULL for root's run, which sees no user's files */
  GPtrArray *origins;   /* out: char*, "FILE added DIR", "FILE set XDG_DATA_DIRS" */
  GPtrArray *hidden;    /* out: char*, directories a login searches that this run cannot */
  GPtrArray *foreign;   /* out: char*, NULL-terminated: the directories another package
                         * manager keeps (Flatpak exports), read but never planted in */
} KicSessionDirs;

/* BASE (the caller's data directories) as a Plasma login on the root gets
 * them: systemd's environment.d files and flatpak's user environment
 * generator, then /etc/profile.d/flatpak.sh, in that order; a generator
 * or login script it cannot model that names XDG_DATA_DIRS is a warning
 * naming it.  transfer full */
char **kic_paths_session_data_dirs (KicFsIndex *index, char **base, KicSessionDirs *out);
void kic_session_dirs_clear (KicSessionDirs *dirs);

#endif /* KIC_PATHS_H */
