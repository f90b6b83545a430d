/* resolver.c - KDE's icon lookup over a KicFsIndex
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless
 * kicontheme.cpp is named; "§" is kde-lookup.md, which gives the lines of
 * the other generations, whose differences come from the profile.  The
 * loop order is theme -> name variant -> extension -> directory.
 */
#include "resolver.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
  GHashTable *watch;
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
typedef struct {
  GHashTable *names;  /* file name -> GArray of the indexes (guint, rising)
                       * of the scale-1 directories that list it */
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
                          * the size (theme_distances()) */
  guint8 *kinds;      /* per directory: 0 not of scale 1, 1 on disk (a probe
                       * costs a call), 2 a Qt resource (it costs none) */
} ThemeNames;

static void
theme_names_free (gpointer data)
{
  ThemeNames *tn = data;

  g_hash_table_unref (tn->names);
  g_hash_table_unref (tn->positions);
  g_free (tn->listings);
  g_free (tn->before);
  g_hash_table_unref (tn->twice);
  g_hash_table_unref (tn->distances);
  g_free (tn->kinds);
  g_free (tn);
}

/* What the resolver keeps of one theme directory once a lookup has
 * probed it, so that the next probe asks neither the index for the
 * listing nor the hash of the path (the overlay's key) again. */
typedef struct {
  const KicFsDir *listing; /* NULL: the directory is not on disk */
  const char *real;        /* its real path (the overlay's key), or NULL */
  guint real_hash;         /* kic_fs_name_hash() of REAL */
  gboolean listed;         /* the three above are filled */
  guint hit_cost;          /* 1 + what a hit costs (hit_cost()); 0: not known yet */
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

static void
overlay_entry_clear (gpointer data)
{
  g_free (((OverlayEntry *) data)->dir);
}

KicOverlay *
kic_overlay_new (void)
{
  KicOverlay *overlay = g_new0 (KicOverlay, 1);

  overlay->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  return overlay;
}

void
kic_overlay_free (KicOverlay *overlay)
{
  if (overlay == NULL)
    return;
  g_hash_table_unref (overlay->names);
  g_free (overlay);
}

/* The entry for DIR (its hash DIR_HASH) in ENTRIES, or NULL. */
static OverlayEntry *
overlay_find (const GArray *entries, const char *dir, guint dir_hash)
{
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      OverlayEntry *e = &g_array_index (entries, OverlayEntry, i);

      if (e->dir_hash == dir_hash && strcmp (e->dir, dir) == 0)
        return e;
    }
  return NULL;
}

void
kic_overlay_set (KicOverlay *overlay, const char *dir, const char *name, gboolean add)
{
  GArray *entries = g_hash_table_lookup (overlay->names, name);
  guint dir_hash = kic_fs_name_hash (dir);
  OverlayEntry *e;

  if (entries == NULL)
    {
      entries = g_array_new (FALSE, FALSE, sizeof (OverlayEntry));
      g_array_set_clear_func (entries, overlay_entry_clear);
      g_hash_table_insert (overlay->names, g_strdup (name), entries);
    }
  e = overlay_find (entries, dir, dir_hash);
  if (e != NULL)
    e->add = add;
  else
    {
      OverlayEntry entry = { g_strdup (dir), dir_hash, add };

      g_array_append_val (entries, entry);
    }
}

void
kic_overlay_unset (KicOverlay *overlay, const char *dir, const char *name)
{
  GArray *entries = g_hash_table_lookup (overlay->names, name);
  OverlayEntry *e = overlay_find (entries, dir, kic_fs_name_hash (dir));

  if (e != NULL)
    g_array_remove_index_fast (entries, e - &g_array_index (entries, OverlayEntry, 0));
}

gboolean
kic_overlay_has_name (const KicOverlay *overlay, const char *name)
{
  const GArray *entries = g_hash_table_lookup (overlay->names, name);

  return entries != NULL && entries->len > 0;
}

gboolean
kic_overlay_lookup (const KicOverlay *overlay, const char *dir, const char *name, gboolean *add)
{
  const OverlayEntry *e = overlay_find (g_hash_table_lookup (overlay->names, name), dir, kic_fs_name_hash (dir));

  if (e == NULL)
    return FALSE;
  *add = e->add;
  return TRUE;
}

/* One lookup in progress. */
typedef struct {
  KicResolver *resolver;
  KicResult *result;
  guint scan_start;  /* calls made before the directory scan that hit */
  char *scan_file;   /* the file name that scan looked for */
} Lookup;

static void
call_free (gpointer data)
{
  KicCall *call = data;

  g_free (call->path);
  g_free (call);
}

KicResolver *
kic_resolver_new (KicResolverSetup *setup, KicFsIndex *index)
{
  KicResolver *resolver = g_new0 (KicResolver, 1);

  resolver->profile = setup->profile;
  resolver->index = index;
  resolver->themes = g_steal_pointer (&setup->themes);
  resolver->data_dirs = g_strdupv (setup->data_dirs);
  resolver->data_home_hidden = setup->data_home_hidden;
  resolver->user_search_paths = g_strdupv (setup->user_search_paths);
  resolver->generic_icons = g_steal_pointer (&setup->generic_icons);
  memcpy (resolver->group_size, setup->group_size, sizeof resolver->group_size);
  /* no directory is read here: a cache entry is filled when a lookup
   * first probes its directory, as KDE's own probes go */
  resolver->dir_caches = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  resolver->theme_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, theme_names_free);
  for (guint t = 0; t < resolver->themes->len; t++)
    {
      KicTheme *theme = g_ptr_array_index (resolver->themes, t);

      if (!g_hash_table_contains (resolver->dir_caches, theme))
        g_hash_table_insert (resolver->dir_caches, theme, g_new0 (DirCache, theme->dirs->len + 1));
    }
  return resolver;
}

void
kic_resolver_free (KicResolver *resolver)
{
  if (resolver == NULL)
    return;
  g_hash_table_unref (resolver->dir_caches);
  g_hash_table_unref (resolver->theme_names);
  g_ptr_array_unref (resolver->themes);
  g_strfreev (resolver->data_dirs);
  g_strfreev (resolver->user_search_paths);
  if (resolver->generic_icons)
    g_hash_table_unref (resolver->generic_icons);
  g_free (resolver);
}

const GPtrArray *
kic_resolver_themes (const KicResolver *resolver)
{
  return resolver->themes;
}

int
kic_resolver_group_size (const KicResolver *resolver, KicGroup group)
{
  return resolver->group_size[group];
}

void
kic_result_free (KicResult *result)
{
  if (result == NULL)
    return;
  g_free (result->path);
  if (result->calls)
    g_ptr_array_unref (result->calls);
  g_free (result);
}

const char *
kic_via_to_string (KicVia via)
{
  switch (via)
    {
    case KIC_VIA_NONE:
      return "none";
    case KIC_VIA_ABSOLUTE:
      return "absolute";
    case KIC_VIA_THEME:
      return "theme";
    case KIC_VIA_GENERIC:
      return "generic";
    case KIC_VIA_USER:
      return "user";
    }
  return "?";
}

/* Count one file system call (and remember it when recording); a
 * resource probe is remembered but costs nothing. */
static void
count_call (Lookup *lookup, KicCallKind kind, const char *path, gboolean hit)
{
  if (kind != KIC_CALL_RESOURCE && kind != KIC_CALL_RESOURCE_L10N)
    lookup->result->n_calls++;
  if (lookup->result->calls != NULL)
    {
      KicCall *call = g_new0 (KicCall, 1);

      call->kind = kind;
      call->path = g_strdup (path);
      call->hit = hit;
      g_ptr_array_add (lookup->result->calls, call);
    }
}

void
kic_resolver_set_overlay (KicResolver *resolver, const KicOverlay *overlay)
{
  resolver->overlay = overlay;
}

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

static void
probe_file_init (const KicResolver *resolver, ProbeFile *file, const char *name)
{
  file->name = name;
  file->has_slash = strchr (name, '/') != NULL;
  file->hash = kic_fs_name_hash (name);
  file->overlay = resolver->overlay ? g_hash_table_lookup (resolver->overlay->names, name) : NULL;
  file->watched = resolver->watch != NULL && strcmp (name, resolver->watch_file) == 0;
}

/* A lookup is about to ask what FILE in the directory LISTING is: the
 * first such question about a watched directory records the calls made
 * before it (kic_resolver_watch()). */
static void
watch_question (KicResolver *resolver, guint calls, const KicThemeDir *dir, const KicFsDir *listing)
{
  KicPricedLink *link;
  guint i;

  if (resolver->watch == NULL || listing == NULL)
    return;
  i = GPOINTER_TO_UINT (g_hash_table_lookup (resolver->watch, listing));
  if (i == 0 || (link = &g_array_index (resolver->watch_links, KicPricedLink, i - 1))->asked)
    return;
  link->asked = TRUE;
  link->calls = calls + 1;
  /* asked by the MatchBest scan of its own directory: kic_resolve_priced()
   * can work out the rest of the scan with the link there */
  link->exact = dir != NULL && dir == link->dir && resolver->scan_theme == link->theme;
  link->position = resolver->scan_index;
}

/* What the overlay says of PATH (a file inside the root, as a lookup names
 * it): a planned link exists, a previous run's link does not; asked of
 * the real path of its directory.  A Qt resource copy (MIRRORED) holds
 * none of our links, whatever the overlay says of the disk directory it
 * mirrors. */
static gboolean
overlay_type (KicResolver *resolver, guint calls, const char *path, gboolean mirrored, KicFsType *type)
{
  g_autofree char *clean = kic_path_clean (path);
  g_autofree char *parent = g_path_get_dirname (clean);
  g_autofree char *base = g_path_get_basename (clean);
  g_autofree char *real = NULL;
  gboolean in_overlay = resolver->overlay != NULL && g_hash_table_lookup (resolver->overlay->names, base) != NULL;
  gboolean add;

  /* (almost every name is in neither: then no real path is worked out) */
  if (!in_overlay && (resolver->watch == NULL || strcmp (base, resolver->watch_file) != 0))
    return FALSE;
  real = kic_fs_index_realpath (resolver->index, parent);
  /* a resource copy's probe costs no call and never sees a link */
  if (!mirrored && resolver->watch != NULL && real != NULL && strcmp (base, resolver->watch_file) == 0)
    watch_question (resolver, calls, NULL, kic_fs_index_dir (resolver->index, real));
  if (!in_overlay || real == NULL || !kic_overlay_lookup (resolver->overlay, real, base, &add))
    return FALSE;
  *type = add && !mirrored ? KIC_FS_FILE : KIC_FS_NONE;
  return TRUE;
}

/* The cache entries of THEME's directories, element i for theme->dirs[i].
 * transfer none */
static DirCache *
theme_dir_caches (const KicResolver *resolver, const KicTheme *theme)
{
  DirCache *caches = g_hash_table_lookup (resolver->dir_caches, theme);

  g_assert (caches != NULL);
  return caches;
}

/* What FILE in theme directory DIR (whose cache entry is CACHE) is; FILE
 * may hold a '/' when Icon= does.  Files of the overlay exist as regular
 * files, or not at all. */
static KicFsType
index_type (KicResolver *resolver, guint calls, const KicThemeDir *dir, DirCache *cache, const ProbeFile *file)
{
  KicFsIndex *index = resolver->index;
  const char *disk = dir->mirror ? dir->mirror : dir->path;
  const OverlayEntry *e;

  /* a resource read from the library holds none of our links; a name
   * with a '/' is not followed there (Qt would clean it; no menu does) */
  if (dir->resource_files != NULL)
    return !file->has_slash && g_hash_table_contains (dir->resource_files, file->name) ? KIC_FS_FILE
                                                                                       : KIC_FS_NONE;

  if (file->has_slash)
    {
      /* a name with a '/' (Icon=../22/foo): ask the overlay about the
       * file it really names */
      g_autofree char *joined = g_strconcat (disk, "/", file->name, NULL);
      KicFsType type;

      if (overlay_type (resolver, calls, joined, dir->mirror != NULL, &type))
        return type;
      return kic_fs_index_stat (index, joined);
    }
  if (!cache->listed)
    {
      cache->listing = kic_fs_index_dir (index, disk);
      cache->real = cache->listing ? kic_fs_dir_real (cache->listing) : NULL;
      cache->real_hash = cache->real ? kic_fs_name_hash (cache->real) : 0;
      cache->listed = TRUE;
    }
  if (cache->real == NULL)
    return KIC_FS_NONE; /* not on disk: no link can be planted there */
  if (file->watched && dir->mirror == NULL)
    watch_question (resolver, calls, dir, cache->listing);
  if (file->overlay != NULL && (e = overlay_find (file->overlay, cache->real, cache->real_hash)) != NULL)
    return e->add && dir->mirror == NULL ? KIC_FS_FILE : KIC_FS_NONE;
  return cache->listing ? kic_fs_index_dir_stat_hashed (index, cache->listing, file->name, file->hash)
                        : KIC_FS_NONE;
}

/* kicontheme.cpp:783-792, KIconThemeDir::iconPath(): QFileInfo::exists()
 * is one access(F_OK), true for anything that exists after following links
 * (KDE 3/4: access(R_OK), §5); a hit goes through KLocalizedString::
 * localizedFilePath(), which stats "<dir>/l10n" (KDE/ki18n@v5.103.0:
 * src/i18n/klocalizedstring.cpp:1332; KDE 3/4 skip it for the default
 * language).  A Qt resource (KF6's embedded breeze) is looked up in memory,
 * l10n included: no system call at all. */
static gboolean
probe_theme_dir (Lookup *lookup, const KicThemeDir *dir, DirCache *cache, const ProbeFile *probe)
{
  const char *file = probe->name;
  g_autofree char *path = NULL;
  gboolean hit = index_type (lookup->resolver, lookup->result->n_calls, dir, cache, probe) != KIC_FS_NONE;

  if (lookup->result->calls != NULL)
    path = g_strconcat (dir->path, "/", file, NULL);
  if (dir->mirror != NULL || dir->resource_files != NULL)
    {
      count_call (lookup, KIC_CALL_RESOURCE, path, hit);
      if (hit && lookup->resolver->profile->table->l10n_stat && lookup->result->calls != NULL)
        {
          g_autofree char *l10n = g_strconcat (dir->path, "/l10n", NULL);

          count_call (lookup, KIC_CALL_RESOURCE_L10N, l10n, FALSE);
        }
      return hit;
    }
  count_call (lookup, KIC_CALL_ACCESS, path, hit);
  if (hit && lookup->resolver->profile->table->l10n_stat)
    {
      g_autofree char *l10n = g_strconcat (dir->path, "/l10n", NULL);
      gboolean has_l10n = kic_fs_index_stat (lookup->resolver->index, l10n) == KIC_FS_DIR;

      count_call (lookup, KIC_CALL_L10N, l10n, has_l10n);
      /* with an l10n directory KDE also tries "l10n/<lang>/<file>"; we
       * cannot know the user's language, so we count one try that fails
       * (measured with LANG=C.UTF-8: tests/oracle/FINDINGS.md) */
      if (has_l10n)
        {
          g_autofree char *localized = g_strconcat (l10n, "/$LANG/", file, NULL);

          count_call (lookup, KIC_CALL_L10N, localized, FALSE);
        }
    }
  return hit;
}

/* :235: is a directory at distance DW worth probing after a hit at
 * DELTA?  Not when it is not closer, or is an upscale after a downscale.
 * KDE 3 skips upscales after a downscale even when closer (@v3.5.10
 * kicontheme.cpp:361-435, §1.2). */
static gboolean
prune_dir (KicPruneRule rule, int dw, int delta)
{
  if (rule == KIC_PRUNE_KDE3)
    return abs (dw) >= abs (delta) || (delta > 0 && dw < 0);
  return abs (dw) >= abs (delta) && (dw < 0 || delta > 0);
}

/* THEME's names (ThemeNames), made or made again when the index changed. */
static ThemeNames *
theme_names (KicResolver *resolver, const KicTheme *theme)
{
  ThemeNames *tn = g_hash_table_lookup (resolver->theme_names, theme);
  guint generation = kic_fs_index_generation (resolver->index);

  if (tn != NULL && tn->generation == generation)
    return tn;
  g_autoptr (GHashTable) listings = g_hash_table_new (g_direct_hash, g_direct_equal);

  tn = g_new0 (ThemeNames, 1);
  tn->names = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  tn->positions = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);
  tn->listings = g_new0 (const KicFsDir *, theme->dirs->len + 1);
  tn->before = g_new0 (guint, theme->dirs->len + 1);
  tn->twice = g_hash_table_new (g_direct_hash, g_direct_equal);
  tn->distances = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  tn->kinds = g_new0 (guint8, theme->dirs->len + 1);
  tn->generation = generation;
  for (guint i = 0; i < theme->dirs->len; i++)
    {
      const KicThemeDir *dir = g_ptr_array_index (theme->dirs, i);
      g_autoptr (GPtrArray) names = NULL;
      GHashTableIter iter;
      gpointer key;

      tn->before[i + 1] = tn->before[i];
      if (dir->spec->scale != 1)
        continue;
      tn->kinds[i] = dir->mirror != NULL || dir->resource_files != NULL ? 2 : 1;
      if (dir->resource_files != NULL)
        {
          names = g_ptr_array_new ();
          g_hash_table_iter_init (&iter, dir->resource_files);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            g_ptr_array_add (names, key);
        }
      else
        {
          const KicFsDir *listing = kic_fs_index_dir (resolver->index, dir->mirror ? dir->mirror : dir->path);
          GArray *at;

          if (dir->mirror == NULL)
            {
              tn->n_calls++;
              tn->before[i + 1]++;
            }
          tn->listings[i] = listing;
          if (listing != NULL)
            {
              names = kic_fs_dir_names (listing);
              if (!g_hash_table_add (listings, (gpointer) listing))
                g_hash_table_add (tn->twice, (gpointer) listing);
              if ((at = g_hash_table_lookup (tn->positions, listing)) == NULL)
                g_hash_table_insert (tn->positions, (gpointer) listing, at = g_array_new (FALSE, FALSE, sizeof (guint)));
              g_array_append_val (at, i);
            }
        }
      for (guint n = 0; names != NULL && n < names->len; n++)
        {
          GArray *at = g_hash_table_lookup (tn->names, g_ptr_array_index (names, n));

          if (at == NULL)
            g_hash_table_insert (tn->names, g_ptr_array_index (names, n), at = g_array_new (FALSE, FALSE, sizeof (guint)));
          if (at->len == 0 || g_array_index (at, guint, at->len - 1) != i)
            g_array_append_val (at, i);
        }
    }
  g_hash_table_replace (resolver->theme_names, (gpointer) theme, tn);
  return tn;
}

/* The distance of each directory of THEME from SIZE (kic_dir_spec_distance(),
 * element i for theme->dirs[i]), worked out once per size: a scan of a
 * large theme then reads an array, not every directory's spec.  For the
 * first few sizes asked (the planner's target sizes); NULL for others. */
static const int *
theme_distances (KicResolver *resolver, const KicTheme *theme, int size)
{
  ThemeNames *tn = theme_names (resolver, theme);
  int *dw = g_hash_table_lookup (tn->distances, GINT_TO_POINTER (size));

  if (dw == NULL && g_hash_table_size (tn->distances) < 8)
    {
      guint n = theme->dirs->len;
      int least = INT_MAX;
      gboolean up = FALSE;

      dw = g_new (int, 2 * n + 2);
      for (guint i = 0; i < n; i++)
        dw[i] = kic_dir_spec_distance (((const KicThemeDir *) g_ptr_array_index (theme->dirs, i))->spec, size);
      /* what is left of the scan from each directory on: a hit's delta
       * prunes all of it when no |distance| there is below |delta| and
       * (a downscale after an upscale) none is >= 0 while delta <= 0 */
      dw[2 * n] = INT_MAX;
      for (guint i = n; i-- > 0;)
        {
          if (tn->kinds[i] != 0)
            {
              least = MIN (least, ABS (dw[i]));
              up = up || dw[i] >= 0;
            }
          dw[n + i] = up ? -1 - least : least;
        }
      dw[2 * n + 1] = INT_MAX;
      g_hash_table_insert (tn->distances, GINT_TO_POINTER (size), dw);
    }
  return dw;
}

gboolean
kic_resolver_theme_may_hold (KicResolver *resolver, const KicTheme *theme, const char *file)
{
  return g_hash_table_contains (theme_names (resolver, theme)->names, file);
}

static int
compare_uints (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The indexes of THEME's directories that may hold FILE: those that list
 * it, and those the overlay adds it to (rising, each once).  transfer full */
static GArray *
candidate_positions (KicResolver *resolver, const KicTheme *theme, const ProbeFile *file)
{
  ThemeNames *tn = theme_names (resolver, theme);
  const GArray *listed = g_hash_table_lookup (tn->names, file->name);
  GArray *at = g_array_new (FALSE, FALSE, sizeof (guint));

  if (listed != NULL)
    g_array_append_vals (at, listed->data, listed->len);
  for (guint e = 0; file->overlay != NULL && e < file->overlay->len; e++)
    {
      const OverlayEntry *entry = &g_array_index (file->overlay, OverlayEntry, e);
      const KicFsDir *listing = kic_fs_index_dir (resolver->index, entry->dir);
      const GArray *more = listing ? g_hash_table_lookup (tn->positions, listing) : NULL;

      if (more != NULL)
        g_array_append_vals (at, more->data, more->len);
    }
  if (file->overlay != NULL && at->len > 1)
    {
      guint w = 0;

      g_array_sort (at, compare_uints);
      for (guint i = 0; i < at->len; i++)
        if (w == 0 || g_array_index (at, guint, i) != g_array_index (at, guint, w - 1))
          g_array_index (at, guint, w++) = g_array_index (at, guint, i);
      g_array_set_size (at, w);
    }
  return at;
}

static guint hit_cost (KicResolver *resolver, const KicThemeDir *dir, DirCache *cache);

/* scan_dirs() with MatchBest (KF's pruning), probing only where the file
 * may be (candidate_positions()): before the first hit every scale-1
 * directory is probed (nothing is pruned yet, :235), so those misses are
 * counted (ThemeNames.before); after it, the directories not pruned are
 * walked as scan_dirs() walks them.  Questions about a directory
 * kic_resolve_priced() watches are recorded as the probes would. */
static const KicThemeDir *
scan_dirs_indexed (Lookup *lookup, const KicTheme *theme, const ProbeFile *file, const int *dw)
{
  KicResolver *resolver = lookup->resolver;
  ThemeNames *tn = theme_names (resolver, theme);
  DirCache *caches = theme_dir_caches (resolver, theme);
  const GPtrArray *dirs = theme->dirs;
  KicPruneRule rule = resolver->profile->table->prune;
  g_autoptr (GArray) at = candidate_positions (resolver, theme, file);
  guint start = lookup->result->n_calls;
  guint first = G_MAXUINT, next = 0;
  const KicThemeDir *best;
  int delta;

  for (guint k = 0; k < at->len && first == G_MAXUINT; k++)
    {
      guint p = g_array_index (at, guint, k);

      resolver->scan_theme = theme;
      resolver->scan_index = p;
      if (index_type (resolver, start + tn->before[p], g_ptr_array_index (dirs, p), &caches[p], file) != KIC_FS_NONE)
        first = p;
      resolver->scan_theme = NULL;
      next = k + 1;
    }
  if (file->watched)
    {
      /* the directories watched that the scan asks about before its first
       * hit (or all of them): each is asked after the misses before it */
      guint limit = first == G_MAXUINT ? dirs->len : first;

      for (guint k = 0; k < resolver->watch_links->len; k++)
        {
          KicPricedLink *link = &g_array_index (resolver->watch_links, KicPricedLink, k);
          const GArray *where = link->listing ? g_hash_table_lookup (tn->positions, link->listing) : NULL;

          for (guint j = 0; !link->asked && where != NULL && j < where->len; j++)
            {
              guint q = g_array_index (where, guint, j);
              const KicThemeDir *dir = g_ptr_array_index (dirs, q);

              if (q >= limit)
                break;
              if (dir->mirror != NULL)
                continue;
              resolver->scan_theme = theme;
              resolver->scan_index = q;
              watch_question (resolver, start + tn->before[q], dir, link->listing);
              resolver->scan_theme = NULL;
            }
        }
    }
  if (first == G_MAXUINT)
    {
      lookup->result->n_calls = start + tn->n_calls;
      return NULL;
    }
  best = g_ptr_array_index (dirs, first);
  lookup->result->n_calls = start + tn->before[first] + hit_cost (resolver, best, &caches[first]);
  delta = dw[first];
  for (guint i = first + 1; delta != 0 && i < dirs->len; i++)
    {
      const KicThemeDir *dir;
      gboolean candidate;
      int rest = dw[dirs->len + i];

      /* nothing from here on is probed: the scan is over */
      if ((rest >= 0 ? rest : -1 - rest) >= ABS (delta) && !(rest < 0 && delta <= 0))
        break;
      if (tn->kinds[i] == 0 || prune_dir (rule, dw[i], delta))
        continue;
      dir = g_ptr_array_index (dirs, i);
      while (next < at->len && g_array_index (at, guint, next) < i)
        next++;
      candidate = next < at->len && g_array_index (at, guint, next) == i;
      if (candidate)
        {
          resolver->scan_theme = theme;
          resolver->scan_index = i;
          if (probe_theme_dir (lookup, dir, &caches[i], file))
            {
              best = dir;
              delta = dw[i];
            }
          resolver->scan_theme = NULL;
          continue;
        }
      /* a miss: the access(2) of a disk directory, nothing for a resource */
      if (file->watched && tn->kinds[i] == 1)
        {
          resolver->scan_theme = theme;
          resolver->scan_index = i;
          watch_question (resolver, lookup->result->n_calls, dir, tn->listings[i]);
          resolver->scan_theme = NULL;
        }
      if (tn->kinds[i] == 1)
        lookup->result->n_calls++;
    }
  return best;
}

/* kicontheme.cpp:173-259, KIconThemePrivate::iconPath() over the unscaled
 * directories at scale 1.  MatchExact (KDE 3/4, §3.2-3.3) probes only
 * the directories that fit SIZE exactly and takes the first hit.
 * MatchBest: a hit ends the scan only when its distance is 0; otherwise
 * the scan goes on, skipping directories that are not closer (:235), and
 * the closest hit wins. */
static const KicThemeDir *
scan_dirs (Lookup *lookup, const KicTheme *theme, const ProbeFile *file, int size, gboolean exact)
{
  const GPtrArray *dirs = theme->dirs;
  DirCache *caches = theme_dir_caches (lookup->resolver, theme);
  KicPruneRule rule = lookup->resolver->profile->table->prune;
  const KicThemeDir *best = NULL;
  /* :178: delta starts at -INT_MAX (KDE 3: -1000) */
  int delta = rule == KIC_PRUNE_KDE3 ? -1000 : -INT_MAX;
  const int *distances = exact ? NULL : theme_distances (lookup->resolver, theme, size);
  gboolean hit;

  /* without a list of the calls, a MatchBest scan probes only where the
   * file is (KDE 3 prunes before a hit: that scan is made in full) */
  if (!exact && rule != KIC_PRUNE_KDE3 && lookup->result->calls == NULL && !file->has_slash && distances != NULL)
    return scan_dirs_indexed (lookup, theme, file, distances);
  for (guint i = 0; i < dirs->len; i++)
    {
      const KicThemeDir *dir = g_ptr_array_index (dirs, i);
      int dw;

      /* :191: only directories of the requested (integer) scale */
      if (dir->spec->scale != 1)
        continue;
      if (exact)
        {
          /* :196-206 */
          if (kic_dir_spec_exact (dir->spec, size) && probe_theme_dir (lookup, dir, &caches[i], file))
            return dir;
          continue;
        }
      dw = distances ? distances[i] : kic_dir_spec_distance (dir->spec, size);
      if (prune_dir (rule, dw, delta))
        continue;
      lookup->resolver->scan_theme = theme;
      lookup->resolver->scan_index = i;
      hit = probe_theme_dir (lookup, dir, &caches[i], file);
      lookup->resolver->scan_theme = NULL;
      if (!hit)
        continue;
      best = dir;
      delta = dw;
      if (delta == 0)
        break;
    }
  return best;
}

/* One scan of THEME for NAME + EXT; a hit becomes the lookup's result. */
static gboolean
scan_file (Lookup *lookup, const KicTheme *theme, const char *name, const char *ext, int size,
           gboolean exact)
{
  g_autofree char *file = g_strconcat (name, ext, NULL);
  guint start = lookup->result->n_calls;
  const KicThemeDir *dir;
  ProbeFile probe;

  probe_file_init (lookup->resolver, &probe, file);
  dir = scan_dirs (lookup, theme, &probe, size, exact);

  if (dir == NULL)
    return FALSE;
  lookup->result->path = g_strconcat (dir->path, "/", file, NULL);
  lookup->result->theme = theme;
  lookup->result->dir = dir;
  lookup->scan_start = start;
  g_free (lookup->scan_file);
  lookup->scan_file = g_steal_pointer (&file);
  return TRUE;
}

/* Forget a hit (the KDE 4 /apps/ pass throws some away). */
static void
discard_hit (Lookup *lookup)
{
  g_clear_pointer (&lookup->result->path, g_free);
  lookup->result->theme = NULL;
  lookup->result->dir = NULL;
  g_clear_pointer (&lookup->scan_file, g_free);
}

/* kicontheme.cpp:533-566, KIconTheme::iconPathByName(): each extension of
 * the theme in turn; per extension first the scaled directories with
 * MatchExact (at scale 1 none of them has the right scale, :191, so they
 * cost nothing), then the unscaled ones with MatchBest.  KDE 4 runs
 * MatchExact then MatchBest per extension (§3.2); KDE 3 MatchExact for
 * every extension, then MatchBest for every one (§3.3). */
static gboolean
theme_lookup (Lookup *lookup, const KicTheme *theme, const char *name, int size)
{
  char **exts = theme->desc->extensions;

  switch (lookup->resolver->profile->table->passes)
    {
    case KIC_PASSES_BEST:
      for (guint e = 0; exts[e] != NULL; e++)
        if (scan_file (lookup, theme, name, exts[e], size, FALSE))
          return TRUE;
      break;
    case KIC_PASSES_EXACT_BEST:
      for (guint e = 0; exts[e] != NULL; e++)
        if (scan_file (lookup, theme, name, exts[e], size, TRUE)
            || scan_file (lookup, theme, name, exts[e], size, FALSE))
          return TRUE;
      break;
    case KIC_PASSES_ALL_EXACT_FIRST:
      for (guint e = 0; exts[e] != NULL; e++)
        if (scan_file (lookup, theme, name, exts[e], size, TRUE))
          return TRUE;
      for (guint e = 0; exts[e] != NULL; e++)
        if (scan_file (lookup, theme, name, exts[e], size, FALSE))
          return TRUE;
      break;
    }
  return FALSE;
}

/* :877-888: bare media types get "-x-generic" (as update-mime-database
 * does for a mime type without a generic icon) */
static gboolean
is_media_type (const char *name)
{
  static const char *const media_types[] = {
    "text", "application", "image", "audio", "inode", "video",
    "message", "model", "multipart", "x-content", "x-epoc", NULL,
  };

  return g_strv_contains (media_types, name);
}

/* :858-892: the next name to try in the same theme, in place: cut at the
 * last '-' while that dash is past index 1 (dropping a trailing "-x"), or
 * make a bare media type "<media>-x-generic" and set *GENERIC.  FALSE when
 * there is no next name. */
static gboolean
next_variant (char **current, gboolean *generic)
{
  char *name = *current;
  const char *dash = strrchr (name, '-');

  if (dash != NULL && dash - name > 1)
    {
      name[dash - name] = '\0';
      if (g_str_has_suffix (name, "-x"))
        name[strlen (name) - 2] = '\0';
      return TRUE;
    }
  if (is_media_type (name))
    {
      *current = g_strconcat (name, "-x-generic", NULL);
      g_free (name);
      *generic = TRUE;
      return TRUE;
    }
  return FALSE;
}

/* The names one theme is asked for, in order (:845-892): NAME, then its
 * next variants until there is none, or until the -x-generic form, which
 * sets *GENERIC.  KF6 keeps "-symbolic" at the end of every cut and tries
 * each cut without it too (@v6.13.0 kiconloader.cpp:781-858).  KDE 3
 * tries the name only (§3.3).  transfer full */
static GPtrArray *
name_variants (const KicProfileTable *profile, const char *name, gboolean *generic)
{
  static const char symbolic_suffix[] = "-symbolic";
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  gboolean symbolic = profile->symbolic_variants && g_str_has_suffix (name, symbolic_suffix);
  char *current = g_strdup (name);

  g_ptr_array_add (names, g_strdup (current));
  while (profile->name_variants && !*generic)
    {
      if (symbolic)
        {
          current[strlen (current) - strlen (symbolic_suffix)] = '\0';
          g_ptr_array_add (names, g_strdup (current));
        }
      if (!next_variant (&current, generic))
        break;
      if (symbolic && !*generic)
        {
          char *with = g_strconcat (current, symbolic_suffix, NULL);

          g_free (current);
          current = with;
        }
      g_ptr_array_add (names, g_strdup (current));
    }
  g_free (current);
  return names;
}

/* @v4.14.2 kiconloader.cpp:903-991 (since 4.10.1, commit 23863e3cd1,
 * §3.2): before the usual search, each theme is asked for the plain name;
 * its answer counts only when it is an application icon. */
static gboolean
apps_first_pass (Lookup *lookup, const char *name, int size)
{
  for (guint t = 0; t < lookup->resolver->themes->len; t++)
    if (theme_lookup (lookup, g_ptr_array_index (lookup->resolver->themes, t), name, size))
      {
        if (strstr (lookup->result->path, "/apps/") != NULL)
          return TRUE;
        discard_hit (lookup);
      }
  return FALSE;
}

/* :832-911, KIconLoaderPrivate::findMatchingIcon().  Per theme: the name,
 * then its next variants.  Note that genericFallback (:844) is set once for
 * the whole loop: after a name has reached its -x-generic form in one
 * theme, later themes only try the name itself. */
static gboolean
find_matching_icon (Lookup *lookup, const char *name, int size)
{
  const KicProfile *profile = lookup->resolver->profile;
  gboolean generic_fallback = g_str_has_suffix (name, "-x-generic");

  if (profile->apps_first_pass && apps_first_pass (lookup, name, size))
    return TRUE;
  for (guint t = 0; t < lookup->resolver->themes->len; t++)
    {
      const KicTheme *theme = g_ptr_array_index (lookup->resolver->themes, t);
      g_autoptr (GPtrArray) names = name_variants (profile->table, name, &generic_fallback);

      for (guint n = 0; n < names->len; n++)
        if (theme_lookup (lookup, theme, g_ptr_array_index (names, n), size))
          return TRUE;
    }
  /* :894-908: QIcon::fallbackSearchPaths() is empty in a Plasma session
   * (the KDE platform theme sets none), so nothing is probed here. */
  return FALSE;
}

/* A variant with a '/' (Icon=../48/foo) probes a file named after its
 * last component, in another directory: that is the stem that counts. */
static void
add_stem (GPtrArray *stems, const char *variant)
{
  g_ptr_array_add (stems, g_strdup (variant));
  if (strchr (variant, '/') != NULL)
    g_ptr_array_add (stems, g_path_get_basename (variant));
}

static void
add_variants (const KicProfileTable *profile, GPtrArray *stems, const char *name)
{
  gboolean generic = g_str_has_suffix (name, "-x-generic");
  g_autoptr (GPtrArray) names = name_variants (profile, name, &generic);

  for (guint n = 0; n < names->len; n++)
    add_stem (stems, g_ptr_array_index (names, n));
}

GPtrArray *
kic_resolver_lookup_stems (KicResolver *resolver, const char *name)
{
  GPtrArray *stems = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *valid = g_utf8_make_valid (name, -1);
  g_autofree char *stripped = kic_icon_name_strip_extension (valid);
  const char *generic;

  if (name[0] == '\0' || kic_icon_name_is_absolute (name))
    return stems;
  add_variants (resolver->profile->table, stems, stripped);
  generic = resolver->generic_icons ? g_hash_table_lookup (resolver->generic_icons, stripped) : NULL;
  if (generic != NULL)
    add_variants (resolver->profile->table, stems, generic);
  return stems;
}

/* What PATH is for the "User" group's stat: a link planted in a theme
 * directory that one of its directories resolves to is seen there too. */
static KicFsType
locate_type (Lookup *lookup, const char *path)
{
  KicFsType type;

  if (overlay_type (lookup->resolver, lookup->result->n_calls, path, FALSE, &type))
    return type;
  return kic_fs_index_stat (lookup->resolver->index, path);
}

gboolean
kic_resolver_cuts_to_generic (const KicResolver *resolver, const char *name)
{
  gboolean generic = g_str_has_suffix (name, "-x-generic");

  /* name_variants() sets GENERIC when a dash cut of NAME is a
   * "-x-generic" form; the variants themselves are not needed here */
  g_ptr_array_unref (name_variants (resolver->profile->table, name, &generic));
  return generic;
}

GPtrArray *
kic_resolver_user_dirs (const KicResolver *resolver)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);

  for (guint s = 0; resolver->user_search_paths[s] != NULL; s++)
    {
      const char *sp = resolver->user_search_paths[s];

      if (g_path_is_absolute (sp))
        g_ptr_array_add (dirs, g_strdup (sp));
      else
        for (guint d = 0; resolver->data_dirs[d] != NULL; d++)
          g_ptr_array_add (dirs, g_strconcat (resolver->data_dirs[d], "/", sp, NULL));
    }
  return dirs;
}

/* :946-962, KIconLoaderPrivate::locate(): each search path; a relative one
 * through QStandardPaths::locate(GenericDataLocation), which stats the file
 * in every data directory in turn and takes the first regular file.  An
 * absolute one (KDE 3/4's appicon directories) is one stat of the file
 * (KStandardDirs::findResource(), §4.3). */
static gboolean
locate (Lookup *lookup, const char *file)
{
  KicResolver *resolver = lookup->resolver;

  for (guint s = 0; resolver->user_search_paths[s] != NULL; s++)
    {
      const char *sp = resolver->user_search_paths[s];

      if (g_path_is_absolute (sp))
        {
          g_autofree char *path = g_strconcat (sp, "/", file, NULL);
          gboolean hit = locate_type (lookup, path) != KIC_FS_NONE;

          count_call (lookup, KIC_CALL_STAT, path, hit);
          if (hit)
            {
              lookup->result->path = g_steal_pointer (&path);
              return TRUE;
            }
          continue;
        }
      if (resolver->data_home_hidden)
        {
          g_autofree char *path = g_strconcat ("$XDG_DATA_HOME/", sp, "/", file, NULL);

          count_call (lookup, KIC_CALL_STAT, path, FALSE);
        }
      for (guint d = 0; resolver->data_dirs[d] != NULL; d++)
        {
          g_autofree char *path = g_strconcat (resolver->data_dirs[d], "/", sp, "/", file, NULL);
          gboolean hit = locate_type (lookup, path) == KIC_FS_FILE;

          count_call (lookup, KIC_CALL_STAT, path, hit);
          if (hit)
            {
              lookup->result->path = g_steal_pointer (&path);
              return TRUE;
            }
        }
    }
  return FALSE;
}


/* :982-994: the "User" group: .png, .svgz, .svg, .xpm, each over every
 * search path before the next extension (KDE 3/4: the same order over
 * the appicon directories, @v4.14.2 kiconloader.cpp:1025-1040; KF6 from
 * 6.19, @v6.19.0 kiconloader.cpp:956-968: .svg, .svgz, .png, .xpm --
 * the profile's user_extensions). */
static gboolean
user_group_lookup (Lookup *lookup, const char *name)
{
  const char *exts = lookup->resolver->profile->table->user_extensions;

  while (*exts != '\0')
    {
      gsize len = strcspn (exts, ",");
      g_autofree char *file = g_strdup_printf ("%s%.*s", name, (int) len, exts);

      if (locate (lookup, file))
        return TRUE;
      exts += len + (exts[len] == ',');
    }
  return FALSE;
}

gboolean
kic_icon_name_is_absolute (const char *name)
{
  return name[0] == '/' || name[0] == ':';
}

const char *
kic_icon_name_extension (const char *name)
{
  static const char *const extensions[] = { ".png", ".xpm", ".svg", ".svgz" };

  for (guint e = 0; e < G_N_ELEMENTS (extensions); e++)
    if (g_str_has_suffix (name, extensions[e]))
      return extensions[e];
  return NULL;
}

char *
kic_icon_name_strip_extension (const char *name)
{
  const char *ext = kic_icon_name_extension (name);

  return g_strndup (name, strlen (name) - (ext ? strlen (ext) : 0));
}

/* :971-1028, KIconLoader::iconPath(name, -size, canReturnNull = true) */
static void
resolve_lookup (Lookup *lookup, const char *name, int size)
{
  KicResolver *resolver = lookup->resolver;
  g_autofree char *stripped = NULL;
  g_autofree char *valid = NULL;
  const char *generic;

  /* :974-977: empty and absolute names come back as they are */
  if (name[0] == '\0')
    return;
  if (kic_icon_name_is_absolute (name))
    {
      lookup->result->path = g_strdup (name);
      lookup->result->via = KIC_VIA_ABSOLUTE;
      return;
    }
  /* :979, :588-599; the name is a QString: bytes that are not UTF-8 have
   * become U+FFFD by now */
  valid = g_utf8_make_valid (name, -1);
  stripped = kic_icon_name_strip_extension (valid);
  /* :818-830: the themes, then the generic icon of a mime type name */
  if (find_matching_icon (lookup, stripped, size))
    {
      lookup->result->via = KIC_VIA_THEME;
      return;
    }
  generic = resolver->generic_icons ? g_hash_table_lookup (resolver->generic_icons, stripped) : NULL;
  if (generic != NULL && find_matching_icon (lookup, generic, size))
    {
      lookup->result->via = KIC_VIA_GENERIC;
      return;
    }
  /* :1017-1021: then the "User" group */
  if (user_group_lookup (lookup, stripped))
    lookup->result->via = KIC_VIA_USER;
}

KicResult *
kic_resolve (KicResolver *resolver, const char *name, int size, gboolean record)
{
  Lookup lookup = { resolver, g_new0 (KicResult, 1), 0, NULL };

  if (record)
    lookup.result->calls = g_ptr_array_new_with_free_func (call_free);
  resolve_lookup (&lookup, name, size);
  g_free (lookup.scan_file);
  return lookup.result;
}

/* What a hit in DIR (its cache entry CACHE) costs: the access(2) and the
 * l10n stats (probe_theme_dir()). */
static guint
hit_cost (KicResolver *resolver, const KicThemeDir *dir, DirCache *cache)
{
  if (cache->hit_cost == 0)
    {
      g_autofree char *l10n = g_strconcat (dir->path, "/l10n", NULL);

      if (dir->mirror != NULL || dir->resource_files != NULL)
        cache->hit_cost = 1;
      else if (!resolver->profile->table->l10n_stat)
        cache->hit_cost = 2;
      else
        cache->hit_cost = kic_fs_index_stat (resolver->index, l10n) == KIC_FS_DIR ? 4 : 3;
    }
  return cache->hit_cost - 1;
}

static int
compare_ints (gconstpointer a, gconstpointer b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return x < y ? -1 : x > y;
}

/* The index of V in the sorted VALUES. */
static guint
value_index (const GArray *values, int v)
{
  guint lo = 0, hi = values->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (values, int, mid) < v)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The most distinct distances one theme's pricing follows at once. */
#define MAX_PRICED_DELTAS 64

/* The rest of the MatchBest scan of THEME for FILE (the overlay as it is)
 * after a hit at each of LINKS (those of THEME asked by that scan), in one
 * pass from the last directory to the first: after a hit at directory i
 * the scan depends only on i and its distance (kicontheme.cpp:235, the
 * pruning of prune_dir()), so A[v] -- the calls of the scan from
 * directory j on, with the closest hit so far at distance v -- is carried
 * for every distance v that a link or a hit of the file can set.  FALSE
 * (nothing priced) when there are more than MAX_PRICED_DELTAS of them. */
static gboolean
price_theme (KicResolver *resolver, const KicTheme *theme, const char *file, int size, GArray *links)
{
  const GPtrArray *dirs = theme->dirs;
  DirCache *caches = theme_dir_caches (resolver, theme);
  KicPruneRule rule = resolver->profile->table->prune;
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree gboolean *hits = g_new0 (gboolean, dirs->len + 1);
  g_autofree guint *cont = NULL;
  g_autofree guint *at = NULL;
  ThemeNames *tn = theme_names (resolver, theme);
  const guint8 *kinds = tn->kinds;
  const int *distances = theme_distances (resolver, theme, size);
  g_autofree int *own = NULL;
  ProbeFile probe;

  if (distances == NULL)
    {
      own = g_new (int, dirs->len + 1);
      for (guint i = 0; i < dirs->len; i++)
        own[i] = kic_dir_spec_distance (((const KicThemeDir *) g_ptr_array_index (dirs, i))->spec, size);
      distances = own;
    }
  probe_file_init (resolver, &probe, file);
  /* the file's hits as things are, where it may be */
  {
    g_autoptr (GArray) at_file = candidate_positions (resolver, theme, &probe);

    for (guint k = 0; k < at_file->len; k++)
      {
        guint i = g_array_index (at_file, guint, k);

        if (kinds[i] == 0)
          continue;
        hits[i] = index_type (resolver, 0, g_ptr_array_index (dirs, i), &caches[i], &probe) != KIC_FS_NONE;
        if (hits[i] && distances[i] != 0)
          g_array_append_val (values, distances[i]);
      }
  }
  for (guint k = 0; k < links->len; k++)
    {
      KicPricedLink *link = &g_array_index (links, KicPricedLink, k);
      int dw;

      if (link->theme != theme || !link->exact || link->position >= dirs->len)
        continue;
      dw = distances[link->position];
      /* a directory the theme lists twice (or by two paths) would show the
       * link again later in the scan: such links are not priced here */
      if (g_hash_table_contains (tn->twice, link->listing))
        {
          link->exact = FALSE;
          continue;
        }
      if (dw != 0)
        g_array_append_val (values, dw);
    }
  g_array_sort (values, compare_ints);
  {
    guint w = 0;

    for (guint v = 0; v < values->len; v++)
      if (w == 0 || g_array_index (values, int, v) != g_array_index (values, int, w - 1))
        g_array_index (values, int, w++) = g_array_index (values, int, v);
    g_array_set_size (values, w);
  }
  if (values->len > MAX_PRICED_DELTAS)
    return FALSE;
  /* cont[v]: the calls from the directory after the current one on; AT:
   * for each directory, 1 + the index of the link priced there (each
   * directory has one listing, so one link at most), or 0 */
  cont = g_new0 (guint, values->len + 1);
  at = g_new0 (guint, dirs->len + 1);
  for (guint k = 0; k < links->len; k++)
    {
      KicPricedLink *link = &g_array_index (links, KicPricedLink, k);

      if (link->theme == theme && link->exact && link->position < dirs->len)
        at[link->position] = k + 1;
    }
  for (guint j = dirs->len; j-- > 0;)
    {
      int dw = distances[j];
      guint miss, after_hit = 0;

      if (kinds[j] == 0)
        continue;
      /* the link here: a hit now, then the scan from j + 1 at its distance */
      if (at[j] != 0)
        {
          KicPricedLink *link = &g_array_index (links, KicPricedLink, at[j] - 1);

          link->calls += hit_cost (resolver, g_ptr_array_index (dirs, j), &caches[j]) - 1
                         + (dw == 0 ? 0 : cont[value_index (values, dw)]);
        }
      miss = kinds[j] == 1 ? 1 : 0;
      if (hits[j])
        after_hit = hit_cost (resolver, g_ptr_array_index (dirs, j), &caches[j])
                    + (dw == 0 ? 0 : cont[value_index (values, dw)]);
      for (guint v = 0; v < values->len; v++)
        {
          if (prune_dir (rule, dw, g_array_index (values, int, v)))
            continue;
          cont[v] = hits[j] ? after_hit : cont[v] + miss;
        }
    }
  return TRUE;
}

GHashTable *
kic_priced_watch_new (const GArray *links)
{
  GHashTable *watch = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint k = 0; k < links->len; k++)
    {
      const KicPricedLink *link = &g_array_index (links, KicPricedLink, k);

      if (link->listing != NULL)
        g_hash_table_insert (watch, (gpointer) link->listing, GUINT_TO_POINTER (k + 1));
    }
  return watch;
}

KicResult *
kic_resolve_priced (KicResolver *resolver, const char *name, int size, const char *file, GArray *links,
                    GHashTable *watch)
{
  g_autoptr (GPtrArray) themes = g_ptr_array_new ();
  const KicProfile *profile = resolver->profile;
  KicResult *result;

  for (guint k = 0; k < links->len; k++)
    {
      KicPricedLink *link = &g_array_index (links, KicPricedLink, k);

      link->asked = link->exact = FALSE;
      link->calls = 0;
    }
  resolver->watch_file = file;
  resolver->watch = watch;
  resolver->watch_links = links;
  result = kic_resolve (resolver, name, size, FALSE);
  resolver->watch = NULL;
  resolver->watch_links = NULL;
  resolver->watch_file = NULL;
  /* the scan that asks about a link first ends the lookup with a hit
   * there only with MatchBest passes alone (KF) and KF's pruning */
  if (profile->table->passes != KIC_PASSES_BEST || profile->apps_first_pass
      || profile->table->prune == KIC_PRUNE_KDE3)
    {
      for (guint k = 0; k < links->len; k++)
        g_array_index (links, KicPricedLink, k).exact = FALSE;
      return result;
    }
  for (guint k = 0; k < links->len; k++)
    {
      KicPricedLink *link = &g_array_index (links, KicPricedLink, k);

      if (link->exact && !g_ptr_array_find (themes, link->theme, NULL))
        g_ptr_array_add (themes, (gpointer) link->theme);
    }
  for (guint t = 0; t < themes->len; t++)
    if (!price_theme (resolver, g_ptr_array_index (themes, t), file, size, links))
      for (guint k = 0; k < links->len; k++)
        {
          KicPricedLink *link = &g_array_index (links, KicPricedLink, k);

          if (link->theme == g_ptr_array_index (themes, t))
            link->exact = FALSE;
        }
  return result;
}

/* One winning scan's directories, probed once for every size: which hold
 * the file, and what probing each costs on a hit and on a miss (a hit is
 * the access(2) plus the l10n stats; a Qt resource costs nothing). */
typedef struct {
  const KicThemeDir *dir;
  gboolean hit;
  guint cost;
} SizeProbe;

static GArray *
probe_once (Lookup *lookup, const KicTheme *theme, const char *name, gboolean count)
{
  const GPtrArray *dirs = theme->dirs;
  DirCache *caches = theme_dir_caches (lookup->resolver, theme);
  GArray *probes = g_array_new (FALSE, FALSE, sizeof (SizeProbe));
  ProbeFile file;

  probe_file_init (lookup->resolver, &file, name);
  if (!count && !file.has_slash)
    {
      /* without the calls, only where the file may be */
      g_autoptr (GArray) at = candidate_positions (lookup->resolver, theme, &file);

      for (guint k = 0; k < at->len; k++)
        {
          guint i = g_array_index (at, guint, k);
          SizeProbe probe = { g_ptr_array_index (dirs, i), FALSE, 0 };

          probe.hit = index_type (lookup->resolver, lookup->result->n_calls, probe.dir, &caches[i], &file) != KIC_FS_NONE;
          if (probe.hit)
            g_array_append_val (probes, probe);
        }
      return probes;
    }
  for (guint i = 0; i < dirs->len; i++)
    {
      const KicThemeDir *dir = g_ptr_array_index (dirs, i);
      SizeProbe probe = { dir, FALSE, 0 };

      /* :191: only directories of the requested (integer) scale */
      if (dir->spec->scale != 1)
        continue;
      if (count)
        {
          /* probe_theme_dir() counts exactly what this lookup costs */
          guint before = lookup->result->n_calls;

          probe.hit = probe_theme_dir (lookup, dir, &caches[i], &file);
          probe.cost = lookup->result->n_calls - before;
        }
      else
        probe.hit = index_type (lookup->resolver, lookup->result->n_calls, dir, &caches[i], &file) != KIC_FS_NONE;
      /* without the calls, the misses cannot change the answer */
      if (probe.hit || count)
        g_array_append_val (probes, probe);
    }
  return probes;
}

/* scan_dirs() with MatchBest at SIZE over PROBES, without a probe: the
 * same pruning (:235), on what probe_once() found.  *CALLS gets the
 * calls of the scan. */
static const KicThemeDir *
scan_probes (const KicResolver *resolver, const GArray *probes, int size, guint *calls)
{
  KicPruneRule rule = resolver->profile->table->prune;
  const KicThemeDir *best = NULL;
  int delta = rule == KIC_PRUNE_KDE3 ? -1000 : -INT_MAX;

  for (guint i = 0; i < probes->len; i++)
    {
      const SizeProbe *probe = &g_array_index (probes, SizeProbe, i);
      int dw = kic_dir_spec_distance (probe->dir->spec, size);

      if (prune_dir (rule, dw, delta))
        continue;
      *calls += probe->cost;
      if (!probe->hit)
        continue;
      best = probe->dir;
      delta = dw;
      if (delta == 0)
        break;
    }
  return best;
}

/* With MatchBest alone (KF), which theme, name and extension wins does not
 * depend on the size: a scan takes the first file it meets whatever its
 * size and only looks on for a closer one, and scans that find nothing
 * probe every directory.  So every size costs the same calls up to the
 * winning scan, and only that scan differs per size: its directories are
 * probed once, and each size only replays the pruning on what was found
 * (with COUNT over every directory, else over the hits alone).  MatchExact
 * passes (KDE 3/4) probe a different set of directories at each size:
 * there every size gets a full lookup. */
static GPtrArray *
resolve_sizes (KicResolver *resolver, const char *name, int min, int max, gboolean count)
{
  GPtrArray *results = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_result_free);
  Lookup first = { resolver, g_new0 (KicResult, 1), 0, NULL };
  g_autoptr (GArray) probes = NULL;

  if (resolver->profile->table->passes != KIC_PASSES_BEST || resolver->profile->apps_first_pass)
    {
      g_free (first.result);
      for (int s = min; s <= max; s++)
        g_ptr_array_add (results, kic_resolve (resolver, name, s, FALSE));
      return results;
    }
  resolve_lookup (&first, name, min);
  g_ptr_array_add (results, first.result);
  if (first.scan_file != NULL)
    {
      Lookup scratch = { resolver, &(KicResult) { 0 }, 0, NULL };

      probes = probe_once (&scratch, first.result->theme, first.scan_file, count);
    }
  for (int s = min + 1; s <= max; s++)
    {
      KicResult *r = g_new0 (KicResult, 1);

      r->via = first.result->via;
      if (first.scan_file == NULL)
        {
          r->path = g_strdup (first.result->path);
          r->n_calls = first.result->n_calls;
        }
      else
        {
          r->n_calls = count ? first.scan_start : 0;
          r->theme = first.result->theme;
          r->dir = scan_probes (resolver, probes, s, &r->n_calls);
          if (r->dir == NULL)
            {
              /* cannot happen with sane sizes (theme.c refuses others);
               * the full lookup is always right */
              kic_result_free (r);
              r = kic_resolve (resolver, name, s, FALSE);
            }
          else
            r->path = g_strconcat (r->dir->path, "/", first.scan_file, NULL);
        }
      g_ptr_array_add (results, r);
    }
  g_free (first.scan_file);
  return results;
}

GPtrArray *
kic_resolve_sizes (KicResolver *resolver, const char *name, int min, int max)
{
  return resolve_sizes (resolver, name, min, max, TRUE);
}

GPtrArray *
kic_resolve_sizes_uncounted (KicResolver *resolver, const char *name, int min, int max)
{
  return resolve_sizes (resolver, name, min, max, FALSE);
}

static void
digest_str (GChecksum *checksum, const char *s)
{
  /* NUL-terminated, so that "ab","c" and "a","bc" differ; NULL as "\1" */
  if (s == NULL)
    g_checksum_update (checksum, (const guchar *) "\1", 2);
  else
    g_checksum_update (checksum, (const guchar *) s, strlen (s) + 1);
}

static void
digest_int (GChecksum *checksum, gint64 v)
{
  char buf[32];

  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, v);
  digest_str (checksum, buf);
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
digest_set (GChecksum *checksum, GHashTable *table, gboolean values)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  digest_int (checksum, table != NULL ? (gint64) g_hash_table_size (table) : -1);
  if (table == NULL)
    return;
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_keys);
  for (guint i = 0; i < keys->len; i++)
    {
      digest_str (checksum, g_ptr_array_index (keys, i));
      if (values)
        digest_str (checksum, g_hash_table_lookup (table, g_ptr_array_index (keys, i)));
    }
}

static void
digest_dirs (GChecksum *checksum, KicFsIndex *index, const GPtrArray *dirs)
{
  digest_int (checksum, dirs != NULL ? (gint64) dirs->len : -1);
  for (guint d = 0; dirs != NULL && d < dirs->len; d++)
    {
      const KicThemeDir *dir = g_ptr_array_index (dirs, d);
      const KicDirSpec *spec = dir->spec;
      g_autofree char *real = kic_fs_index_realpath (index, dir->path);

      digest_str (checksum, dir->path);
      digest_str (checksum, real);
      digest_str (checksum, dir->mirror);
      digest_str (checksum, spec->name);
      digest_int (checksum, spec->valid);
      digest_int (checksum, spec->type);
      digest_int (checksum, spec->size);
      digest_int (checksum, spec->scale);
      digest_int (checksum, spec->min_size);
      digest_int (checksum, spec->max_size);
      digest_int (checksum, spec->threshold);
      digest_set (checksum, dir->resource_files, FALSE);
    }
}

void
kic_resolver_digest (const KicResolver *resolver, GChecksum *checksum)
{
  g_autofree char *profile = kic_profile_id (resolver->profile);

  digest_str (checksum, profile);
  digest_int (checksum, resolver->themes->len);
  for (guint t = 0; t < resolver->themes->len; t++)
    {
      const KicTheme *theme = g_ptr_array_index (resolver->themes, t);

      digest_str (checksum, theme->desc->name);
      for (guint e = 0; theme->desc->extensions[e] != NULL; e++)
        digest_str (checksum, theme->desc->extensions[e]);
      digest_int (checksum, theme->desc->follows_color_scheme);
      for (guint g = 0; g < KIC_GROUP_LAST; g++)
        digest_int (checksum, theme->desc->group_default[g]);
      digest_int (checksum, theme->guessed_resource);
      digest_dirs (checksum, resolver->index, theme->dirs);
      digest_dirs (checksum, resolver->index, theme->scaled_dirs);
    }
  for (guint d = 0; resolver->data_dirs != NULL && resolver->data_dirs[d] != NULL; d++)
    digest_str (checksum, resolver->data_dirs[d]);
  digest_int (checksum, resolver->data_home_hidden);
  for (guint s = 0; resolver->user_search_paths != NULL && resolver->user_search_paths[s] != NULL; s++)
    digest_str (checksum, resolver->user_search_paths[s]);
  digest_set (checksum, resolver->generic_icons, TRUE);
  for (guint g = 0; g < KIC_GROUP_LAST; g++)
    digest_int (checksum, resolver->group_size[g]);
}

const char *
kic_resolver_generic_icon (const KicResolver *resolver, const char *name)
{
  return resolver->generic_icons != NULL ? g_hash_table_lookup (resolver->generic_icons, name) : NULL;
}
