/* plan-content.c - what the user sees: the content of what a lookup
 * finds (content.h), and whether an XPM gets a PNG twin
 */
#include "plan-private.h"

#include "diag.h"

#include <string.h>

static const char *
file_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

/* PLANT is planned (p->plants); its file name counts in p->plant_files. */
void
plan_plants_add (Planner *p, KicPlant *plant)
{
  const char *file = file_name (plant->link);
  gpointer n = g_hash_table_lookup (p->plant_files, file);

  if (g_hash_table_lookup (p->plants, plant->link) == NULL)
    g_hash_table_insert (p->plant_files, g_strdup (file), GUINT_TO_POINTER (GPOINTER_TO_UINT (n) + 1));
  g_hash_table_insert (p->plants, plant->link, plant);
}

/* The plant at LINK is no longer planned. */
void
plan_plants_remove (Planner *p, const char *link)
{
  const char *file = file_name (link);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (p->plant_files, file));

  if (!g_hash_table_remove (p->plants, link))
    return;
  if (n <= 1)
    g_hash_table_remove (p->plant_files, file);
  else
    g_hash_table_insert (p->plant_files, g_strdup (file), GUINT_TO_POINTER (n - 1));
}

/* The content of the file at PATH (inside the root). */
const KicContent *
plan_content_of_path (Planner *p, const char *path)
{
  return kic_content_of_path (p->contents, path);
}

/* The extension a link for SOURCE gets: its own, but ".png" for an XPM
 * that raster.c can make a PNG of with the same pixels, so that KDE's
 * PNG pass, which comes first in every directory, finds it
 * (kiconloader.cpp:588-599 for the order; kde-lookup.md §3.1).  The
 * PNG stands for the XPM's content in the proof: it shows its pixels. */
const char *
plan_link_extension (Planner *p, const char *source)
{
  const char *ext = kic_icon_name_extension (source);
  const char *why = NULL;

  if (ext == NULL || strcmp (ext, ".xpm") != 0
      /* the same pixels are shown for KF5 (Qt 5.15's readers, its
       * scaling) only: tests/integration/xpm-png.sh */
      || p->system->profile->table->generation != KIC_KDE_KF5)
    return ext;
  if (kic_content_has_png (plan_content_of_path (p, source), &why))
    return ".png";
  kic_debug ("%s stays an XPM: %s", source, why);
  return ext;
}

/* What the user sees for result R: the content of the file KDE loads.  A
 * link being tried for the name being planned (in p->after, not yet a
 * plant) stands for TRIAL_SOURCE. */
const KicContent *
plan_content_of_result (Planner *p, const KicResult *r, const char *trial_source)
{
  KicPlant *plant;

  if (r->path == NULL)
    return kic_content_special (p->contents, KIC_CONTENT_NOTHING, NULL);
  if (r->via == KIC_VIA_ABSOLUTE)
    return kic_content_special (p->contents, KIC_CONTENT_ABSOLUTE, r->path);
  /* a link is found under its own file name, whichever path leads to it:
   * a name no plant has needs no search for one */
  plant = g_hash_table_contains (p->plant_files, file_name (r->path)) ? plan_plant_of_result (p, r) : NULL;
  if (plant != NULL)
    return plan_content_of_path (p, plant->source);
  if (r->dir != NULL && r->dir->resource_files != NULL)
    /* the library's own breeze: we cannot read it, so it is the same as
     * nothing but itself */
    return kic_content_special (p->contents, KIC_CONTENT_RESOURCE, r->path);
  if (r->dir != NULL && r->dir->mirror != NULL)
    {
      /* KF6's embedded breeze: the file of the disk copy it mirrors */
      g_autofree char *file = g_path_get_basename (r->path);
      g_autofree char *disk = g_build_filename (r->dir->mirror, file, NULL);

      return plan_content_of_path (p, disk);
    }
  if (trial_source != NULL && r->dir != NULL)
    {
      /* the overlay names the real directory, whatever path KDE took */
      g_autofree char *key = plan_real_file_key (p, r->path);
      g_autofree char *dir = g_path_get_dirname (key);
      g_autofree char *file = g_path_get_basename (key);
      gboolean add;

      if (kic_overlay_lookup (p->after, dir, file, &add) && add)
        return plan_content_of_path (p, trial_source);
    }
  return plan_content_of_path (p, r->path);
}

/* plan_content_of_result() without a trial, for R the result after LAST's
 * in a loop over sizes: the content is a function of the path, how KDE
 * reached it and the directory (and of the plants, which the loop does not
 * change); the proof asks it for 249 sizes of every name, and the hashing
 * of long paths in the lookups was a quarter of a full rebuild. */
const KicContent *
plan_content_of_sized (Planner *p, const KicResult *r, PlanLastContent *last)
{
  const KicResult *was = last->result;

  if (was == r)
    return last->content; /* (kic_resolve_sizes() shares a run's result) */
  if (was == NULL || was->via != r->via || was->dir != r->dir || g_strcmp0 (was->path, r->path) != 0)
    last->content = plan_content_of_result (p, r, NULL);
  last->result = r;
  return last->content;
}
