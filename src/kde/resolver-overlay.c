/* resolver-overlay.c - the overlay: the links a plan would plant, as
 * lookups see them (keyed by the real path of each directory, so that a
 * link is seen through every path that reaches its directory)
 */
#include "resolver-private.h"
#include "hash.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void
overlay_entry_clear (gpointer data)
{
  g_free (((OverlayEntry *) data)->dir);
}

KicOverlay *
kic_overlay_new (void)
{
  KicOverlay *overlay = g_new0 (KicOverlay, 1);

  overlay->names = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  return overlay;
}

void
kic_overlay_free (KicOverlay *overlay)
{
  if (overlay == NULL)
    return;
  g_hash_table_unref (overlay->names);
  g_free (overlay);
}

/* The entry for DIR (its hash DIR_HASH) in ENTRIES, or NULL. */
OverlayEntry *
resolver_overlay_find (const GArray *entries, const char *dir, guint dir_hash)
{
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      OverlayEntry *e = &g_array_index (entries, OverlayEntry, i);

      if (e->dir_hash == dir_hash && strcmp (e->dir, dir) == 0)
        return e;
    }
  return NULL;
}

void
kic_overlay_set (KicOverlay *overlay, const char *dir, const char *name, gboolean add)
{
  GArray *entries = g_hash_table_lookup (overlay->names, name);
  guint dir_hash = kic_fs_name_hash (dir);
  OverlayEntry *e;

  if (entries == NULL)
    {
      entries = g_array_new (FALSE, FALSE, sizeof (OverlayEntry));
      g_array_set_clear_func (entries, overlay_entry_clear);
      g_hash_table_insert (overlay->names, g_strdup (name), entries);
    }
  e = resolver_overlay_find (entries, dir, dir_hash);
  if (e != NULL)
    e->add = add;
  else
    {
      OverlayEntry entry = { g_strdup (dir), dir_hash, add };

      g_array_append_val (entries, entry);
    }
}

void
kic_overlay_unset (KicOverlay *overlay, const char *dir, const char *name)
{
  GArray *entries = g_hash_table_lookup (overlay->names, name);
  OverlayEntry *e = resolver_overlay_find (entries, dir, kic_fs_name_hash (dir));

  if (e != NULL)
    g_array_remove_index_fast (entries, e - &g_array_index (entries, OverlayEntry, 0));
}

gboolean
kic_overlay_has_name (const KicOverlay *overlay, const char *name)
{
  const GArray *entries = g_hash_table_lookup (overlay->names, name);

  return entries != NULL && entries->len > 0;
}

gboolean
kic_overlay_lookup (const KicOverlay *overlay, const char *dir, const char *name, gboolean *add)
{
  const OverlayEntry *e = resolver_overlay_find (g_hash_table_lookup (overlay->names, name), dir, kic_fs_name_hash (dir));

  if (e == NULL)
    return FALSE;
  *add = e->add;
  return TRUE;
}
