/* fsindex-budget.c - the run's budget on the names of directories users
 * may write (issue 39, row 4).
 *
 * The bound on one directory (KIC_USER_ENTRIES) leaves a user who may
 * write many directories KDE searches setting what a run costs.  So the
 * names of every directory users may write that the run searches are
 * summed (each at most the bound), and past KIC_USER_ENTRIES_RUN none of
 * those directories' names are known.  The sum is over a set of
 * directories fixed by the disk alone (the planner's: every directory of
 * every theme searched, and the "User" directories), each counted once
 * whatever the order it is asked in, so a kept run, whose unchanged
 * directories come from the state with their names (or, unknown then,
 * how many they held), decides as a full one does.  Once it is spent no further directory users may write is
 * read (its stamp says whose it is), so a run reads at most the budget
 * and a directory of their names. */
#include "fsindex-private.h"
#include "diag.h"
#include "hash.h"
#include "sorted.h"
#include <string.h>

/* A directory of theirs the state kept as unknown for the budget, with
 * how many names it held: counted without reading it. */
typedef struct {
  KicFsStamp stamp;
  guint n;
} BudgetSeed;

void
fsindex_user_dir_unknown (KicFsIndex *index, KicFsDir *dir)
{
  if (dir->unlisted)
    return;
  /* (how many it held, for the state: a kept run counts it unread) */
  if (dir->users_write && (dir->entries != NULL || dir->seeded != NULL))
    dir->n_was = kic_fs_dir_size (dir) + 1;
  g_clear_pointer (&dir->seeded, g_ptr_array_unref);
  g_clear_pointer (&dir->by_hash, g_array_unref);
  if (dir->entries != NULL && dir->entries != index->no_entries)
    g_hash_table_unref (dir->entries);
  dir->entries = g_hash_table_ref (index->no_entries);
  dir->unlisted = TRUE;
  index->n_unlisted++;
}

void
kic_fs_index_budget_count (KicFsIndex *index, const char *path)
{
  g_autofree char *real = NULL;
  BudgetSeed *seed;
  KicFsDir *dir;

  if (index->is_virtual || index->budget_settled || (real = kic_fs_index_realpath (index, path)) == NULL)
    return;
  if (index->budget_counted == NULL)
    index->budget_counted = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_contains (index->budget_counted, real))
    return;
  if (index->budget_seeds != NULL && !g_hash_table_contains (index->dirs, real)
      && (seed = g_hash_table_lookup (index->budget_seeds, real)) != NULL)
    index->user_names += seed->n;
  else if ((dir = fsindex_get_dir (index, real)) == NULL || dir->hidden || !dir->users_write)
    return;
  /* one past its bound counts as the bound; one below such a directory,
   * never read, as nothing (a kept run has no more of it either) */
  else
    index->user_names += !dir->unlisted ? kic_fs_dir_size (dir)
                         : dir->n_was > 0 ? dir->n_was - 1
                         : dir->from_disk ? KIC_USER_ENTRIES : 0;
  g_hash_table_add (index->budget_counted, g_steal_pointer (&real));
  if (index->user_names > KIC_USER_ENTRIES_RUN)
    index->budget_spent = TRUE;
}

void
kic_fs_index_budget_seed (KicFsIndex *index, const char *real, const KicFsStamp *stamp, guint n)
{
  BudgetSeed *seed;

  if (index->is_virtual || index->budget_settled)
    return;
  if (index->budget_seeds == NULL)
    index->budget_seeds = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  seed = g_new0 (BudgetSeed, 1);
  seed->stamp = *stamp;
  seed->n = n;
  g_hash_table_replace (index->budget_seeds, g_strdup (real), seed);
}

/* The budget spent: each seed counted and not read is the directory it
 * stood for, unknown, its stamp kept as if it was read now. */
static void
seeds_take (KicFsIndex *index)
{
  GHashTableIter iter;
  gpointer key, value;

  if (index->budget_seeds == NULL)
    return;
  g_hash_table_iter_init (&iter, index->budget_seeds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const BudgetSeed *seed = value;
      KicFsDir *dir;

      if (g_hash_table_contains (index->dirs, key) || !g_hash_table_contains (index->budget_counted, key))
        continue;
      dir = fsindex_fs_dir_new (key);
      dir->from_disk = TRUE;
      dir->users_write = TRUE;
      dir->unlisted = TRUE;
      dir->n_was = seed->n + 1;
      index->n_unlisted++;
      g_hash_table_insert (index->dirs, g_strdup (key), dir);
      if (index->stamps != NULL)
        g_hash_table_replace (index->stamps, g_strdup (key), g_memdup2 (&seed->stamp, sizeof seed->stamp));
    }
}

gint64
kic_fs_index_unknown_names (KicFsIndex *index, const char *real)
{
  KicFsDir *dir = g_hash_table_lookup (index->dirs, real);

  return dir != NULL && dir->unlisted && dir->users_write && dir->n_was > 0 ? (gint64) dir->n_was - 1 : -1;
}

/* Is PATH (a real path) DIR or below it? */
static gboolean
under_any (GHashTable *dirs, const char *path)
{
  g_autofree char *up = g_strdup (path);
  char *slash;

  while (TRUE)
    {
      if (g_hash_table_contains (dirs, up))
        return TRUE;
      if ((slash = strrchr (up, '/')) == NULL || slash == up)
        return FALSE;
      *slash = '\0';
    }
}

/* The warning of a spent budget: the first few of the directories
 * counted (sorted, so the same every run) and how many there are. */
static void
warn_spent (KicFsIndex *index)
{
  g_autoptr (GPtrArray) counted = g_ptr_array_new ();
  g_autoptr (GString) names = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, index->budget_counted);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (counted, key);
  g_ptr_array_sort (counted, kic_compare_strings);
  for (guint i = 0; i < counted->len && i < 3; i++)
    {
      g_autofree char *host = kic_fs_index_host_path (index, g_ptr_array_index (counted, i));

      g_string_append_printf (names, "%s'%s'", i > 0 ? ", " : "", host);
    }
  kic_warning ("directories users may write hold more than %u names in all (%s%s; %u directories): their names are "
               "not read, and no link is planted that a lookup passing one could meet",
               KIC_USER_ENTRIES_RUN, names->str, counted->len > 3 ? ", ..." : "", counted->len);
}

gboolean
kic_fs_index_budget_settle (KicFsIndex *index)
{
  g_autoptr (GHashTable) users = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (index->budget_settled)
    return index->budget_spent;
  index->budget_settled = TRUE;
  if (index->budget_spent)
    seeds_take (index);
  g_clear_pointer (&index->budget_seeds, g_hash_table_unref);
  if (!index->budget_spent)
    return FALSE;
  /* every directory users may write (the warning names those counted),
   * and every one below such a directory */
  users = g_hash_table_new (kic_str_hash, g_str_equal);
  g_hash_table_iter_init (&iter, index->dirs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (value != NULL && ((KicFsDir *) value)->users_write && !((KicFsDir *) value)->hidden)
      g_hash_table_add (users, key);
  g_hash_table_iter_init (&iter, index->dirs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (value != NULL && !((KicFsDir *) value)->hidden && under_any (users, key))
      fsindex_user_dir_unknown (index, value);
  warn_spent (index);
  return TRUE;
}

gboolean
kic_fs_index_budget_spent (const KicFsIndex *index)
{
  return index->budget_spent;
}
