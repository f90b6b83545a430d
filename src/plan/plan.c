/* plan.c - choose the links, then prove that nothing KDE shows changes
 *
 * The planner's public face (plan.h) and its run: plan every name for each
 * configured theme (plan-choose.c, plan-sizeset.c), prove (plan-proof.c),
 * report (plan-floor.c).  plan-private.h holds what the parts share.
 *
 * A link planted as "<name><ext>" in a directory of a theme on the search
 * path makes that theme answer the lookup of <name> at EVERY size: KDE's
 * MatchBest scan takes any hit in a theme and only keeps scanning for a
 * closer one (kde-lookup.md §1.2).  So a name is only planted when KDE
 * loads files of one and the same content at every size from 8 to 256;
 * then every link of the name points to a copy of that content, any subset
 * of the links (a run killed half way) shows the user the same icon, and
 * the choice of directories only changes what the search costs.
 *
 * The exception, a per-size set (plan_size_set): a name KDE finds outside
 * the current theme with different content at different sizes gets links
 * in the current theme's directories, each to the file KDE loads at that
 * directory's exact sizes, when with the set every size from 8 to 256
 * still shows its own file.  Unlike one content's links, part of such a
 * set is not safe: a run killed half way can leave KDE showing a
 * neighbouring size's file at some sizes until the next run (which
 * finds the killed run's links in the journal) or --clean.
 *
 * The choice: the directories of the themes on the search path that probe
 * the file's extension and fit a target size exactly are candidates; links
 * are added greedily while KDE's weighted cost over the target sizes (as
 * the resolver counts it, with the links in an overlay) goes down.
 *
 * The proof: every name whose lookup could try a planted file name (the
 * menu's names, every icon of the themes searched, every mime type, each
 * with its dash cuts and generic names) is looked up at every size from 8
 * to 256 with and without the links, for each configured theme and for a
 * user of any other theme; the content KDE would load must not change.  A
 * name whose links change any lookup loses them.
 */
#include "plan-private.h"

#include "diag.h"
#include "hash.h"
#include "version.h"

#include <string.h>

const char *
kic_name_status_to_string (KicNameStatus status)
{
  switch (status)
    {
    case KIC_NAME_PLANTED:
      return "planted";
    case KIC_NAME_UNCHANGED:
      return "unchanged";
    case KIC_NAME_SKIPPED:
      return "skipped";
    case KIC_NAME_NOT_FOUND:
      return "not-found";
    case KIC_NAME_ABSOLUTE:
      return "absolute";
    }
  return "?";
}

gboolean
kic_name_status_from_string (const char *text, KicNameStatus *status)
{
  for (int s = KIC_NAME_PLANTED; s <= KIC_NAME_ABSOLUTE; s++)
    if (strcmp (text, kic_name_status_to_string (s)) == 0)
      {
        *status = s;
        return TRUE;
      }
  return FALSE;
}

GArray *
kic_plan_default_targets (const KicProfileTable *profile)
{
  GArray *targets = g_array_new (FALSE, FALSE, sizeof (KicTarget));

  for (guint i = 0; profile->menu_sizes[i] != 0; i++)
    {
      KicTarget target = { profile->menu_sizes[i], profile->menu_weights[i] };

      g_array_append_val (targets, target);
    }
  return targets;
}

void
kic_plant_free (gpointer data)
{
  KicPlant *plant = data;

  g_free (plant->link);
  g_free (plant->source);
  g_free (plant->store);
  g_free (plant->theme);
  g_free (plant);
}

void
plan_size_report_free (gpointer data)
{
  KicSizeReport *report = data;

  g_free (report->path);
  g_free (report->floor_reason);
  g_free (report);
}

void
plan_name_plan_free (gpointer data)
{
  KicNamePlan *np = data;

  g_free (np->name);
  g_free (np->icon);
  g_free (np->reason);
  g_ptr_array_unref (np->plants);
  g_ptr_array_unref (np->sizes);
  g_ptr_array_unref (np->banned);
  g_free (np->closure_theme);
  g_free (np->ban_reason);
  g_free (np);
}

KicNamePlan *
kic_name_plan_new (const char *name)
{
  KicNamePlan *np = g_new0 (KicNamePlan, 1);

  np->name = g_strdup (name);
  np->plants = g_ptr_array_new_with_free_func (kic_plant_free);
  np->sizes = g_ptr_array_new_with_free_func (plan_size_report_free);
  np->banned = g_ptr_array_new_with_free_func (g_free);
  return np;
}

void
kic_name_plan_free (gpointer np)
{
  plan_name_plan_free (np);
}

void
kic_plan_free (KicPlan *plan)
{
  if (plan == NULL)
    return;
  /* (a plan dropped before its links were made: plan_build()) */
  if (plan->links != NULL)
    g_hash_table_unref (plan->links);
  if (plan->files != NULL)
    g_hash_table_unref (plan->files);
  g_ptr_array_unref (plan->names);
  if (plan->verified != NULL)
    g_hash_table_unref (plan->verified);
  g_free (plan->key);
  if (plan->closure != NULL)
    g_ptr_array_unref (plan->closure);
  kic_content_table_unref (plan->contents);
  g_free (plan);
}

/* Add ICON (an Icon= value as written) to NAMES unless its lookup name is
 * in SEEN already. */
static void
add_name (GPtrArray *names, GHashTable *seen, const char *icon)
{
  g_autofree char *valid = NULL;
  KicNamePlan *np;

  if (icon == NULL || icon[0] == '\0')
    return;
  valid = g_utf8_make_valid (icon, -1);
  np = g_new0 (KicNamePlan, 1);
  np->icon = g_strdup (icon);
  np->name = kic_icon_name_is_absolute (valid) ? g_strdup (valid) : kic_icon_name_strip_extension (valid);
  np->plants = g_ptr_array_new_with_free_func (kic_plant_free);
  np->sizes = g_ptr_array_new_with_free_func (plan_size_report_free);
  np->banned = g_ptr_array_new_with_free_func (g_free);
  if (g_hash_table_contains (seen, np->name))
    {
      plan_name_plan_free (np);
      return;
    }
  g_hash_table_add (seen, np->name);
  /* no link for an absolute Icon=, nor for its base name (which Plasma 6
   * looks up in the themes first): a file outside the themes is the case
   * no theme is safe for (plan-choose.c, theme_forbids, case 1) */
  if (kic_icon_name_is_absolute (valid))
    plan_set_status (np, KIC_NAME_ABSOLUTE, "KDE loads an absolute path as it is");
  g_ptr_array_add (names, np);
}

static int
compare_name_plans (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(KicNamePlan *const *) a)->name, (*(KicNamePlan *const *) b)->name);
}

static void
planner_init (Planner *p, KicSystem *system, const KicPlanOptions *options)
{
  p->system = system;
  p->options = options;
  p->base = kic_overlay_new ();
  p->after = kic_overlay_new ();
  p->contents = kic_content_table_new (system->index);
  if (options->known_contents != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, options->known_contents);
      while (g_hash_table_iter_next (&iter, &key, &value))
        kic_content_table_know (p->contents, key, value);
    }
  p->plants = g_hash_table_new (kic_str_hash, g_str_equal);
  p->plant_files = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  p->plant_name = g_hash_table_new (kic_str_hash, g_str_equal);
  p->resolvers = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_resolver_free);
  p->theme_names = g_ptr_array_new_with_free_func (g_free);
  p->dirty = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  p->closure = g_ptr_array_new_with_free_func (plan_name_plan_free);
  p->dir_keys = plan_dir_keys_new ();
  p->store_of = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  p->copyable = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  p->unwritable = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  p->theme_candidates = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);
  p->shared_keys = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  p->before_at_targets = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
  /* the previous run's links are not part of what KDE has on its own */
  for (guint i = 0; options->previous != NULL && i < options->previous->len; i++)
    {
      const char *link = g_ptr_array_index (options->previous, i);
      g_autofree char *dir = g_path_get_dirname (link);
      g_autofree char *file = g_path_get_basename (link);

      kic_overlay_set (p->base, dir, file, FALSE);
      kic_overlay_set (p->after, dir, file, FALSE);
    }
  if (options->themes == NULL || options->themes[0] == NULL)
    {
      g_ptr_array_add (p->resolvers, kic_system_new_resolver (system, system->configured_theme, FALSE, NULL));
      g_ptr_array_add (p->theme_names, g_strdup (system->configured_theme));
    }
  else
    for (guint i = 0; options->themes[i] != NULL; i++)
      {
        g_ptr_array_add (p->resolvers, kic_system_new_resolver (system, options->themes[i], FALSE, NULL));
        g_ptr_array_add (p->theme_names, g_strdup (options->themes[i]));
      }
  p->n_planned = p->resolvers->len;
  g_ptr_array_add (p->resolvers, kic_system_new_resolver (system, NULL, TRUE, NULL));
  g_ptr_array_add (p->theme_names, g_strdup ("any other theme"));
  /* the plan is priced for the menu's process, which in a Plasma session
   * loads the KDE platform theme (KF6: breeze is then no fallback,
   * iconloader.c, chain_from_root); a process that does not (a KDE
   * program outside Plasma) searches other themes, so the proof takes
   * those too */
  if (system->profile->platform_theme)
    {
      guint n = p->resolvers->len;

      for (guint r = 0; r < n; r++)
        {
          const char *theme = r < p->n_planned ? g_ptr_array_index (p->theme_names, r) : NULL;

          g_ptr_array_add (p->resolvers, kic_system_new_resolver_for (system, theme, r >= p->n_planned, FALSE, NULL));
          g_ptr_array_add (p->theme_names, g_strdup_printf ("%s, without the KDE platform theme",
                                                            (char *) g_ptr_array_index (p->theme_names, r)));
        }
    }
  p->verified = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  plan_count_user_names (p);
}

/* What the plan depends on besides the files: the program, the options,
 * and every resolver (kic_resolver_digest()).  transfer full */
static char *
plan_key (Planner *p)
{
  KicSha256 checksum;
  const KicPlanOptions *o = p->options;
  GString *s = g_string_new (NULL);
  g_autoptr (GHashTable) memo = NULL;

  g_string_append_printf (s, "kde-icon-cache plan %s\nper-size-sets=%d\nunthemed-links=%d\nstore=%s\ntargets=",
                          kic_version, o->per_size_sets, o->unthemed_links, o->store);
  for (guint i = 0; i < o->targets->len; i++)
    {
      const KicTarget *t = &g_array_index (o->targets, KicTarget, i);
      char weight[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (s, "%d:%s,", t->size, g_ascii_dtostr (weight, sizeof weight, t->weight));
    }
  for (guint i = 0; i < p->theme_names->len; i++)
    g_string_append_printf (s, "\ntheme=%s", (char *) g_ptr_array_index (p->theme_names, i));
  kic_sha256_init (&checksum);
  kic_sha256_update (&checksum, s->str, s->len + 1);
  g_string_free (s, TRUE);
  memo = kic_resolver_digest_memo_new ();
  for (guint r = 0; r < p->resolvers->len; r++)
    kic_resolver_digest (g_ptr_array_index (p->resolvers, r), &checksum, memo);
  plan_digest_candidates (p, &checksum);
  return kic_sha256_dup_hex (&checksum);
}

static void
planner_clear (Planner *p)
{
  kic_overlay_free (p->base);
  kic_overlay_free (p->after);
  kic_content_table_unref (p->contents);
  g_hash_table_unref (p->plants);
  g_hash_table_unref (p->plant_files);
  g_hash_table_unref (p->plant_name);
  g_ptr_array_unref (p->resolvers);
  g_ptr_array_unref (p->theme_names);
  g_hash_table_unref (p->dirty);
  if (p->unlisted_themes != NULL)
    g_hash_table_unref (p->unlisted_themes);
  if (p->known != NULL)
    {
      g_hash_table_unref (p->unfiled);
      g_hash_table_unref (p->stem_names);
      plan_known_free (p->known);
      g_ptr_array_unref (p->reach);
    }
  if (p->closure != NULL)
    g_ptr_array_unref (p->closure);
  if (p->verified != NULL)
    g_hash_table_unref (p->verified);
  g_hash_table_unref (p->dir_keys);
  g_hash_table_unref (p->store_of);
  g_hash_table_unref (p->copyable);
  g_hash_table_unref (p->unwritable);
  g_hash_table_unref (p->theme_candidates);
  g_hash_table_unref (p->shared_keys);
  g_hash_table_unref (p->before_at_targets);
}

/* The menu's names, each once, in order. */
static GPtrArray *
plan_names_of (const GPtrArray *icons)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (kic_str_hash, g_str_equal);
  GPtrArray *names = g_ptr_array_new_with_free_func (plan_name_plan_free);

  for (guint i = 0; i < icons->len; i++)
    add_name (names, seen, g_ptr_array_index (icons, i));
  g_ptr_array_sort (names, compare_name_plans);
  return names;
}

/* What MEMO says of every name no change reaches, restored into PLAN;
 * the names to plan again.  transfer full */
static GHashTable *
plan_restore_memo (Planner *p, KicPlan *plan, KicPlanMemo *memo)
{
  GHashTable *replanned;

  p->with_memo = TRUE;
  replanned = plan_memo_restore (p, plan->names, memo, &plan->n_verified);
  for (guint i = 0; i < plan->names->len; i++)
    if (g_hash_table_contains (replanned, ((KicNamePlan *) g_ptr_array_index (plan->names, i))->name))
      plan->n_replanned++;
    else
      plan->n_kept++;
  return replanned;
}

/* Plant for each configured theme in turn (the resolvers after them, "any
 * other theme" and the processes without the KDE platform theme, only
 * take part in the proof); only the names in REPLANNED when it is given. */
static void
plan_every_name (Planner *p, KicPlan *plan, GHashTable *replanned, guint n_themes)
{
  for (guint r = 0; r < n_themes && !p->unsure; r++)
    for (guint i = 0; i < plan->names->len; i++)
      {
        KicNamePlan *np = g_ptr_array_index (plan->names, i);

        if (np->status != KIC_NAME_ABSOLUTE && (replanned == NULL || g_hash_table_contains (replanned, np->name)))
          plan_name (p, g_ptr_array_index (p->resolvers, r), np);
      }
}

/* Prove; a name whose links change a lookup is planned again without the
 * theme they were in, until the proof holds. */
static void
plan_prove (Planner *p, KicPlan *plan, guint n_themes)
{
  for (p->rounds = 1; !p->unsure && !plan_prove_once (p, plan->names, &plan->n_verified); p->rounds++)
    {
      if (p->rounds == KIC_MAX_PROOF_ROUNDS)
        {
          g_autofree char *reason = g_strdup_printf ("the proof did not settle in %d rounds: nothing is planted",
                                                     KIC_MAX_PROOF_ROUNDS);

          /* a tree shaped so that every plan breaks another lookup: no
           * plan is proved, so none is kept (the previous run's links go
           * too: what KDE has on its own is always safe) */
          kic_warning ("%s", reason);
          plan_drop_all_plants (p, plan->names, reason);
          plan->gave_up = TRUE;
          break;
        }
      plan_replan_banned (p, plan->names, n_themes);
      plan_replan_banned (p, p->closure, n_themes);
    }
  kic_debug ("the proof took %u %s", p->rounds, kic_plural (p->rounds, "round", "rounds"));
}

/* The size reports.  Those of the names kept stand, but for the floor
 * when it was not worked out for them, and when the run that made the
 * memo made none.  A run that shows none makes none: KDE's calls before
 * and after at each target size are lookups of every menu name again,
 * and the dpkg trigger runs --quiet; the state then says so, and the next
 * run that shows them makes every name's. */
static void
plan_reports (Planner *p, KicPlan *plan, const KicPlanOptions *options, const KicPlanMemo *memo,
              GHashTable *replanned)
{
  plan->reports = !options->no_reports;
  if (plan->reports)
    plan_report_sizes (p, plan->names,
                       memo != NULL && memo->reports && memo->floor == options->floor ? replanned : NULL);
  else
    for (guint i = 0; i < plan->names->len; i++)
      g_ptr_array_set_size (((KicNamePlan *) g_ptr_array_index (plan->names, i))->sizes, 0);
}

/* PLAN's links and files, from its names and closure, and the contents
 * the writer copies (nothing else's bytes are kept). */
static void
plan_collect_links (Planner *p, KicPlan *plan)
{
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_direct_hash, g_direct_equal);

  plan->links = g_hash_table_new (kic_str_hash, g_str_equal);
  plan->files = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  plan->contents = kic_content_table_ref (p->contents);
  for (guint i = 0; i < plan->names->len + plan->closure->len; i++)
    {
      KicNamePlan *np = i < plan->names->len ? g_ptr_array_index (plan->names, i)
                                             : g_ptr_array_index (plan->closure, i - plan->names->len);

      for (guint k = 0; k < np->plants->len; k++)
        {
          KicPlant *plant = g_ptr_array_index (np->plants, k);

          g_hash_table_insert (plan->links, plant->link, plant);
          g_hash_table_insert (plan->files, g_strdup (plant->store), g_strdup (plant->source));
          g_hash_table_add (wanted, (gpointer) plant->content);
          /* the copies are made of the bytes read here, now, so that
           * they are inputs of the plan like any file it compared
           * (fingerprint.h) */
          kic_content_read_kind (plant->content);
        }
    }
  kic_content_table_keep_only (plan->contents, wanted);
}

/* The plan, keeping what MEMO (may be NULL) says of every name no change
 * reaches (plan-memo.c); NULL when the memo turned out not to be safe to
 * keep. */
static KicPlan *
plan_build (KicSystem *system, const KicPlanOptions *options, const GPtrArray *icons, gboolean use_memo)
{
  KicPlan *plan = g_new0 (KicPlan, 1);
  g_autoptr (KicPlanMemo) memo = NULL;
  g_autoptr (GHashTable) replanned = NULL;
  Planner p = { 0 };
  gboolean unsafe;
  guint n_themes;

  planner_init (&p, system, options);
  plan->key = plan_key (&p);
  plan->names = plan_names_of (icons);
  plan->n_verified = 0;
  if (use_memo && options->memo != NULL)
    memo = options->memo (plan->key, options->memo_data);
  if (memo != NULL)
    replanned = plan_restore_memo (&p, plan, memo);
  n_themes = p.n_planned;
  plan_every_name (&p, plan, replanned, n_themes);
  plan_prove (&p, plan, n_themes);
  unsafe = p.unsure || plan->gave_up || p.store_clash || p.copy_refused;
  if (unsafe && memo != NULL)
    {
      kic_debug ("plan: the previous plan cannot be kept safely: planning every name");
      planner_clear (&p);
      kic_plan_free (plan);
      return NULL;
    }
  if (unsafe)
    g_clear_pointer (&plan->key, g_free); /* nothing for a next run to keep */
  plan_reports (&p, plan, options, memo, replanned);
  plan->closure = g_steal_pointer (&p.closure);
  g_ptr_array_sort (plan->closure, compare_name_plans);
  plan->verified = g_steal_pointer (&p.verified);
  plan_collect_links (&p, plan);
  planner_clear (&p);
  return plan;
}

KicPlan *
kic_plan_build (KicSystem *system, const KicPlanOptions *options, const GPtrArray *icons)
{
  KicPlan *plan = plan_build (system, options, icons, TRUE);

  return plan != NULL ? plan : plan_build (system, options, icons, FALSE);
}
