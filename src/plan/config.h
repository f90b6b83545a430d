/* config.h - /etc/kde-icon-cache.conf
 *
 *   [kde-icon-cache]
 *   Sizes=16:1,22:2,32:2,48:4   # N[:WEIGHT], the sizes to make fast
 *   Themes=breeze                # the current themes to plant for
 *   ExtraNames=firefox-esr       # names KDE looks up that no menu file names
 *   ExcludeNames=org.gnome.Chess # names never planted (a user's own icons)
 *   PerSizeSets=false            # plant per-size sets (plan.c; not kill-safe)
 *   UnthemedLinks=false          # links for names KDE finds outside the themes
 */
#ifndef KIC_CONFIG_H
#define KIC_CONFIG_H

#include "fsindex.h"

#include <glib.h>

#define KIC_CONFIG_FILE "/etc/kde-icon-cache.conf"
#define KIC_CONFIG_GROUP "kde-icon-cache"

/* A size the menus ask for and how much a call at that size weighs
 * (Sizes=, --size N:WEIGHT). */
typedef struct {
  int size;
  double weight;
} KicTarget;

typedef struct {
  char *path;      /* the file, as messages name it (on the host) */
  GArray *targets; /* KicTarget; empty when the file sets none */
  char **themes;   /* NULL when the file sets none */
  char **extra_names; /* ExtraNames=, never NULL */
  char **exclude_names; /* ExcludeNames=, never NULL: names no link is planted for */
  gboolean per_size_sets; /* PerSizeSets=: plant them (off: a run killed
                           * half way could leave part of a set) */
  gboolean unthemed_links; /* UnthemedLinks=: links in a theme for names KDE
                            * finds only outside the themes (off: every
                            * longer name cut back to one would change) */
} KicConfig;

/* Read the configuration file inside the root; a missing file is an empty
 * configuration, a bad value an error naming the file and key
 * (KIC_ERROR_CONFIG), a key or group it does not know a warning. */
gboolean kic_config_load (KicFsIndex *index, KicConfig *config, GError **error);
void kic_config_clear (KicConfig *config);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KicConfig, kic_config_clear)

/* Drop from NAMES (the menu's, kic_menu_icons()) every name the
 * configuration excludes, as written or without its extension: a user
 * who keeps their own icon under such a name sees it again (SECURITY.md). */
void kic_config_exclude (const KicConfig *config, GPtrArray *names);

/* Parse "N" or "N:WEIGHT" (N 1-4096, WEIGHT > 0) into TARGETS. */
gboolean kic_config_parse_size (const char *text, GArray *targets, GError **error);

#endif /* KIC_CONFIG_H */
