/* sorted.h - strings in a sorted order
 *
 * For walking a table in an order no hash function chooses.
 */
#ifndef KIC_SORTED_H
#define KIC_SORTED_H

#include <glib.h>

/* strcmp() of two elements of an array of strings (for g_ptr_array_sort()
 * and qsort()) */
int kic_compare_strings (const void *a, const void *b);

/* The keys (strings) of TABLE, sorted: for walking a table in an order no
 * hash function chooses.  transfer container */
GPtrArray *kic_sorted_keys (GHashTable *table);

#endif /* KIC_SORTED_H */
