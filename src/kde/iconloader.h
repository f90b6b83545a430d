/* iconloader.h - the KIconLoader a KDE process builds, read from a (rooted) system
 *
 * Reads what a KDE process of the profile's generation reads when it
 * builds its KIconLoader: the current theme from kdeglobals, the base
 * directories, each theme's index.theme, mime/generic-icons, and then
 * builds the theme list exactly as KIconLoaderPrivate::initIconThemes()
 * does.  All disk access goes through the KicFsIndex, so each directory is
 * read once.
 */
#ifndef KIC_ICONLOADER_H
#define KIC_ICONLOADER_H

#include "fsindex.h"
#include "paths.h"
#include "profile.h"
#include "resolver.h"

#include <glib.h>

typedef struct {
  const char *root;     /* host directory of the system; "/" when NULL */
  const char *theme;    /* --theme: overrides kdeglobals when not NULL */
  const char *app_name; /* QCoreApplication::applicationName(); the profile's menu when NULL */
  const char *kde;      /* --kde: "auto" (NULL) or a generation */
  const char *kde_version; /* --kde-version, or NULL */
  char **data_dirs;     /* NULL: $XDG_DATA_DIRS; a login's additions follow (paths.h) */
  const char *user_data_home; /* a user's own run: their $XDG_DATA_HOME (paths.h), else NULL */
  char **config_dirs;   /* NULL: $XDG_CONFIG_DIRS */
  gboolean keep_stamps; /* the index keeps what it read (fingerprint.h) */
  /* called with the index before anything is read (kic_fs_index_seed()) */
  void (*seed) (KicFsIndex *index, gpointer data);
  gpointer seed_data;
} KicSystemOptions;

typedef struct {
  KicFsIndex *index;
  KicProfile *profile;   /* the KDE generation */
  char **data_dirs;      /* inside the root, as a login session gets them (paths.h) */
  KicSessionDirs session; /* where the session's data directories came from */
  char **config_dirs;    /* inside the root */
  char **icon_bases;     /* the theme bases that exist, in the profile's order (§2) */
  char *configured_theme; /* kdeglobals [Icons] Theme= or --theme, before validity */
  char *current_theme;   /* the theme KDE ends up using first */
  char *app_name;
  GPtrArray *kdeglobals; /* GKeyFile*, highest priority first */
  KicResolver *resolver; /* for the configured theme */
  GHashTable *themes;    /* the themes loaded (kic_theme_cache_new()) */
  GHashTable *theme_descs; /* the index.theme files parsed (kic_theme_desc_cache_new()) */
  GHashTable *theme_names; /* their names, for every resolver (kic_resolver_names_new()) */
  GHashTable *generic_icons; /* mime/generic-icons (kic_mime_generic_icons()), read for
                              * the first resolver and shared by every one */
} KicSystem;

/* transfer full */
KicSystem *kic_system_load (const KicSystemOptions *options, GError **error);
/* The same over INDEX (taken, even on failure) instead of one of
 * options->root: a virtual index (fsindex.h) gives a system with no disk
 * behind it, which the planner's unit tests use.  transfer full */
KicSystem *kic_system_load_index (const KicSystemOptions *options, KicFsIndex *index, GError **error);
void kic_system_free (KicSystem *system);

/* Another KDE process on the same system and index: one whose kdeglobals
 * names CONFIGURED_THEME, or with OTHER_THEME, one whose current theme is
 * some theme holding none of the names (every chain ends with the
 * generation's base themes, e.g. breeze and hicolor, so plants there
 * reach such users too).
 * *USED_THEME (transfer full, may be NULL) gets the theme KDE uses first.
 * transfer full */
KicResolver *kic_system_new_resolver (KicSystem *system, const char *configured_theme,
                                      gboolean other_theme, char **used_theme);
/* The same for a process that loads the KDE platform theme or not
 * (kic_system_new_resolver(): as the menu's process, profile->platform_theme).
 * transfer full */
KicResolver *kic_system_new_resolver_for (KicSystem *system, const char *configured_theme, gboolean other_theme,
                                          gboolean platform_theme, char **used_theme);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicSystem, kic_system_free)

/* Whether KDE would use the theme NAME on the system (an index.theme in
 * one of its bases, or built in, with a valid directory): a current
 * theme it would not is replaced by the default (kiconloader.cpp
 * initIconThemes()). */
gboolean kic_system_has_theme (KicSystem *system, const char *name);

#endif /* KIC_ICONLOADER_H */
