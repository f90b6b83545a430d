/* state-changes.c - what a change can reach: the directories the kept
 * state read, compared with the disk name by name, and the names whose
 * lookups may try a stem that came, went or changed (its dash cuts,
 * generic and -symbolic forms, and on through the names joined to them);
 * and the kept reads of the files no change reached (menu files, store
 * copies)
 */
#include "state-private.h"

#include "desktop.h"
#include "diag.h"
#include "hash.h"
#include "manifest.h"
#include "path.h"
#include "resolver.h"

#include <stdlib.h>
#include <string.h>

void
kic_state_seed (KicState *state, KicFsIndex *index, GHashTable *changed, GHashTable *stamps)
{
  GHashTableIter iter;
  gpointer key, value;
  guint n = 0;

  if (state == NULL || stamps == NULL)
    return;
  g_hash_table_iter_init (&iter, state->dirs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicFsStamp *stamp = g_hash_table_lookup (stamps, key);

      /* only what the fingerprint says is as it was */
      if (stamp == NULL || stamp->type != KIC_FS_DIR || g_hash_table_contains (changed, key))
        continue;
      kic_fs_index_seed (index, key, stamp, value);
      n++;
    }
  /* a directory whose names were not known and has not changed: not
   * read again (every name there has the same answer, fsindex.h) */
  g_hash_table_iter_init (&iter, state->unlisted);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicFsStamp *stamp = g_hash_table_lookup (stamps, key);

      /* (one not known for the run's budget is counted as it was, or
       * read again when its count was not kept: fsindex-budget.c) */
      if (GPOINTER_TO_INT (value) >= 4 && stamp != NULL && stamp->type == KIC_FS_DIR && stamp->exists
          && !g_hash_table_contains (changed, key))
        kic_fs_index_budget_seed (index, key, stamp, (guint) (GPOINTER_TO_INT (value) - 4));
      else if (GPOINTER_TO_INT (value) == 2 && stamp != NULL && stamp->type == KIC_FS_DIR && stamp->exists && !g_hash_table_contains (changed, key))
        kic_fs_index_seed_unlisted (index, key, stamp);
    }
  kic_debug ("state: %u directories as they were read, %u changed (%u in the state, %u stamps)", n, g_hash_table_size (changed), g_hash_table_size (state->dirs), g_hash_table_size (stamps));
}

/* "DIR/NAME" in E. */
static void
add_entry (GHashTable *e, const char *dir, const char *name)
{
  g_hash_table_add (e, kic_path_child (dir, name));
}

/* Does any directory entry PATH walks through (each component in its
 * parent) lie in E? */
static gboolean
walks_through (GHashTable *e, const char *path)
{
  g_autofree char *walk = g_strdup (path);
  char *slash;

  if (path == NULL)
    return FALSE;
  /* "/a/b/c": "/a/b/c", "/a/b", "/a" */
  for (;;)
    {
      if (g_hash_table_contains (e, walk))
        return TRUE;
      slash = strrchr (walk, '/');
      if (slash == NULL || slash == walk)
        return FALSE;
      *slash = '\0';
    }
}

/* Has entry OLD (of a listing then) changed as NOW (the same name now)?
 * Of another kind, or a link that was followed and points elsewhere now. */
static gboolean
entry_changed (const KicFsListingEntry *old, const KicFsListingEntry *now)
{
  return old->kind != now->kind
         || (old->target != NULL && (g_strcmp0 (old->target, now->target) != 0 || g_strcmp0 (old->real, now->real) != 0));
}

/* Compare the listing of DIR now (through INDEX, without OURS) with WAS
 * (NULL: no directory then); the names that came, went or changed go to E.
 * Only the links the last run followed are followed again: where one that
 * no lookup followed leads cannot have mattered to any name it planned
 * (the names that look it up now are planned again, and follow it), and a
 * new name is a change whatever it is.  A name of ours now that was there
 * then (as another file) went.  One merge: both listings are sorted by
 * name, each name once (a state's: kic_state_read() takes no other). */
static void
compare_dir (KicFsIndex *index, const char *dir, const GPtrArray *was, GHashTable *ours, GHashTable *e)
{
  g_autoptr (GHashTable) followed = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GPtrArray) now = NULL;
  guint n_was = was != NULL ? was->len : 0, n_now, i = 0, j = 0;

  for (guint k = 0; k < n_was; k++)
    {
      const KicFsListingEntry *entry = g_ptr_array_index (was, k);

      if (entry->target != NULL)
        g_hash_table_add (followed, entry->name);
    }
  now = kic_fs_index_listing (index, dir, followed);
  n_now = now != NULL ? now->len : 0;
  while (i < n_now || j < n_was)
    {
      const KicFsListingEntry *a = i < n_now ? g_ptr_array_index (now, i) : NULL;
      const KicFsListingEntry *b = j < n_was ? g_ptr_array_index (was, j) : NULL;
      int order = a == NULL ? 1 : b == NULL ? -1 : strcmp (a->name, b->name);
      g_autofree char *path = NULL;

      if (order > 0)
        {
          add_entry (e, dir, b->name); /* gone */
          j++;
          continue;
        }
      path = kic_path_child (dir, a->name);
      if (order < 0)
        {
          if (!g_hash_table_contains (ours, path))
            add_entry (e, dir, a->name); /* new */
          i++;
          continue;
        }
      if (g_hash_table_contains (ours, path) || entry_changed (b, a))
        add_entry (e, dir, a->name);
      i++;
      j++;
    }
}

/* The stems of the icon names that came, went or changed since the state
 * was made (state.h); NULL when an X.xpm.png came or went, or a directory
 * crossed the bound on the names read of one (fsindex.h, kic_fs_dir_listed()). */
static GHashTable *
changed_stems (KicState *state, KicFsIndex *index, GHashTable *changed, const GPtrArray *owned)
{
  g_autoptr (GHashTable) ours = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) e = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  GHashTable *stems = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;
  gboolean more;

  /* the run's budget on users' names spent then and not now, or now and
   * not then: every name a directory of theirs may hold changed */
  if (state->spent != kic_fs_index_budget_spent (index))
    {
      g_hash_table_unref (stems);
      return NULL;
    }
  for (guint i = 0; owned != NULL && i < owned->len; i++)
    g_hash_table_add (ours, g_ptr_array_index (owned, i));
  g_hash_table_iter_init (&iter, changed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gpointer was;
      gboolean then = g_hash_table_contains (state->unlisted, key);

      /* a directory whose names are not known gives every name the same
       * answer (fsindex.h) whatever it holds: one that was not known then
       * and is not now changed nothing; one known then or now but not
       * both may have changed any name */
      if (then || (g_hash_table_contains (state->dirs, key) && kic_fs_index_is_unlisted (index, key)))
        {
          if (then && kic_fs_index_is_unlisted (index, key))
            continue;
          g_hash_table_unref (stems);
          return NULL;
        }
      if (g_hash_table_lookup_extended (state->dirs, key, NULL, &was))
        compare_dir (index, key, was, ours, e);
      else
        g_hash_table_add (e, g_strdup (key)); /* a file read: its content */
    }
  /* a link that led through a name that changed changed with it (and is
   * followed again, so that the next state says where it leads now) */
  do
    {
      more = FALSE;
      g_hash_table_iter_init (&iter, state->dirs);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const GPtrArray *entries = value;

          for (guint i = 0; entries != NULL && i < entries->len; i++)
            {
              const KicFsListingEntry *l = g_ptr_array_index (entries, i);
              g_autofree char *path = NULL;

              if (l->target == NULL || (!walks_through (e, l->target) && !walks_through (e, l->real)))
                continue;
              path = kic_path_child (key, l->name);
              if (g_hash_table_contains (e, path))
                continue;
              kic_fs_index_stat_at (index, key, l->name);
              g_hash_table_add (e, g_steal_pointer (&path));
              more = TRUE;
            }
        }
    }
  while (more);
  g_hash_table_iter_init (&iter, e);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *base = strrchr (key, '/') + 1;

      /* as kic_state_make(): no plan of names joined by a store path
       * is kept; and an "l10n" directory in a theme directory changes
       * what every hit there costs (resolver-price.c, hit_cost: KDE
       * stats it, kiconthemes@v5.103.0 src/kicontheme.cpp:235), a stem
       * of no name: every name is planned again */
      if (g_str_has_suffix (base, ".xpm.png") || strcmp (base, "l10n") == 0
          /* a directory that became one not every user may search, or
           * ceased to be: every name probed there changed (fsindex.h) */
          || strcmp (base, KIC_FS_HIDDEN_MARK) == 0)
        {
          g_hash_table_unref (stems);
          return NULL;
        }
      if (kic_icon_name_extension (base) != NULL)
        g_hash_table_add (stems, kic_icon_name_strip_extension (base));
    }
  kic_debug ("state: %u inputs changed, %u names in them, %u icon stems", g_hash_table_size (changed),
             g_hash_table_size (e), g_hash_table_size (stems));
  return stems;
}

KicPlanMemo *
kic_state_memo (KicState *state, const char *key, KicFsIndex *index, GHashTable *changed, const GPtrArray *owned)
{
  KicPlanMemo *memo;

  if (state == NULL || state->memo == NULL || changed == NULL)
    return NULL;
  if (key == NULL || strcmp (state->key, key) != 0)
    {
      kic_debug ("state: ignored (made with other settings, themes or directories): planning every name");
      return NULL;
    }
  memo = g_steal_pointer (&state->memo);
  memo->changed_stems = changed_stems (state, index, changed, owned);
  if (memo->changed_stems == NULL)
    {
      kic_debug ("state: ignored (an X.xpm.png, an l10n directory or one not every user may search came or went, "
                 "or a directory crossed the bound on the names read of one users may write, or the run's on those of all): "
                 "planning every name");
      g_clear_pointer (&memo, kic_plan_memo_free);
    }
  return memo;
}

GHashTable *
kic_state_desktop_known (KicState *state, GHashTable *changed, GHashTable *stamps)
{
  GHashTable *known = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, kic_desktop_read_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, state->desktop);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicDesktopRead *was = value;
      const KicFsStamp *stamp = stamps != NULL ? g_hash_table_lookup (stamps, key) : NULL;
      KicDesktopRead *read;

      /* only a file the fingerprint found as it was when it was read */
      if (stamp == NULL || stamp->type != KIC_FS_FILE || !stamp->exists || g_hash_table_contains (changed, key))
        continue;
      read = g_new0 (KicDesktopRead, 1);
      read->hidden = was->hidden;
      read->icon = g_strdup (was->icon);
      read->stamp = stamp;
      g_hash_table_insert (known, g_strdup (key), read);
    }
  return known;
}

GHashTable *
kic_state_store_stamps (KicState *state)
{
  return state->store_stamps;
}
