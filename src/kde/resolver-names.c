/* resolver-names.c - the table of every name in a theme's directories
 * (resolver_theme_names_table()), and what it answers
 */
#include "resolver-private.h"
#include "hash.h"

#include <string.h>

/* A theme's table of names (resolver_theme_names_table()): every name of its
 * scale-1 directories, each with the indexes of the directories that list
 * it.  Open addressing over SLOTS (a power of two, at least one and a half
 * times the names listed, so never full), each name's directories a chain
 * in ENTRIES, the last added first.  Filled with no allocation per name:
 * the hash table of arrays it replaces cost 18 M of an incremental
 * rebuild's 137 M instructions (callgrind), to answer a few hundred
 * questions. */
typedef struct {
  const char *name; /* NULL: a free slot; the string belongs to the index or the theme */
  guint hash;       /* kic_str_hash() of NAME */
  guint head;       /* 1 + the index in ENTRIES of its last directory */
} NameSlot;

typedef struct {
  guint dir;  /* the directory's index in the theme */
  guint next; /* 1 + the index of the directory before, or 0 */
} NameEntry;

struct _ThemeNameTable {
  NameSlot *slots;
  guint mask; /* the number of slots - 1 */
  NameEntry *entries;
  guint n_entries;
  guint max_entries; /* the MAX_NAMES the table was made for */
};

ThemeNameTable *
resolver_name_table_new (guint max_names)
{
  ThemeNameTable *table;
  gsize n_slots = 16;

  /* (the names are in memory, a few bytes each at least: far fewer than
   * would overflow the slots' count) */
  g_assert (max_names <= G_MAXUINT / 4);
  table = g_new0 (ThemeNameTable, 1);
  while (n_slots < (gsize) max_names + max_names / 2)
    n_slots *= 2;
  table->slots = g_new0 (NameSlot, n_slots);
  table->mask = (guint) (n_slots - 1);
  table->entries = g_new (NameEntry, MAX (max_names, 1));
  table->max_entries = max_names;
  return table;
}

void
resolver_name_table_free (ThemeNameTable *table)
{
  if (table == NULL)
    return;
  g_free (table->slots);
  g_free (table->entries);
  g_free (table);
}

/* NAME's slot in TABLE: its own, or the free one where it would go */
static NameSlot *
name_table_slot (const ThemeNameTable *table, const char *name, guint hash)
{
  for (guint i = hash & table->mask;; i = (i + 1) & table->mask)
    {
      NameSlot *slot = &table->slots[i];

      if (slot->name == NULL || (slot->hash == hash && strcmp (slot->name, name) == 0))
        return slot;
    }
}

/* NAME is listed by directory DIR (DIR rising from one call to the next;
 * at most MAX_NAMES calls in all) */
void
resolver_name_table_add (ThemeNameTable *table, const char *name, guint dir)
{
  guint hash = kic_str_hash (name);
  NameSlot *slot = name_table_slot (table, name, hash);

  if (slot->name == NULL)
    {
      slot->name = name;
      slot->hash = hash;
    }
  else if (table->entries[slot->head - 1].dir == dir)
    return;
  g_assert (table->n_entries < table->max_entries);
  table->entries[table->n_entries] = (NameEntry) { dir, slot->head };
  slot->head = ++table->n_entries;
}

/* Append to AT (may be NULL) the directories that list NAME, rising; TRUE
 * when there is one */
gboolean
resolver_name_table_find (const ThemeNameTable *table, const char *name, GArray *at)
{
  const NameSlot *slot = name_table_slot (table, name, kic_str_hash (name));
  guint first;

  if (slot->name == NULL)
    return FALSE;
  if (at == NULL)
    return TRUE;
  first = at->len;
  for (guint e = slot->head; e != 0; e = table->entries[e - 1].next)
    g_array_append_val (at, table->entries[e - 1].dir);
  /* (the chain runs from the last directory to the first) */
  for (guint i = first, j = at->len - 1; i < j; i++, j--)
    {
      guint t = g_array_index (at, guint, i);

      g_array_index (at, guint, i) = g_array_index (at, guint, j);
      g_array_index (at, guint, j) = t;
    }
  return TRUE;
}

/* The names of TN's directory I (transfer container), or NULL when it is
 * not of scale 1 or not there */
static GPtrArray *
dir_names (const ThemeNames *tn, guint i)
{
  const KicThemeDir *dir = g_ptr_array_index (tn->theme->dirs, i);
  GPtrArray *names;
  GHashTableIter iter;
  gpointer key;

  if (tn->kinds[i] == 0)
    return NULL;
  if (dir->resource_files == NULL)
    return tn->listings[i] != NULL ? kic_fs_dir_names (tn->listings[i]) : NULL;
  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, dir->resource_files);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  return names;
}

/* TN's table of names, made when first asked (theme_names_listed()):
 * sized from the directories' counts, then filled. */
ThemeNameTable *
resolver_theme_names_table (ThemeNames *tn)
{
  const KicTheme *theme = tn->theme;
  guint total = 0;

  if (tn->names != NULL)
    return tn->names;
  for (guint i = 0; i < theme->dirs->len; i++)
    {
      const KicThemeDir *dir = g_ptr_array_index (theme->dirs, i);

      if (tn->kinds[i] == 0)
        continue;
      total += dir->resource_files != NULL ? g_hash_table_size (dir->resource_files)
               : tn->listings[i] != NULL   ? kic_fs_dir_size (tn->listings[i])
                                           : 0;
    }
  tn->names = resolver_name_table_new (total);
  for (guint i = 0; i < theme->dirs->len; i++)
    {
      g_autoptr (GPtrArray) names = dir_names (tn, i);

      for (guint n = 0; names != NULL && n < names->len; n++)
        resolver_name_table_add (tn->names, g_ptr_array_index (names, n), i);
    }
  return tn->names;
}

/* Append to AT (may be NULL: only whether there is one) the indexes,
 * rising, of TN's scale-1 directories that list FILE, or may hold it
 * unlisted (a directory not every user may search, or a user's past the
 * bound on names read, whose names root does not read: every probe there
 * is unknown, issue 39, rows 1 and 4); TRUE when
 * there is one.  Each directory is asked while TN's budget lasts (a
 * quarter of what the table of every name, theme_names_table(), costs to
 * make); then the table is made and asked: a run that looks up a few
 * names (a rebuild after one package) does not list a whole theme's names
 * for them. */
