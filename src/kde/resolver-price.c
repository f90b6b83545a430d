/* resolver-price.c - what a link would cost a lookup (priced lookups, one
 * lookup for every candidate directory of a name), and one name looked up
 * at every size of a range
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless
 * kicontheme.cpp is named, as in resolver.c.
 */
#include "resolver-private.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* What a hit in DIR (its cache entry CACHE) costs: the access(2) and the
 * l10n stats (resolver_probe_theme_dir()). */
guint
resolver_hit_cost (KicResolver *resolver, const KicThemeDir *dir, DirCache *cache)
{
  if (cache->hit_cost == 0)
    {
      if (dir->mirror != NULL || dir->resource_files != NULL)
        cache->hit_cost = 1;
      else if (!resolver->profile->table->l10n_stat)
        cache->hit_cost = 2;
      else
        /* (asked of the directory's listing: "<dir>/l10n" resolved as a
         * path of its own is one more real path cached per directory) */
        cache->hit_cost = kic_fs_index_stat_at (resolver->index, dir->path, "l10n") == KIC_FS_DIR ? 4 : 3;
    }
  return cache->hit_cost - 1;
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

/* Add V to the sorted distinct VALUES, unless MAX_PRICED_DELTAS are
 * there already: then *OVER is set (one insertion per link of a theme of
 * 100 000 candidates, not a sort of them all). */
static void
add_value (GArray *values, int v, gboolean *over)
{
  guint at = value_index (values, v);

  if (at < values->len && g_array_index (values, int, at) == v)
    return;
  if (values->len == MAX_PRICED_DELTAS)
    *over = TRUE;
  else
    g_array_insert_val (values, at, v);
}

/* The rest of the MatchBest scan of THEME for FILE (the overlay as it is)
 * after a hit at each of LINKS (those of THEME asked by that scan), in one
 * pass from the last directory to the first: after a hit at directory i
 * the scan depends only on i and its distance (kicontheme.cpp:235, the
 * pruning of resolver_prune_dir()), so A[v] -- the calls of the scan from
 * directory j on, with the closest hit so far at distance v -- is carried
 * for every distance v that a link or a hit of the file can set.  FALSE
 * (nothing priced) when there are more than MAX_PRICED_DELTAS of them. */
static gboolean
price_theme (KicResolver *resolver, const KicTheme *theme, const char *file, int size, GArray *links)
{
  const GPtrArray *dirs = theme->dirs;
  DirCache *caches = resolver_theme_dir_caches (resolver, theme);
  KicPruneRule rule = resolver->profile->table->prune;
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree gboolean *hits = g_new0 (gboolean, dirs->len + 1);
  g_autofree guint *cont = NULL;
  g_autofree guint *at = NULL;
  ThemeNames *tn = resolver_theme_names (resolver, theme);
  const guint8 *kinds = tn->kinds;
  const int *distances = resolver_theme_distances (resolver, theme, size);
  g_autofree int *own = NULL;
  gboolean over = FALSE;
  ProbeFile probe;

  /* what a miss costs there depends on the name (GTK caches): the links
   * of such a theme are priced by lookups */
  if (theme->gtk_caches != NULL)
    return FALSE;
  if (distances == NULL)
    {
      own = g_new (int, dirs->len + 1);
      for (guint i = 0; i < dirs->len; i++)
        own[i] = kic_dir_spec_distance (((const KicThemeDir *) g_ptr_array_index (dirs, i))->spec, size);
      distances = own;
    }
  resolver_probe_file_init (resolver, &probe, file);
  /* the file's hits as things are, where it may be */
  {
    g_autoptr (GArray) at_file = resolver_candidate_positions (resolver, theme, &probe);

    for (guint k = 0; k < at_file->len; k++)
      {
        guint i = g_array_index (at_file, guint, k);

        if (kinds[i] == 0)
          continue;
        hits[i] = resolver_index_type (resolver, 0, g_ptr_array_index (dirs, i), &caches[i], &probe) != KIC_FS_NONE;
        if (hits[i] && distances[i] != 0)
          add_value (values, distances[i], &over);
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
        add_value (values, dw, &over);
    }
  if (over)
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

          link->calls += resolver_hit_cost (resolver, g_ptr_array_index (dirs, j), &caches[j]) - 1
                         + (dw == 0 ? 0 : cont[value_index (values, dw)]);
        }
      miss = kinds[j] == 1 ? 1 : 0;
      if (hits[j])
        after_hit = resolver_hit_cost (resolver, g_ptr_array_index (dirs, j), &caches[j])
                    + (dw == 0 ? 0 : cont[value_index (values, dw)]);
      for (guint v = 0; v < values->len; v++)
        {
          if (resolver_prune_dir (rule, dw, g_array_index (values, int, v)))
            continue;
          cont[v] = hits[j] ? after_hit : cont[v] + miss;
        }
    }
  return TRUE;
}

static void
watch_theme_free (gpointer data)
{
  WatchTheme *wt = data;

  g_free (wt->link_at);
  if (wt->asks != NULL)
    g_array_unref (wt->asks);
  g_free (wt);
}

KicPricedWatch *
kic_priced_watch_new (const GArray *links)
{
  KicPricedWatch *watch = g_new0 (KicPricedWatch, 1);

  watch->listings = g_hash_table_new (g_direct_hash, g_direct_equal);
  watch->themes = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, watch_theme_free);
  for (guint k = 0; k < links->len; k++)
    {
      const KicPricedLink *link = &g_array_index (links, KicPricedLink, k);

      if (link->listing != NULL)
        g_hash_table_insert (watch->listings, (gpointer) link->listing, GUINT_TO_POINTER (k + 1));
    }
  return watch;
}

void
kic_priced_watch_free (KicPricedWatch *watch)
{
  if (watch == NULL)
    return;
  g_hash_table_unref (watch->listings);
  g_hash_table_unref (watch->themes);
  g_free (watch);
}

/* Where the watched links are in THEME: from each listing of the theme
 * (ThemeNames.listings), not from each link, since a listing may be seen
 * through a directory of another theme (a link to it) and most themes a
 * scan meets hold none of them.  transfer none */
const WatchTheme *
resolver_watch_theme (KicResolver *resolver, const KicTheme *theme)
{
  ThemeNames *tn = resolver_theme_names (resolver, theme);
  WatchTheme *wt = g_hash_table_lookup (resolver->watch->themes, theme);

  if (wt != NULL && wt->generation == tn->generation)
    return wt;
  wt = g_new0 (WatchTheme, 1);
  wt->generation = tn->generation;
  for (guint i = 0; i < theme->dirs->len; i++)
    {
      const KicFsDir *listing = tn->listings[i];
      guint k = listing ? GPOINTER_TO_UINT (g_hash_table_lookup (resolver->watch->listings, listing)) : 0;

      if (k == 0)
        continue;
      if (wt->link_at == NULL)
        wt->link_at = g_new0 (guint, theme->dirs->len + 1);
      wt->link_at[i] = k;
    }
  if (wt->link_at != NULL)
    {
      wt->asks = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < theme->dirs->len; i++)
        if (wt->link_at[i] != 0 && tn->kinds[i] == 1)
          g_array_append_val (wt->asks, i);
    }
  g_hash_table_replace (resolver->watch->themes, (gpointer) theme, wt);
  return wt;
}

KicResult *
kic_resolve_priced (KicResolver *resolver, const char *name, int size, const char *file, GArray *links,
                    KicPricedWatch *watch)
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
  DirCache *caches = resolver_theme_dir_caches (lookup->resolver, theme);
  GArray *probes = g_array_new (FALSE, FALSE, sizeof (SizeProbe));
  ProbeFile file;

  resolver_probe_file_init (lookup->resolver, &file, name);
  if (!count && !file.has_slash)
    {
      /* without the calls, only where the file may be */
      g_autoptr (GArray) at = resolver_candidate_positions (lookup->resolver, theme, &file);

      for (guint k = 0; k < at->len; k++)
        {
          guint i = g_array_index (at, guint, k);
          SizeProbe probe = { g_ptr_array_index (dirs, i), FALSE, 0 };

          probe.hit = resolver_index_type (lookup->resolver, lookup->result->n_calls, probe.dir, &caches[i], &file) != KIC_FS_NONE;
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
          /* resolver_probe_theme_dir() counts exactly what this lookup costs */
          guint before = lookup->result->n_calls;

          probe.hit = resolver_probe_theme_dir (lookup, dir, &caches[i], &file);
          probe.cost = lookup->result->n_calls - before;
        }
      else
        probe.hit = resolver_index_type (lookup->resolver, lookup->result->n_calls, dir, &caches[i], &file) != KIC_FS_NONE;
      /* without the calls, the misses cannot change the answer */
      if (probe.hit || count)
        g_array_append_val (probes, probe);
    }
  return probes;
}

/* resolver_scan_dirs() with MatchBest at SIZE over PROBES, without a probe: the
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

      if (resolver_prune_dir (rule, dw, delta))
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
  /* the result the sizes before share, while it is the scan's own (a full
   * lookup's may name another file of the same directory) */
  KicResult *run;

  if (resolver->profile->table->passes != KIC_PASSES_BEST || resolver->profile->apps_first_pass)
    {
      g_free (first.result);
      for (int s = min; s <= max; s++)
        g_ptr_array_add (results, kic_resolve (resolver, name, s, FALSE));
      return results;
    }
  resolver_resolve_lookup (&first, name, min);
  g_ptr_array_add (results, first.result);
  if (first.scan_file != NULL)
    {
      Lookup scratch = { resolver, &(KicResult) { 0 }, 0, NULL };

      probes = probe_once (&scratch, first.result->theme, first.scan_file, count);
    }
  run = first.result;
  for (int s = min + 1; s <= max; s++)
    {
      const KicThemeDir *dir;
      guint n_calls;
      KicResult *r;

      if (first.scan_file == NULL)
        {
          /* found outside a theme's scan, or nothing: one answer for all
           * sizes (resolver_scan_file() alone names a theme and a
           * directory, and no call is recorded here) */
          first.result->shared++;
          g_ptr_array_add (results, first.result);
          continue;
        }
      /* (the result is made only when it is not the size before's: a run
       * of sizes mostly shares one, and 249 sizes were 249 allocations) */
      n_calls = count ? first.scan_start : 0;
      dir = scan_probes (resolver, probes, s, &n_calls);
      if (dir == NULL)
        {
          /* cannot happen with sane sizes (theme.c refuses others);
           * the full lookup is always right */
          r = kic_resolve (resolver, name, s, FALSE);
          run = NULL;
        }
      else if (run != NULL && run->dir == dir && run->n_calls == n_calls)
        {
          /* the same directory and calls as the size before: its result */
          run->shared++;
          r = run;
        }
      else
        {
          r = g_new0 (KicResult, 1);
          r->via = first.result->via;
          r->n_calls = n_calls;
          r->theme = first.result->theme;
          r->dir = dir;
          r->path = g_strconcat (r->dir->path, "/", first.scan_file, NULL);
          run = r;
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
