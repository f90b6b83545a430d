/* theme.h - the index.theme model, as each KDE generation reads it (the
 * differences, such as KDE 3's index.desktop or the Scale= keys KDE 4 does
 * not read, are profile.h's table)
 *
 * A KicThemeDesc is what one index.theme says (pure data, parsed from
 * text).  A KicTheme is that description laid over the base directories
 * where the theme exists, keeping only the directories that exist on disk,
 * in KDE's order: Directories= entry major, base directory minor.
 */
#ifndef KIC_THEME_H
#define KIC_THEME_H

#include "fsindex.h"
#include "profile.h"

#include <glib.h>

/* KIconLoader::Group, in the order of kiconloader.h */
typedef enum {
  KIC_GROUP_DESKTOP,
  KIC_GROUP_TOOLBAR,
  KIC_GROUP_MAIN_TOOLBAR,
  KIC_GROUP_SMALL,
  KIC_GROUP_PANEL,
  KIC_GROUP_DIALOG,
  KIC_GROUP_LAST,
} KicGroup;

typedef enum {
  KIC_DIR_FIXED,
  KIC_DIR_SCALABLE,
  KIC_DIR_THRESHOLD,
} KicDirType;

/* One [section] of index.theme. */
typedef struct {
  char *name; /* as listed in Directories=, e.g. "actions/32" */
  gboolean valid;
  KicDirType type;
  int size;
  int scale;
  int min_size;
  int max_size;
  int threshold;
} KicDirSpec;

typedef struct {
  char *name;   /* internal name: the directory name of the theme */
  char *origin; /* the file it was read from, for messages */
  char **inherits;
  char **extensions;
  gboolean follows_color_scheme;
  int group_default[KIC_GROUP_LAST];
  GPtrArray *dirs; /* KicDirSpec*, Directories= then ScaledDirectories= */
} KicThemeDesc;

/* A directory of a theme that exists on disk, or in a Qt resource. */
typedef struct {
  const KicDirSpec *spec; /* owned by the theme's desc */
  char *path;             /* "<base>/<theme>/<dir>", no trailing slash */
  GHashTable *resource_files; /* a ":/icons/..." directory read from the
                               * library: its file names (borrowed) */
  char *mirror;           /* a ":/icons/..." directory that could not be
                           * read: the disk directory taken to hold the
                           * same files; else NULL */
  gboolean real;          /* PATH is a real directory as the index sees it:
                           * reached with no symbolic link and no ".."
                           * (kic_theme_dir_is_plantable()) */
  const struct _KicGtkCache *gtk_cache; /* the valid icon-theme.cache of its
                           * base that answers "not here" for it
                           * (kic_theme_use_gtk_caches()), or NULL */
} KicThemeDir;

typedef struct {
  KicThemeDesc *desc;
  gboolean guessed_resource; /* some ":/" directories are only taken to
                              * mirror a disk copy (KicResource.mirror) */
  GPtrArray *dirs;        /* KicThemeDir*, Scale 1 (and below), scan order */
  GPtrArray *scaled_dirs; /* KicThemeDir*, Scale >= 2 */
  GPtrArray *gtk_caches;  /* KicGtkCache* its directories use, or NULL */
  gint ref;               /* kic_theme_ref(), kic_theme_free() */
} KicTheme;

/* Parse index.theme text as PROFILE's KDE reads it.  SECTION is "Icon Theme" (index.theme) or "KDE
 * Icon Theme" (theme.desktop).  Lines KConfig would skip are skipped with a
 * warning naming ORIGIN.  transfer full */
KicThemeDesc *kic_theme_desc_parse (const KicProfileTable *profile, const char *name, const char *origin, const char *data,
                                    gsize length, const char *section, GError **error);

/* The hicolor description compiled into kiconthemes 5 and 6
 * (src/hicolor.theme), which KF reads instead of
 * /usr/share/icons/hicolor/index.theme, as PROFILE takes it. */
KicThemeDesc *kic_theme_desc_hicolor_embedded (const KicProfileTable *profile);

void kic_theme_desc_free (KicThemeDesc *desc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicThemeDesc, kic_theme_desc_free)

/* The descriptions a system parsed, each under its origin and section
 * with the bytes it was parsed from: a theme list that names a theme
 * twice (breeze, current and fallback), and each resolver's list, loads
 * the theme again, and breeze's index.theme was parsed four times a run.
 * transfer full */
GHashTable *kic_theme_desc_cache_new (void);
/* kic_theme_desc_parse(), or a copy of what CACHE holds for the same
 * text: the same result, and the same warnings, which a parse gives once
 * per run.  transfer full */
KicThemeDesc *kic_theme_desc_parse_cached (GHashTable *cache, const KicProfileTable *profile, const char *name,
                                           const char *origin, const char *data, gsize length, const char *section,
                                           GError **error);

/* Is size S an exact fit for DIR (KIconThemePrivate::iconPath, MatchExact)? */
gboolean kic_dir_spec_exact (const KicDirSpec *dir, int size);

/* The MatchBest distance of DIR to size S: 0 inside the range, negative when
 * the icon would have to be scaled up, positive when down. */
int kic_dir_spec_distance (const KicDirSpec *dir, int size);

/* What a ":/icons/<theme>" base holds: read from the library (DIRS), or,
 * when that could not be done, taken to be what the disk base MIRROR
 * holds. */
typedef struct {
  GHashTable *dirs;   /* ":/icons/breeze/actions/16" -> set of file names, or NULL */
  const char *mirror; /* used when DIRS is NULL */
} KicResource;

/* Instantiate DESC over THEME_BASES ("<base>/<theme>" paths in KDE's base
 * order), keeping the directories INDEX (or, for a base starting with
 * ":", RESOURCE) says exist.  With DEDUP a directory path is listed once
 * (all but KDE 3).  transfer full; DESC is taken over. */
KicTheme *kic_theme_new (KicThemeDesc *desc, GPtrArray *theme_bases, const KicResource *resource,
                         gboolean dedup, KicFsIndex *index);
/* DESC with every directory present but lying nowhere on disk: a theme
 * that probes in vain.  transfer full; DESC is taken over. */
KicTheme *kic_theme_new_nowhere (KicThemeDesc *desc);
/* Themes are read-only once made: one can stand in several theme lists
 * (each resolver keeps its own caches of it).  transfer full */
KicTheme *kic_theme_ref (KicTheme *theme);
/* Drop a reference; the last one frees THEME. */
void kic_theme_free (KicTheme *theme);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicTheme, kic_theme_free)

/* A KIconThemes that reads GTK's icon-theme.cache (profile.h,
 * gtk_icon_cache): give each directory of THEME on disk the cache of its
 * base ("<base>/<theme>/icon-theme.cache") when that KIconThemes would
 * use it (theme-gtkcache.c); a cache found but not used is a note naming
 * it.  Before the theme is shared. */
void kic_theme_use_gtk_caches (KicTheme *theme, KicFsIndex *index);

/* Is DIR a Qt resource directory (read from the library, or guessed)?
 * Nothing can be planted there. */
static inline gboolean
kic_theme_dir_is_resource (const KicThemeDir *dir)
{
  return dir->resource_files != NULL || dir->mirror != NULL;
}

/* May a link be planted in DIR?  Not in a Qt resource, nor in a directory
 * reached through a symbolic link or a ".." component (issue 19): KDE
 * follows those, and so does the model, but the place they lead to is no
 * directory of the theme (Directories=../../../../../etc/logrotate.d).
 * The index's view only: the writer opens the directory with
 * kic_trusted_dir_open() (trusted.h), which also checks owners and modes,
 * on the disk as it is then. */
static inline gboolean
kic_theme_dir_is_plantable (const KicThemeDir *dir)
{
  /* nor where a valid icon-theme.cache answers: a link there is never
   * seen while the cache stays valid, and one that changed the
   * directory's time would make the whole base's cache stale */
  return dir->real && !kic_theme_dir_is_resource (dir) && dir->gtk_cache == NULL;
}

/* The themes a system loaded, each under its name for the index
 * generation (kic_fs_index_generation()) it was made from: what a theme
 * is depends only on the system and the index, so every theme list can
 * share it.  transfer full */
GHashTable *kic_theme_cache_new (void);
/* The theme kept for NAME and GENERATION, unless TAKEN (the list being
 * built, may be NULL) holds it already: a list that names a theme twice
 * (breeze, current and fallback) keeps two themes, as it always did.
 * NULL when there is none.  transfer full */
KicTheme *kic_theme_cache_find (GHashTable *cache, const char *name, guint generation, GPtrArray *taken);
/* Keep THEME (a reference) for NAME and GENERATION, unless one is kept
 * for them already. */
void kic_theme_cache_keep (GHashTable *cache, const char *name, guint generation, KicTheme *theme);

/* kicontheme.cpp:430-433: a theme with no usable directory is skipped. */
gboolean kic_theme_is_valid (const KicTheme *theme);

#endif /* KIC_THEME_H */
