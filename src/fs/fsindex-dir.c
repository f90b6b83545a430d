/* fsindex-dir.c - what a listing answers: the names it holds, and what
 * one of them is (by name, or by a hash computed once for many listings)
 */
#include "fsindex-private.h"

#include "hash.h"
#include "sorted.h"

#include <string.h>

KicFsType
kic_fs_index_dir_stat (KicFsIndex *index, const KicFsDir *dir, const char *name)
{
  KicFsEntry *entry;

  if (dir->hidden)
    return KIC_FS_OTHER;
  /* (the listing belongs to the index; only its table is made here) */
  entry = fsindex_dir_find ((KicFsDir *) dir, name);
  if (entry == NULL)
    return KIC_FS_NONE;
  return fsindex_entry_type (index, dir->real, name, entry);
}

GPtrArray *
kic_fs_dir_names (const KicFsDir *dir)
{
  GPtrArray *names;
  GHashTableIter iter;
  gpointer key;

  if (dir->entries == NULL)
    {
      names = g_ptr_array_sized_new (dir->seeded->len);
      for (guint i = 0; i < dir->seeded->len; i++)
        g_ptr_array_add (names, ((KicFsListingEntry *) g_ptr_array_index (dir->seeded, i))->name);
      return names;
    }
  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, dir->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  return names;
}

GPtrArray *
kic_fs_dir_sorted_names (const KicFsDir *dir)
{
  GPtrArray *names = kic_fs_dir_names (dir);

  /* a seeded listing is sorted */
  if (dir->entries != NULL)
    g_ptr_array_sort (names, kic_compare_strings);
  return names;
}

gboolean
kic_fs_dir_hidden (const KicFsDir *dir)
{
  return dir->hidden;
}

gboolean
kic_fs_dir_has (const KicFsDir *dir, const char *name)
{
  if (dir->unlisted)
    return TRUE;
  if (dir->entries == NULL)
    return fsindex_seeded_find (dir, name) != NULL;
  return g_hash_table_contains (dir->entries, name);
}

gboolean
kic_fs_dir_listed (const KicFsDir *dir)
{
  return !dir->unlisted;
}

gboolean
kic_fs_dir_names_known (const KicFsDir *dir)
{
  return !dir->hidden && !dir->unlisted;
}

guint
kic_fs_dir_size (const KicFsDir *dir)
{
  return dir->entries == NULL ? dir->seeded->len : g_hash_table_size (dir->entries);
}

const char *
kic_fs_dir_real (const KicFsDir *dir)
{
  return dir->real;
}

guint
kic_fs_name_hash (const char *name)
{
  return kic_str_hash (name);
}

static int
compare_slots (gconstpointer a, gconstpointer b)
{
  guint ha = ((const KicFsSlot *) a)->hash;
  guint hb = ((const KicFsSlot *) b)->hash;

  return ha < hb ? -1 : ha > hb;
}

KicFsType
kic_fs_index_dir_stat_hashed (KicFsIndex *index, const KicFsDir *const_dir, const char *name, guint hash)
{
  /* the listing belongs to the index; only its lookup form is built here */
  KicFsDir *dir = (KicFsDir *) const_dir;
  const KicFsSlot *slots;
  guint lo = 0;
  guint hi;

  if (dir->hidden || dir->unlisted)
    return KIC_FS_OTHER;
  /* (an empty directory needs no slots) */
  if (kic_fs_dir_size (dir) == 0)
    return KIC_FS_NONE;
  if (dir->by_hash == NULL)
    {
      GHashTableIter iter;
      gpointer key;
      gpointer value;

      dir->by_hash = g_array_sized_new (FALSE, FALSE, sizeof (KicFsSlot), kic_fs_dir_size (dir));
      g_hash_table_iter_init (&iter, fsindex_dir_entries (dir));
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          KicFsSlot slot = { kic_fs_name_hash (key), key, value };

          g_array_append_val (dir->by_hash, slot);
        }
      g_array_sort (dir->by_hash, compare_slots);
    }
  slots = (const KicFsSlot *) (gpointer) dir->by_hash->data;
  hi = dir->by_hash->len;
  /* the first slot with this hash, then each slot that shares it */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (slots[mid].hash < hash)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < dir->by_hash->len && slots[lo].hash == hash; lo++)
    if (strcmp (slots[lo].name, name) == 0)
      return fsindex_entry_type (index, dir->real, name, slots[lo].entry);
  return KIC_FS_NONE;
}
