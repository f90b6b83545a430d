/* plan.c - choose the links, then prove that nothing KDE shows changes
 *
 * A link planted as "<name><ext>" in a directory of a theme on the search
 * path makes that theme answer the lookup of <name> at EVERY size: KDE's
 * MatchBest scan takes any hit in a theme and only keeps scanning for a
 * closer one (kde-lookup.md §1.2).  So a name is only planted when KDE
 * loads files of one and the same content at every size from 8 to 256;
 * then every link of the name points to a copy of that content, any subset
 * of the links (a run killed half way) shows the user the same icon, and
 * the choice of directories only changes what the search costs.
 *
 * The exception, a per-size set (plan_size_set): a name KDE finds outside
 * the current theme with different content at different sizes gets links
 * in the current theme's directories, each to the file KDE loads at that
 * directory's exact sizes, when with the set every size from 8 to 256
 * still shows its own file.  Unlike one content's links, part of such a
 * set is not safe: a run killed half way can leave KDE showing a
 * neighbouring size's file at some sizes until the next run (which
 * finds the killed run's links in the journal) or --clean.
 *
 * The choice: the directories of the themes on the search path that probe
 * the file's extension and fit a target size exactly are candidates; links
 * are added greedily while KDE's weighted cost over the target sizes (as
 * the resolver counts it, with the links in an overlay) goes down.
 *
 * The proof: every name whose lookup could try a planted file name (the
 * menu's names, every icon of the themes searched, every mime type, each
 * with its dash cuts and generic names) is looked up at every size from 8
 * to 256 with and without the links, for each configured theme and for a
 * user of any other theme; the content KDE would load must not change.  A
 * name whose links change any lookup loses them.
 */
#include "plan.h"

#include "desktop.h"
#include "kic.h"
#include "raster.h"

#include <string.h>

/* The sizes any KDE code could ask for that the proof covers. */
#define KIC_MIN_SIZE 8
#define KIC_MAX_SIZE 256

typedef struct {
  KicSystem *system;
  const KicPlanOptions *options;
  KicOverlay *base;       /* the previous run's links hidden: KDE's own state */
  KicOverlay *after;      /* base plus the links planned so far */
  GHashTable *content;    /* real path -> content id */
  GHashTable *plants;     /* link path -> KicPlant* (borrowed from names) */
  GHashTable *plant_name; /* link path -> KicNamePlan* */
  GPtrArray *resolvers;   /* KicResolver*: one per theme, then "any other theme" */
  GPtrArray *theme_names; /* char*: the theme each resolver stands for */
  /* the proof's indexes, made at its first round */
  GHashTable *known;      /* every name a lookup could be asked for (set) */
  GHashTable *stem_names; /* file name stem -> GPtrArray of the known names
                           * whose lookups may try it (borrowed) */
  GPtrArray *reach;       /* per resolver: set of the directories its
                           * themes search (path, and mirrored disk path) */
  GHashTable *dirty;      /* links planted or dropped since the proof
                           * last looked: what a round must re-check */
  GPtrArray *closure;     /* KicNamePlan*: names planted so others' links hold */
  GHashTable *xpm_as_png; /* real path of an XPM -> "" when it has a PNG twin, else why not */
} Planner;

const char *
kic_name_status_to_string (KicNameStatus status)
{
  switch (status)
    {
    case KIC_NAME_PLANTED:
      return "planted";
    case KIC_NAME_UNCHANGED:
      return "unchanged";
    case KIC_NAME_SKIPPED:
      return "skipped";
    case KIC_NAME_NOT_FOUND:
      return "not-found";
    case KIC_NAME_ABSOLUTE:
      return "absolute";
    }
  return "?";
}

GArray *
kic_plan_default_targets (const KicProfileTable *profile)
{
  GArray *targets = g_array_new (FALSE, FALSE, sizeof (KicTarget));

  for (guint i = 0; profile->menu_sizes[i] != 0; i++)
    {
      KicTarget target = { profile->menu_sizes[i], profile->menu_weights[i] };

      g_array_append_val (targets, target);
    }
  return targets;
}

void
kic_plant_free (gpointer data)
{
  KicPlant *plant = data;

  g_free (plant->link);
  g_free (plant->source);
  g_free (plant->store);
  g_free (plant->theme);
  g_free (plant);
}

static void
size_report_free (gpointer data)
{
  KicSizeReport *report = data;

  g_free (report->path);
  g_free (report->floor_reason);
  g_free (report);
}

static void
name_plan_free (gpointer data)
{
  KicNamePlan *np = data;

  g_free (np->name);
  g_free (np->icon);
  g_free (np->reason);
  g_ptr_array_unref (np->plants);
  g_ptr_array_unref (np->sizes);
  g_ptr_array_unref (np->banned);
  g_free (np->closure_theme);
  g_free (np->ban_reason);
  g_free (np);
}

void
kic_plan_free (KicPlan *plan)
{
  if (plan == NULL)
    return;
  g_hash_table_unref (plan->links);
  g_hash_table_unref (plan->files);
  g_ptr_array_unref (plan->names);
  if (plan->closure != NULL)
    g_ptr_array_unref (plan->closure);
  g_free (plan);
}

/* The content of the file at PATH (inside the root): its SHA-256, read
 * once per real file. */
static const char *
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
static const char *
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
static const char *
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

/* Put DIR/NAME back to what the base overlay says of it. */
static void
overlay_restore (Planner *p, const char *dir, const char *name)
{
  gboolean add;

  if (kic_overlay_lookup (p->base, dir, name, &add))
    kic_overlay_set (p->after, dir, name, add);
  else
    kic_overlay_unset (p->after, dir, name);
}

static KicResult *
resolve_with (KicResolver *resolver, const KicOverlay *overlay, const char *name, int size)
{
  kic_resolver_set_overlay (resolver, overlay);
  return kic_resolve (resolver, name, size, FALSE);
}

/* KDE's weighted cost for NAME over the target sizes with the overlay
 * AFTER; G_MAXDOUBLE when a target size would show other content than
 * CONTENT (the content of SOURCE, the file the links stand for). */
static double
weighted_cost (Planner *p, KicResolver *resolver, const char *name, const char *content,
               const char *source)
{
  double cost = 0;

  for (guint t = 0; t < p->options->targets->len; t++)
    {
      const KicTarget *target = &g_array_index (p->options->targets, KicTarget, t);
      g_autoptr (KicResult) r = resolve_with (resolver, p->after, name, target->size);

      if (strcmp (content_of_result (p, r, source), content) != 0)
        return G_MAXDOUBLE;
      cost += target->weight * r->n_calls;
    }
  return cost;
}

typedef struct {
  const KicTheme *theme;
  const KicThemeDir *dir;
  char *file;
} Candidate;

static void
candidate_free (gpointer data)
{
  Candidate *c = data;

  g_free (c->file);
  g_free (c);
}

/* Does every file of THEME that a lookup of NAME could hit (NAME with any
 * of the theme's extensions, in any of its directories) have CONTENT?  Only
 * then can links there never make KDE pick another of them: a link changes
 * which directories the MatchBest scan skips (kde-lookup.md §1.2). */
static gboolean
theme_agrees (Planner *p, const KicTheme *theme, const char *name, const char *content)
{
  for (guint e = 0; theme->desc->extensions[e] != NULL; e++)
    {
      g_autofree char *file = g_strconcat (name, theme->desc->extensions[e], NULL);

      for (guint d = 0; d < theme->dirs->len; d++)
        {
          const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
          g_autofree char *path = NULL;
          gboolean add;

          if (dir->mirror != NULL)
            continue; /* a resource copy of a disk directory checked here too */
          if (dir->resource_files != NULL)
            {
              /* the library's breeze has the name: another content */
              if (g_hash_table_contains (dir->resource_files, file))
                return FALSE;
              continue;
            }
          if (kic_overlay_lookup (p->base, dir->path, file, &add) && !add)
            continue; /* a link of the previous run */
          if (kic_fs_index_stat_at (p->system->index, dir->path, file) == KIC_FS_NONE)
            continue;
          path = g_strconcat (dir->path, "/", file, NULL);
          if (strcmp (content_of_path (p, path), content) != 0)
            return FALSE;
        }
    }
  return TRUE;
}


/* The directories a link for NAME with extension EXT may go to: those of
 * the themes that probe EXT and hold no other content under NAME, that fit
 * a target size exactly, and where no file of that name exists that the
 * previous run did not plant. */
static GPtrArray *
plant_candidates (Planner *p, KicResolver *resolver, const KicNamePlan *np, const char *ext,
                  const char *content, gboolean for_floor)
{
  const char *name = np->name;
  const GPtrArray *themes = kic_resolver_themes (resolver);
  GPtrArray *candidates = g_ptr_array_new_with_free_func (candidate_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *file = g_strconcat (name, ext, NULL);

  if (strchr (name, '/') != NULL)
    return candidates;
  for (guint t = 0; t < themes->len; t++)
    {
      const KicTheme *theme = g_ptr_array_index (themes, t);

      if (!g_strv_contains ((const char *const *) theme->desc->extensions, ext)
          /* KF6's embedded breeze, unread: a link there could come
           * before an icon only the library has (Debian 13's lacks the
           * package's 24 px directories and holds
           * status/22/org.telegram.desktop.svg, which the package does
           * not; tests/oracle/kf6/FINDINGS.md).  Links in later themes
           * stay safe: the resource can only answer a lookup earlier than
           * we think, and then the lookup never reaches them. */
          || theme->guessed_resource
          || (!for_floor && g_ptr_array_find_with_equal_func (np->banned, theme->desc->name, g_str_equal, NULL))
          /* a name of the closure must stop its own lookup in the theme
           * whose links its dash cut would otherwise reach */
          || (np->closure_theme != NULL && strcmp (np->closure_theme, theme->desc->name) != 0)
          || !theme_agrees (p, theme, name, content))
        continue;
      for (guint d = 0; d < theme->dirs->len; d++)
        {
          const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
          gboolean exact = FALSE;
          gboolean add;
          Candidate *c;

          if (dir->spec->scale != 1 || kic_theme_dir_is_resource (dir) || g_hash_table_contains (seen, dir->path))
            continue;
          g_hash_table_add (seen, dir->path);
          for (guint i = 0; i < p->options->targets->len && !exact; i++)
            exact = kic_dir_spec_exact (dir->spec, g_array_index (p->options->targets, KicTarget, i).size);
          if (!exact)
            continue;
          if (!(kic_overlay_lookup (p->base, dir->path, file, &add) && !add)
              && kic_fs_index_stat_at (p->system->index, dir->path, file) != KIC_FS_NONE)
            continue; /* not ours: never replaced */
          if (!for_floor && kic_overlay_lookup (p->after, dir->path, file, &add) && add)
            continue; /* another name planted there already */
          c = g_new0 (Candidate, 1);
          c->theme = theme;
          c->dir = dir;
          c->file = g_strdup (file);
          g_ptr_array_add (candidates, c);
        }
    }
  return candidates;
}

/* Add to CHOSEN (and to p->after) the candidate not chosen yet whose link
 * gives the lowest cost below BAR; FALSE when none does.  *COST is then
 * that cost. */
static gboolean
add_cheapest (Planner *p, KicResolver *resolver, const char *name, const char *content, const char *source,
              GPtrArray *candidates, GPtrArray *chosen, double bar, double *cost)
{
  Candidate *best = NULL;
  double best_cost = bar;

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = g_ptr_array_index (candidates, i);
      double trial;

      if (g_ptr_array_find (chosen, c, NULL))
        continue;
      kic_overlay_set (p->after, c->dir->path, c->file, TRUE);
      trial = weighted_cost (p, resolver, name, content, source);
      overlay_restore (p, c->dir->path, c->file);
      if (trial < best_cost)
        {
          best = c;
          best_cost = trial;
        }
    }
  if (best == NULL)
    return FALSE;
  kic_overlay_set (p->after, best->dir->path, best->file, TRUE);
  g_ptr_array_add (chosen, best);
  *cost = best_cost;
  return TRUE;
}

/* Greedy: add the candidate that lowers the cost most, while one does;
 * then drop any link whose removal does not raise it.  With KEEP_ONE at
 * least one link is chosen (the cheapest) when any keeps the content: a
 * name of the closure needs its own link even where KDE already finds it
 * fast.  The chosen links are left in p->after; returns the final cost. */
static double
choose_links (Planner *p, KicResolver *resolver, const char *name, const char *content,
              const char *source, GPtrArray *candidates, GPtrArray *chosen, gboolean keep_one)
{
  double cost = weighted_cost (p, resolver, name, content, source);

  if (keep_one && !add_cheapest (p, resolver, name, content, source, candidates, chosen, G_MAXDOUBLE, &cost))
    return G_MAXDOUBLE;
  while (add_cheapest (p, resolver, name, content, source, candidates, chosen, cost, &cost))
    ;
  for (guint i = chosen->len; i-- > 0;)
    {
      Candidate *c = g_ptr_array_index (chosen, i);
      double trial;

      if (keep_one && chosen->len == 1)
        break;
      overlay_restore (p, c->dir->path, c->file);
      trial = weighted_cost (p, resolver, name, content, source);
      if (trial <= cost)
        {
          g_ptr_array_remove_index (chosen, i);
          cost = trial;
        }
      else
        kic_overlay_set (p->after, c->dir->path, c->file, TRUE);
    }
  return cost;
}

/* A name planted for one theme stays planted whatever another says. */
static void
set_status (KicNamePlan *np, KicNameStatus status, const char *reason)
{
  if (np->plants->len > 0 && status != KIC_NAME_PLANTED)
    return;
  np->status = status;
  g_free (np->reason);
  np->reason = g_strdup (reason);
}

/* KDE's weighted cost for NP's name over the target sizes with the
 * overlay AFTER, or G_MAXDOUBLE when any size from 8 to 256 would show
 * other content than BEFORE_ALL (its lookups without the links) does. */
static double
size_set_cost (Planner *p, KicResolver *resolver, const KicNamePlan *np, const GPtrArray *before_all,
               char **wrong)
{
  g_autoptr (GPtrArray) after_all = NULL;
  double cost = 0;

  kic_resolver_set_overlay (resolver, p->after);
  after_all = kic_resolve_sizes_uncounted (resolver, np->name, KIC_MIN_SIZE, KIC_MAX_SIZE);
  for (guint k = 0; k < before_all->len; k++)
    if (strcmp (content_of_result (p, g_ptr_array_index (before_all, k), NULL),
                content_of_result (p, g_ptr_array_index (after_all, k), NULL)) != 0)
      {
        const char *path = ((const KicResult *) g_ptr_array_index (after_all, k))->path;

        kic_debug ("per-size set of '%s': at %u px %s instead of %s", np->name, KIC_MIN_SIZE + k, path,
                   ((const KicResult *) g_ptr_array_index (before_all, k))->path);
        if (wrong != NULL)
          *wrong = g_strdup (path);
        return G_MAXDOUBLE;
      }
  for (guint t = 0; t < p->options->targets->len; t++)
    {
      const KicTarget *target = &g_array_index (p->options->targets, KicTarget, t);
      g_autoptr (KicResult) r = resolve_with (resolver, p->after, np->name, target->size);

      cost += target->weight * r->n_calls;
    }
  return cost;
}

/* The link a per-size set of NP may have in DIR of THEME: to the file KDE
 * loads (BEFORE_ALL) at every size from 8 to 256 the directory is exact
 * for, when that is one content KDE reads from disk, of a type THEME
 * probes, and DIR holds no file of the name we did not plant.  NULL
 * otherwise.  transfer full */
static KicPlant *
size_set_link (Planner *p, const KicTheme *theme, const KicThemeDir *dir, const KicNamePlan *np,
               const GPtrArray *before_all)
{
  const char *content = NULL;
  g_autofree char *source = NULL;
  g_autofree char *file = NULL;
  const char *ext;
  gboolean add;
  KicPlant *plant;

  for (int s = KIC_MIN_SIZE; s <= KIC_MAX_SIZE; s++)
    {
      const KicResult *r = g_ptr_array_index (before_all, s - KIC_MIN_SIZE);
      const char *c;

      if (!kic_dir_spec_exact (dir->spec, s))
        continue;
      c = content_of_result (p, r, NULL);
      if (content == NULL)
        {
          content = c;
          source = kic_fs_index_realpath (p->system->index, r->path);
        }
      else if (strcmp (c, content) != 0)
        return NULL;
    }
  if (content == NULL || source == NULL || strchr (content, ':') != NULL)
    return NULL; /* exact for no size, or a file of the library's breeze */
  ext = link_extension (p, source);
  if (ext == NULL || !g_strv_contains ((const char *const *) theme->desc->extensions, ext))
    return NULL;
  file = g_strconcat (np->name, ext, NULL);
  if (!(kic_overlay_lookup (p->base, dir->path, file, &add) && !add)
      && kic_fs_index_stat_at (p->system->index, dir->path, file) != KIC_FS_NONE)
    return NULL; /* not ours: never replaced */
  if (kic_overlay_lookup (p->after, dir->path, file, &add) && add)
    return NULL; /* another name planted there already */
  plant = g_new0 (KicPlant, 1);
  plant->link = g_strconcat (dir->path, "/", file, NULL);
  plant->source = g_steal_pointer (&source);
  plant->store = g_strconcat (p->options->store, "/files", plant->source,
                              g_str_has_suffix (plant->source, ext) ? "" : ext, NULL);
  plant->theme = g_strdup (theme->desc->name);
  return plant;
}

static void
size_set_unset (Planner *p, KicPlant *plant)
{
  g_autofree char *dir = g_path_get_dirname (plant->link);
  g_autofree char *file = g_path_get_basename (plant->link);

  overlay_restore (p, dir, file);
  g_hash_table_remove (p->plants, plant->link);
}

static void
size_set_set (Planner *p, KicPlant *plant)
{
  g_autofree char *dir = g_path_get_dirname (plant->link);
  g_autofree char *file = g_path_get_basename (plant->link);

  kic_overlay_set (p->after, dir, file, TRUE);
  g_hash_table_insert (p->plants, plant->link, plant);
}

/* A name KDE loads with different content at different sizes (BEFORE_ALL,
 * 8 to 256; hicolor's 16x16/apps/X.svg, 22x22/apps/X.svg, ...,
 * scalable/apps/X.svg): a link in every directory of the current theme of
 * RESOLVER, each to the file KDE loads at that directory's exact sizes
 * (kiconloader.cpp:832-911 stops at the first theme with any hit, and
 * kicontheme.cpp:553-612 takes an exact directory first, else the closest:
 * kde-lookup.md §1.2, §3.1), kept only where KDE's lookup of the name at
 * every size from 8 to 256 shows the same content with the set as without;
 * then each link whose removal keeps that and costs no more goes.  The
 * proof checks the set like any plan, and drops it whole (drop_plants). */
static void
plan_size_set (Planner *p, KicResolver *resolver, KicNamePlan *np, const GPtrArray *before_all, double before)
{
  const KicTheme *theme = g_ptr_array_index (kic_resolver_themes (resolver), 0);
  g_autoptr (GPtrArray) set = g_ptr_array_new_with_free_func (kic_plant_free);
  double cost = G_MAXDOUBLE;
  guint n_dirs;

  gboolean in_theme = FALSE;

  /* a name the current theme already answers at some size is left as
   * it is: its own files there decide the scan */
  for (guint k = 0; k < before_all->len && !in_theme; k++)
    in_theme = ((const KicResult *) g_ptr_array_index (before_all, k))->theme == theme;
  if (in_theme)
    {
      set_status (np, KIC_NAME_SKIPPED, "KDE loads different files at different sizes, some from the current theme");
      return;
    }
  if (np->closure_theme != NULL || theme->guessed_resource
      || g_ptr_array_find_with_equal_func (np->banned, theme->desc->name, g_str_equal, NULL))
    {
      set_status (np, KIC_NAME_SKIPPED, "KDE loads different files at different sizes");
      return;
    }
  for (guint d = 0; d < theme->dirs->len; d++)
    {
      const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
      KicPlant *plant;

      if (dir->spec->scale != 1 || kic_theme_dir_is_resource (dir) || dir->mirror != NULL)
        continue;
      plant = size_set_link (p, theme, dir, np, before_all);
      if (plant == NULL)
        continue;
      if (g_hash_table_contains (p->plants, plant->link))
        {
          kic_plant_free (plant); /* a directory listed twice */
          continue;
        }
      size_set_set (p, plant);
      g_ptr_array_add (set, plant);
    }
  n_dirs = set->len;
  /* a link that answers a size with another file than KDE loads there
   * leaves the set, until the rest holds at every size (or none is left) */
  while (set->len > 0)
    {
      g_autofree char *wrong = NULL;
      guint i;

      cost = size_set_cost (p, resolver, np, before_all, &wrong);
      if (cost != G_MAXDOUBLE)
        break;
      for (i = 0; wrong != NULL && i < set->len; i++)
        if (strcmp (((KicPlant *) g_ptr_array_index (set, i))->link, wrong) == 0)
          break;
      if (wrong == NULL || i == set->len)
        break; /* no link of the set is at fault: cannot be repaired */
      size_set_unset (p, g_ptr_array_index (set, i));
      g_ptr_array_remove_index (set, i);
    }
  for (guint i = set->len; cost != G_MAXDOUBLE && i-- > 0;)
    {
      KicPlant *plant = g_ptr_array_index (set, i);
      double trial;

      size_set_unset (p, plant);
      trial = size_set_cost (p, resolver, np, before_all, NULL);
      if (trial <= cost)
        {
          g_ptr_array_remove_index (set, i);
          cost = trial;
        }
      else
        size_set_set (p, plant);
    }
  if (set->len == 0 || cost == G_MAXDOUBLE || cost >= before)
    {
      for (guint i = 0; i < set->len; i++)
        size_set_unset (p, g_ptr_array_index (set, i));
      set_status (np, KIC_NAME_SKIPPED,
                  n_dirs == 0 ? "KDE loads different files at different sizes, and no directory of the current theme can hold one of them (a type it does not probe, or several files over its sizes)"
                  : cost == G_MAXDOUBLE ? "KDE loads different files at different sizes, and no set of links in the current theme shows each size its file"
                                        : "KDE loads different files at different sizes, and no set of links in the current theme makes it cheaper");
      return;
    }
  kic_debug ("per-size set: '%s' in %s, %u links", np->name, theme->desc->name, set->len);
  for (guint i = 0; i < set->len; i++)
    {
      KicPlant *plant = g_ptr_array_index (set, i);

      g_ptr_array_add (np->plants, plant);
      g_hash_table_insert (p->plant_name, plant->link, np);
      g_hash_table_add (p->dirty, g_strdup (plant->link));
    }
  g_ptr_array_set_free_func (set, NULL);
  set_status (np, KIC_NAME_PLANTED, NULL);
}

/* Decide the links of one name for the theme list of RESOLVER. */
static void
plan_name (Planner *p, KicResolver *resolver, KicNamePlan *np)
{
  const char *content = NULL;
  g_autofree char *source = NULL;
  g_autoptr (GPtrArray) candidates = NULL;
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
  g_autoptr (GPtrArray) all = NULL;
  double before = 0, after;
  const char *ext;

  kic_resolver_set_overlay (resolver, p->base);
  all = kic_resolve_sizes (resolver, np->name, KIC_MIN_SIZE, KIC_MAX_SIZE);
  for (guint i = 0; i < all->len; i++)
    {
      const KicResult *r = g_ptr_array_index (all, i);
      const char *c;

      if (r->path == NULL)
        {
          set_status (np, content ? KIC_NAME_SKIPPED : KIC_NAME_NOT_FOUND,
                      content ? "KDE finds it at some sizes only" : "KDE finds no file for it");
          return;
        }
      c = content_of_result (p, r, NULL);
      if (content == NULL)
        {
          content = c;
          source = kic_fs_index_realpath (p->system->index, r->path);
        }
      else if (strcmp (c, content) != 0)
        np->per_size = TRUE;
    }
  /* KDE's cost today, from the lookups just made where the target size
   * is among them */
  for (guint t = 0; t < p->options->targets->len; t++)
    {
      const KicTarget *target = &g_array_index (p->options->targets, KicTarget, t);
      g_autoptr (KicResult) outside = NULL;
      const KicResult *r;

      if (target->size >= KIC_MIN_SIZE && target->size <= KIC_MAX_SIZE)
        r = g_ptr_array_index (all, target->size - KIC_MIN_SIZE);
      else
        r = outside = resolve_with (resolver, p->base, np->name, target->size);
      before += target->weight * r->n_calls;
    }
  if (np->per_size)
    {
      /* part of a set (a run killed half way, or a crash between two
       * links) can make KDE show a neighbouring size's file: a set is only
       * planted when the administrator asks for it */
      if (p->options->per_size_sets)
        plan_size_set (p, resolver, np, all, before);
      else
        set_status (np, KIC_NAME_SKIPPED, "KDE loads different files at different sizes (a per-size set is "
                                          "planted only with PerSizeSets=true)");
      return;
    }
  if (g_str_has_prefix (content, "resource:"))
    {
      /* nothing on disk to copy, and KDE finds it without a call */
      set_status (np, KIC_NAME_UNCHANGED, "KDE finds it in the breeze built into its library");
      return;
    }
  ext = source ? link_extension (p, source) : NULL;
  if (ext == NULL)
    {
      set_status (np, KIC_NAME_SKIPPED, "the file is not a .png, .svg, .svgz or .xpm");
      return;
    }
  candidates = plant_candidates (p, resolver, np, ext, content, FALSE);
  if (candidates->len == 0)
    {
      set_status (np, KIC_NAME_SKIPPED, "no theme on the search path both probes its file type and holds no other file of that name");
      return;
    }
  after = choose_links (p, resolver, np->name, content, source, candidates, chosen, np->closure_theme != NULL);
  /* a name of the closure is planted for the other name's sake, even
   * where it costs KDE no less itself */
  if (chosen->len == 0 || after == G_MAXDOUBLE || (after >= before && np->closure_theme == NULL))
    {
      for (guint i = 0; i < chosen->len; i++)
        {
          Candidate *c = g_ptr_array_index (chosen, i);
          overlay_restore (p, c->dir->path, c->file);
        }
      set_status (np, KIC_NAME_UNCHANGED, "KDE already finds it as fast as any link would make it");
      return;
    }
  for (guint i = 0; i < chosen->len; i++)
    {
      Candidate *c = g_ptr_array_index (chosen, i);
      KicPlant *plant = g_new0 (KicPlant, 1);

      plant->link = g_strconcat (c->dir->path, "/", c->file, NULL);
      plant->source = g_strdup (source);
      /* an XPM's PNG twin is made in the store (raster.h) */
      plant->store = g_strconcat (p->options->store, "/files", source,
                                  g_str_has_suffix (source, ext) ? "" : ext,
                                  NULL);
      plant->theme = g_strdup (c->theme->desc->name);
      g_ptr_array_add (np->plants, plant);
      g_hash_table_insert (p->plants, plant->link, plant);
      g_hash_table_insert (p->plant_name, plant->link, np);
      g_hash_table_add (p->dirty, g_strdup (plant->link));
    }
  set_status (np, KIC_NAME_PLANTED, NULL);
}

static void drop_plants (Planner *p, KicNamePlan *np, const char *reason);

/* The names planted for NP's links lose theirs with them (and so on down:
 * each was only wanted because of the links above it). */
static void
drop_closure_of (Planner *p, KicNamePlan *np, const char *reason)
{
  g_autoptr (GPtrArray) members = g_ptr_array_new ();

  for (guint i = 0; i < p->closure->len; i++)
    {
      KicNamePlan *m = g_ptr_array_index (p->closure, i);

      if (m->closure_for == np)
        g_ptr_array_add (members, m);
    }
  for (guint i = 0; i < members->len; i++)
    {
      KicNamePlan *m = g_ptr_array_index (members, i);

      drop_plants (p, m, reason);
      g_ptr_array_remove (p->closure, m);
    }
}

static void
drop_plants (Planner *p, KicNamePlan *np, const char *reason)
{
  drop_closure_of (p, np, reason);
  for (guint i = 0; i < np->plants->len; i++)
    {
      KicPlant *plant = g_ptr_array_index (np->plants, i);
      g_autofree char *dir = g_path_get_dirname (plant->link);
      g_autofree char *file = g_path_get_basename (plant->link);

      overlay_restore (p, dir, file);
      g_hash_table_add (p->dirty, g_strdup (plant->link));
      g_hash_table_remove (p->plant_name, plant->link);
      g_hash_table_remove (p->plants, plant->link);
    }
  g_ptr_array_set_size (np->plants, 0);
  set_status (np, KIC_NAME_SKIPPED, reason);
}

static char *
link_stem (const char *link)
{
  g_autofree char *base = g_path_get_basename (link);

  return kic_icon_name_strip_extension (base);
}

/* The file names in DIR, on disk or in the library.  transfer container */
static GPtrArray *
dir_files (Planner *p, const KicThemeDir *dir)
{
  GPtrArray *files;
  GHashTableIter iter;
  gpointer key;

  if (dir->resource_files == NULL)
    return kic_fs_index_list (p->system->index, dir->mirror ? dir->mirror : dir->path);
  files = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, dir->resource_files);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (files, key);
  return files;
}

/* Every name whose lookup could be asked for: the menu's names, the stem
 * of every icon in every directory of the themes searched, and every mime
 * type that has a generic icon. */
static GHashTable *
known_names (Planner *p, GPtrArray *names)
{
  GHashTable *all = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < names->len; i++)
    g_hash_table_add (all, g_strdup (((KicNamePlan *) g_ptr_array_index (names, i))->name));
  for (guint r = 0; r < p->resolvers->len; r++)
    {
      const GPtrArray *themes = kic_resolver_themes (g_ptr_array_index (p->resolvers, r));

      for (guint t = 0; t < themes->len; t++)
        {
          const KicTheme *theme = g_ptr_array_index (themes, t);

          for (guint d = 0; d < theme->dirs->len; d++)
            {
              const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
              g_autoptr (GPtrArray) files = dir_files (p, dir);

              for (guint f = 0; files != NULL && f < files->len; f++)
                {
                  const char *file = g_ptr_array_index (files, f);
                  const char *ext = kic_icon_name_extension (file);

                  if (ext != NULL)
                    g_hash_table_add (all, g_strndup (file, strlen (file) - strlen (ext)));
                }
            }
        }
    }
  return all;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The proof's indexes: the names, which of them may try each stem (the
 * stems, kic_resolver_lookup_stems(), follow the generation and the mime
 * data, which every resolver of the system shares), and the directories
 * each resolver searches. */
static void
proof_index (Planner *p, GPtrArray *names)
{
  KicResolver *first = g_ptr_array_index (p->resolvers, 0);
  GHashTableIter iter;
  gpointer key;

  p->known = known_names (p, names);
  p->stem_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_hash_table_iter_init (&iter, p->known);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autoptr (GPtrArray) stems = kic_resolver_lookup_stems (first, key);

      for (guint i = 0; i < stems->len; i++)
        {
          const char *stem = g_ptr_array_index (stems, i);
          GPtrArray *tried_by = g_hash_table_lookup (p->stem_names, stem);

          if (tried_by == NULL)
            {
              tried_by = g_ptr_array_new ();
              g_hash_table_insert (p->stem_names, g_strdup (stem), tried_by);
            }
          /* a name's stems may repeat (a dash cut equal to its generic) */
          if (tried_by->len == 0 || g_ptr_array_index (tried_by, tried_by->len - 1) != key)
            g_ptr_array_add (tried_by, key);
        }
    }
  p->reach = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint r = 0; r < p->resolvers->len; r++)
    {
      const GPtrArray *themes = kic_resolver_themes (g_ptr_array_index (p->resolvers, r));
      GHashTable *dirs = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint t = 0; t < themes->len; t++)
        {
          const KicTheme *theme = g_ptr_array_index (themes, t);

          for (guint d = 0; d < theme->dirs->len; d++)
            {
              const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);

              g_hash_table_add (dirs, dir->path);
              if (dir->mirror != NULL)
                g_hash_table_add (dirs, dir->mirror);
            }
        }
      g_ptr_array_add (p->reach, dirs);
    }
}

/* The names the lookups of resolver R may change with by the links in
 * CHANGED: those that may try the stem of a link in a directory R searches
 * (a name with a '/' may reach other directories: for any link), sorted. */
static GPtrArray *
names_to_prove (Planner *p, guint r, GHashTable *changed)
{
  GHashTable *reach = g_ptr_array_index (p->reach, r);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, changed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *dir = g_path_get_dirname (key);
      g_autofree char *stem = link_stem (key);
      gboolean reached = g_hash_table_contains (reach, dir);
      GPtrArray *tried_by = g_hash_table_lookup (p->stem_names, stem);

      for (guint i = 0; tried_by != NULL && i < tried_by->len; i++)
        {
          const char *name = g_ptr_array_index (tried_by, i);

          if ((reached || strchr (name, '/') != NULL) && !g_hash_table_contains (seen, name))
            {
              g_hash_table_add (seen, (gpointer) name);
              g_ptr_array_add (out, (gpointer) name);
            }
        }
    }
  g_ptr_array_sort (out, compare_strings);
  return out;
}

/* The link the lookup of NAME at SIZE now meets. */
static KicPlant *
find_culprit (Planner *p, KicResolver *resolver, const char *name, int size)
{
  g_autoptr (KicResult) r = NULL;

  kic_resolver_set_overlay (resolver, p->after);
  r = kic_resolve (resolver, name, size, TRUE);
  for (guint i = 0; i < r->calls->len; i++)
    {
      const KicCall *call = g_ptr_array_index (r->calls, i);
      g_autofree char *clean = call->hit ? kic_path_clean (call->path) : NULL;
      KicPlant *plant;

      if (clean != NULL && (plant = g_hash_table_lookup (p->plants, clean)) != NULL)
        return plant;
    }
  return NULL;
}

static gboolean
is_menu_name (GPtrArray *names, const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (strcmp (((KicNamePlan *) g_ptr_array_index (names, i))->name, name) == 0)
      return TRUE;
  return FALSE;
}

/* The links of OWNER in THEME change the lookup of NAME: KDE cuts NAME
 * at its last dash in each theme before it moves to the next
 * (findMatchingIcon, KF5 kiconloader.cpp:832-911; kde-lookup.md §3.1), so "X-symbolic" or
 * "X-beta" meets a link "X.svg" in a theme that comes before its own file.
 * A link for NAME itself in THEME, to its own content, ends its lookup at
 * its own name before any cut.  Plan that link (the closure); the proof
 * then checks the set again.  FALSE when NAME cannot have one: a menu name
 * (planned on its own), one already tried there, one KDE loads with
 * different content at different sizes, or a theme with no place for it. */
static gboolean
plant_closure (Planner *p, GPtrArray *names, KicNamePlan *owner, const char *theme, const char *name)
{
  KicNamePlan *m;

  if (strcmp (owner->name, name) == 0 || is_menu_name (names, name))
    return FALSE;
  for (guint i = 0; i < p->closure->len; i++)
    {
      m = g_ptr_array_index (p->closure, i);
      if (strcmp (m->name, name) == 0 && strcmp (m->closure_theme, theme) == 0)
        return FALSE;
    }
  m = g_new0 (KicNamePlan, 1);
  m->name = g_strdup (name);
  m->plants = g_ptr_array_new_with_free_func (kic_plant_free);
  m->sizes = g_ptr_array_new_with_free_func (size_report_free);
  m->banned = g_ptr_array_new_with_free_func (g_free);
  m->closure_for = owner;
  m->closure_theme = g_strdup (theme);
  g_ptr_array_add (p->closure, m);
  /* the last resolver is the "any other theme" user: proof only */
  for (guint r = 0; r + 1 < p->resolvers->len; r++)
    plan_name (p, g_ptr_array_index (p->resolvers, r), m);
  kic_debug ("closure: '%s' in %s for the links of '%s': %s", name, theme, owner->name,
             m->plants->len > 0 ? "planted" : m->reason);
  return m->plants->len > 0;
}

/* One round of the proof over the lookups the links planted or dropped
 * since the last round may change (the first round: all the links).  A
 * lookup that changes gets a link of its own beside the one it meets (the
 * closure), or else the links of the name responsible are dropped and it
 * is marked to be planned again; FALSE when any did (run another round:
 * the new and the dropped links are dirty). */
static gboolean
prove_once (Planner *p, GPtrArray *names, guint *n_verified)
{
  g_autoptr (GHashTable) changed = p->dirty;
  gboolean held = TRUE;

  if (p->known == NULL)
    proof_index (p, names);
  p->dirty = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint r = 0; r < p->resolvers->len; r++)
    {
      KicResolver *resolver = g_ptr_array_index (p->resolvers, r);
      g_autoptr (GPtrArray) sorted = names_to_prove (p, r, changed);

      for (guint i = 0; i < sorted->len; i++)
        {
          const char *name = g_ptr_array_index (sorted, i);
          g_autoptr (GPtrArray) before_all = NULL;
          g_autoptr (GPtrArray) after_all = NULL;

          kic_resolver_set_overlay (resolver, p->base);
          before_all = kic_resolve_sizes_uncounted (resolver, name, KIC_MIN_SIZE, KIC_MAX_SIZE);
          kic_resolver_set_overlay (resolver, p->after);
          after_all = kic_resolve_sizes_uncounted (resolver, name, KIC_MIN_SIZE, KIC_MAX_SIZE);
          for (guint k = 0; k < before_all->len; k++)
            {
              const KicResult *before = g_ptr_array_index (before_all, k);
              const KicResult *after = g_ptr_array_index (after_all, k);
              int s = KIC_MIN_SIZE + (int) k;
              KicPlant *culprit;
              KicNamePlan *owner;
              g_autofree char *reason = NULL;

              ++*n_verified;
              if (g_strcmp0 (before->path, after->path) == 0
                  || strcmp (content_of_result (p, before, NULL), content_of_result (p, after, NULL)) == 0)
                continue;
              culprit = find_culprit (p, resolver, name, s);
              reason = g_strdup_printf ("a link in %s would change what KDE shows for '%s' at %d px with %s",
                                        culprit ? culprit->theme : "a theme", name, s,
                                        (char *) g_ptr_array_index (p->theme_names, r));
              kic_debug ("%s: '%s' instead of '%s'", reason, after->path ? after->path : "nothing",
                         before->path ? before->path : "nothing");
              if (culprit == NULL)
                {
                  /* cannot happen: a lookup that meets no link is the
                   * same as before; be safe and plant nothing */
                  for (guint n = 0; n < names->len; n++)
                    drop_plants (p, g_ptr_array_index (names, n), reason);
                  return FALSE;
                }
              owner = g_hash_table_lookup (p->plant_name, culprit->link);
              /* the round goes on: the names after this one must still be
               * proved (the new links are dirty for the next round) */
              if (plant_closure (p, names, owner, culprit->theme, name))
                {
                  held = FALSE;
                  break;
                }
              g_free (owner->ban_reason);
              owner->ban_reason = g_strdup (reason);
              /* plan the name again, without that theme */
              g_ptr_array_add (owner->banned, g_strdup (culprit->theme));
              owner->replan = TRUE;
              drop_plants (p, owner, reason);
              held = FALSE;
              break;
            }
        }
    }
  return held;
}

/* Add ICON (an Icon= value as written) to NAMES unless its lookup name is
 * in SEEN already. */
static void
add_name (GPtrArray *names, GHashTable *seen, const char *icon)
{
  g_autofree char *valid = NULL;
  KicNamePlan *np;

  if (icon == NULL || icon[0] == '\0')
    return;
  valid = g_utf8_make_valid (icon, -1);
  np = g_new0 (KicNamePlan, 1);
  np->icon = g_strdup (icon);
  np->name = kic_icon_name_is_absolute (valid) ? g_strdup (valid) : kic_icon_name_strip_extension (valid);
  np->plants = g_ptr_array_new_with_free_func (kic_plant_free);
  np->sizes = g_ptr_array_new_with_free_func (size_report_free);
  np->banned = g_ptr_array_new_with_free_func (g_free);
  if (g_hash_table_contains (seen, np->name))
    {
      name_plan_free (np);
      return;
    }
  g_hash_table_add (seen, np->name);
  if (kic_icon_name_is_absolute (valid))
    set_status (np, KIC_NAME_ABSOLUTE, "KDE loads an absolute path as it is");
  g_ptr_array_add (names, np);
}

/* The names KDE's menu looks up: one KicNamePlan per distinct lookup name
 * of the applications (.desktop), of the menu's categories (.directory:
 * Kickoff shows them when it opens, at sizes where breeze often has no
 * file of its own, tests/oracle/FINDINGS.md) and of EXTRA_NAMES. */
static GPtrArray *
collect_names (KicSystem *system, char **extra_names, guint *n_desktop_files)
{
  g_autoptr (GPtrArray) entries = kic_desktop_scan (system->index, system->data_dirs);
  g_autoptr (GPtrArray) directories = kic_desktop_scan_directories (system->index, system->data_dirs,
                                                                    system->config_dirs);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *names = g_ptr_array_new_with_free_func (name_plan_free);

  *n_desktop_files = entries->len + directories->len;
  for (guint i = 0; i < entries->len; i++)
    add_name (names, seen, ((const KicDesktopEntry *) g_ptr_array_index (entries, i))->icon);
  for (guint i = 0; i < directories->len; i++)
    add_name (names, seen, ((const KicDesktopEntry *) g_ptr_array_index (directories, i))->icon);
  for (guint i = 0; extra_names != NULL && extra_names[i] != NULL; i++)
    add_name (names, seen, extra_names[i]);
  return names;
}

static int
compare_name_plans (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(KicNamePlan *const *) a)->name, (*(KicNamePlan *const *) b)->name);
}

/* Put DIR/FILE of the base overlay back as it was (HAD, ADD). */
static void
base_restore (Planner *p, const char *dir, const char *file, gboolean had, gboolean add)
{
  if (had)
    kic_overlay_set (p->base, dir, file, add);
  else
    kic_overlay_unset (p->base, dir, file);
}

static gboolean
is_added (const KicOverlay *overlay, const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *file = g_path_get_basename (path);
  gboolean add;

  return kic_overlay_lookup (overlay, dir, file, &add) && add;
}

/* The fewest calls KDE could make for NP at SIZE (BEFORE: its lookup
 * today) with links of the content it shows at that size, in the places
 * the promises allow the name (themes that probe the file's type and hold
 * no other content under the name, no foreign file in the way), chosen
 * for this size alone: greedily, since a link that is not an exact fit
 * still prunes the directories the MatchBest scan goes on to (kde-lookup.md
 * §1.2), so two links can beat one.  Other names are left out: whether the
 * proof lets the links stand is the planner's question, and the report
 * says why a name stays above its floor. */
static guint
floor_calls (Planner *p, KicResolver *resolver, KicNamePlan *np, const KicResult *before, int size)
{
  guint best = before->n_calls;
  const char *content;
  g_autofree char *source = NULL;
  const char *ext;
  g_autoptr (GPtrArray) candidates = NULL;
  g_autoptr (GArray) chosen = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) had = g_array_new (FALSE, FALSE, sizeof (gboolean) * 2);

  if (before->path == NULL || before->via == KIC_VIA_ABSOLUTE)
    return best;
  content = content_of_result (p, before, NULL);
  if (g_str_has_prefix (content, "resource:"))
    return best;
  source = kic_fs_index_realpath (p->system->index, before->path);
  ext = source ? link_extension (p, source) : NULL;
  if (ext == NULL)
    return best;
  candidates = plant_candidates (p, resolver, np, ext, content, TRUE);
  for (;;)
    {
      guint best_i = G_MAXUINT;

      for (guint i = 0; i < candidates->len; i++)
        {
          Candidate *c = g_ptr_array_index (candidates, i);
          g_autoptr (KicResult) r = NULL;
          gboolean was, add = FALSE, ends_at_link;

          was = kic_overlay_lookup (p->base, c->dir->path, c->file, &add);
          if (was && add)
            continue; /* chosen already */
          kic_overlay_set (p->base, c->dir->path, c->file, TRUE);
          r = resolve_with (resolver, p->base, np->name, size);
          /* the content stays when it ends at one of the links */
          ends_at_link = r->path != NULL && is_added (p->base, r->path);
          base_restore (p, c->dir->path, c->file, was, add);
          if (ends_at_link && r->n_calls < best)
            {
              best = r->n_calls;
              best_i = i;
            }
        }
      if (best_i == G_MAXUINT)
        break;
      {
        Candidate *c = g_ptr_array_index (candidates, best_i);
        gboolean state[2] = { FALSE, FALSE };

        state[0] = kic_overlay_lookup (p->base, c->dir->path, c->file, &state[1]);
        g_array_append_val (had, state);
        g_array_append_val (chosen, best_i);
        kic_overlay_set (p->base, c->dir->path, c->file, TRUE);
      }
    }
  for (guint k = chosen->len; k-- > 0;)
    {
      Candidate *c = g_ptr_array_index (candidates, g_array_index (chosen, guint, k));
      gboolean *state = &g_array_index (had, gboolean, 2 * k);

      base_restore (p, c->dir->path, c->file, state[0], state[1]);
    }
  return best;
}

/* Why NP costs more than its floor after the plan. */
static char *
floor_reason (const KicNamePlan *np)
{
  if (np->status != KIC_NAME_PLANTED)
    return g_strdup (np->reason);
  if (np->ban_reason != NULL)
    return g_strdup_printf ("the proof kept its links out of %s: %s",
                            (char *) g_ptr_array_index (np->banned, np->banned->len - 1), np->ban_reason);
  return g_strdup ("its links serve all target sizes together (weighted cost)");
}

/* The figures for the report: the current theme's lookups before and
 * after, at the target sizes, and the floor. */
static void
report_sizes (Planner *p, GPtrArray *names)
{
  KicResolver *resolver = g_ptr_array_index (p->resolvers, 0);

  for (guint i = 0; i < names->len; i++)
    {
      KicNamePlan *np = g_ptr_array_index (names, i);

      for (guint t = 0; t < p->options->targets->len; t++)
        {
          int size = g_array_index (p->options->targets, KicTarget, t).size;
          g_autoptr (KicResult) before = resolve_with (resolver, p->base, np->name, size);
          g_autoptr (KicResult) after = resolve_with (resolver, p->after, np->name, size);
          KicSizeReport *report = g_new0 (KicSizeReport, 1);

          report->size = size;
          report->path = g_strdup (before->path);
          report->calls_before = before->n_calls;
          report->calls_after = after->n_calls;
          report->calls_floor = np->status == KIC_NAME_ABSOLUTE || !p->options->floor
                                  ? before->n_calls
                                  : floor_calls (p, resolver, np, before, size);
          if (report->calls_after > report->calls_floor)
            report->floor_reason = floor_reason (np);
          g_ptr_array_add (np->sizes, report);
        }
    }
}

static void
planner_init (Planner *p, KicSystem *system, const KicPlanOptions *options)
{
  p->system = system;
  p->options = options;
  p->base = kic_overlay_new ();
  p->after = kic_overlay_new ();
  p->content = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  p->plants = g_hash_table_new (g_str_hash, g_str_equal);
  p->plant_name = g_hash_table_new (g_str_hash, g_str_equal);
  p->resolvers = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_resolver_free);
  p->theme_names = g_ptr_array_new_with_free_func (g_free);
  p->dirty = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p->closure = g_ptr_array_new_with_free_func (name_plan_free);
  p->xpm_as_png = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* the previous run's links are not part of what KDE has on its own */
  for (guint i = 0; options->previous != NULL && i < options->previous->len; i++)
    {
      const char *link = g_ptr_array_index (options->previous, i);
      g_autofree char *dir = g_path_get_dirname (link);
      g_autofree char *file = g_path_get_basename (link);

      kic_overlay_set (p->base, dir, file, FALSE);
      kic_overlay_set (p->after, dir, file, FALSE);
    }
  if (options->themes == NULL || options->themes[0] == NULL)
    {
      g_ptr_array_add (p->resolvers, kic_system_new_resolver (system, system->configured_theme, FALSE, NULL));
      g_ptr_array_add (p->theme_names, g_strdup (system->configured_theme));
    }
  else
    for (guint i = 0; options->themes[i] != NULL; i++)
      {
        g_ptr_array_add (p->resolvers, kic_system_new_resolver (system, options->themes[i], FALSE, NULL));
        g_ptr_array_add (p->theme_names, g_strdup (options->themes[i]));
      }
  g_ptr_array_add (p->resolvers, kic_system_new_resolver (system, NULL, TRUE, NULL));
  g_ptr_array_add (p->theme_names, g_strdup ("any other theme"));
}

static void
planner_clear (Planner *p)
{
  kic_overlay_free (p->base);
  kic_overlay_free (p->after);
  g_hash_table_unref (p->content);
  g_hash_table_unref (p->plants);
  g_hash_table_unref (p->plant_name);
  g_ptr_array_unref (p->resolvers);
  g_ptr_array_unref (p->theme_names);
  g_hash_table_unref (p->dirty);
  if (p->known != NULL)
    {
      g_hash_table_unref (p->stem_names);
      g_hash_table_unref (p->known);
      g_ptr_array_unref (p->reach);
    }
  if (p->closure != NULL)
    g_ptr_array_unref (p->closure);
  g_hash_table_unref (p->xpm_as_png);
}

/* Plan the names of NAMES that the proof took links from again, without
 * the themes they were in. */
static void
replan_banned (Planner *p, GPtrArray *names, guint n_themes)
{
  for (guint i = 0; i < names->len; i++)
    {
      KicNamePlan *np = g_ptr_array_index (names, i);
      g_autofree char *reason = NULL;

      if (!np->replan)
        continue;
      np->replan = FALSE;
      reason = g_strdup (np->reason);
      for (guint r = 0; r < n_themes; r++)
        plan_name (p, g_ptr_array_index (p->resolvers, r), np);
      if (np->plants->len == 0)
        set_status (np, KIC_NAME_SKIPPED, reason);
    }
}

KicPlan *
kic_plan_build (KicSystem *system, const KicPlanOptions *options)
{
  KicPlan *plan = g_new0 (KicPlan, 1);
  Planner p = { 0 };
  guint n_themes;

  planner_init (&p, system, options);
  plan->names = collect_names (system, options->extra_names, &plan->n_desktop_files);
  g_ptr_array_sort (plan->names, compare_name_plans);
  /* plant for each configured theme in turn (the last resolver is the
   * "any other theme" user, who only takes part in the proof) */
  n_themes = p.resolvers->len - 1;
  for (guint r = 0; r < n_themes; r++)
    for (guint i = 0; i < plan->names->len; i++)
      {
        KicNamePlan *np = g_ptr_array_index (plan->names, i);

        if (np->status != KIC_NAME_ABSOLUTE)
          plan_name (&p, g_ptr_array_index (p.resolvers, r), np);
      }
  /* prove; a name whose links change a lookup is planned again without
   * the theme they were in, until the proof holds */
  plan->n_verified = 0;
  while (!prove_once (&p, plan->names, &plan->n_verified))
    {
      replan_banned (&p, plan->names, n_themes);
      replan_banned (&p, p.closure, n_themes);
    }
  report_sizes (&p, plan->names);
  plan->closure = g_steal_pointer (&p.closure);
  g_ptr_array_sort (plan->closure, compare_name_plans);
  plan->links = g_hash_table_new (g_str_hash, g_str_equal);
  plan->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < plan->names->len + plan->closure->len; i++)
    {
      KicNamePlan *np = i < plan->names->len ? g_ptr_array_index (plan->names, i)
                                             : g_ptr_array_index (plan->closure, i - plan->names->len);

      for (guint k = 0; k < np->plants->len; k++)
        {
          KicPlant *plant = g_ptr_array_index (np->plants, k);

          g_hash_table_insert (plan->links, plant->link, plant);
          g_hash_table_insert (plan->files, g_strdup (plant->store), g_strdup (plant->source));
        }
    }
  planner_clear (&p);
  return plan;
}
