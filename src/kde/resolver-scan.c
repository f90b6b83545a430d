/* resolver-scan.c - one theme searched for one name: its directories
 * probed as KIconThemes scans them (the MatchBest and the exact scans),
 * and what each probe costs
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless
 * kicontheme.cpp is named, as in resolver.c.
 */
#include "resolver-private.h"
#include "gtkcache.h"
#include "path.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void
resolver_theme_names_free (gpointer data)
{
  ThemeNames *tn = data;

  resolver_name_table_free (tn->names);
  g_hash_table_unref (tn->positions);
  g_free (tn->listings);
  g_free (tn->before);
  g_hash_table_unref (tn->twice);
  g_array_unref (tn->hidden);
  g_hash_table_unref (tn->distances);
  g_free (tn->kinds);
  kic_theme_free (tn->theme);
  g_free (tn);
}

void
resolver_probe_file_init (const KicResolver *resolver, ProbeFile *file, const char *name)
{
  file->name = name;
  file->has_slash = strchr (name, '/') != NULL;
  file->hash = kic_fs_name_hash (name);
  /* (an empty overlay, as every lookup without links has, costs no hash) */
  file->overlay = resolver->overlay != NULL && g_hash_table_size (resolver->overlay->names) > 0
                    ? g_hash_table_lookup (resolver->overlay->names, name)
                    : NULL;
  file->watched = resolver->watch != NULL && strcmp (name, resolver->watch_file) == 0;
}

/* A lookup is about to ask what the watched file is in DIR (NULL: in a
 * directory reached by another path), which holds LINK's listing: the
 * first such question records the calls made before it. */
static void
ask_link (KicResolver *resolver, KicPricedLink *link, guint calls, const KicThemeDir *dir)
{
  if (link->asked)
    return;
  link->asked = TRUE;
  link->calls = calls + 1;
  /* asked by the MatchBest scan of its own directory: kic_resolve_priced()
   * can work out the rest of the scan with the link there */
  link->exact = dir != NULL && dir == link->dir && resolver->scan_theme == link->theme;
  link->position = resolver->scan_index;
}

/* A lookup is about to ask what FILE in the directory LISTING is: the
 * first such question about a watched directory records the calls made
 * before it (kic_resolve_priced()). */
static void
watch_question (KicResolver *resolver, guint calls, const KicThemeDir *dir, const KicFsDir *listing)
{
  guint i;

  if (resolver->watch == NULL || listing == NULL)
    return;
  i = GPOINTER_TO_UINT (g_hash_table_lookup (resolver->watch->listings, listing));
  if (i != 0)
    ask_link (resolver, &g_array_index (resolver->watch_links, KicPricedLink, i - 1), calls, dir);
}

/* What the overlay says of PATH (a file inside the root, as a lookup names
 * it): a planned link exists, a previous run's link does not; asked of
 * the real path of its directory.  A Qt resource copy (MIRRORED) holds
 * none of our links, whatever the overlay says of the disk directory it
 * mirrors. */
gboolean
resolver_overlay_type (KicResolver *resolver, guint calls, const char *path, gboolean mirrored, KicFsType *type)
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
DirCache *
resolver_theme_dir_caches (const KicResolver *resolver, const KicTheme *theme)
{
  DirCache *caches = g_hash_table_lookup (resolver->dir_caches, theme);

  g_assert (caches != NULL);
  return caches;
}

/* a8749c1 kicontheme.cpp:966-978, KIconThemeDir::iconPath(): a valid
 * icon-theme.cache (theme-gtkcache.c) that does not list the stem of
 * FILE in DIR answers "not here" before any call, whatever the disk holds
 * (a link planted since included). */
static gboolean
gtk_cache_denies (const KicThemeDir *dir, const ProbeFile *file)
{
  g_autofree char *stem = NULL;

  if (dir->gtk_cache == NULL)
    return FALSE;
  stem = kic_gtk_cache_stem (file->name);
  return !kic_gtk_cache_lists (dir->gtk_cache, dir->spec->name, stem);
}

/* What FILE in theme directory DIR (whose cache entry is CACHE) is; FILE
 * may hold a '/' when Icon= does.  Files of the overlay exist as regular
 * files, or not at all. */
KicFsType
resolver_index_type (KicResolver *resolver, guint calls, const KicThemeDir *dir, DirCache *cache, const ProbeFile *file)
{
  KicFsIndex *index = resolver->index;
  const char *disk = dir->mirror ? dir->mirror : dir->path;
  const OverlayEntry *e;

  /* kicontheme.cpp:783-792 probes DIR/NAME with QFileInfo::exists(): for
   * the breeze built into KF6 (@v6.13.0 src/kicontheme.cpp:373-388, the
   * ':/icons' base) Qt answers from the resource tree in memory, which
   * holds none of our links.  A name with a '/' is not followed there:
   * Qt's resource engine would clean the path (QDir::cleanPath), which
   * this model does not do; no menu entry has such a name. */
  if (dir->resource_files != NULL)
    return !file->has_slash && g_hash_table_contains (dir->resource_files, file->name) ? KIC_FS_FILE
                                                                                       : KIC_FS_NONE;
  if (gtk_cache_denies (dir, file))
    return KIC_FS_NONE;

  if (file->has_slash)
    {
      /* a name with a '/' (Icon=../22/foo): ask the overlay about the
       * file it really names */
      g_autofree char *joined = g_strconcat (disk, "/", file->name, NULL);
      KicFsType type;

      if (resolver_overlay_type (resolver, calls, joined, dir->mirror != NULL, &type))
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
  if (file->overlay != NULL && (e = resolver_overlay_find (file->overlay, cache->real, cache->real_hash)) != NULL)
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
gboolean
resolver_probe_theme_dir (Lookup *lookup, const KicThemeDir *dir, DirCache *cache, const ProbeFile *probe)
{
  const char *file = probe->name;
  g_autofree char *path = NULL;
  gboolean hit;

  if (gtk_cache_denies (dir, probe))
    return FALSE;
  hit = resolver_index_type (lookup->resolver, lookup->result->n_calls, dir, cache, probe) != KIC_FS_NONE;

  if (lookup->result->calls != NULL)
    path = g_strconcat (dir->path, "/", file, NULL);
  if (dir->mirror != NULL || dir->resource_files != NULL)
    {
      resolver_count_call (lookup, KIC_CALL_RESOURCE, path, hit);
      if (hit && lookup->resolver->profile->table->l10n_stat && lookup->result->calls != NULL)
        {
          g_autofree char *l10n = g_strconcat (dir->path, "/l10n", NULL);

          resolver_count_call (lookup, KIC_CALL_RESOURCE_L10N, l10n, FALSE);
        }
      return hit;
    }
  resolver_count_call (lookup, KIC_CALL_ACCESS, path, hit);
  if (hit && lookup->resolver->profile->table->l10n_stat)
    {
      g_autofree char *l10n = g_strconcat (dir->path, "/l10n", NULL);
      gboolean has_l10n = kic_fs_index_stat (lookup->resolver->index, l10n) == KIC_FS_DIR;

      resolver_count_call (lookup, KIC_CALL_L10N, l10n, has_l10n);
      /* with an l10n directory KDE also tries "l10n/<lang>/<file>"; we
       * cannot know the user's language, so we count one try that fails
       * (measured with LANG=C.UTF-8: tests/oracle/FINDINGS.md) */
      if (has_l10n)
        {
          g_autofree char *localized = g_strconcat (l10n, "/$LANG/", file, NULL);

          resolver_count_call (lookup, KIC_CALL_L10N, localized, FALSE);
        }
    }
  return hit;
}

/* :235: is a directory at distance DW worth probing after a hit at
 * DELTA?  Not when it is not closer, or is an upscale after a downscale.
 * KDE 3 skips upscales after a downscale even when closer (@v3.5.10
 * kicontheme.cpp:361-435, §1.2). */
gboolean
resolver_prune_dir (KicPruneRule rule, int dw, int delta)
{
  if (rule == KIC_PRUNE_KDE3)
    return abs (dw) >= abs (delta) || (delta > 0 && dw < 0);
  return abs (dw) >= abs (delta) && (dw < 0 || delta > 0);
}

static int compare_uints (gconstpointer a, gconstpointer b);

/* What theme_names_listed() asks of the listings and the table alone. */
static gboolean
theme_names_listing (ThemeNames *tn, const char *file, GArray *at)
{
  const KicTheme *theme = tn->theme;
  gboolean any = FALSE;

  if (tn->names == NULL && tn->ask_budget >= tn->ask_cost)
    {
      tn->ask_budget -= tn->ask_cost;
      for (guint i = 0; i < theme->dirs->len; i++)
        {
          const KicThemeDir *dir = g_ptr_array_index (theme->dirs, i);

          if (tn->kinds[i] == 0
              || !(dir->resource_files != NULL ? g_hash_table_contains (dir->resource_files, file)
                                               : tn->listings[i] != NULL && kic_fs_dir_has (tn->listings[i], file)))
            continue;
          any = TRUE;
          if (at == NULL)
            break;
          g_array_append_val (at, i);
        }
      return any;
    }
  return resolver_name_table_find (resolver_theme_names_table (tn), file, at);
}

static gboolean
theme_names_listed (ThemeNames *tn, const char *file, GArray *at)
{
  guint from = at != NULL ? at->len : 0;
  guint w = from;
  gboolean any = theme_names_listing (tn, file, at);

  if (tn->hidden->len == 0)
    return any;
  if (at == NULL)
    return TRUE;
  /* and the hidden directories, the whole rising, each once */
  g_array_append_vals (at, tn->hidden->data, tn->hidden->len);
  qsort (&g_array_index (at, guint, from), at->len - from, sizeof (guint), compare_uints);
  for (guint i = from; i < at->len; i++)
    if (w == from || g_array_index (at, guint, i) != g_array_index (at, guint, w - 1))
      g_array_index (at, guint, w++) = g_array_index (at, guint, i);
  g_array_set_size (at, w);
  return TRUE;
}

/* THEME's names (ThemeNames), made or made again when the index changed. */
ThemeNames *
resolver_theme_names (KicResolver *resolver, const KicTheme *theme)
{
  ThemeNames *tn = g_hash_table_lookup (resolver->theme_names, theme);
  guint generation = kic_fs_index_generation (resolver->index);

  if (tn != NULL && tn->generation == generation)
    return tn;
  g_autoptr (GHashTable) listings = g_hash_table_new (g_direct_hash, g_direct_equal);

  tn = g_new0 (ThemeNames, 1);
  tn->positions = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);
  tn->listings = g_new0 (const KicFsDir *, theme->dirs->len + 1);
  tn->before = g_new0 (guint, theme->dirs->len + 1);
  tn->twice = g_hash_table_new (g_direct_hash, g_direct_equal);
  tn->hidden = g_array_new (FALSE, FALSE, sizeof (guint));
  tn->distances = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  tn->kinds = g_new0 (guint8, theme->dirs->len + 1);
  tn->generation = generation;
  tn->theme = kic_theme_ref ((KicTheme *) theme);
  /* the table of names would cost about a step per directory and per
   * name listed; an ask costs one per directory */
  tn->ask_budget = theme->dirs->len;
  for (guint i = 0; i < theme->dirs->len; i++)
    {
      const KicThemeDir *dir = g_ptr_array_index (theme->dirs, i);

      tn->before[i + 1] = tn->before[i];
      if (dir->spec->scale != 1)
        continue;
      tn->kinds[i] = dir->mirror != NULL || dir->resource_files != NULL ? 2 : 1;
      tn->ask_cost++;
      if (dir->resource_files != NULL)
        tn->ask_budget += g_hash_table_size (dir->resource_files);
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
              tn->ask_budget += kic_fs_dir_size (listing);
              if (!g_hash_table_add (listings, (gpointer) listing))
                g_hash_table_add (tn->twice, (gpointer) listing);
              if ((at = g_hash_table_lookup (tn->positions, listing)) == NULL)
                g_hash_table_insert (tn->positions, (gpointer) listing, at = g_array_new (FALSE, FALSE, sizeof (guint)));
              g_array_append_val (at, i);
              /* hidden from some users, or past the bound on a
               * user's directory: either way it may hold any name */
              if (!kic_fs_dir_names_known (listing))
                g_array_append_val (tn->hidden, i);
            }
        }
    }
  /* the asks before the table cost at most a quarter of it: a full
   * rebuild, which makes it anyway, pays little for them */
  tn->ask_budget /= 4;
  g_hash_table_replace (resolver->theme_names, (gpointer) theme, tn);
  return tn;
}

/* The distance of each directory of THEME from SIZE (kic_dir_spec_distance(),
 * element i for theme->dirs[i]), worked out once per size: a scan of a
 * large theme then reads an array, not every directory's spec.  For the
 * first few sizes asked (the planner's target sizes); NULL for others. */
const int *
resolver_theme_distances (KicResolver *resolver, const KicTheme *theme, int size)
{
  ThemeNames *tn = resolver_theme_names (resolver, theme);
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
  return theme_names_listed (resolver_theme_names (resolver, theme), file, NULL);
}

static int
compare_uints (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The indexes of THEME's directories that may hold FILE: those that list
 * it, and those the overlay adds it to (rising, each once).  transfer full */
GArray *
resolver_candidate_positions (KicResolver *resolver, const KicTheme *theme, const ProbeFile *file)
{
  ThemeNames *tn = resolver_theme_names (resolver, theme);
  GArray *at = g_array_new (FALSE, FALSE, sizeof (guint));

  theme_names_listed (tn, file->name, at);
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

/* resolver_scan_dirs() with MatchBest (KF's pruning), probing only where the file
 * may be (resolver_candidate_positions()): before the first hit every scale-1
 * directory is probed (nothing is pruned yet, :235), so those misses are
 * counted (ThemeNames.before); after it, the directories not pruned are
 * walked as resolver_scan_dirs() walks them.  Questions about a directory
 * kic_resolve_priced() watches are recorded as the probes would. */
static const KicThemeDir *
scan_dirs_indexed (Lookup *lookup, const KicTheme *theme, const ProbeFile *file, const int *dw)
{
  KicResolver *resolver = lookup->resolver;
  ThemeNames *tn = resolver_theme_names (resolver, theme);
  DirCache *caches = resolver_theme_dir_caches (resolver, theme);
  const GPtrArray *dirs = theme->dirs;
  KicPruneRule rule = resolver->profile->table->prune;
  g_autoptr (GArray) at = resolver_candidate_positions (resolver, theme, file);
  guint start = lookup->result->n_calls;
  guint first = G_MAXUINT, next = 0;
  const WatchTheme *wt = NULL;
  const KicThemeDir *best;
  int delta;

  for (guint k = 0; k < at->len && first == G_MAXUINT; k++)
    {
      guint p = g_array_index (at, guint, k);

      resolver->scan_theme = theme;
      resolver->scan_index = p;
      if (resolver_index_type (resolver, start + tn->before[p], g_ptr_array_index (dirs, p), &caches[p], file) != KIC_FS_NONE)
        first = p;
      resolver->scan_theme = NULL;
      next = k + 1;
    }
  if (file->watched)
    {
      /* the directories watched that the scan asks about before its first
       * hit (or all of them): each is asked after the misses before it */
      guint limit = first == G_MAXUINT ? dirs->len : first;

      wt = resolver_watch_theme (resolver, theme);
      for (guint a = 0; wt->asks != NULL && a < wt->asks->len; a++)
        {
          guint q = g_array_index (wt->asks, guint, a);

          if (q >= limit)
            break;
          resolver->scan_theme = theme;
          resolver->scan_index = q;
          ask_link (resolver, &g_array_index (resolver->watch_links, KicPricedLink, wt->link_at[q] - 1),
                    start + tn->before[q], g_ptr_array_index (dirs, q));
          resolver->scan_theme = NULL;
        }
    }
  if (first == G_MAXUINT)
    {
      lookup->result->n_calls = start + tn->n_calls;
      return NULL;
    }
  best = g_ptr_array_index (dirs, first);
  lookup->result->n_calls = start + tn->before[first] + resolver_hit_cost (resolver, best, &caches[first]);
  delta = dw[first];
  for (guint i = first + 1; delta != 0 && i < dirs->len; i++)
    {
      const KicThemeDir *dir;
      gboolean candidate;
      int rest = dw[dirs->len + i];

      /* nothing from here on is probed: the scan is over */
      if ((rest >= 0 ? rest : -1 - rest) >= ABS (delta) && !(rest < 0 && delta <= 0))
        break;
      if (tn->kinds[i] == 0 || resolver_prune_dir (rule, dw[i], delta))
        continue;
      dir = g_ptr_array_index (dirs, i);
      while (next < at->len && g_array_index (at, guint, next) < i)
        next++;
      candidate = next < at->len && g_array_index (at, guint, next) == i;
      if (candidate)
        {
          resolver->scan_theme = theme;
          resolver->scan_index = i;
          if (resolver_probe_theme_dir (lookup, dir, &caches[i], file))
            {
              best = dir;
              delta = dw[i];
            }
          resolver->scan_theme = NULL;
          continue;
        }
      /* a miss: the access(2) of a disk directory, nothing for a resource */
      if (wt != NULL && wt->link_at != NULL && wt->link_at[i] != 0 && tn->kinds[i] == 1)
        {
          resolver->scan_theme = theme;
          resolver->scan_index = i;
          ask_link (resolver, &g_array_index (resolver->watch_links, KicPricedLink, wt->link_at[i] - 1),
                    lookup->result->n_calls, dir);
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
const KicThemeDir *
resolver_scan_dirs (Lookup *lookup, const KicTheme *theme, const ProbeFile *file, int size, gboolean exact)
{
  const GPtrArray *dirs = theme->dirs;
  DirCache *caches = resolver_theme_dir_caches (lookup->resolver, theme);
  KicPruneRule rule = lookup->resolver->profile->table->prune;
  const KicThemeDir *best = NULL;
  /* :178: delta starts at -INT_MAX (KDE 3: -1000) */
  int delta = rule == KIC_PRUNE_KDE3 ? -1000 : -INT_MAX;
  const int *distances = exact ? NULL : resolver_theme_distances (lookup->resolver, theme, size);
  gboolean hit;

  /* without a list of the calls, a MatchBest scan probes only where the
   * file is (KDE 3 prunes before a hit: that scan is made in full; with
   * GTK caches a miss costs a call only where the cache lists the name) */
  if (!exact && rule != KIC_PRUNE_KDE3 && lookup->result->calls == NULL && !file->has_slash && distances != NULL
      && theme->gtk_caches == NULL)
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
          if (kic_dir_spec_exact (dir->spec, size) && resolver_probe_theme_dir (lookup, dir, &caches[i], file))
            return dir;
          continue;
        }
      dw = distances ? distances[i] : kic_dir_spec_distance (dir->spec, size);
      if (resolver_prune_dir (rule, dw, delta))
        continue;
      lookup->resolver->scan_theme = theme;
      lookup->resolver->scan_index = i;
      hit = resolver_probe_theme_dir (lookup, dir, &caches[i], file);
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
gboolean
resolver_scan_file (Lookup *lookup, const KicTheme *theme, const char *name, const char *ext, int size,
           gboolean exact)
{
  /* (most scans miss: the file's name on the stack, unless it is long) */
  gsize name_len = strlen (name), ext_len = strlen (ext);
  char buf[256];
  g_autofree char *heap = name_len + ext_len < sizeof buf ? NULL : g_strconcat (name, ext, NULL);
  char *file = heap != NULL ? heap : buf;
  guint start = lookup->result->n_calls;
  const KicThemeDir *dir;
  ProbeFile probe;

  if (heap == NULL)
    {
      memcpy (buf, name, name_len);
      memcpy (buf + name_len, ext, ext_len + 1);
    }
  resolver_probe_file_init (lookup->resolver, &probe, file);
  dir = resolver_scan_dirs (lookup, theme, &probe, size, exact);

  if (dir == NULL)
    return FALSE;
  lookup->result->path = g_strconcat (dir->path, "/", file, NULL);
  lookup->result->theme = theme;
  lookup->result->dir = dir;
  lookup->scan_start = start;
  g_free (lookup->scan_file);
  lookup->scan_file = heap != NULL ? g_steal_pointer (&heap) : g_strdup (buf);
  return TRUE;
}

/* Forget a hit (the KDE 4 /apps/ pass throws some away). */
void
resolver_discard_hit (Lookup *lookup)
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
gboolean
resolver_theme_lookup (Lookup *lookup, const KicTheme *theme, const char *name, int size)
{
  char **exts = theme->desc->extensions;

  switch (lookup->resolver->profile->table->passes)
    {
    case KIC_PASSES_BEST:
      for (guint e = 0; exts[e] != NULL; e++)
        if (resolver_scan_file (lookup, theme, name, exts[e], size, FALSE))
          return TRUE;
      break;
    case KIC_PASSES_EXACT_BEST:
      for (guint e = 0; exts[e] != NULL; e++)
        if (resolver_scan_file (lookup, theme, name, exts[e], size, TRUE)
            || resolver_scan_file (lookup, theme, name, exts[e], size, FALSE))
          return TRUE;
      break;
    case KIC_PASSES_ALL_EXACT_FIRST:
      for (guint e = 0; exts[e] != NULL; e++)
        if (resolver_scan_file (lookup, theme, name, exts[e], size, TRUE))
          return TRUE;
      for (guint e = 0; exts[e] != NULL; e++)
        if (resolver_scan_file (lookup, theme, name, exts[e], size, FALSE))
          return TRUE;
      break;
    }
  return FALSE;
}
