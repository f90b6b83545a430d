/* plan-content.c - what the user sees: the content identity of a file
 * KDE loads, and whether an XPM gets a PNG twin
 *
 * Two lookups show the user the same thing when they load files of the
 * same content (the same bytes: SHA-256), or the same entry of the
 * library's own breeze; an XPM and the PNG raster.c makes of it count as
 * one content (the same pixels, tests/integration/xpm-png.sh).
 */
#include "plan-private.h"

#include "kic.h"

#include <string.h>
#include "raster.h"

/* The content of the file at PATH (inside the root): its SHA-256, read
 * once per real file. */
const char *
content_of_path (Planner *p, const char *path)
{
  KicFsIndex *index = p->system->index;
  g_autofree char *real = kic_fs_index_realpath (index, path);
  const char *id;
  g_autofree char *data = NULL;
  gsize length;

  if (real == NULL)
    real = g_strconcat ("missing:", path, NULL);
  id = g_hash_table_lookup (p->content, real);
  if (id != NULL)
    return id;
  if (kic_fs_index_stat (index, real) == KIC_FS_DIR)
    id = g_strconcat ("directory:", real, NULL);
  else if (kic_fs_index_read_file (index, real, &data, &length, NULL))
    id = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
  else
    id = g_strconcat ("unreadable:", real, NULL);
  g_hash_table_insert (p->content, g_steal_pointer (&real), (char *) id);
  return id;
}

/* The extension a link for SOURCE gets: its own, but ".png" for an XPM
 * that raster.c can make a PNG of with the same pixels, so that KDE's
 * PNG pass, which comes first in every directory, finds it
 * (kiconloader.cpp:588-599 for the order; kde-lookup.md §3.1).  The
 * PNG stands for the XPM's content in the proof: it shows its pixels. */
const char *
link_extension (Planner *p, const char *source)
{
  const char *ext = kic_icon_name_extension (source);
  const char *known;

  if (ext == NULL || strcmp (ext, ".xpm") != 0
      /* the same pixels are shown for KF5 (Qt 5.15's readers, its
       * scaling) only: tests/integration/xpm-png.sh */
      || p->system->profile->table->generation != KIC_KDE_KF5)
    return ext;
  known = g_hash_table_lookup (p->xpm_as_png, source);
  if (known == NULL)
    {
      g_autofree char *data = NULL;
      g_autofree char *why = NULL;
      g_autoptr (GBytes) png = NULL;
      gsize length;

      if (kic_fs_index_read_file (p->system->index, source, &data, &length, NULL))
        png = kic_raster_xpm_to_png (data, length, &why);
      else
        why = g_strdup ("unreadable");
      if (png == NULL)
        kic_debug ("%s stays an XPM: %s", source, why);
      known = png != NULL ? "" : "no";
      g_hash_table_insert (p->xpm_as_png, g_strdup (source), (char *) known);
    }
  return known[0] == '\0' ? ".png" : ext;
}

/* What the user sees for result R: the content of the file KDE loads.  A
 * link being tried for the name being planned (in p->after, not yet a
 * plant) stands for TRIAL_SOURCE. */
const char *
content_of_result (Planner *p, const KicResult *r, const char *trial_source)
{
  KicPlant *plant;
  const char *id;

  if (r->path == NULL)
    return "";
  if (r->via == KIC_VIA_ABSOLUTE)
    return r->path;
  plant = g_hash_table_lookup (p->plants, r->path);
  if (plant != NULL)
    return content_of_path (p, plant->source);
  if (r->dir != NULL && r->dir->resource_files != NULL)
    {
      /* the library's own breeze: we cannot read it, so it is the same
       * as nothing but itself */
      id = g_hash_table_lookup (p->content, r->path);
      if (id == NULL)
        {
          id = g_strconcat ("resource:", r->path, NULL);
          g_hash_table_insert (p->content, g_strdup (r->path), (char *) id);
        }
      return id;
    }
  if (r->dir != NULL && r->dir->mirror != NULL)
    {
      /* KF6's embedded breeze: the file of the disk copy it mirrors */
      g_autofree char *file = g_path_get_basename (r->path);
      g_autofree char *disk = g_build_filename (r->dir->mirror, file, NULL);

      return content_of_path (p, disk);
    }
  if (trial_source != NULL && r->dir != NULL)
    {
      g_autofree char *file = g_path_get_basename (r->path);
      gboolean add;

      if (kic_overlay_lookup (p->after, r->dir->path, file, &add) && add)
        return content_of_path (p, trial_source);
    }
  return content_of_path (p, r->path);
}
