/* sorted.c - walking strings in a sorted order (sorted.h) */
#include "sorted.h"

#include <string.h>

int
kic_compare_strings (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
kic_sorted_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_sized_new (g_hash_table_size (table));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, kic_compare_strings);
  return keys;
}
