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
 * directories come from the state with their names, decides as a full
 * one does.  Once it is spent no further directory users may write is
 * read (its stamp says whose it is), so a run reads at most the budget
 * and a directory of their names. */
#include "fsindex-private.h"
#include "diag.h"
#include "hash.h"
#include "sorted.h"
#include <string.h>

void
fsindex_user_dir_unknown (KicFsIndex *index, KicFsDir *dir)
{
  if (dir->unlisted)
    return;
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
  KicFsDir *dir;

  if (index->is_virtual || index->budget_settled || (real = kic_fs_index_realpath (index, path)) == NULL)
    return;
  if (index->budget_counted == NULL)
    index->budget_counted = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_contains (index->budget_counted, real))
    return;
  dir = fsindex_get_dir (index, real);
  if (dir == NULL || dir->hidden || !dir->users_write)
    return;
  /* one past its bound counts as the bound; one below such a directory,
   * never read, as nothing (a kept run has no more of it either) */
  index->user_names += !dir->unlisted ? kic_fs_dir_size (dir) : dir->from_disk ? KIC_USER_ENTRIES : 0;
  g_hash_table_add (index->budget_counted, g_steal_pointer (&real));
  if (index->user_names > KIC_USER_ENTRIES_RUN)
    index->budget_spent = TRUE;
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
