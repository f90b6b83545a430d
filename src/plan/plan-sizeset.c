/* plan-sizeset.c - per-size sets (PerSizeSets=true)
 *
 * A name KDE finds outside the current theme with different content at
 * different sizes gets links in the current theme's directories, each to
 * the file KDE loads at that directory's exact sizes, when with the set
 * every size from 8 to 256 still shows its own file.  Unlike one
 * content's links, part of such a set is not safe: a run killed half way
 * can leave KDE showing a neighbouring size's file at some sizes until the
 * next run (which finds the killed run's links in the journal) or --clean.
 */
#include "plan-private.h"

#include "diag.h"

#include <string.h>

/* KDE's weighted cost for NP's name over the target sizes with the
 * overlay AFTER, or G_MAXDOUBLE when any size from 8 to 256 would show
 * other content than BEFORE_ALL (its lookups without the links) does. */
/* When a set is only tried (PerSizeSets=false): at most so many links,
 * and rounds of repair (a set there is one link per directory of the
 * current theme that is exact for a size: breeze has about 100; a theme
 * of thousands is left untried). */
#define SIZE_SET_TRY_LINKS 256
#define SIZE_SET_TRY_ROUNDS 16

static double
size_set_cost (Planner *p, KicResolver *resolver, const KicNamePlan *np, const GPtrArray *before_all,
               char **wrong)
{
  g_autoptr (GPtrArray) after_all = NULL;
  PlanLastContent last_before = { 0 }, last_after = { 0 };
  double cost = 0;

  kic_resolver_set_overlay (resolver, p->after);
  after_all = kic_resolve_sizes_uncounted (resolver, np->name, KIC_MIN_SIZE, KIC_MAX_SIZE);
  for (guint k = 0; k < before_all->len; k++)
    if (!kic_content_equal (plan_content_of_sized (p, g_ptr_array_index (before_all, k), &last_before),
                            plan_content_of_sized (p, g_ptr_array_index (after_all, k), &last_after)))
      {
        const char *path = ((const KicResult *) g_ptr_array_index (after_all, k))->path;

        kic_debug ("per-size set for '%s' tried and set aside: with it KDE would load %s at %u px, not %s", np->name,
                   path ? path : "nothing", KIC_MIN_SIZE + k,
                   ((const KicResult *) g_ptr_array_index (before_all, k))->path
                     ? ((const KicResult *) g_ptr_array_index (before_all, k))->path : "nothing");
        if (wrong != NULL)
          *wrong = g_strdup (path);
        return G_MAXDOUBLE;
      }
  for (guint t = 0; t < p->options->targets->len; t++)
    {
      const KicTarget *target = &g_array_index (p->options->targets, KicTarget, t);
      g_autoptr (KicResult) r = plan_resolve_with (resolver, p->after, np->name, target->size);

      cost += target->weight * r->n_calls;
    }
  return cost;
}

/* What KDE shows of NP at each size from 8 to 256 without the set: the
 * content of BEFORE_ALL's results, each worked out when first asked
 * (plan_content_of_sized()).  The set's links cannot change it: each is in
 * a directory of the current theme that holds no file of the name but
 * ours, and none of the results is there (plan_size_set() leaves a name
 * the current theme answers as it is). */
typedef struct {
  const GPtrArray *before_all;
  const KicContent *at[KIC_MAX_SIZE - KIC_MIN_SIZE + 1];
  PlanLastContent last;
} SizedContents;

static const KicContent *
sized_content (Planner *p, SizedContents *sc, int size)
{
  const KicContent **c = &sc->at[size - KIC_MIN_SIZE];

  if (*c == NULL)
    *c = plan_content_of_sized (p, g_ptr_array_index (sc->before_all, size - KIC_MIN_SIZE), &sc->last);
  return *c;
}

/* The link a per-size set of NP may have in DIR of THEME: to the file KDE
 * loads (SC) at every size from 8 to 256 the directory is exact for, when
 * that is one content KDE reads from disk, of a type THEME probes, and DIR
 * holds no file of the name we did not plant.  NULL otherwise.  (A theme
 * may have hundreds of directories: the contents are SC's, worked out
 * once for all of them.)  transfer full */
static KicPlant *
size_set_link (Planner *p, const KicTheme *theme, const KicThemeDir *dir, const KicNamePlan *np,
               SizedContents *sc)
{
  const GPtrArray *before_all = sc->before_all;
  const KicContent *content = NULL;
  g_autofree char *source = NULL;
  g_autofree char *file = NULL;
  g_autofree char *store = NULL;
  const char *ext;
  const char *key;
  const char *why;
  gboolean add;
  gboolean xpm;
  KicPlant *plant;

  for (int s = KIC_MIN_SIZE; s <= KIC_MAX_SIZE; s++)
    {
      const KicResult *r = g_ptr_array_index (before_all, s - KIC_MIN_SIZE);
      const KicContent *c;

      if (!kic_dir_spec_exact (dir->spec, s))
        continue;
      c = sized_content (p, sc, s);
      if (content == NULL)
        {
          content = c;
          source = kic_fs_index_realpath (p->system->index, r->path);
        }
      else if (!kic_content_equal (c, content))
        return NULL;
    }
  /* exact for no size, or a file of the library's breeze */
  if (content == NULL || source == NULL)
    return NULL;
  /* what the directory allows first: the file is read (its type, whether
   * it may be copied) only for a link that could be planted (an XPM's
   * extension, ".png" when it has one, needs the read) */
  xpm = g_strcmp0 (kic_icon_name_extension (source), ".xpm") == 0;
  if (xpm && (kic_content_read_kind (content) != KIC_CONTENT_FILE || !plan_may_copy (p, source, &why)))
    return NULL;
  ext = plan_link_extension (p, source);
  if (ext == NULL || !g_strv_contains ((const char *const *) theme->desc->extensions, ext))
    return NULL;
  file = g_strconcat (np->name, ext, NULL);
  key = plan_dir_key (p, dir);
  if (key == NULL)
    return NULL;
  if (!(kic_overlay_lookup (p->base, key, file, &add) && !add)
      && kic_fs_index_stat_at (p->system->index, dir->path, file) != KIC_FS_NONE)
    return NULL; /* not ours: never replaced */
  if (kic_overlay_lookup (p->after, key, file, &add) && add)
    return NULL; /* another name planted there already */
  /* ... then a file that can be read, and copied */
  if (!xpm && (kic_content_read_kind (content) != KIC_CONTENT_FILE || !plan_may_copy (p, source, &why)))
    return NULL;
  store = g_strconcat (p->options->store, "/files", source, g_str_has_suffix (source, ext) ? "" : ext, NULL);
  if (!plan_may_write (p, np->name, ext, source, store))
    return NULL;
  plant = g_new0 (KicPlant, 1);
  plant->link = g_strconcat (key, "/", file, NULL);
  plant->source = g_steal_pointer (&source);
  plant->store = g_steal_pointer (&store);
  plant->theme = g_strdup (theme->desc->name);
  plant->content = plan_content_of_path (p, plant->source);
  return plant;
}

static void
size_set_unset (Planner *p, KicPlant *plant)
{
  g_autofree char *dir = g_path_get_dirname (plant->link);
  g_autofree char *file = g_path_get_basename (plant->link);

  plan_overlay_restore (p, dir, file);
  plan_plants_remove (p, plant->link);
}

static void
size_set_set (Planner *p, KicPlant *plant)
{
  g_autofree char *dir = g_path_get_dirname (plant->link);
  g_autofree char *file = g_path_get_basename (plant->link);

  kic_overlay_set (p->after, dir, file, TRUE);
  plan_plants_add (p, plant);
}

/* Whether NP is no name for a per-size set in THEME, the current theme
 * (its status then says why). */
static gboolean
size_set_ruled_out (Planner *p, KicNamePlan *np, const KicTheme *theme, const GPtrArray *before_all)
{
  gboolean in_theme = FALSE;

  /* a name the current theme already answers at some size is left as
   * it is: its own files there decide the scan (and KDE's MatchBest,
   * kicontheme.cpp:553-612, answers every size from them once one
   * matches), so it is the theme's own name, not one the tool failed to
   * place: unchanged, not skipped */
  for (guint k = 0; k < before_all->len && !in_theme; k++)
    in_theme = ((const KicResult *) g_ptr_array_index (before_all, k))->theme == theme;
  if (in_theme)
    {
      plan_set_status (np, KIC_NAME_UNCHANGED, "KDE finds it in the current theme, whose own files decide what it loads "
                                          "at each size: no link goes beside them");
      return TRUE;
    }
  if (np->closure_theme != NULL || theme->guessed_resource
      || g_ptr_array_find_with_equal_func (np->banned, theme->desc->name, g_str_equal, NULL))
    {
      plan_set_status (np, KIC_NAME_SKIPPED, "KDE loads different files at different sizes");
      return TRUE;
    }
  /* links no name carried by no file may meet (plan-choose.c) */
  g_autoptr (GPtrArray) ends = plan_name_ends (p, np->name);
  const char *why = plan_theme_forbids (p, ends, np->name, theme);

  if (why != NULL)
    {
      g_autofree char *reason = g_strdup_printf ("KDE loads different files at different sizes, and %s", why);

      plan_set_status (np, KIC_NAME_SKIPPED, reason);
      return TRUE;
    }
  return FALSE;
}

/* A link in each directory of THEME that can take one into SET, each set
 * in P as it goes; only trying, no more than SIZE_SET_TRY_LINKS
 * (*GAVE_UP past them). */
static void
size_set_gather (Planner *p, const KicTheme *theme, KicNamePlan *np, SizedContents *sized, GPtrArray *set,
                 gboolean only_try, gboolean *gave_up)
{
  for (guint d = 0; d < theme->dirs->len; d++)
    {
      const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
      KicPlant *plant;

      if (dir->spec->scale != 1 || !kic_theme_dir_is_plantable (dir) || !plan_may_plant_dir (p, dir))
        continue;
      if (only_try && set->len == SIZE_SET_TRY_LINKS)
        {
          *gave_up = TRUE;
          return;
        }
      plant = size_set_link (p, theme, dir, np, sized);
      if (plant == NULL)
        continue;
      if (g_hash_table_contains (p->plants, plant->link))
        {
          kic_plant_free (plant); /* a directory listed twice */
          continue;
        }
      size_set_set (p, plant);
      g_ptr_array_add (set, plant);
    }
}

/* SET's cost once every link that answers a size with another file than
 * KDE loads there has left it, until the rest holds at every size (or
 * none is left); G_MAXDOUBLE when it cannot be repaired.  Only trying
 * (PerSizeSets=false, every such name of every run, and a theme may have
 * thousands of directories: hardening-writer.sh row 6), a few rounds
 * (*GAVE_UP past them). */
static double
size_set_repair (Planner *p, KicResolver *resolver, KicNamePlan *np, const GPtrArray *before_all, GPtrArray *set,
                 gboolean only_try, gboolean *gave_up)
{
  double cost = G_MAXDOUBLE;
  guint rounds = 0;

  while (set->len > 0 && !*gave_up)
    {
      g_autofree char *wrong = NULL;
      guint i;

      if (only_try && rounds++ == SIZE_SET_TRY_ROUNDS)
        {
          *gave_up = TRUE;
          return G_MAXDOUBLE;
        }
      cost = size_set_cost (p, resolver, np, before_all, &wrong);
      if (cost != G_MAXDOUBLE)
        break;
      for (i = 0; wrong != NULL && i < set->len; i++)
        if (strcmp (((KicPlant *) g_ptr_array_index (set, i))->link, wrong) == 0)
          break;
      if (wrong == NULL || i == set->len)
        break; /* no link of the set is at fault: cannot be repaired */
      size_set_unset (p, g_ptr_array_index (set, i));
      g_ptr_array_remove_index (set, i);
    }
  return cost;
}

/* SET (of cost COST, which holds) without each link whose removal keeps
 * it holding and costs no more; the new cost. */
static double
size_set_prune (Planner *p, KicResolver *resolver, KicNamePlan *np, const GPtrArray *before_all, GPtrArray *set,
                double cost)
{
  for (guint i = set->len; i-- > 0;)
    {
      KicPlant *plant = g_ptr_array_index (set, i);
      double trial;

      size_set_unset (p, plant);
      trial = size_set_cost (p, resolver, np, before_all, NULL);
      if (trial <= cost)
        {
          g_ptr_array_remove_index (set, i);
          cost = trial;
        }
      else
        size_set_set (p, plant);
    }
  return cost;
}

static void
size_set_unset_all (Planner *p, GPtrArray *set)
{
  for (guint i = 0; i < set->len; i++)
    size_set_unset (p, g_ptr_array_index (set, i));
}

/* NP's status when SET (of COST; N_DIRS links at first) is not planted. */
static void
size_set_refuse (KicNamePlan *np, const GPtrArray *set, double cost, gboolean gave_up, guint n_dirs)
{
  /* a set that would cost no less: KDE is already as fast as links can
   * make it, which is no reason to skip */
  if (set->len > 0 && cost != G_MAXDOUBLE)
    plan_set_status (np, KIC_NAME_UNCHANGED, "KDE loads different files at different sizes, and already finds "
                                        "them as fast as a set of links in the current theme would");
  else if (gave_up)
    plan_set_status (np, KIC_NAME_SKIPPED, "KDE loads different files at different sizes (whether a per-size set "
                                      "would help was not worked out: PerSizeSets=true tries in full)");
  else
    plan_set_status (np, KIC_NAME_SKIPPED,
                n_dirs == 0 ? "KDE loads different files at different sizes, and no directory of the current theme can hold one of them (a type it does not probe, or several files over its sizes)"
                            : "KDE loads different files at different sizes, and no set of links in the current theme shows each size its file");
}

/* SET's links become NP's plan, unless a copy of one would be at the
 * same store path as another file's. */
static void
size_set_plant (Planner *p, KicNamePlan *np, const KicTheme *theme, GPtrArray *set)
{
  for (guint i = 0; i < set->len; i++)
    if (!plan_claim_store (p, ((KicPlant *) g_ptr_array_index (set, i))->store,
                      ((KicPlant *) g_ptr_array_index (set, i))->source))
      {
        size_set_unset_all (p, set);
        plan_set_status (np, KIC_NAME_SKIPPED, "a copy of its per-size set would be at the same path in the store as another file's");
        return;
      }
  kic_debug ("per-size set: '%s' in %s, %u %s", np->name, theme->desc->name, set->len,
             kic_plural (set->len, "link", "links"));
  for (guint i = 0; i < set->len; i++)
    {
      KicPlant *plant = g_ptr_array_index (set, i);

      g_ptr_array_add (np->plants, plant);
      g_hash_table_insert (p->plant_name, plant->link, np);
      g_hash_table_add (p->dirty, g_strdup (plant->link));
    }
  g_ptr_array_set_free_func (set, NULL);
  plan_set_status (np, KIC_NAME_PLANTED, NULL);
}

/* A name KDE loads with different content at different sizes (BEFORE_ALL,
 * 8 to 256; hicolor's 16x16/apps/X.svg, 22x22/apps/X.svg, ...,
 * scalable/apps/X.svg): a link in every directory of the current theme of
 * RESOLVER, each to the file KDE loads at that directory's exact sizes
 * (kiconloader.cpp:832-911 stops at the first theme with any hit, and
 * kicontheme.cpp:553-612 takes an exact directory first, else the closest:
 * kde-lookup.md §1.2, §3.1), kept only where KDE's lookup of the name at
 * every size from 8 to 256 shows the same content with the set as without;
 * then each link whose removal keeps that and costs no more goes.  The
 * proof checks the set like any plan, and drops it whole (drop_plants). */
void
plan_size_set (Planner *p, KicResolver *resolver, KicNamePlan *np, const GPtrArray *before_all, double before,
               gboolean only_try)
{
  const KicTheme *theme = g_ptr_array_index (kic_resolver_themes (resolver), 0);
  g_autoptr (GPtrArray) set = g_ptr_array_new_with_free_func (kic_plant_free);
  SizedContents sized = { before_all, { NULL }, { 0 } };
  gboolean gave_up = FALSE;
  double cost;
  guint n_dirs;

  if (size_set_ruled_out (p, np, theme, before_all))
    return;
  size_set_gather (p, theme, np, &sized, set, only_try, &gave_up);
  n_dirs = set->len;
  cost = size_set_repair (p, resolver, np, before_all, set, only_try, &gave_up);
  if (!only_try && cost != G_MAXDOUBLE)
    cost = size_set_prune (p, resolver, np, before_all, set, cost);
  if (set->len == 0 || cost == G_MAXDOUBLE || cost >= before)
    {
      size_set_unset_all (p, set);
      size_set_refuse (np, set, cost, gave_up, n_dirs);
      return;
    }
  /* PerSizeSets=false: the set would make KDE faster; the reason says
   * how to have it (the hint, only here: kic_plan_build's names that a
   * set cannot help say why instead) */
  if (only_try)
    {
      size_set_unset_all (p, set);
      np->size_set_helps = TRUE;
      plan_set_status (np, KIC_NAME_SKIPPED, "KDE loads different files at different sizes (a per-size set of links "
                                        "would make it faster: set PerSizeSets=true to plant it)");
      return;
    }
  size_set_plant (p, np, theme, set);
}
