/* resolver.h - KIconLoader::iconPath() and its cost, for each KDE generation
 *
 * KDE Frameworks 5.103 is the reference; the profile (profile.h) switches
 * on what KF6, KDE 4 and KDE 3 do differently.  The resolver is pure: it
 * sees the themes and a KicFsIndex, never the file system itself.  For
 * every lookup it also counts the file system calls KDE makes for it, as
 * strace shows them: one access(2) per candidate, one stat(2) of
 * "<dir>/l10n" after every hit in a theme directory (KF), one stat(2) per
 * file name the "User" group (KDE 3/4: "appicon") fallback tries.  Probes
 * of Qt resources (":/icons/...") are listed but cost nothing.
 */
#ifndef KIC_RESOLVER_H
#define KIC_RESOLVER_H

#include "fsindex.h"
#include "profile.h"
#include "sha256.h"
#include "theme.h"

#include <glib.h>

typedef enum {
  KIC_VIA_NONE,     /* KDE finds nothing */
  KIC_VIA_ABSOLUTE, /* an absolute path: KDE returns it as it is */
  KIC_VIA_THEME,    /* found in a theme directory */
  KIC_VIA_GENERIC,  /* found in a theme under its mime/generic-icons name */
  KIC_VIA_USER,     /* found by the "User" group fallback (pixmaps, icons) */
} KicVia;

typedef enum {
  KIC_CALL_ACCESS, /* access(path, F_OK): QFileInfo::exists() */
  KIC_CALL_L10N,   /* stat(<dir>/l10n): KLocalizedString::localizedFilePath() */
  KIC_CALL_STAT,   /* stat(path): QStandardPaths::locate(), KStandardDirs::findResource() */
  KIC_CALL_RESOURCE, /* a Qt resource path: no system call, not counted */
  KIC_CALL_RESOURCE_L10N, /* the l10n check of a resource hit: the same */
} KicCallKind;

typedef struct {
  KicCallKind kind;
  char *path;
  gboolean hit;
} KicCall;

typedef struct {
  char *path;               /* what KDE returns; NULL when nothing */
  KicVia via;
  const KicTheme *theme;    /* KIC_VIA_THEME/GENERIC: the theme it came from */
  const KicThemeDir *dir;   /* ... and the directory */
  guint n_calls;            /* KDE's file system calls for this lookup */
  GPtrArray *calls;         /* KicCall*, only when asked for */
  guint shared;             /* how many owners besides the first: the
                             * arrays of kic_resolve_sizes() hold one result
                             * for a run of sizes that get the same one
                             * (kic_result_free() drops one owner) */
} KicResult;

typedef struct _KicResolver KicResolver;

/* The settings of the KDE process being modelled. */
typedef struct {
  const KicProfile *profile; /* the generation; borrowed, must outlive the resolver */
  GPtrArray *themes;         /* KicTheme*, in KDE's search order ("links"); taken */
  char **data_dirs;          /* GenericDataLocation dirs KDE's process sees, in order */
  gboolean data_home_hidden; /* KDE also has the user's $XDG_DATA_HOME first, which we cannot see */
  char **user_search_paths;  /* the "User" group: "<app>/pics", "icons", "pixmaps"
                              * (in each data dir), or absolute directories */
  GHashTable *generic_icons; /* mime icon name -> generic icon name; taken, may be NULL */
  int group_size[KIC_GROUP_LAST];
  GHashTable *theme_names;   /* what each theme's directories list, shared by the
                              * resolvers over one index (kic_resolver_names_new());
                              * borrowed; NULL: the resolver's own */
} KicResolverSetup;

/* A table for KicResolverSetup.theme_names: the resolvers of one run look
 * up the same themes (the current theme's user, any other theme's, the
 * processes with and without the platform theme), and the name table of
 * a large theme is the largest thing a lookup builds.  transfer full */
GHashTable *kic_resolver_names_new (void);

/* transfer full; takes over setup->themes and setup->generic_icons */
KicResolver *kic_resolver_new (KicResolverSetup *setup, KicFsIndex *index);
void kic_resolver_free (KicResolver *resolver);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicResolver, kic_resolver_free)

/* transfer none */
const GPtrArray *kic_resolver_themes (const KicResolver *resolver);
int kic_resolver_group_size (const KicResolver *resolver, KicGroup group);

/* Changes to the file system the resolver pretends are made: the
 * planner's links before they are written (added), and the links of a
 * previous run, which must not count as KDE's own files (hidden). */
typedef struct _KicOverlay KicOverlay;

KicOverlay *kic_overlay_new (void);
void kic_overlay_free (KicOverlay *overlay);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicOverlay, kic_overlay_free)
/* DIR/NAME exists as a regular file (ADD) or does not exist (!ADD) */
void kic_overlay_set (KicOverlay *overlay, const char *dir, const char *name, gboolean add);
/* Forget what was said about DIR/NAME */
void kic_overlay_unset (KicOverlay *overlay, const char *dir, const char *name);
/* TRUE when the overlay says something about DIR/NAME; *ADD tells what */
gboolean kic_overlay_lookup (const KicOverlay *overlay, const char *dir, const char *name, gboolean *add);
/* TRUE when the overlay says something about NAME in any directory */
gboolean kic_overlay_has_name (const KicOverlay *overlay, const char *name);

/* Use OVERLAY (transfer none: the caller keeps it alive); NULL for none.
 * Its directories are real paths (kic_fs_index_realpath()): a file it adds
 * is seen through every path that resolves to that directory, the "User"
 * group's directories included. */
void kic_resolver_set_overlay (KicResolver *resolver, const KicOverlay *overlay);


/* KIconLoader::iconPath(NAME, -SIZE, canReturnNull = true) at scale 1.
 * With RECORD the result lists every call.  transfer full */
KicResult *kic_resolve (KicResolver *resolver, const char *name, int size, gboolean record);
/* What Plasma 5's IconItem asks before KIconLoader: NAME.svg, then
 * NAME.svgz, of the root theme alone, MatchBest at SIZE (resolver.c
 * says where in KDE).  transfer full */
KicResult *kic_resolve_icon_item (KicResolver *resolver, const char *name, int size, gboolean record);
void kic_result_free (KicResult *result);

typedef struct _KicPricedWatch KicPricedWatch;

/* A link the planner could add, priced by kic_resolve_priced(). */
typedef struct {
  const KicTheme *theme;   /* its theme and directory (on disk, no Qt resource) */
  const KicThemeDir *dir;
  const KicFsDir *listing; /* the listing of that directory's real path */
  gboolean asked;          /* out: the lookup asks what the file is there */
  gboolean exact;          /* out: CALLS is what the lookup costs with the
                            * file there; else a lower bound of it */
  guint calls;             /* out: the calls, or their lower bound; 0 when
                            * not ASKED (then the lookup is the same as
                            * without the link, content and cost) */
  guint position;          /* (the index of DIR in the theme's directories) */
} KicPricedLink;

/* kic_resolve (RESOLVER, NAME, SIZE, FALSE), and what the same lookup
 * costs with FILE (NAME with an extension) added by the overlay in each
 * of LINKS (KicPricedLink) instead -- each alone -- from one lookup and
 * one pass over a theme's directories, not a lookup per link: the lookup
 * with the link makes the same calls up to its first question about the
 * link's directory, and (KF) when that comes from the MatchBest scan of
 * the link's own directory, the scan then hits there and the rest of it
 * depends only on where (kicontheme.cpp:235).  Elsewhere (KDE 3/4, a
 * directory reached through a link from an earlier theme, a theme with
 * too many distinct distances) CALLS is a lower bound: the calls before
 * the question and the question itself.  transfer full */
KicResult *kic_resolve_priced (KicResolver *resolver, const char *name, int size, const char *file, GArray *links,
                               KicPricedWatch *watch);
/* The watch kic_resolve_priced() takes for LINKS: each link's listing, and
 * for each theme a scan meets, where in it they are (worked out once, not
 * per lookup: a theme of 100 000 candidates is walked once per name).
 * Made once for every lookup priced over the same LINKS (the same
 * listings in the same order).  transfer full */
KicPricedWatch *kic_priced_watch_new (const GArray *links);
void kic_priced_watch_free (KicPricedWatch *watch);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicPricedWatch, kic_priced_watch_free)

/* kic_resolve() at every size from MIN to MAX, element s - MIN, at a
 * fraction of the cost (without the call lists).  transfer full */
GPtrArray *kic_resolve_sizes (KicResolver *resolver, const char *name, int min, int max);
/* The same without counting the calls past MIN (their n_calls are 0):
 * each size then costs a walk over the directories that hold the file,
 * not over all of them.  What the proof needs.  transfer full */
GPtrArray *kic_resolve_sizes_uncounted (KicResolver *resolver, const char *name, int min, int max);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicResult, kic_result_free)

/* Every file name stem (without extension) a lookup of NAME may try in
 * a theme directory: the name, its dash cuts, -x-generic and -symbolic
 * forms (as the generation makes them), and the same for its
 * mime/generic-icons name.  A lookup can only change when a
 * file with one of these stems appears or goes.  transfer full */
GPtrArray *kic_resolver_lookup_stems (KicResolver *resolver, const char *name);

/* Feed everything RESOLVER's lookups depend on but the listings of its
 * directories and the files in them (the profile, the themes in order,
 * each directory with its real path and specification, the data and
 * search directories, the mime generic icons, the group sizes) into
 * CHECKSUM: two resolvers with the same digest answer every lookup alike
 * over the same files (state.h keys what a run learned with it).  MEMO
 * (kic_resolver_digest_memo_new(), or NULL) keeps the digest of each
 * theme and table seen, for the next resolver over the same index while
 * the index does not change (one plan's resolvers share their themes). */
void kic_resolver_digest (const KicResolver *resolver, KicSha256 *checksum, GHashTable *memo);
/* transfer full: g_hash_table_unref() */
GHashTable *kic_resolver_digest_memo_new (void);

/* The mime/generic-icons name of NAME (a name without extension), or
 * NULL.  transfer none */
const char *kic_resolver_generic_icon (const KicResolver *resolver, const char *name);
/* Every mime/generic-icons name: mime icon name -> generic icon name, or
 * NULL when there are none.  transfer none */
GHashTable *kic_resolver_generic_icons (const KicResolver *resolver);

/* Could a directory of THEME hold FILE (a file name with no '/')?  FALSE
 * when none of its directories' listings (or Qt resources) has the name:
 * then only a file the overlay adds can be found there. */
gboolean kic_resolver_theme_may_hold (KicResolver *resolver, const KicTheme *theme, const char *file);

/* Does the lookup of NAME reach a -x-generic form in its first theme: NAME
 * ends with "-x-generic", or its dash cuts end at a media type ("text-foo"
 * -> "text" -> "text-x-generic")?  Then KDE tries only NAME itself in every
 * later theme (genericFallback is set once for the whole theme loop,
 * kiconloader.cpp:844, :884-887; KF6 @v6.13.0 :793, :857-860). */
gboolean kic_resolver_cuts_to_generic (const KicResolver *resolver, const char *name);

/* The directories the "User" group looks in, in order (each search path
 * in every data directory; an absolute one as it is).  transfer full */
GPtrArray *kic_resolver_user_dirs (const KicResolver *resolver);

/* Which of the four image extensions KDE knows (.png .xpm .svg .svgz,
 * kiconloader.cpp:588-599) NAME ends with; NULL for none.  transfer none */
const char *kic_icon_name_extension (const char *name);

/* KIconLoaderPrivate::removeIconExtension(): strip one of .png .xpm .svg
 * .svgz.  transfer full */
char *kic_icon_name_strip_extension (const char *name);

/* QDir::isAbsolutePath(): "/..." or a Qt resource ":...". */
gboolean kic_icon_name_is_absolute (const char *name);

const char *kic_via_to_string (KicVia via);

#endif /* KIC_RESOLVER_H */
