/* plan-candidates.c - a name's candidates: the theme directories root may
 * plant in, the themes whose own files of the name agree with it, and the
 * names a link there would answer too (which no theme must hold)
 */
#include "plan-private.h"

#include "diag.h"
#include "hash.h"
#include "manifest.h"
#include "number.h"
#include "path.h"

#include <string.h>

/* The real path of DIR's disk directory, the overlay's key for it: a link
 * planted there is seen through every path that resolves to it (a theme
 * directory that is a link to it in another theme, a "User" group
 * directory).  NULL when it is not on disk.  transfer none */
typedef struct {
  char *key;               /* NULL: not on disk */
  const KicFsDir *listing;
  int may_plant;           /* 0 not asked yet, 1 yes, -1 no (KicPlanOptions.may_plant) */
} DirKey;

static void
dir_key_free (gpointer data)
{
  g_free (((DirKey *) data)->key);
  g_free (data);
}

static const DirKey *
dir_key_of (Planner *p, const KicThemeDir *dir)
{
  DirKey *dk = g_hash_table_lookup (p->dir_keys, dir);

  if (dk == NULL)
    {
      dk = g_new0 (DirKey, 1);
      dk->key = kic_fs_index_realpath (p->system->index, dir->mirror ? dir->mirror : dir->path);
      dk->listing = dk->key != NULL ? kic_fs_index_dir (p->system->index, dk->key) : NULL;
      g_hash_table_insert (p->dir_keys, (gpointer) dir, dk);
    }
  return dk;
}

const char *
plan_dir_key (Planner *p, const KicThemeDir *dir)
{
  return dir_key_of (p, dir)->key;
}

/* May a link be planted in DIR (the writer's check, asked once)? */
gboolean
plan_may_plant_dir (Planner *p, const KicThemeDir *dir)
{
  DirKey *dk = (DirKey *) dir_key_of (p, dir);

  if (dk->key == NULL)
    return FALSE;
  if (dk->may_plant == 0)
    dk->may_plant = p->options->may_plant == NULL || p->options->may_plant (dk->key, p->options->may_data) ? 1 : -1;
  return dk->may_plant > 0;
}

/* May SOURCE be copied into the store (the writer's check, asked once;
 * a refusal is one warning)?  *WHY (borrowed) says why not. */
gboolean
plan_may_copy (Planner *p, const char *source, const char **why)
{
  const char *known = g_hash_table_lookup (p->copyable, source);

  if (known == NULL)
    {
      char *reason = NULL;

      if (p->options->may_copy != NULL
          && !p->options->may_copy (plan_content_of_path (p, source), &reason, p->options->may_data))
        {
          if (!p->with_memo)
            kic_warning ("%s", reason);
          p->copy_refused = TRUE;
        }
      else
        {
          g_free (reason);
          reason = g_strdup ("");
        }
      g_hash_table_insert (p->copyable, g_strdup (source), reason);
      known = reason;
    }
  *why = known;
  return known[0] == '\0';
}

GHashTable *
plan_dir_keys_new (void)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, dir_key_free);
}

/* PATH (a file as a lookup names it) as the overlay and the plan name it:
 * the real path of its directory and its name.  transfer full */
char *
plan_real_file_key (Planner *p, const char *path)
{
  g_autofree char *clean = kic_path_clean (path);
  g_autofree char *parent = g_path_get_dirname (clean);
  g_autofree char *base = g_path_get_basename (clean);
  g_autofree char *real = kic_fs_index_realpath (p->system->index, parent);

  if (real == NULL)
    return g_steal_pointer (&clean);
  return g_build_filename (real, base, NULL);
}

/* Does every file of THEME that a lookup of NAME could hit (NAME with any
 * of the theme's extensions, in any of its directories) have CONTENT?  Only
 * then can links there never make KDE pick another of them: a link changes
 * which directories the MatchBest scan skips (kde-lookup.md §1.2). */
gboolean
plan_theme_agrees (Planner *p, KicResolver *resolver, const KicTheme *theme, const char *name, const KicContent *content)
{
  for (guint e = 0; theme->desc->extensions[e] != NULL; e++)
    {
      g_autofree char *file = g_strconcat (name, theme->desc->extensions[e], NULL);
      guint hash = kic_fs_name_hash (file);

      /* (no directory of the theme has it: nothing to compare) */
      if (!kic_resolver_theme_may_hold (resolver, theme, file))
        continue;

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
          if (dir_key_of (p, dir)->listing == NULL
              || kic_fs_index_dir_stat_hashed (p->system->index, dir_key_of (p, dir)->listing, file, hash)
                   == KIC_FS_NONE)
            continue;
          if (kic_overlay_lookup (p->base, plan_dir_key (p, dir), file, &add) && !add)
            continue; /* a link of the previous run */
          path = g_strconcat (dir->path, "/", file, NULL);
          if (!kic_content_equal (plan_content_of_path (p, path), content))
            return FALSE;
        }
    }
  return TRUE;
}

/* A directory of a theme where links may go, whatever the name: of scale
 * 1, a real directory of the theme that the writer will take
 * (plan_may_plant_dir()), listed there first under its real path; EXACT when it
 * fits a target size exactly. */
typedef struct {
  const KicThemeDir *dir;
  guint position;          /* its index in the theme's directories */
  const char *key;         /* plan_dir_key () */
  const KicFsDir *listing;
  gboolean exact;
} ThemeCandidate;

/* THEME's ThemeCandidates, in its order, worked out once per plan (a
 * theme of 100 000 directories is not walked again for every name). */
static const GArray *
theme_candidates (Planner *p, const KicTheme *theme)
{
  GArray *list = g_hash_table_lookup (p->theme_candidates, theme);
  g_autoptr (GHashTable) seen = NULL;

  if (list != NULL)
    return list;
  list = g_array_new (FALSE, FALSE, sizeof (ThemeCandidate));
  seen = g_hash_table_new (kic_str_hash, g_str_equal);
  for (guint d = 0; d < theme->dirs->len; d++)
    {
      const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
      ThemeCandidate tc = { dir, d, NULL, NULL, FALSE };

      /* (a directory whose path the writer could not record: plan_may_write()) */
      if (dir->spec->scale != 1 || !kic_theme_dir_is_plantable (dir) || (tc.key = plan_dir_key (p, dir)) == NULL
          || g_hash_table_contains (seen, tc.key) || !kic_manifest_path_ok (tc.key) || !kic_path_is_clean (tc.key)
          || !plan_may_plant_dir (p, dir))
        continue;
      g_hash_table_add (seen, (gpointer) tc.key);
      tc.listing = dir_key_of (p, dir)->listing;
      for (guint i = 0; i < p->options->targets->len && !tc.exact; i++)
        tc.exact = kic_dir_spec_exact (dir->spec, g_array_index (p->options->targets, KicTarget, i).size);
      g_array_append_val (list, tc);
    }
  g_hash_table_insert (p->theme_candidates, (gpointer) theme, list);
  return list;
}

void
plan_digest_candidates (Planner *p, KicSha256 *checksum)
{
  for (guint r = 0; r + 1 < p->resolvers->len; r++)
    {
      const GPtrArray *themes = kic_resolver_themes (g_ptr_array_index (p->resolvers, r));

      for (guint t = 0; t < themes->len; t++)
        {
          const GArray *list = theme_candidates (p, g_ptr_array_index (themes, t));

          kic_sha256_update_str (checksum, "\ncandidates");
          for (guint i = 0; i < list->len; i++)
            {
              const ThemeCandidate *tc = &g_array_index (list, ThemeCandidate, i);
              char position[KIC_INT64_DIGITS];

              /* its place among the theme's directories, whose paths the
               * resolvers' digest holds, and its key when not that path
               * ("\2" is no key: a key begins with "/") */
              kic_format_int64 (position, tc->position);
              kic_sha256_update (checksum, position, strlen (position) + 1);
              if (strcmp (tc->key, tc->dir->path) == 0)
                kic_sha256_update (checksum, "\2", 2);
              else
                kic_sha256_update (checksum, tc->key, strlen (tc->key) + 1);
            }
        }
    }
}

/* The candidate directories two or more themes of RESOLVER list (a
 * directory that is a link to another theme's, which is not plantable,
 * does not count: the same real directory listed by two themes). */
static GHashTable *
shared_keys (Planner *p, KicResolver *resolver)
{
  GHashTable *shared = g_hash_table_lookup (p->shared_keys, resolver);
  g_autoptr (GHashTable) once = NULL;
  const GPtrArray *themes;

  if (shared != NULL)
    return shared;
  shared = g_hash_table_new (kic_str_hash, g_str_equal);
  once = g_hash_table_new (kic_str_hash, g_str_equal);
  themes = kic_resolver_themes (resolver);
  for (guint t = 0; t < themes->len; t++)
    {
      const GArray *list = theme_candidates (p, g_ptr_array_index (themes, t));

      for (guint i = 0; i < list->len; i++)
        {
          const char *key = g_array_index (list, ThemeCandidate, i).key;

          if (!g_hash_table_add (once, (gpointer) key))
            g_hash_table_add (shared, (gpointer) key);
        }
    }
  g_hash_table_insert (p->shared_keys, resolver, shared);
  return shared;
}

/* Where a link for a name X may go, for every name KDE could be asked for,
 * carried by a file or not (the proof can only look up the finitely many
 * that files carry).
 *
 * KDE's lookup, findMatchingIcon() (KF5 5.103 kiconloader.cpp:832-911,
 * KF6 6.13 :781-881, 6.30 :789-889), runs over the themes in order (:846;
 * 6.13 :796; 6.30 :804) and in each over the name's chain: the name, then
 * its cut at the last dash while that dash is past index 1, a trailing "-x"
 * dropped (:860-866; 6.13 :825-835; 6.30 :833-843), a bare media type made
 * "<media>-x-generic" (:884-887); KF6 also tries each form of a "-symbolic"
 * name without the suffix and puts it back after each cut (6.13 :813-822,
 * :834-835).  The first file found ends the lookup.  Only when no theme has
 * any form does iconPath() try the mime generic icon, then the "User" group
 * (<app>/pics, icons, pixmaps) under the name as it is, never cut
 * (:1016-1021, :946-962; 6.13 :986-989; 6.30 :994-997).
 *
 * A link X.ext in theme T changes only a lookup that, with it, reaches form
 * X in T.  Let R be where the lookup of a name N ended before.  If R comes
 * before (T, X), nothing changes.  If R is (T, X) or a form after X in N's
 * chain, N's chain from X on is X's own (a cut of a cut is a cut of the
 * name), so N loads what X loads, before and after the link, and the proof
 * looks X up.  If R is a form W before X, in a theme after T, W is a file
 * of a theme searched, W's chain is the rest of N's, and W's lookup changes
 * as N's does: the proof looks up every file stem of every theme searched.
 * So the proof stands for all the names that no file carries, but in three
 * cases:
 *
 * 1. X ends outside the themes (the User group, its mime generic icon, or
 *    nothing): no theme has any form of X, so none has any form of X-foo
 *    for a foo no theme has; X-foo found nothing (the User group tries
 *    "X-foo" only) and with the link finds X (X-tray, X-panel, X-symbolic,
 *    X-busy...).  No theme is safe for such a link: it is only made with
 *    UnthemedLinks=true, which accepts exactly that change, or for KDE 3,
 *    which cuts no name.
 * 2. X reaches a -x-generic form (kic_resolver_cuts_to_generic: it ends
 *    with "-x-generic", or its cuts end at a media type): the flag that
 *    stops a chain at that form is set once for the whole theme loop
 *    (:844, :886; 6.13 :793, :856; 6.30 :801, :864), so the chains are not
 *    each other's rest: "foo-x-generic" tries itself only, in every theme,
 *    where "foo-x-generic-bar" goes on to "foo"; past the first theme
 *    "image-foo" tries itself alone, and "image-foo-bar" itself alone.  A
 *    name cut back to X that found a cut of X, or nothing, would end at a
 *    link of X in a theme before the one KDE finds X in.  Such an X gets
 *    links only from that theme on (theme_forbids).
 * 3. KF6's "-symbolic": in every theme, T itself included, "Y-symbolic"
 *    tries "X-symbolic" before X and "C-symbolic" for each cut C of X
 *    after it, which X's chain does not; the chain of "X-symbolic" is the
 *    rest of its chain, so the proof also looks X-symbolic up for every
 *    link X (plan-proof.c, names_to_prove), and tests/integration/
 *    unthemed.sh shows KF6 needing it.
 *
 * "Themes searched" are those of each list the planner models: every
 * configured theme's and a user's of any other theme.  transfer full:
 * KDE's lookup of NAME without our links, one per resolver. */
GPtrArray *
plan_name_ends (Planner *p, const char *name)
{
  GPtrArray *ends = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_result_free);

  /* which theme answers does not depend on the size: MatchBest takes a
   * file of any size (kicontheme.cpp:173-259) */
  for (guint r = 0; r < p->resolvers->len; r++)
    g_ptr_array_add (ends, plan_resolve_with (g_ptr_array_index (p->resolvers, r), p->base, name, 48));
  return ends;
}

static int
theme_position (const GPtrArray *themes, const char *name)
{
  for (guint i = 0; i < themes->len; i++)
    if (strcmp (((const KicTheme *) g_ptr_array_index (themes, i))->desc->name, name) == 0)
      return (int) i;
  return -1;
}

/* The run's budget on the names of directories users may write
 * (fsindex.h, issue 39 row 4): every directory the run searches (each
 * theme's of every resolver, and the "User" directories) counted before
 * anything is looked up, so that whether their names are known is the
 * disk's answer, not that of the order a run asks them in. */
void
plan_count_user_names (Planner *p)
{
  KicFsIndex *index = p->system->index;

  for (guint r = 0; r < p->resolvers->len; r++)
    {
      KicResolver *resolver = g_ptr_array_index (p->resolvers, r);
      const GPtrArray *themes = kic_resolver_themes (resolver);
      g_autoptr (GPtrArray) user = kic_resolver_user_dirs (resolver);

      for (guint t = 0; t < themes->len; t++)
        {
          const KicTheme *theme = g_ptr_array_index (themes, t);

          for (guint d = 0; d < theme->dirs->len; d++)
            {
              const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);

              if (dir->resource_files == NULL)
                kic_fs_index_budget_count (index, dir->mirror ? dir->mirror : dir->path);
            }
        }
      for (guint u = 0; u < user->len; u++)
        kic_fs_index_budget_count (index, g_ptr_array_index (user, u));
    }
  kic_fs_index_budget_settle (index);
}

/* Has THEME a directory whose names are not known (kic_fs_dir_names_known())? */
static gboolean
theme_unlisted (Planner *p, const KicTheme *theme)
{
  gpointer known;

  if (p->unlisted_themes == NULL)
    p->unlisted_themes = g_hash_table_new (g_direct_hash, g_direct_equal);
  if ((known = g_hash_table_lookup (p->unlisted_themes, theme)) == NULL)
    {
      known = GINT_TO_POINTER (2);
      for (guint d = 0; d < theme->dirs->len; d++)
        {
          const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
          const KicFsDir *listing = dir->resource_files == NULL
                                      ? kic_fs_index_dir (p->system->index, dir->mirror ? dir->mirror : dir->path)
                                      : NULL;

          if (listing != NULL && !kic_fs_dir_names_known (listing))
            known = GINT_TO_POINTER (1);
        }
      g_hash_table_insert (p->unlisted_themes, (gpointer) theme, known);
    }
  return GPOINTER_TO_INT (known) == 1;
}

/* Case 4 (of names files carry the proof does not know): a theme after
 * AT in THEMES has a directory whose names are not known (a user's, past
 * what the index reads of one, or one not every user may search:
 * fsindex.h).  A name N there that no theme
 * up to AT holds, cut back to X, would meet a link X in theme AT where X
 * was not, and before ended at its own file; the proof cannot look N up,
 * not knowing it.  Where X is in theme AT already, N's cut meets X there
 * before and after alike (the proof looks X up); in the theme of that
 * directory and after, N ends at its own file before any cut (every name
 * there is taken to be there). */
static gboolean
later_theme_unlisted (Planner *p, const GPtrArray *themes, int at)
{
  for (guint t = (guint) at + 1; t < themes->len; t++)
    if (theme_unlisted (p, g_ptr_array_index (themes, t)))
      return TRUE;
  return FALSE;
}

/* Has RESOLVER's "User" group (pixmaps, icons, <app>/pics) a directory
 * whose names are not known?  Asked once per resolver (in the table of
 * themes: its keys are pointers too). */
static gboolean
user_dirs_unlisted (Planner *p, KicResolver *resolver)
{
  gpointer known;

  if (p->unlisted_themes == NULL)
    p->unlisted_themes = g_hash_table_new (g_direct_hash, g_direct_equal);
  if ((known = g_hash_table_lookup (p->unlisted_themes, resolver)) == NULL)
    {
      g_autoptr (GPtrArray) user = kic_resolver_user_dirs (resolver);

      known = GINT_TO_POINTER (2);
      for (guint u = 0; u < user->len; u++)
        {
          const KicFsDir *listing = kic_fs_index_dir (p->system->index, g_ptr_array_index (user, u));

          if (listing != NULL && !kic_fs_dir_names_known (listing))
            known = GINT_TO_POINTER (1);
        }
      g_hash_table_insert (p->unlisted_themes, resolver, known);
    }
  return GPOINTER_TO_INT (known) == 1;
}

/* Why a link for NAME in THEME could change the lookup of a name no file
 * carries, or one whose file the proof cannot know, for any user the
 * planner models (name_ends: cases 1, 2 and 4), or NULL.  ENDS:
 * plan_name_ends (P, NAME). */
const char *
plan_theme_forbids (Planner *p, const GPtrArray *ends, const char *name, const KicTheme *theme)
{
  const KicProfileTable *table = p->system->profile->table;
  gboolean generic = kic_resolver_cuts_to_generic (g_ptr_array_index (p->resolvers, 0), name);

  for (guint r = 0; r < p->resolvers->len; r++)
    {
      const GPtrArray *themes = kic_resolver_themes (g_ptr_array_index (p->resolvers, r));
      const KicResult *end = g_ptr_array_index (ends, r);
      int at = theme_position (themes, theme->desc->name);

      if (at < 0)
        continue; /* never searched by this user */
      /* case 4: X ends after THEME (or outside the themes) */
      if ((end->via != KIC_VIA_THEME || at < theme_position (themes, end->theme->desc->name))
          && later_theme_unlisted (p, themes, at))
        return UNLISTED_FORBIDS;
      if (end->via != KIC_VIA_THEME)
        {
          /* case 1 */
          if (!table->name_variants)
            continue;
          /* UnthemedLinks=true accepts the change of names no file
           * carries, not of those in a "User" directory the proof cannot
           * list (cut back, they would meet the link; case 4) */
          if (end->via != KIC_VIA_NONE && p->options->unthemed_links)
            {
              if (user_dirs_unlisted (p, g_ptr_array_index (p->resolvers, r)))
                return UNLISTED_FORBIDS;
              continue;
            }
          return UNTHEMED_REASON;
        }
      /* case 2 */
      if (generic && at < theme_position (themes, end->theme->desc->name))
        return "its dash cuts reach a -x-generic icon, and a link before the theme KDE finds it in would change "
               "longer names cut back to it";
    }
  return NULL;
}

/* The directories a link for NAME with extension EXT may go to: those of
 * the themes that probe EXT and hold no other content under NAME, that fit
 * a target size exactly, that are real directories of their theme
 * (kic_theme_dir_is_plantable(): KDE follows a theme directory that is a
 * link or climbs with "..", and so does the model, but root plants only
 * where the writer's trusted walk will find the same directory), and
 * where no file of that name exists that the previous run did not
 * plant. */
GPtrArray *
plan_plant_candidates (Planner *p, KicResolver *resolver, const KicNamePlan *np, const char *ext,
                  const KicContent *content, gboolean for_floor)
{
  const char *name = np->name;
  const GPtrArray *themes = kic_resolver_themes (resolver);
  GPtrArray *candidates = g_ptr_array_new_with_free_func (plan_candidate_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (kic_str_hash, g_str_equal);
  GHashTable *shared = shared_keys (p, resolver);
  g_autofree char *file = g_strconcat (name, ext, NULL);
  guint hash = kic_fs_name_hash (file);
  /* one string for every candidate: a theme can offer 100 000 */
  char *shared_file = NULL;
  gboolean in_base, in_after;
  g_autoptr (GPtrArray) ends = NULL;

  if (strchr (name, '/') != NULL)
    return candidates;
  /* (almost no name is in the overlays: then no directory is asked) */
  in_base = kic_overlay_has_name (p->base, file);
  in_after = kic_overlay_has_name (p->after, file);
  ends = plan_name_ends (p, name);
  for (guint t = 0; t < themes->len; t++)
    {
      const KicTheme *theme = g_ptr_array_index (themes, t);
      const GArray *list;
      gboolean may_hold;

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
          || !plan_theme_agrees (p, resolver, theme, name, content)
          /* links that could change names no file carries */
          || plan_theme_forbids (p, ends, name, theme) != NULL)
        continue;
      may_hold = kic_resolver_theme_may_hold (resolver, theme, file);
      list = theme_candidates (p, theme);
      for (guint i = 0; i < list->len; i++)
        {
          const ThemeCandidate *tc = &g_array_index (list, ThemeCandidate, i);
          gboolean add;
          Candidate *c;

          /* a directory an earlier theme lists too is that theme's */
          if (g_hash_table_contains (shared, tc->key) && !g_hash_table_add (seen, (gpointer) tc->key))
            continue;
          if (!tc->exact)
            continue;
          if (may_hold && !(in_base && kic_overlay_lookup (p->base, tc->key, file, &add) && !add) && tc->listing != NULL
              && kic_fs_index_dir_stat_hashed (p->system->index, tc->listing, file, hash) != KIC_FS_NONE)
            continue; /* not ours: never replaced */
          if (!for_floor && in_after && kic_overlay_lookup (p->after, tc->key, file, &add) && add)
            continue; /* another name planted there already */
          c = g_new0 (Candidate, 1);
          c->theme = theme;
          c->dir = tc->dir;
          c->key = tc->key;
          c->listing = tc->listing;
          if (shared_file == NULL)
            shared_file = g_ref_string_new (file);
          c->file = g_ref_string_acquire (shared_file);
          g_ptr_array_add (candidates, c);
        }
    }
  if (shared_file != NULL)
    g_ref_string_release (shared_file);
  return candidates;
}
