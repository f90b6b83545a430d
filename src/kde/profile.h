/* profile.h - the KDE generations kde-icon-cache can model
 *
 * One table of differences per generation (kde-lookup.md §2-§7,
 * tests/profiles/MODEL.md), and for KF6 one per range of KIconThemes
 * releases whose lookup differs, read by the one theme loader and
 * resolver: there is no copy of the lookup per generation.
 */
#ifndef KIC_PROFILE_H
#define KIC_PROFILE_H

#include "fsindex.h"

#include <glib.h>

typedef enum {
  KIC_KDE_KF5,
  KIC_KDE_KF6,
  KIC_KDE_KDE4,
  KIC_KDE_KDE3,
} KicKdeGeneration;

/* How the MatchBest scan prunes a directory (kde-lookup.md §1.2). */
typedef enum {
  KIC_PRUNE_KF,   /* KF5/KF6/KDE4: |dw| >= |delta| && (dw < 0 || delta > 0); delta from -inf */
  KIC_PRUNE_KDE3, /* KDE3: |dw| >= |delta| || (delta > 0 && dw < 0); delta from -1000 */
} KicPruneRule;

/* How a theme is searched for one name (kde-lookup.md §3). */
typedef enum {
  KIC_PASSES_BEST,           /* KF: per extension, MatchBest only */
  KIC_PASSES_EXACT_BEST,     /* KDE4: per extension, MatchExact then MatchBest */
  KIC_PASSES_ALL_EXACT_FIRST /* KDE3: every extension MatchExact, then every one MatchBest */
} KicPasses;

typedef struct {
  KicKdeGeneration generation;
  const char *name;               /* "kf5", as --kde= takes it */
  const char *title;              /* "KDE Frameworks 5" */
  int since[2];                   /* the first release the row models (KF6:
                                   * {6, 14}); {0, 0}: every release */
  const char *releases;           /* "6.14-6.18", for -v; NULL: every release */
  const char *configured_default; /* what an unset [Icons] Theme= means */
  const char *default_theme;      /* KIconTheme::defaultThemeName(): the root when the
                                   * current theme is invalid */
  const char *base_theme;         /* added after the inherits (KF: the fallback), NULL: none */
  const char *platform_theme;     /* KF6: the KDE platform theme's plugin (under a library
                                   * directory); when installed, a Plasma session's
                                   * KIconLoader has no base_theme; NULL: no such effect */
  gboolean hicolor_last;          /* hicolor is added at the end of the list */
  const char *app_name;           /* the menu's process: its app bases and pics dir */
  const char *const *config_files; /* kdeglobals, highest priority first; NULL: $XDG_CONFIG_DIRS */
  const char *kde_data;           /* KStandardDirs "data" of KDE 3/4 (appicon); NULL for KF */
  gboolean hicolor_embedded;      /* hicolor's description is kiconthemes' own */
  gboolean filesystems_valid;     /* Context=FileSystems is accepted */
  gboolean context_type_required; /* a section without Context= or Type= is invalid */
  gboolean scaled_dirs;           /* Scale= and ScaledDirectories= are read */
  gboolean theme_extensions;      /* KDE-Extensions= is read */
  const char *default_extensions; /* without KDE-Extensions=: ".png,.svgz,.svg,.xpm" */
  gboolean resources_last;        /* KF6 6.14: :/icons is the last base, not the first */
  const char *user_extensions;    /* the "User" group's order: ".png,.svgz,.svg,.xpm" */
  const char *index_files[2];     /* description files, first found wins */
  const char *index_sections[2];  /* ... and their main section */
  gboolean hicolor_is_default;    /* a current theme "hicolor" (or empty) means default_theme */
  gboolean dedup_theme_dirs;      /* a theme directory path is listed once */
  gboolean inherits_to_default;   /* hicolor/default in Inherits= become default_theme */
  gboolean inherits_keep_hicolor; /* KDE3: hicolor in Inherits= is followed (and may repeat) */
  KicPasses passes;
  KicPruneRule prune;
  gboolean name_variants;         /* dash cuts and -x-generic */
  gboolean symbolic_variants;     /* KF6: -symbolic kept through the cuts */
  gboolean generic_icons;         /* mime/generic-icons fallback */
  gboolean l10n_stat;             /* a hit stats "<dir>/l10n" (KLocalizedString) */
  gboolean kdeglobals_sizes;      /* [<Group>Icons] Size= in kdeglobals counts */
  int builtin_group_size[6];      /* Desktop Toolbar MainToolbar Small Panel Dialog */
  const int *menu_sizes;          /* the sizes the menu asks for, 0-terminated */
  const double *menu_weights;     /* ... and their default weights */
} KicProfileTable;

/* The generation being modelled and what was found out about it. */
typedef struct {
  const KicProfileTable *table;
  int version[3];           /* KDE 4: 4.X.Y, KF6: 6.X.Y; {0} when unknown */
  gboolean version_detected; /* ... read from the installed library's file name */
  gboolean breeze_embedded; /* KF6: kiconthemes carries breeze in :/icons/breeze */
  /* ... and what it holds, read from libKF6BreezeIcons.so.6: directory
   * (":/icons/breeze/actions/16") -> set of file names, and the text of
   * its index.theme; NULL when it could not be read (breeze_problem) */
  GHashTable *breeze_resource_dirs;
  char *breeze_resource_index;
  gsize breeze_resource_index_length;
  char *breeze_library;     /* where it was read from, inside the root */
  char *breeze_problem;     /* why it could not be read, or NULL */
  gboolean apps_first_pass; /* KDE 4.10.1 and later (§3.2) */
  gboolean platform_theme;  /* KF6: the table's platform_theme plugin is installed: the
                             * menu's process (plasmashell in a Plasma session) loads it */
  gboolean gtk_icon_cache;  /* KF6: KIconThemes reads GTK's icon-theme.cache (KDE/kiconthemes
                             * a8749c1, in no release yet): told by the library itself, or
                             * --kde=kf6-iconcache (theme-gtkcache.c) */
  char *found;              /* the library it was detected from (inside the root), or NULL */
} KicProfile;

/* --kde=NAME, its oldest row; NULL for an unknown name.  transfer none */
const KicProfileTable *kic_profile_table (const char *name);

/* The row of generation NAME that models release VERSION (KF6: the last
 * whose since is at most VERSION); NULL for an unknown name.  transfer none */
const KicProfileTable *kic_profile_table_for (const char *name, const int version[3]);

/* The release KF6 is taken to be when neither --kde-version nor the
 * installed library tells: Debian 13's. */
#define KIC_KF6_DEFAULT_VERSION "6.13.0"

/* "4.8.4", "4.10" (KDE 4) or "6.30.0", "6.14" (KF6) into VERSION; FALSE
 * when it is neither. */
gboolean kic_profile_parse_version (const char *text, int version[3]);

/* The newest KIconThemes release the KF6 rows were checked against (by
 * tests/integration/oracle-kf6.sh): a newer one is planned with the last
 * row, and a warning says so. */
#define KIC_KF6_CHECKED_MAJOR 6
#define KIC_KF6_CHECKED_MINOR 30

/* The --kde-version suffix of a KIconThemes that reads GTK's
 * icon-theme.cache (KDE/kiconthemes a8749c1): "6.30.0+iconcache". */
#define KIC_KF6_ICON_CACHE_SUFFIX "+iconcache"

/* Are --kde=KIND and --kde-version=VERSION (each may be NULL) valid on
 * their own?  KIC_ERROR_USAGE naming the value when not. */
gboolean kic_profile_check_options (const char *kind, const char *version, GError **error);

/* The profile of the system under INDEX: KIND is "auto" (look at the
 * libraries installed), or a --kde name.  VERSION (--kde-version, may be
 * NULL) overrides the detected KDE 4 or KF6 release.  transfer full */
KicProfile *kic_profile_new (KicFsIndex *index, const char *kind, const char *version, GError **error);
void kic_profile_free (KicProfile *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicProfile, kic_profile_free)

/* "kf5", "kf6 6.30.0 (6.25 and later, breeze embedded)", "kde4 4.14.2":
 * what -v prints.  transfer full */
char *kic_profile_describe (const KicProfile *profile);

/* The same as one word, for the manifest: "kf5", "kf6-6.30.0+breeze",
 * "kde4-4.14.2".  transfer full */
char *kic_profile_id (const KicProfile *profile);

#endif /* KIC_PROFILE_H */
