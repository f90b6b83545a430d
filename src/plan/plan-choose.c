/* plan-choose.c - the greedy choice among a name's candidates
 * (plan-candidates.c) by KDE's weighted cost over the target sizes
 *
 * The directories of the themes on the search path that probe the file's
 * extension and fit a target size exactly are candidates; links are added
 * greedily while KDE's weighted cost over the target sizes (as the
 * resolver counts it, with the links in an overlay) goes down.
 */
#include "plan-private.h"
#include "diag.h"
#include "manifest.h"

#include <string.h>

/* The planned link result R ends at, by whichever path KDE reached it, or
 * NULL. */
KicPlant *
plan_plant_of_result (Planner *p, const KicResult *r)
{
  KicPlant *plant;
  g_autofree char *key = NULL;

  if (r->path == NULL || r->via == KIC_VIA_ABSOLUTE
      || (r->dir != NULL && kic_theme_dir_is_resource (r->dir)))
    return NULL; /* a Qt resource holds none of our links */
  plant = g_hash_table_lookup (p->plants, r->path);
  if (plant != NULL || g_hash_table_size (p->plants) == 0)
    return plant;
  /* (the common case, a real directory named as it is, costs no more) */
  if (r->dir != NULL && plan_dir_key (p, r->dir) != NULL
      && strcmp (plan_dir_key (p, r->dir), r->dir->path) == 0 && r->path[strlen (r->dir->path)] == '/'
      && strchr (r->path + strlen (r->dir->path) + 1, '/') == NULL)
    return NULL;
  key = plan_real_file_key (p, r->path);
  return g_hash_table_lookup (p->plants, key);
}

/* May links stand for SOURCE's copy at STORE?  One store path holds one
 * file: the first source to claim it keeps it (an XPM's PNG twin
 * "X.xpm.png" and a file "X.xpm.png" would otherwise share a copy, and
 * one of them show the other's pixels). */
gboolean
plan_claim_store (Planner *p, const char *store, const char *source)
{
  const char *had = g_hash_table_lookup (p->store_of, store);

  if (had != NULL)
    {
      if (strcmp (had, source) == 0)
        return TRUE;
      /* who claims first depends on the order of every name: a previous
       * plan cannot stand for this one (plan-memo.c) */
      p->store_clash = TRUE;
      return FALSE;
    }
  g_hash_table_insert (p->store_of, g_strdup (store), g_strdup (source));
  return TRUE;
}

/* Can the writer write the links NAME EXT and the copy STORE of SOURCE
 * (kic_manifest_path_writable(), the writer's own filter)?  Asked before
 * the links are chosen: the proof must not count on a link the writer
 * leaves out (a 240-byte name whose link is not planted would otherwise
 * let a shorter name's link catch its dash cut: issue 39, row 6).  The
 * directories are real paths of the themes, checked once
 * (plan-candidates.c).  A refusal is one warning, and like plan_may_copy()'s
 * keeps no state for a next run (which then warns again). */
gboolean
plan_may_write (Planner *p, const char *name, const char *ext, const char *source, const char *store)
{
  g_autofree char *link = g_strconcat ("/", name, ext, NULL);

  if (kic_manifest_path_writable (link) && kic_manifest_path_ok (source) && kic_manifest_path_writable (store))
    return TRUE;
  if (!p->with_memo && g_hash_table_add (p->unwritable, g_steal_pointer (&link)))
    kic_warning ("'%s%s': the name is too long to be written safely (%zu bytes), or holds a control character: "
                 "not cached",
                 name, ext, strlen (name) + strlen (ext));
  p->copy_refused = TRUE;
  return FALSE;
}

/* Put DIR/NAME back to what the base overlay says of it. */
void
plan_overlay_restore (Planner *p, const char *dir, const char *name)
{
  gboolean add;

  if (kic_overlay_lookup (p->base, dir, name, &add))
    kic_overlay_set (p->after, dir, name, add);
  else
    kic_overlay_unset (p->after, dir, name);
}

KicResult *
plan_resolve_with (KicResolver *resolver, const KicOverlay *overlay, const char *name, int size)
{
  kic_resolver_set_overlay (resolver, overlay);
  return kic_resolve (resolver, name, size, FALSE);
}

/* KDE's weighted cost for NAME over the target sizes with the overlay
 * AFTER; G_MAXDOUBLE when a target size would show other content than
 * CONTENT (the content of SOURCE, the file the links stand for). */
static double
weighted_cost (Planner *p, KicResolver *resolver, const char *name, const KicContent *content,
               const char *source)
{
  double cost = 0;

  for (guint t = 0; t < p->options->targets->len; t++)
    {
      const KicTarget *target = &g_array_index (p->options->targets, KicTarget, t);
      g_autoptr (KicResult) r = plan_resolve_with (resolver, p->after, name, target->size);

      if (!kic_content_equal (plan_content_of_result (p, r, source), content))
        return G_MAXDOUBLE;
      cost += target->weight * r->n_calls;
    }
  return cost;
}

void
plan_candidate_free (gpointer data)
{
  Candidate *c = data;

  g_ref_string_release (c->file);
  g_free (c);
}

/* How many candidates one choice prices with full lookups at most (those
 * kic_resolve_priced() could only bound).  With KF, Debian's trees need
 * none: every candidate is priced exactly from the one lookup. */
#define KIC_MAX_PRICED 64

typedef struct {
  guint index;   /* in the candidates */
  double bound;  /* its cost, or a lower bound of it (EXACT FALSE) */
  gboolean exact;
} Priced;

static int
compare_priced (gconstpointer a, gconstpointer b)
{
  const Priced *x = a, *y = b;

  if (x->bound != y->bound)
    return x->bound < y->bound ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Each candidate of CANDIDATES priced in PRICED (a bound, exact or not)
 * by one lookup per target size as things are (kic_resolve_priced());
 * today's cost, G_MAXDOUBLE when today's lookup shows other content than
 * CONTENT at some target size. */
static double
price_candidates (Planner *p, KicResolver *resolver, const char *name, const KicContent *content,
                  const char *source, GPtrArray *candidates, GArray *links, KicPricedWatch *watch, GArray *priced)
{
  const GArray *targets = p->options->targets;
  double today = 0;

  g_array_set_size (priced, candidates->len);
  for (guint i = 0; i < candidates->len; i++)
    {
      Priced *pc = &g_array_index (priced, Priced, i);

      pc->index = i;
      pc->bound = 0;
      pc->exact = TRUE;
    }
  for (guint t = 0; t < targets->len; t++)
    {
      const KicTarget *target = &g_array_index (targets, KicTarget, t);
      g_autoptr (KicResult) r = NULL;

      kic_resolver_set_overlay (resolver, p->after);
      /* (every candidate is for the same file: the name with one extension) */
      r = kic_resolve_priced (resolver, name, target->size, ((Candidate *) g_ptr_array_index (candidates, 0))->file,
                              links, watch);
      if (today != G_MAXDOUBLE && !kic_content_equal (plan_content_of_result (p, r, source), content))
        today = G_MAXDOUBLE;
      else if (today != G_MAXDOUBLE)
        today += target->weight * r->n_calls;
      for (guint i = 0; i < candidates->len; i++)
        {
          const KicPricedLink *link = &g_array_index (links, KicPricedLink, i);
          Priced *pc = &g_array_index (priced, Priced, i);

          /* a candidate the lookup never asks about leaves it as it is;
           * one priced exactly ends it in its own theme's scan, at a file
           * of the name's content (plan_theme_agrees()) */
          pc->exact = pc->exact && (!link->asked || link->exact);
          pc->bound += target->weight * (link->asked ? link->calls : r->n_calls);
        }
    }
  /* a target size where today's lookup shows other content keeps it
   * where a candidate leaves the lookup as it is: those are priced in full */
  for (guint i = 0; today == G_MAXDOUBLE && i < candidates->len; i++)
    g_array_index (priced, Priced, i).exact = FALSE;
  return today;
}

/* The candidates of PRICED that can still be chosen, into ORDER by their
 * bounds.  Taken in that order, the candidates past the first one priced
 * exactly (STAR) cannot change the choice: it is as cheap as they are,
 * and earlier; nor can those dearer than BEST_COST.  So only those before
 * it are sorted (with KF none, or a few: not 100 000). */
static void
order_candidates (const GArray *priced, GPtrArray *candidates, const GPtrArray *chosen, double best_cost,
                  GArray *order)
{
  const Priced *star = NULL;

  for (guint i = 0; i < priced->len; i++)
    {
      const Priced *pc = &g_array_index (priced, Priced, i);

      if (pc->exact && pc->bound <= best_cost && (star == NULL || compare_priced (pc, star) < 0)
          && !g_ptr_array_find ((GPtrArray *) chosen, g_ptr_array_index (candidates, i), NULL))
        star = pc;
    }
  for (guint i = 0; i < priced->len; i++)
    {
      const Priced *pc = &g_array_index (priced, Priced, i);

      if (pc->bound <= best_cost && (pc == star || (!pc->exact && (star == NULL || compare_priced (pc, star) < 0))))
        g_array_append_val (order, *pc);
    }
  g_array_sort (order, compare_priced);
}

/* The cheapest candidate of ORDER below *BEST_COST, the first of them in
 * the order of CANDIDATES (a bound that is not exact priced in full), or
 * NULL; *BEST_COST is then its cost. */
static Candidate *
cheapest_of (Planner *p, KicResolver *resolver, const char *name, const KicContent *content, const char *source,
             GPtrArray *candidates, const GArray *order, GPtrArray *chosen, double *best_cost)
{
  Candidate *best = NULL;
  guint best_index = G_MAXUINT;
  guint evaluated = 0;

  for (guint k = 0; k < order->len; k++)
    {
      const Priced *pc = &g_array_index (order, Priced, k);
      Candidate *c = g_ptr_array_index (candidates, pc->index);
      double trial = pc->bound;

      if (g_ptr_array_find (chosen, c, NULL))
        continue;
      /* the rest cost at least this much: none is cheaper, nor as cheap
       * and earlier in the list */
      if (pc->bound > *best_cost)
        break;
      if (pc->bound == *best_cost && (best == NULL || pc->index > best_index))
        continue;
      if (!pc->exact)
        {
          /* a hostile theme can give thousands of candidates bounds below
           * the cheapest: past KIC_MAX_PRICED the cheapest so far is taken
           * (the proof checks it like any other) */
          if (evaluated++ == KIC_MAX_PRICED)
            break;
          kic_overlay_set (p->after, c->key, c->file, TRUE);
          trial = weighted_cost (p, resolver, name, content, source);
          plan_overlay_restore (p, c->key, c->file);
        }
      if (trial < *best_cost || (trial == *best_cost && best != NULL && pc->index < best_index))
        {
          best = c;
          *best_cost = trial;
          best_index = pc->index;
        }
    }
  return best;
}

/* Add to CHOSEN (and to p->after) the candidate not chosen yet whose link
 * gives the lowest cost below BAR (the first of them, in the order of
 * CANDIDATES); FALSE when none does.  *COST is then that cost.
 *
 * Pricing every candidate with a full lookup per target size costs, in a
 * theme of N candidate directories, N lookups of N probes each: N^2 (an
 * index.theme listing 24 000 empty directories took 436 s, issue 19).
 * So each target size gets one lookup as things are, which prices every
 * candidate (kic_resolve_priced()): exactly, or with a lower bound where
 * the lookup meets the candidate's directory elsewhere than in its own
 * theme's scan (or with KDE 3/4).  Bounded candidates are then priced with
 * full lookups in the order of their bounds, until a bound exceeds the
 * cheapest cost found: the choice is the one a full pricing of every
 * candidate makes (past KIC_MAX_PRICED of them, the cheapest so far). */
static gboolean
add_cheapest (Planner *p, KicResolver *resolver, const char *name, const KicContent *content, const char *source,
              GPtrArray *candidates, GArray *links, KicPricedWatch *watch, GPtrArray *chosen, double bar,
              double *cost, double *today_out)
{
  g_autoptr (GArray) priced = g_array_new (FALSE, FALSE, sizeof (Priced));
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (Priced));
  double best_cost = bar;
  double today;
  Candidate *best;

  if (candidates->len == 0)
    return FALSE;
  today = price_candidates (p, resolver, name, content, source, candidates, links, watch, priced);
  /* a BAR below 0 is today's cost (the first choice's bar) */
  if (today_out != NULL)
    *today_out = today;
  if (bar < 0)
    best_cost = today;
  order_candidates (priced, candidates, chosen, best_cost, order);
  best = cheapest_of (p, resolver, name, content, source, candidates, order, chosen, &best_cost);
  if (best == NULL)
    return FALSE;
  kic_overlay_set (p->after, best->key, best->file, TRUE);
  g_ptr_array_add (chosen, best);
  *cost = best_cost;
  return TRUE;
}

/* Greedy: add the candidate that lowers the cost most, while one does;
 * then drop any link whose removal does not raise it.  With KEEP_ONE at
 * least one link is chosen (the cheapest) when any keeps the content: a
 * name of the closure needs its own link even where KDE already finds it
 * fast.  The chosen links are left in p->after; returns the final cost. */
static double
choose_links (Planner *p, KicResolver *resolver, const char *name, const KicContent *content,
              const char *source, GPtrArray *candidates, GPtrArray *chosen, gboolean keep_one)
{
  double cost = G_MAXDOUBLE;
  g_autoptr (GArray) links = g_array_sized_new (FALSE, TRUE, sizeof (KicPricedLink), candidates->len);
  g_autoptr (KicPricedWatch) watch = NULL;

  /* the links priced, and where they are, the same for every choice */
  g_array_set_size (links, candidates->len);
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = g_ptr_array_index (candidates, i);
      KicPricedLink *link = &g_array_index (links, KicPricedLink, i);

      link->theme = c->theme;
      link->dir = c->dir;
      link->listing = c->listing;
    }
  watch = kic_priced_watch_new (links);
  if (keep_one
      && !add_cheapest (p, resolver, name, content, source, candidates, links, watch, chosen, G_MAXDOUBLE, &cost,
                        NULL))
    return G_MAXDOUBLE;
  /* the first choice's bar is the cost of today's lookups, which it makes
   * anyway (with no candidate at all, nothing is chosen: the cost does not
   * matter) */
  if (!keep_one
      && !add_cheapest (p, resolver, name, content, source, candidates, links, watch, chosen, -1, &cost, &cost))
    return cost;
  while (add_cheapest (p, resolver, name, content, source, candidates, links, watch, chosen, cost, &cost, NULL))
    ;
  for (guint i = chosen->len; i-- > 0;)
    {
      Candidate *c = g_ptr_array_index (chosen, i);
      double trial;

      if (keep_one && chosen->len == 1)
        break;
      plan_overlay_restore (p, c->key, c->file);
      trial = weighted_cost (p, resolver, name, content, source);
      if (trial <= cost)
        {
          g_ptr_array_remove_index (chosen, i);
          cost = trial;
        }
      else
        kic_overlay_set (p->after, c->key, c->file, TRUE);
    }
  return cost;
}

/* A name planted for one theme stays planted whatever another says. */
void
plan_set_status (KicNamePlan *np, KicNameStatus status, const char *reason)
{
  if (np->plants->len > 0 && status != KIC_NAME_PLANTED)
    return;
  np->status = status;
  g_free (np->reason);
  np->reason = g_strdup (reason);
}
/* What KDE loads for NP at every size (*ALL): its content at the first
 * (*CONTENT, from *SOURCE), and whether it differs at some other size
 * (NP->per_size).  FALSE when KDE finds nothing at some size (the
 * status says so). */
static gboolean
name_contents (Planner *p, KicResolver *resolver, KicNamePlan *np, GPtrArray **all, const KicContent **content,
               char **source)
{
  PlanLastContent last = { 0 };

  /* without the calls, which only the target sizes need (each size's
   * count costs a pass over the winning theme's directories, at each of
   * the 249 sizes) */
  *all = kic_resolve_sizes_uncounted (resolver, np->name, KIC_MIN_SIZE, KIC_MAX_SIZE);
  for (guint i = 0; i < (*all)->len; i++)
    {
      const KicResult *r = g_ptr_array_index (*all, i);
      const KicContent *c;

      if (r->path == NULL)
        {
          plan_set_status (np, *content ? KIC_NAME_SKIPPED : KIC_NAME_NOT_FOUND,
                      *content ? "KDE finds it at some sizes only" : "KDE finds no file for it");
          return FALSE;
        }
      c = plan_content_of_sized (p, r, &last);
      if (*content == NULL)
        {
          *content = c;
          *source = kic_fs_index_realpath (p->system->index, r->path);
        }
      else if (!kic_content_equal (c, *content))
        np->per_size = TRUE;
    }
  return TRUE;
}

/* KDE's cost of NP today at the target sizes (p->base does not change
 * while the plan is made: the report takes these lookups of the first
 * resolver as its "before", plan-floor.c). */
static double
name_cost_before (Planner *p, KicResolver *resolver, KicNamePlan *np)
{
  GPtrArray *at_targets = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_result_free);
  double before = 0;

  for (guint t = 0; t < p->options->targets->len; t++)
    {
      const KicTarget *target = &g_array_index (p->options->targets, KicTarget, t);
      KicResult *r = plan_resolve_with (resolver, p->base, np->name, target->size);

      before += target->weight * r->n_calls;
      g_ptr_array_add (at_targets, r);
    }
  /* (a menu name's only: a closure member may be freed while the plan is
   * made, and its address given to another) */
  if (resolver == g_ptr_array_index (p->resolvers, 0) && np->closure_for == NULL)
    g_hash_table_replace (p->before_at_targets, np, at_targets);
  else
    g_ptr_array_unref (at_targets);
  return before;
}

/* Is SOURCE in a directory whose names are not known (kic_fs_dir_listed())? */
static gboolean
unlisted_source (Planner *p, const char *source)
{
  g_autofree char *dir = g_path_get_dirname (source);
  const KicFsDir *listing = kic_fs_index_dir (p->system->index, dir);

  return listing != NULL && !kic_fs_dir_listed (listing);
}

/* Whether the file KDE loads for NP (CONTENT, at SOURCE, the real path of
 * HIT) can be copied and linked: the link's extension (*EXT) and the
 * copy's place in the store (*STORE).  FALSE when not (the status says
 * why). */
static gboolean
name_copyable (Planner *p, KicNamePlan *np, const KicContent *content, const char *hit, const char *source,
               const char **ext, char **store)
{
  const char *why;

  if (content->kind == KIC_CONTENT_RESOURCE)
    {
      /* nothing on disk to copy, and KDE finds it without a call */
      plan_set_status (np, KIC_NAME_UNCHANGED, "KDE finds it in the breeze built into its library");
      return FALSE;
    }
  /* a hit whose walk passes a directory not every user may search
   * (fsindex.h): some users find it there and others do not */
  if (source == NULL && kic_fs_index_hidden (p->system->index, hit))
    {
      plan_set_status (np, KIC_NAME_SKIPPED,
                       "KDE finds it through a directory not every user may search: it differs from user to user");
      return FALSE;
    }
  if (source != NULL && content->kind == KIC_CONTENT_UNREADABLE && unlisted_source (p, source))
    {
      plan_set_status (np, KIC_NAME_SKIPPED, UNLISTED_REASON);
      return FALSE;
    }
  *ext = source ? plan_link_extension (p, source) : NULL;
  if (*ext == NULL)
    {
      plan_set_status (np, KIC_NAME_SKIPPED, "the file is not a .png, .svg, .svgz or .xpm");
      return FALSE;
    }
  if (!plan_may_copy (p, source, &why))
    {
      plan_set_status (np, KIC_NAME_SKIPPED, why);
      return FALSE;
    }
  /* an XPM's PNG twin is made in the store (raster.h) */
  *store = g_strconcat (p->options->store, "/files", source, g_str_has_suffix (source, *ext) ? "" : *ext, NULL);
  if (!plan_may_write (p, np->name, *ext, source, *store))
    {
      plan_set_status (np, KIC_NAME_SKIPPED, UNWRITABLE_REASON);
      return FALSE;
    }
  return TRUE;
}

/* The overlay without the links CHOSEN had put in it. */
static void
chosen_restore (Planner *p, const GPtrArray *chosen)
{
  for (guint i = 0; i < chosen->len; i++)
    {
      Candidate *c = g_ptr_array_index (chosen, i);

      plan_overlay_restore (p, c->key, c->file);
    }
}

/* The links CHOSEN become NP's plan: each to the copy STORE of SOURCE. */
static void
chosen_plant (Planner *p, KicNamePlan *np, const GPtrArray *chosen, const char *source, const char *store)
{
  for (guint i = 0; i < chosen->len; i++)
    {
      Candidate *c = g_ptr_array_index (chosen, i);
      KicPlant *plant = g_new0 (KicPlant, 1);

      plant->link = g_strconcat (c->key, "/", c->file, NULL);
      plant->source = g_strdup (source);
      plant->store = g_strdup (store);
      plant->theme = g_strdup (c->theme->desc->name);
      plant->content = plan_content_of_path (p, source);
      g_ptr_array_add (np->plants, plant);
      plan_plants_add (p, plant);
      g_hash_table_insert (p->plant_name, plant->link, np);
      g_hash_table_add (p->dirty, g_strdup (plant->link));
    }
  plan_set_status (np, KIC_NAME_PLANTED, NULL);
}

/* Decide the links of one name for the theme list of RESOLVER. */
void
plan_name (Planner *p, KicResolver *resolver, KicNamePlan *np)
{
  const KicContent *content = NULL;
  g_autofree char *source = NULL;
  g_autoptr (GPtrArray) candidates = NULL;
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
  g_autoptr (GPtrArray) all = NULL;
  double before, after;
  g_autofree char *store = NULL;
  const char *ext = NULL;

  kic_resolver_set_overlay (resolver, p->base);
  if (!name_contents (p, resolver, np, &all, &content, &source))
    return;
  /* a name KDE finds only outside the themes: see theme_forbids, case 1
   * (the other users' lists are checked for each theme there) */
  if (((const KicResult *) g_ptr_array_index (all, 0))->via != KIC_VIA_THEME
      && p->system->profile->table->name_variants && !p->options->unthemed_links)
    {
      plan_set_status (np, KIC_NAME_SKIPPED, UNTHEMED_REASON);
      return;
    }
  before = name_cost_before (p, resolver, np);
  if (np->per_size)
    {
      /* part of a set (a run killed half way, or a crash between two
       * links) can make KDE show a neighbouring size's file: a set is only
       * planted when the administrator asks for it; without, the set is
       * only tried, for the reason (a hint to PerSizeSets=true only where
       * it would help) */
      plan_size_set (p, resolver, np, all, before, !p->options->per_size_sets);
      return;
    }
  if (!name_copyable (p, np, content, ((const KicResult *) g_ptr_array_index (all, 0))->path, source, &ext, &store))
    return;
  candidates = plan_plant_candidates (p, resolver, np, ext, content, FALSE);
  if (candidates->len == 0)
    {
      plan_set_status (np, KIC_NAME_SKIPPED,
                  kic_resolver_cuts_to_generic (resolver, np->name)
                    ? "no theme from the one KDE finds it in on both probes its file type and holds no other file "
                      "of that name (its dash cuts reach a -x-generic icon: a link in an earlier theme would change "
                      "longer names cut back to it)"
                    : "no theme on the search path both probes its file type and holds no other file of that name");
      return;
    }
  after = choose_links (p, resolver, np->name, content, source, candidates, chosen, np->closure_theme != NULL);
  /* a name of the closure is planted for the other name's sake, even
   * where it costs KDE no less itself */
  if (chosen->len == 0 || after == G_MAXDOUBLE || (after >= before && np->closure_theme == NULL))
    {
      chosen_restore (p, chosen);
      plan_set_status (np, KIC_NAME_UNCHANGED, "KDE already finds it as fast as any link would make it");
      return;
    }
  if (!plan_claim_store (p, store, source))
    {
      chosen_restore (p, chosen);
      plan_set_status (np, KIC_NAME_SKIPPED, "its copy would be at the same path in the store as another file's");
      return;
    }
  chosen_plant (p, np, chosen, source, store);
}
