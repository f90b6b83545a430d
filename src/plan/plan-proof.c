/* plan-proof.c - the proof that nothing KDE shows changes, and the
 * closure that keeps it
 *
 * Every name whose lookup could try a planted file name (the menu's
 * names, every icon of the themes searched, every mime type, each with
 * its dash cuts and generic names) is looked up at every size from 8 to
 * 256 with and without the links, for each configured theme and for a
 * user of any other theme; the content KDE would load must not change.
 * A lookup that changes gets a link of its own (the closure), or the name
 * whose links it meets loses them in that theme and is planned again.
 */
#include "plan-private.h"

#include "diag.h"
#include "hash.h"
#include "path.h"
#include "sorted.h"

#include <string.h>

static void drop_plants (Planner *p, KicNamePlan *np, const char *reason);

/* The names planted for NP's links lose theirs with them (and so on down:
 * each was only wanted because of the links above it). */
static void
drop_closure_of (Planner *p, KicNamePlan *np, const char *reason)
{
  g_autoptr (GPtrArray) members = g_ptr_array_new ();

  for (guint i = 0; i < p->closure->len; i++)
    {
      KicNamePlan *m = g_ptr_array_index (p->closure, i);

      if (m->closure_for == np)
        g_ptr_array_add (members, m);
    }
  for (guint i = 0; i < members->len; i++)
    {
      KicNamePlan *m = g_ptr_array_index (members, i);

      drop_plants (p, m, reason);
      g_ptr_array_remove (p->closure, m);
    }
}

static void
drop_plants (Planner *p, KicNamePlan *np, const char *reason)
{
  drop_closure_of (p, np, reason);
  for (guint i = 0; i < np->plants->len; i++)
    {
      KicPlant *plant = g_ptr_array_index (np->plants, i);
      g_autofree char *dir = g_path_get_dirname (plant->link);
      g_autofree char *file = g_path_get_basename (plant->link);

      plan_overlay_restore (p, dir, file);
      g_hash_table_add (p->dirty, g_strdup (plant->link));
      g_hash_table_remove (p->plant_name, plant->link);
      plan_plants_remove (p, plant->link);
    }
  g_ptr_array_set_size (np->plants, 0);
  plan_set_status (np, KIC_NAME_SKIPPED, reason);
}

static char *
link_stem (const char *link)
{
  g_autofree char *base = g_path_get_basename (link);

  return kic_icon_name_strip_extension (base);
}

/* The proof's indexes: the known names (plan_names_trying() finds who
 * may try a stem), and the directories each resolver searches. */
void
plan_proof_index (Planner *p, GPtrArray *names)
{
  plan_known_init (p, names);
  p->unfiled = g_hash_table_new (kic_str_hash, g_str_equal);
  p->stem_names = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  p->reach = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint r = 0; r < p->resolvers->len; r++)
    {
      const GPtrArray *themes = kic_resolver_themes (g_ptr_array_index (p->resolvers, r));
      GHashTable *dirs = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);

      for (guint t = 0; t < themes->len; t++)
        {
          const KicTheme *theme = g_ptr_array_index (themes, t);

          for (guint d = 0; d < theme->dirs->len; d++)
            {
              const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);

              g_hash_table_add (dirs, g_strdup (dir->path));
              if (dir->mirror != NULL)
                g_hash_table_add (dirs, g_strdup (dir->mirror));
              /* links are named by real paths: a directory reached
               * through a link reaches the one it leads to */
              if (plan_dir_key (p, dir) != NULL)
                g_hash_table_add (dirs, g_strdup (plan_dir_key (p, dir)));
            }
        }
      /* and the "User" group's directories, which may lead to a theme
       * directory too */
      {
        g_autoptr (GPtrArray) user = kic_resolver_user_dirs (g_ptr_array_index (p->resolvers, r));

        for (guint u = 0; u < user->len; u++)
          {
            char *real = kic_fs_index_realpath (p->system->index, g_ptr_array_index (user, u));

            if (real != NULL)
              g_hash_table_add (dirs, real);
          }
      }
      g_ptr_array_add (p->reach, dirs);
    }
}

/* KF6: "<STEM>-symbolic" stands for every "-symbolic" name cut back to a
 * link of STEM, which tries the -symbolic forms of the stem's own cuts
 * after it (plan-choose.c, theme_forbids, case 3): a name the proof asks
 * of, known from the first link of that stem it meets. */
void
plan_know_symbolic (Planner *p, const char *stem)
{
  if (p->system->profile->table->symbolic_variants && !g_str_has_suffix (stem, "-symbolic"))
    {
      g_autofree char *symbolic = g_strconcat (stem, "-symbolic", NULL);

      if (!plan_is_known (p, symbolic))
        g_hash_table_add (p->unfiled, (gpointer) plan_add_known_name (p, symbolic));
    }
}

/* The names the lookups of resolver R may change with by the links in
 * CHANGED: those that may try the stem of a link in a directory R searches
 * (a name with a '/' may reach other directories: for any link), sorted. */
static GPtrArray *
names_to_prove (Planner *p, guint r, GHashTable *changed)
{
  GHashTable *reach = g_ptr_array_index (p->reach, r);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, changed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *dir = g_path_get_dirname (key);
      g_autofree char *stem = link_stem (key);
      gboolean reached = g_hash_table_contains (reach, dir);
      GPtrArray *tried_by;

      plan_know_symbolic (p, stem);
      tried_by = plan_names_trying (p, stem);

      for (guint i = 0; tried_by != NULL && i < tried_by->len; i++)
        {
          const char *name = g_ptr_array_index (tried_by, i);

          if ((reached || strchr (name, '/') != NULL) && !g_hash_table_contains (seen, name))
            {
              g_hash_table_add (seen, (gpointer) name);
              g_ptr_array_add (out, (gpointer) name);
            }
        }
    }
  g_ptr_array_sort (out, kic_compare_strings);
  return out;
}

/* The link the lookup of NAME at SIZE now meets. */
static KicPlant *
find_culprit (Planner *p, KicResolver *resolver, const char *name, int size)
{
  g_autoptr (KicResult) r = NULL;

  kic_resolver_set_overlay (resolver, p->after);
  r = kic_resolve (resolver, name, size, TRUE);
  for (guint i = 0; i < r->calls->len; i++)
    {
      const KicCall *call = g_ptr_array_index (r->calls, i);
      g_autofree char *clean = NULL;
      g_autofree char *key = NULL;
      KicPlant *plant;

      if (!call->hit || (call->kind != KIC_CALL_ACCESS && call->kind != KIC_CALL_STAT))
        continue;
      clean = kic_path_clean (call->path);
      if ((plant = g_hash_table_lookup (p->plants, clean)) != NULL)
        return plant;
      /* a theme directory that is a link to the one planted in */
      key = plan_real_file_key (p, clean);
      if ((plant = g_hash_table_lookup (p->plants, key)) != NULL)
        return plant;
    }
  return NULL;
}

static gboolean
is_menu_name (GPtrArray *names, const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (strcmp (((KicNamePlan *) g_ptr_array_index (names, i))->name, name) == 0)
      return TRUE;
  return FALSE;
}

/* The links of OWNER in THEME change the lookup of NAME: KDE cuts NAME
 * at its last dash in each theme before it moves to the next
 * (findMatchingIcon, KF5 kiconloader.cpp:832-911; kde-lookup.md §3.1), so "X-symbolic" or
 * "X-beta" meets a link "X.svg" in a theme that comes before its own file.
 * A link for NAME itself in THEME, to its own content, ends its lookup at
 * its own name before any cut.  Plan that link (the closure); the proof
 * then checks the set again.  FALSE when NAME cannot have one: a menu name
 * (planned on its own), one already tried there, one KDE loads with
 * different content at different sizes, or a theme with no place for it. */
static gboolean
plant_closure (Planner *p, GPtrArray *names, KicNamePlan *owner, const char *theme, const char *name)
{
  KicNamePlan *m;

  if (strcmp (owner->name, name) == 0 || is_menu_name (names, name))
    return FALSE;
  for (guint i = 0; i < p->closure->len; i++)
    {
      m = g_ptr_array_index (p->closure, i);
      if (strcmp (m->name, name) == 0 && strcmp (m->closure_theme, theme) == 0)
        return FALSE;
    }
  m = g_new0 (KicNamePlan, 1);
  m->name = g_strdup (name);
  m->plants = g_ptr_array_new_with_free_func (kic_plant_free);
  m->sizes = g_ptr_array_new_with_free_func (plan_size_report_free);
  m->banned = g_ptr_array_new_with_free_func (g_free);
  m->closure_for = owner;
  m->closure_theme = g_strdup (theme);
  g_ptr_array_add (p->closure, m);
  /* the resolvers after n_planned ("any other theme", ...): proof only */
  for (guint r = 0; r < p->n_planned; r++)
    plan_name (p, g_ptr_array_index (p->resolvers, r), m);
  kic_debug ("closure: '%s' in %s for the links of '%s': %s", name, theme, owner->name,
             m->plants->len > 0 ? "planted" : m->reason);
  return m->plants->len > 0;
}

/* Drop every link of the plan: the names' and the closure's. */
void
plan_drop_all_plants (Planner *p, GPtrArray *names, const char *reason)
{
  for (guint n = 0; n < names->len; n++)
    drop_plants (p, g_ptr_array_index (names, n), reason);
  /* what is left of the closure belongs to no name: drop it too */
  while (p->closure->len > 0)
    {
      KicNamePlan *m = g_ptr_array_index (p->closure, p->closure->len - 1);

      drop_plants (p, m, reason);
      g_ptr_array_remove (p->closure, m);
    }
}

/* One round of the proof over the lookups the links planted or dropped
 * since the last round may change (the first round: all the links).  A
 * lookup that changes gets a link of its own beside the one it meets (the
 * closure), or else the links of the name responsible are dropped and it
 * is marked to be planned again; FALSE when any did (run another round:
 * the new and the dropped links are dirty). */
gboolean
plan_prove_once (Planner *p, GPtrArray *names, guint *n_verified)
{
  g_autoptr (GHashTable) changed = p->dirty;
  gboolean held = TRUE;

  if (p->known == NULL)
    plan_proof_index (p, names);
  p->dirty = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  for (guint r = 0; r < p->resolvers->len; r++)
    {
      KicResolver *resolver = g_ptr_array_index (p->resolvers, r);
      g_autoptr (GPtrArray) sorted = names_to_prove (p, r, changed);

      for (guint i = 0; i < sorted->len; i++)
        {
          const char *name = g_ptr_array_index (sorted, i);
          g_autoptr (GPtrArray) before_all = NULL;
          g_autoptr (GPtrArray) after_all = NULL;
          guint checked = 0;
          PlanLastContent last_before = { 0 }, last_after = { 0 };

          kic_resolver_set_overlay (resolver, p->base);
          before_all = kic_resolve_sizes_uncounted (resolver, name, KIC_MIN_SIZE, KIC_MAX_SIZE);
          kic_resolver_set_overlay (resolver, p->after);
          after_all = kic_resolve_sizes_uncounted (resolver, name, KIC_MIN_SIZE, KIC_MAX_SIZE);
          for (guint k = 0; k < before_all->len; k++)
            {
              const KicResult *before = g_ptr_array_index (before_all, k);
              const KicResult *after = g_ptr_array_index (after_all, k);
              int s = KIC_MIN_SIZE + (int) k;
              KicPlant *culprit;
              KicNamePlan *owner;
              g_autofree char *reason = NULL;

              ++*n_verified;
              ++checked;
              if (g_strcmp0 (before->path, after->path) == 0
                  || kic_content_equal (plan_content_of_sized (p, before, &last_before),
                                       plan_content_of_sized (p, after, &last_after)))
                continue;
              /* what UnthemedLinks=true accepts: a name no file carries
               * that found nothing now finds the link it is cut back to
               * (it found nothing, so that link is of a name KDE finds
               * outside the themes: plan-choose.c, theme_forbids, case 1) */
              if (before->path == NULL && p->options->unthemed_links && g_hash_table_contains (p->unfiled, name))
                continue;
              culprit = find_culprit (p, resolver, name, s);
              reason = g_strdup_printf ("a link in %s would change what KDE shows for '%s' at %d px with %s",
                                        culprit ? culprit->theme : "a theme", name, s,
                                        (char *) g_ptr_array_index (p->theme_names, r));
              kic_debug ("the proof sets a link aside: %s ('%s', not '%s')", reason, after->path ? after->path : "nothing",
                         before->path ? before->path : "nothing");
              if (culprit == NULL)
                {
                  /* cannot happen: a lookup that meets no link is the
                   * same as before; be safe and plant nothing (and
                   * trust no previous plan: plan.c plans again in full) */
                  p->unsure = TRUE;
                  plan_drop_all_plants (p, names, reason);
                  return FALSE;
                }
              owner = g_hash_table_lookup (p->plant_name, culprit->link);
              /* the round goes on: the names after this one must still be
               * proved (the new links are dirty for the next round) */
              if (plant_closure (p, names, owner, culprit->theme, name))
                {
                  held = FALSE;
                  break;
                }
              g_free (owner->ban_reason);
              owner->ban_reason = g_strdup (reason);
              /* plan the name again, without that theme */
              g_ptr_array_add (owner->banned, g_strdup (culprit->theme));
              owner->replan = TRUE;
              drop_plants (p, owner, reason);
              held = FALSE;
              break;
            }
          /* per name, for the next run's memo (plan-memo.c) */
          g_hash_table_insert (p->verified, g_strdup (name),
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (p->verified, name)) + checked));
        }
    }
  return held;
}
/* Plan the names of NAMES that the proof took links from again, without
 * the themes they were in. */
void
plan_replan_banned (Planner *p, GPtrArray *names, guint n_themes)
{
  for (guint i = 0; i < names->len; i++)
    {
      KicNamePlan *np = g_ptr_array_index (names, i);
      g_autofree char *reason = NULL;

      if (!np->replan)
        continue;
      np->replan = FALSE;
      reason = g_strdup (np->reason);
      for (guint r = 0; r < n_themes; r++)
        plan_name (p, g_ptr_array_index (p->resolvers, r), np);
      if (np->plants->len == 0)
        plan_set_status (np, KIC_NAME_SKIPPED, reason);
    }
}
