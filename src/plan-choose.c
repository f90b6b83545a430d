/* plan-choose.c - the candidates for a name's links and the greedy
 * choice among them by KDE's weighted cost over the target sizes
 *
 * The directories of the themes on the search path that probe the file's
 * extension and fit a target size exactly are candidates; links are added
 * greedily while KDE's weighted cost over the target sizes (as the
 * resolver counts it, with the links in an overlay) goes down.
 */
#include "plan-private.h"

#include "kic.h"

#include <string.h>

/* Put DIR/NAME back to what the base overlay says of it. */
void
overlay_restore (Planner *p, const char *dir, const char *name)
{
  gboolean add;

  if (kic_overlay_lookup (p->base, dir, name, &add))
    kic_overlay_set (p->after, dir, name, add);
  else
    kic_overlay_unset (p->after, dir, name);
}

KicResult *
resolve_with (KicResolver *resolver, const KicOverlay *overlay, const char *name, int size)
{
  kic_resolver_set_overlay (resolver, overlay);
  return kic_resolve (resolver, name, size, FALSE);
}

/* KDE's weighted cost for NAME over the target sizes with the overlay
 * AFTER; G_MAXDOUBLE when a target size would show other content than
 * CONTENT (the content of SOURCE, the file the links stand for). */
static double
weighted_cost (Planner *p, KicResolver *resolver, const char *name, const KicContent *content,
               const char *source)
{
  double cost = 0;

  for (guint t = 0; t < p->options->targets->len; t++)
    {
      const KicTarget *target = &g_array_index (p->options->targets, KicTarget, t);
      g_autoptr (KicResult) r = resolve_with (resolver, p->after, name, target->size);

      if (!kic_content_equal (content_of_result (p, r, source), content))
        return G_MAXDOUBLE;
      cost += target->weight * r->n_calls;
    }
  return cost;
}

void
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
theme_agrees (Planner *p, const KicTheme *theme, const char *name, const KicContent *content)
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
          if (!kic_content_equal (content_of_path (p, path), content))
            return FALSE;
        }
    }
  return TRUE;
}


/* The directories a link for NAME with extension EXT may go to: those of
 * the themes that probe EXT and hold no other content under NAME, that fit
 * a target size exactly, and where no file of that name exists that the
 * previous run did not plant. */
GPtrArray *
plant_candidates (Planner *p, KicResolver *resolver, const KicNamePlan *np, const char *ext,
                  const KicContent *content, gboolean for_floor)
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
add_cheapest (Planner *p, KicResolver *resolver, const char *name, const KicContent *content, const char *source,
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
choose_links (Planner *p, KicResolver *resolver, const char *name, const KicContent *content,
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
void
set_status (KicNamePlan *np, KicNameStatus status, const char *reason)
{
  if (np->plants->len > 0 && status != KIC_NAME_PLANTED)
    return;
  np->status = status;
  g_free (np->reason);
  np->reason = g_strdup (reason);
}
/* Decide the links of one name for the theme list of RESOLVER. */
void
plan_name (Planner *p, KicResolver *resolver, KicNamePlan *np)
{
  const KicContent *content = NULL;
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
      const KicContent *c;

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
      else if (!kic_content_equal (c, content))
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
  if (content->kind == KIC_CONTENT_RESOURCE)
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
      plant->content = content_of_path (p, source);
      g_ptr_array_add (np->plants, plant);
      g_hash_table_insert (p->plants, plant->link, plant);
      g_hash_table_insert (p->plant_name, plant->link, np);
      g_hash_table_add (p->dirty, g_strdup (plant->link));
    }
  set_status (np, KIC_NAME_PLANTED, NULL);
}
