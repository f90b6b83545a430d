/* resolver-private.h - what the files of the resolver share (resolver.c,
 * resolver-scan.c, resolver-price.c, resolver-overlay.c), nothing outside
 * them includes it
 */
#ifndef KIC_RESOLVER_PRIVATE_H
#define KIC_RESOLVER_PRIVATE_H

#include "resolver.h"

struct _KicResolver {
  const KicProfile *profile; /* borrowed */
  KicFsIndex *index; /* borrowed */
  GPtrArray *themes; /* KicTheme*, search order; may hold one theme twice */
  char **data_dirs;
  gboolean data_home_hidden;
  char **user_search_paths;
  GHashTable *generic_icons;
  int group_size[KIC_GROUP_LAST];
  const KicOverlay *overlay; /* borrowed, may be NULL */
  /* kic_resolve_priced(): the file name watched, listing -> 1 + the
   * index of its KicPricedLink in WATCH_LINKS, and the MatchBest scan in
   * progress (its theme and the index of the directory it probes, or
   * NULL) */
  const char *watch_file;
  KicPricedWatch *watch;
  GArray *watch_links;
  const KicTheme *scan_theme;
  guint scan_index;
  /* KicTheme* of THEMES -> DirCache[theme->dirs->len]: each directory's
   * listing, looked up the first time a lookup probes the directory */
  GHashTable *dir_caches;
  /* KicTheme* -> ThemeNames*: what a scan that can find nothing costs */
  GHashTable *theme_names;
};

/* Every file name in a theme's directories (a set; the strings belong to
 * the index or the theme), made at the first scan of the theme: a scan for
 * a name none of them holds, and that the overlay does not add, finds
 * nothing whatever the directories, so it is counted, not made -- an
 * index.theme of 100 000 empty directories costs a lookup 100 000 probes
 * per file name it tries, not per lookup (issue 19). */
/* resolver-names.c: a theme's names, each with the indexes of the
 * directories that list it (ThemeNames.names) */
typedef struct _ThemeNameTable ThemeNameTable;
/* room for MAX_NAMES calls of _add(); transfer full */
ThemeNameTable *resolver_name_table_new (guint max_names);
void resolver_name_table_free (ThemeNameTable *table);
/* NAME (which must outlive the table) is listed by directory DIR, DIR
 * rising from one call to the next */
void resolver_name_table_add (ThemeNameTable *table, const char *name, guint dir);
/* Append to AT (may be NULL) the directories that list NAME, rising; TRUE
 * when there is one */
gboolean resolver_name_table_find (const ThemeNameTable *table, const char *name, GArray *at);

typedef struct {
  ThemeNameTable *names; /* file name -> the indexes of the scale-1
                       * directories that list it; NULL until the budget
                       * of asks of each directory is spent
                       * (theme_names_listed()) */
  gsize ask_budget;   /* what asks may still cost before the table is made */
  guint ask_cost;     /* what one ask costs: the scale-1 directories */
  GHashTable *positions; /* KicFsDir* -> GArray of the indexes of the
                          * directories on disk with that listing */
  const KicFsDir **listings; /* per directory: its disk listing, or NULL */
  guint *before;      /* per directory: the scale-1 directories on disk
                       * before it (a scan that hits nothing before I has
                       * made BEFORE[I] calls in it) */
  GHashTable *twice;  /* the listings of directories the theme lists more
                       * than once, or by two paths (a set) */
  guint generation;   /* kic_fs_index_generation() when made */
  guint n_calls;      /* the calls of a MatchBest scan that finds nothing:
                       * one access(2) per scale-1 directory not a Qt
                       * resource (none is pruned before a hit, :235) */
  GHashTable *distances; /* size -> int[2 * dirs->len + 2]: kic_dir_spec_distance()
                          * of each directory, then from each directory on
                          * the least |distance| of a scale-1 directory, or
                          * -1 - that when one of them is not smaller than
                          * the size (resolver_theme_distances()) */
  guint8 *kinds;      /* per directory: 0 not of scale 1, 1 on disk (a probe
                       * costs a call), 2 a Qt resource (it costs none) */
  KicTheme *theme;    /* the theme (a reference: it is the table's key) */
  GArray *hidden;     /* the indexes, rising, of the directories on disk
                       * whose names root does not know: hidden from some
                       * users (kic_fs_dir_hidden()), or a user's past the
                       * bound on names read (kic_fs_dir_listed()); each
                       * may hold any name, as far as root knows */
} ThemeNames;

/* TN's table of names, made when first asked (resolver-scan.c's
 * theme_names_listed()): sized from the directories' counts, then
 * filled (resolver-names.c). */
ThemeNameTable *resolver_theme_names_table (ThemeNames *tn);

/* Where the links kic_resolve_priced() watches are in one theme's
 * directories (as its ThemeNames of GENERATION places them). */
typedef struct {
  guint generation;
  guint *link_at;  /* per directory: 1 + the index of the link whose
                    * listing it has, or 0; NULL when none has */
  GArray *asks;    /* the directories on disk (no Qt resource copy) with
                    * a link's listing (guint, rising) */
} WatchTheme;

struct _KicPricedWatch {
  GHashTable *listings; /* KicFsDir* -> 1 + the index of its link */
  GHashTable *themes;   /* KicTheme* -> WatchTheme* */
};

/* What the resolver keeps of one theme directory once a lookup has
 * probed it, so that the next probe asks neither the index for the
 * listing nor the hash of the path (the overlay's key) again. */
typedef struct {
  const KicFsDir *listing; /* NULL: the directory is not on disk */
  const char *real;        /* its real path (the overlay's key), or NULL */
  guint real_hash;         /* kic_fs_name_hash() of REAL */
  gboolean listed;         /* the three above are filled */
  guint hit_cost;          /* 1 + what a hit costs (resolver_hit_cost()); 0: not known yet */
} DirCache;

/* What the overlay says of one file name in one directory. */
typedef struct {
  char *dir;
  guint dir_hash; /* kic_fs_name_hash (dir): probes compare it first */
  gboolean add;
} OverlayEntry;

/* Directories are named by their real paths (kic_fs_dir_real()): a file
 * the overlay adds to a directory is seen through every path that
 * resolves to it, a theme directory that is a link to another included,
 * as the kernel would show a planted link there. */
struct _KicOverlay {
  /* file name -> GArray of OverlayEntry: keyed by the short name first,
   * since almost every probe asks for a name the overlay lacks; a name
   * has a few directories at most */
  GHashTable *names;
};

/* One lookup in progress. */
typedef struct {
  KicResolver *resolver;
  KicResult *result;
  guint scan_start;  /* calls made before the directory scan that hit */
  char *scan_file;   /* the file name that scan looked for */
} Lookup;

/* One file name asked of every directory of a scan, with what can be
 * worked out once instead of per directory: its hash for the listings,
 * and what the overlay says of that name (almost always nothing). */
typedef struct {
  const char *name;
  gboolean has_slash;
  guint hash;
  const GArray *overlay; /* OverlayEntry, or NULL */
  gboolean watched;      /* the file kic_resolve_priced() watches */
} ProbeFile;

/* resolver-overlay.c */
OverlayEntry * resolver_overlay_find (const GArray *entries, const char *dir, guint dir_hash);
/* resolver-price.c */
guint resolver_hit_cost (KicResolver *resolver, const KicThemeDir *dir, DirCache *cache);
/* resolver-scan.c */
DirCache * resolver_theme_dir_caches (const KicResolver *resolver, const KicTheme *theme);
/* resolver-scan.c */
GArray * resolver_candidate_positions (KicResolver *resolver, const KicTheme *theme, const ProbeFile *file);
/* resolver-scan.c */
KicFsType resolver_index_type (KicResolver *resolver, guint calls, const KicThemeDir *dir, DirCache *cache, const ProbeFile *file);
/* resolver-scan.c */
ThemeNames * resolver_theme_names (KicResolver *resolver, const KicTheme *theme);
/* resolver-scan.c */
const KicThemeDir * resolver_scan_dirs (Lookup *lookup, const KicTheme *theme, const ProbeFile *file, int size, gboolean exact);
/* resolver-scan.c */
const int * resolver_theme_distances (KicResolver *resolver, const KicTheme *theme, int size);
/* resolver-scan.c */
gboolean resolver_overlay_type (KicResolver *resolver, guint calls, const char *path, gboolean mirrored, KicFsType *type);
/* resolver-scan.c */
gboolean resolver_probe_theme_dir (Lookup *lookup, const KicThemeDir *dir, DirCache *cache, const ProbeFile *probe);
/* resolver-scan.c */
gboolean resolver_prune_dir (KicPruneRule rule, int dw, int delta);
/* resolver-scan.c */
gboolean resolver_scan_file (Lookup *lookup, const KicTheme *theme, const char *name, const char *ext, int size, gboolean exact);
/* resolver-scan.c */
gboolean resolver_theme_lookup (Lookup *lookup, const KicTheme *theme, const char *name, int size);
/* resolver-scan.c */
void resolver_discard_hit (Lookup *lookup);
/* resolver-scan.c */
void resolver_probe_file_init (const KicResolver *resolver, ProbeFile *file, const char *name);
/* resolver-scan.c */
void resolver_theme_names_free (gpointer data);
/* resolver-price.c */
const WatchTheme * resolver_watch_theme (KicResolver *resolver, const KicTheme *theme);
/* resolver.c */
gboolean resolver_apps_first_pass (Lookup *lookup, const char *name, int size);
/* resolver.c */
void resolver_count_call (Lookup *lookup, KicCallKind kind, const char *path, gboolean hit);
/* resolver.c */
void resolver_resolve_lookup (Lookup *lookup, const char *name, int size);

#endif
