/* plan-floor.c - the report: KDE's calls before and after at the
 * target sizes, and the floor (the fewest calls any link of the name's
 * own content could give)
 */
#include "plan-private.h"


#include <string.h>

/* Put DIR/FILE of the base overlay back as it was (HAD, ADD). */
static void
base_restore (Planner *p, const char *dir, const char *file, gboolean had, gboolean add)
{
  if (had)
    kic_overlay_set (p->base, dir, file, add);
  else
    kic_overlay_unset (p->base, dir, file);
}

static gboolean
is_added (Planner *p, const KicOverlay *overlay, const char *path)
{
  g_autofree char *key = plan_real_file_key (p, path);
  g_autofree char *dir = g_path_get_dirname (key);
  g_autofree char *file = g_path_get_basename (key);
  gboolean add;

  return kic_overlay_lookup (overlay, dir, file, &add) && add;
}

/* The fewest calls KDE could make for NP at SIZE (BEFORE: its lookup
 * today) with links of the content it shows at that size, in the places
 * the promises allow the name (themes that probe the file's type and hold
 * no other content under the name, no foreign file in the way, and none
 * that could change a name no file carries: plan-choose.c, theme_forbids;
 * so a name KDE finds only outside the themes is at its floor today
 * unless UnthemedLinks=true), chosen
 * for this size alone: greedily, since a link that is not an exact fit
 * still prunes the directories the MatchBest scan goes on to (kde-lookup.md
 * §1.2), so two links can beat one.  Other names are left out: whether the
 * proof lets the links stand is the planner's question, and the report
 * says why a name stays above its floor. */
static guint
floor_calls (Planner *p, KicResolver *resolver, KicNamePlan *np, const KicResult *before, int size)
{
  guint best = before->n_calls;
  const KicContent *content;
  g_autofree char *source = NULL;
  const char *ext;
  g_autoptr (GPtrArray) candidates = NULL;
  g_autoptr (GArray) chosen = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) had = g_array_new (FALSE, FALSE, sizeof (gboolean) * 2);

  if (before->path == NULL || before->via == KIC_VIA_ABSOLUTE)
    return best;
  content = plan_content_of_result (p, before, NULL);
  if (content->kind == KIC_CONTENT_RESOURCE)
    return best;
  source = kic_fs_index_realpath (p->system->index, before->path);
  ext = source ? plan_link_extension (p, source) : NULL;
  if (ext == NULL)
    return best;
  candidates = plan_plant_candidates (p, resolver, np, ext, content, TRUE);
  for (;;)
    {
      guint best_i = G_MAXUINT;

      for (guint i = 0; i < candidates->len; i++)
        {
          Candidate *c = g_ptr_array_index (candidates, i);
          g_autoptr (KicResult) r = NULL;
          gboolean was, add = FALSE, ends_at_link;

          was = kic_overlay_lookup (p->base, c->key, c->file, &add);
          if (was && add)
            continue; /* chosen already */
          kic_overlay_set (p->base, c->key, c->file, TRUE);
          r = plan_resolve_with (resolver, p->base, np->name, size);
          /* the content stays when it ends at one of the links */
          ends_at_link = r->path != NULL && is_added (p, p->base, r->path);
          base_restore (p, c->key, c->file, was, add);
          if (ends_at_link && r->n_calls < best)
            {
              best = r->n_calls;
              best_i = i;
            }
        }
      if (best_i == G_MAXUINT)
        break;
      {
        Candidate *c = g_ptr_array_index (candidates, best_i);
        gboolean state[2] = { FALSE, FALSE };

        state[0] = kic_overlay_lookup (p->base, c->key, c->file, &state[1]);
        g_array_append_val (had, state);
        g_array_append_val (chosen, best_i);
        kic_overlay_set (p->base, c->key, c->file, TRUE);
      }
    }
  for (guint k = chosen->len; k-- > 0;)
    {
      Candidate *c = g_ptr_array_index (candidates, g_array_index (chosen, guint, k));
      gboolean *state = &g_array_index (had, gboolean, 2 * k);

      base_restore (p, c->key, c->file, state[0], state[1]);
    }
  return best;
}

/* Why NP costs more than its floor after the plan. */
static char *
floor_reason (const KicNamePlan *np)
{
  if (np->status != KIC_NAME_PLANTED)
    return g_strdup (np->reason);
  if (np->ban_reason != NULL)
    return g_strdup_printf ("the proof kept its links out of %s: %s",
                            (char *) g_ptr_array_index (np->banned, np->banned->len - 1), np->ban_reason);
  return g_strdup ("its links serve all target sizes together (weighted cost)");
}

/* The figures for the report: the current theme's lookups before and
 * after, at the target sizes, and the floor; for the names in ONLY (a
 * set of names, NULL: all). */
void
plan_report_sizes (Planner *p, GPtrArray *names, GHashTable *only)
{
  KicResolver *resolver = g_ptr_array_index (p->resolvers, 0);

  for (guint i = 0; i < names->len; i++)
    {
      KicNamePlan *np = g_ptr_array_index (names, i);
      g_autofree char *base = NULL;
      const char *asked = np->name;

      if (only != NULL && !g_hash_table_contains (only, np->name))
        continue;
      g_ptr_array_set_size (np->sizes, 0);
      /* KF6 with the KDE platform theme (Plasma 6): KIconEngine::iconName()
       * of an absolute Icon= is the path's QFileInfo::completeBaseName()
       * (KDE/kiconthemes@v6.13.0 src/kiconengine.cpp:161-177), and Plasma
       * looks that name up through the themes: what such a name costs
       * (tests/oracle/FINDINGS.md §j: 1389 calls for idle's pair) */
      if (np->status == KIC_NAME_ABSOLUTE && p->system->profile->platform_theme && np->name[0] == '/')
        {
          g_autofree char *file = g_path_get_basename (np->name);
          char *dot = strrchr (file, '.');

          base = dot != NULL ? g_strndup (file, (gsize) (dot - file)) : g_strdup (file);
          asked = base;
        }
      GPtrArray *known = asked == np->name ? g_hash_table_lookup (p->before_at_targets, np) : NULL;

      for (guint t = 0; t < p->options->targets->len; t++)
        {
          int size = g_array_index (p->options->targets, KicTarget, t).size;
          /* (plan_name() looked the name up so already, p->base being
           * the same throughout) */
          g_autoptr (KicResult) fresh = known == NULL ? plan_resolve_with (resolver, p->base, asked, size) : NULL;
          const KicResult *before = known != NULL ? g_ptr_array_index (known, t) : fresh;
          g_autoptr (KicResult) after = plan_resolve_with (resolver, p->after, asked, size);
          KicSizeReport *report = g_new0 (KicSizeReport, 1);

          report->size = size;
          report->path = g_strdup (asked == np->name ? before->path : np->name);
          report->calls_before = before->n_calls;
          report->calls_after = after->n_calls;
          report->calls_floor = np->status == KIC_NAME_ABSOLUTE || !p->options->floor
                                  ? before->n_calls
                                  : floor_calls (p, resolver, np, before, size);
          if (report->calls_after > report->calls_floor)
            report->floor_reason = floor_reason (np);
          g_ptr_array_add (np->sizes, report);
        }
    }
}
