/* plan-memo.c - keep a previous plan's results wherever no change reaches
 *
 * Every lookup of a name N tries files whose stems are N's lookup stems
 * (kic_resolver_lookup_stems(): N, its dash cuts, generic and -symbolic
 * forms, and those of its mime generic icon); N's links are files of stem
 * N.  So N's plan depends on the files of its stems, and on the links of
 * the names among its stems; and the proof of N's links looks up every
 * name that has N among its stems, whose failure bans N from a theme or
 * gives that name a link of its own (the closure).  Names that share a
 * stem are planned together: a change reaches the names joined to it by
 * shared stems, and those are planned again as a full plan would plan them
 * (the same order, the same rounds of the proof); every other name keeps
 * its previous result, which a full plan would give again, having the
 * same files and the same links to look at.  (The same proof rounds: a
 * group of names joined by stems goes through the rounds on its own, since
 * no other group's links are among its stems.)
 *
 * What can change a lookup and is not a file of a stem -- a theme, a
 * directory, a setting, the mime data -- changes the key (plan.c) and no
 * memo is given.
 */
#include "plan-private.h"

#include "hash.h"

#include <string.h>

void
kic_plan_memo_free (KicPlanMemo *memo)
{
  if (memo == NULL)
    return;
  if (memo->names != NULL)
    g_ptr_array_unref (memo->names);
  if (memo->closure != NULL)
    g_ptr_array_unref (memo->closure);
  if (memo->verified != NULL)
    g_hash_table_unref (memo->verified);
  if (memo->changed_stems != NULL)
    g_hash_table_unref (memo->changed_stems);
  g_free (memo);
}

static void
push_stems (Planner *p, GPtrArray *queue, const char *name)
{
  g_autoptr (GPtrArray) stems = kic_resolver_lookup_stems (g_ptr_array_index (p->resolvers, 0), name);

  for (guint i = 0; i < stems->len; i++)
    g_ptr_array_add (queue, g_strdup (g_ptr_array_index (stems, i)));
}

/* The names a change can reach: every known name joined by shared stems
 * to a changed stem, to a name added to the menu or gone from it. */
static GHashTable *
reached_names (Planner *p, GPtrArray *names, const KicPlanMemo *memo)
{
  GHashTable *reached = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) visited = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) now = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GPtrArray) queue = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; i < names->len; i++)
    g_hash_table_add (now, ((KicNamePlan *) g_ptr_array_index (names, i))->name);
  g_hash_table_iter_init (&iter, memo->changed_stems);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      /* a file of stem S came or went: the name S itself (a name of the
       * themes) came or went with it, and with it whatever it tried */
      g_ptr_array_add (queue, g_strdup (key));
      push_stems (p, queue, key);
    }
  {
    g_autoptr (GHashTable) before = g_hash_table_new (kic_str_hash, g_str_equal);

    for (guint i = 0; i < memo->names->len; i++)
      {
        const KicNamePlan *m = g_ptr_array_index (memo->names, i);

        g_hash_table_add (before, m->name);
        if (!g_hash_table_contains (now, m->name))
          push_stems (p, queue, m->name); /* gone from the menu */
      }
    for (guint i = 0; i < names->len; i++)
      {
        const KicNamePlan *np = g_ptr_array_index (names, i);

        /* new in the menu; an absolute name (nothing to keep: its report
         * is a lookup); a name with a '/' (it reaches other directories) */
        if (!g_hash_table_contains (before, np->name) || np->status == KIC_NAME_ABSOLUTE
            || strchr (np->name, '/') != NULL)
          {
            g_hash_table_add (reached, g_strdup (np->name));
            push_stems (p, queue, np->name);
          }
      }
  }
  while (queue->len > 0)
    {
      char *stem = g_ptr_array_steal_index_fast (queue, queue->len - 1);
      GPtrArray *tried_by;

      if (g_hash_table_contains (visited, stem))
        {
          g_free (stem);
          continue;
        }
      g_hash_table_add (visited, stem);
      tried_by = plan_names_trying (p, stem);
      for (guint i = 0; tried_by != NULL && i < tried_by->len; i++)
        {
          const char *name = g_ptr_array_index (tried_by, i);

          if (g_hash_table_contains (reached, name))
            continue;
          g_hash_table_add (reached, g_strdup (name));
          push_stems (p, queue, name);
        }
    }
  return reached;
}

/* NP (a new name plan, or a closure member) takes M's result, and its
 * links are put in place (in p->after, not dirty: the proof has seen
 * them).  The result moves: the memo is the plan's alone (plan.c frees it
 * after the plan, and a plan that drops it starts again without it), and a
 * copy of every report and link of the names kept was most of what keeping
 * them cost. */
static void
take_result (Planner *p, KicNamePlan *np, KicNamePlan *m)
{
  GPtrArray *empty;

  np->status = m->status;
  g_free (np->reason);
  np->reason = g_steal_pointer (&m->reason);
  np->per_size = m->per_size;
  g_free (np->ban_reason);
  np->ban_reason = g_steal_pointer (&m->ban_reason);
  /* (NP's arrays are empty: swapped, M keeps arrays to free) */
  empty = np->banned, np->banned = m->banned, m->banned = empty;
  empty = np->sizes, np->sizes = m->sizes, m->sizes = empty;
  empty = np->plants, np->plants = m->plants, m->plants = empty;
  for (guint i = 0; i < np->plants->len; i++)
    {
      KicPlant *plant = g_ptr_array_index (np->plants, i);
      const char *file = strrchr (plant->link, '/');
      g_autofree char *dir = file != NULL && file != plant->link ? g_strndup (plant->link, file - plant->link)
                                                                 : g_path_get_dirname (plant->link);

      plant->content = plan_content_of_path (p, plant->source);
      plan_claim_store (p, plant->store, plant->source);
      /* copyable then, maybe not now (a mode changed above it, which no
       * listing tells of): a refusal drops the memo (plan.c) */
      {
        const char *why;

        plan_may_copy (p, plant->source, &why);
      }
      plan_plants_add (p, plant);
      g_hash_table_insert (p->plant_name, plant->link, np);
      kic_overlay_set (p->after, dir, file != NULL ? file + 1 : plant->link, TRUE);
    }
}

static KicNamePlan *
find_closure (GPtrArray *closure, const char *name, const char *theme)
{
  for (guint i = 0; i < closure->len; i++)
    {
      KicNamePlan *m = g_ptr_array_index (closure, i);

      if (strcmp (m->name, name) == 0 && strcmp (m->closure_theme, theme) == 0)
        return m;
    }
  return NULL;
}

/* Keep MEMO's result for every name of NAMES (and of its closure) that no
 * change reaches; the names it returns (a set) are to be planned again.
 * *N_VERIFIED gets the proof's lookups of the names kept. */
GHashTable *
plan_memo_restore (Planner *p, GPtrArray *names, KicPlanMemo *memo, guint *n_verified)
{
  g_autoptr (GHashTable) before = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) owners = g_hash_table_new (g_direct_hash, g_direct_equal);
  GHashTable *reached;
  GHashTableIter iter;
  gpointer key, value;

  if (p->known == NULL)
    plan_proof_index (p, names);
  reached = reached_names (p, names, memo);
  for (guint i = 0; i < memo->names->len; i++)
    {
      const KicNamePlan *m = g_ptr_array_index (memo->names, i);

      g_hash_table_insert (before, m->name, (gpointer) m);
    }
  for (guint i = 0; i < names->len; i++)
    {
      KicNamePlan *np = g_ptr_array_index (names, i);
      KicNamePlan *m;

      if (g_hash_table_contains (reached, np->name))
        continue;
      m = g_hash_table_lookup (before, np->name);
      if (m == NULL)
        {
          p->unsure = TRUE; /* cannot happen: a new name is reached */
          continue;
        }
      take_result (p, np, m);
      g_hash_table_insert (owners, (gpointer) m, np);
    }
  /* the closure of the names kept (an owner may be one of them) */
  for (guint i = 0; i < memo->closure->len; i++)
    {
      KicNamePlan *m = g_ptr_array_index (memo->closure, i);
      KicNamePlan *np;

      if (g_hash_table_contains (reached, m->name))
        continue;
      if (find_closure (p->closure, m->name, m->closure_theme) != NULL)
        {
          p->unsure = TRUE; /* cannot happen: made once per name and theme */
          continue;
        }
      np = g_new0 (KicNamePlan, 1);
      np->name = g_strdup (m->name);
      np->plants = g_ptr_array_new_with_free_func (kic_plant_free);
      np->sizes = g_ptr_array_new_with_free_func (plan_size_report_free);
      np->banned = g_ptr_array_new_with_free_func (g_free);
      np->closure_theme = g_strdup (m->closure_theme);
      take_result (p, np, m);
      g_ptr_array_add (p->closure, np);
      g_hash_table_insert (owners, (gpointer) m, np);
    }
  for (guint i = 0, k = 0; i < memo->closure->len; i++)
    {
      const KicNamePlan *m = g_ptr_array_index (memo->closure, i);
      KicNamePlan *np = g_hash_table_lookup (owners, m);

      if (np == NULL)
        continue;
      np->closure_for = g_hash_table_lookup (owners, m->closure_for);
      /* cannot happen: a name and its closure share a stem, so a change
       * reaches both or neither */
      if (np->closure_for == NULL)
        p->unsure = TRUE;
      k++;
    }
  /* the names the proof of the links kept asked of, as it would know them
   * (KF6's "-symbolic" forms: plan_know_symbolic()), so that what it
   * checked of them counts as in a full plan (issue 39, row 9) */
  g_hash_table_iter_init (&iter, p->plants);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *base = g_path_get_basename (key);
      g_autofree char *stem = kic_icon_name_strip_extension (base);

      plan_know_symbolic (p, stem);
    }
  /* what the proof checked of the names kept */
  g_hash_table_iter_init (&iter, memo->verified);
  while (g_hash_table_iter_next (&iter, &key, &value))
    /* (a name that is no longer known is asked of no lookup) */
    if (!g_hash_table_contains (reached, key) && plan_is_known (p, key))
      {
        *n_verified += GPOINTER_TO_UINT (value);
        g_hash_table_insert (p->verified, g_strdup (key), value);
      }
  return reached;
}
