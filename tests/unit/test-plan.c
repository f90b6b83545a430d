/* test-plan.c - the planner on a virtual KDE system (no disk, no KF5)
 *
 * Each test builds a small KF5 system in a virtual index (fsindex.h: the
 * files and their bytes are given here; nothing of the host's
 * /usr/share/icons or XDG environment is read), plans Icon= names, and
 * checks what the plan promises through the resolver: with the plan's
 * links in an overlay, every name the tree holds looks up a file of the
 * same bytes as before at every size 8-256, for the configured theme and
 * for a user of any other theme.  The expected links and statuses are
 * worked out by hand in each test's comment (kde-lookup.md §1.2, §3.1),
 * never taken from the program.
 *
 * Each test was seen to fail on a mutant of the planner (then reverted):
 *   plain-plant      plant_candidates() without the exactness test (the
 *                    link goes to apps/64); plan_name() planting only when
 *                    not cheaper; report_sizes() giving calls_before as
 *                    calls_after
 *   closure          plant_closure() returning FALSE at once
 *   ban, ban-skipped prove_once() finding every lookup unchanged (the
 *                    resolver check sees X-symbolic change; closure too);
 *                    replan_banned() doing nothing (X ends skipped);
 *                    replan_banned() not giving back the proof's reason
 *   per-size-set     plan_size_set()'s "cost >= before" flipped to "<="
 *   per-size-off     plan_name() testing !per_size_sets (both red);
 *                    plan_size_set() never only trying (the set planted)
 *   per-size-no-hint plan_size_set() giving the PerSizeSets=true hint
 *                    whenever it is only trying
 *   floor            floor_calls() returning before->n_calls; floor_calls()
 *                    asking plant_candidates() for the plan's candidates
 *                    (for_floor FALSE)
 *   absolute-and-not-found  add_name() not setting KIC_NAME_ABSOLUTE;
 *                    name_contents() giving SKIPPED for a name found nowhere
 *   current-theme-unchanged  size_set_ruled_out() giving SKIPPED to a name the
 *                    current theme answers (as it did before)
 *   no-idle-link     choose_links() dropping a link only when that makes
 *                    the cost strictly lower ("trial < cost"; the realistic
 *                    tree then plants about a third more links)
 *   per-size-no-idle-link  the same in size_set_prune() (plan-sizeset.c)
 *   proof-reach      plan_prove_once() proving for the configured themes
 *                    only (not "any other theme"); proving 8-255 px
 */
#include "diag.h"
#include "iconloader.h"
#include "plan-private.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#define B "/usr/share/icons/breeze"
#define H "/usr/share/icons/hicolor"
#define STORE "/var/lib/kde-icon-cache"

/* A breeze theme with the given directories, each "path:Size:Type"
 * (Scalable ones 48-256) or "path:Size:Scalable:MinSize", probing .svg
 * only, as breeze does. */
static char *
breeze_index (const char *const *dirs)
{
  GString *s = g_string_new ("[Icon Theme]\nName=Breeze\nInherits=hicolor\nKDE-Extensions=.svg\n"
                             "DesktopDefault=48\nDirectories=");

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit (dirs[i], ":", 3);

      g_string_append_printf (s, "%s%s", i ? "," : "", f[0]);
    }
  g_string_append_c (s, '\n');
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit (dirs[i], ":", 4);

      g_string_append_printf (s, "[%s]\nSize=%s\nContext=Applications\nType=%s\n", f[0], f[1], f[2]);
      if (strcmp (f[2], "Scalable") == 0)
        g_string_append_printf (s, "MinSize=%s\nMaxSize=256\n", f[3] != NULL ? f[3] : "48");
    }
  return g_string_free (s, FALSE);
}

static void
put (KicFsIndex *index, const char *path, const char *text)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);

  kic_fs_index_add_contents (index, dir, base, text, strlen (text));
}

static const char *const hicolor_apps[] = {
  "16x16", "22x22", "24x24", "32x32", "48x48", "64x64", "128x128", "256x256", "scalable", "symbolic",
};

typedef struct {
  KicSystem *system;
  GPtrArray *stems;     /* every icon name the tree holds (file name stems) */
  KicPlanOptions options;
  KicPlan *plan;
} Fixture;

/* A KF5 system, breeze current (BREEZE_DIRS), hicolor (the library's own
 * description) with its apps directories (BARE: only those FILES make);
 * FILES are pairs of a path and a tag: files of one tag have the same
 * bytes. */
static void
fixture_init_full (Fixture *f, const char *const *breeze_dirs, const char *const *files, gboolean bare)
{
  const char *data_dirs[] = { "/usr/share", NULL };
  const char *config_dirs[] = { "/etc/xdg", NULL };
  KicSystemOptions so = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *index_theme = breeze_index (breeze_dirs);
  KicFsIndex *index = kic_fs_index_new_virtual ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  memset (f, 0, sizeof *f);
  put (index, B "/index.theme", index_theme);
  for (guint i = 0; breeze_dirs[i] != NULL; i++)
    {
      g_auto (GStrv) d = g_strsplit (breeze_dirs[i], ":", 2);
      g_autofree char *path = g_build_filename (B, d[0], NULL);
      g_autofree char *parent = g_path_get_dirname (path);
      g_autofree char *base = g_path_get_basename (path);

      kic_fs_index_add (index, parent, base, KIC_FS_DIR);
    }
  /* hicolor's apps directories, as hicolor-icon-theme makes them */
  for (guint i = 0; !bare && i < G_N_ELEMENTS (hicolor_apps); i++)
    {
      g_autofree char *dir = g_build_filename (H, hicolor_apps[i], NULL);

      kic_fs_index_add (index, dir, "apps", KIC_FS_DIR);
    }
  kic_fs_index_add (index, "/usr/share", "pixmaps", KIC_FS_DIR);
  put (index, "/etc/xdg/kdeglobals", "[Icons]\nTheme=breeze\n");
  f->stems = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; files != NULL && files[i] != NULL; i += 2)
    {
      g_autofree char *text = g_strdup_printf ("<svg><!-- %s --></svg>\n", files[i + 1]);
      g_autofree char *base = g_path_get_basename (files[i]);
      char *stem = g_strndup (base, strrchr (base, '.') - base);

      put (index, files[i], text);
      if (g_hash_table_add (seen, g_strdup (stem)))
        g_ptr_array_add (f->stems, stem);
      else
        g_free (stem);
    }
  so.kde = "kf5";
  so.data_dirs = (char **) data_dirs;
  so.config_dirs = (char **) config_dirs;
  f->system = kic_system_load_index (&so, index, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (f->system->current_theme, ==, "breeze");
  f->options.targets = kic_plan_default_targets (f->system->profile->table);
  f->options.store = STORE;
}

static void
fixture_init (Fixture *f, const char *const *breeze_dirs, const char *const *files)
{
  fixture_init_full (f, breeze_dirs, files, FALSE);
}

static void
fixture_plan (Fixture *f, const char *const *icons)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new ();

  for (guint i = 0; icons[i] != NULL; i++)
    g_ptr_array_add (list, (char *) icons[i]);
  f->plan = kic_plan_build (f->system, &f->options, list);
}

static void
fixture_clear (Fixture *f)
{
  kic_plan_free (f->plan);
  g_array_unref (f->options.targets);
  g_ptr_array_unref (f->stems);
  kic_system_free (f->system);
}

static KicNamePlan *
find_name (GPtrArray *names, const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (strcmp (((KicNamePlan *) g_ptr_array_index (names, i))->name, name) == 0)
      return g_ptr_array_index (names, i);
  return NULL;
}

static gboolean
has_link (const KicNamePlan *np, const char *link)
{
  for (guint i = 0; i < np->plants->len; i++)
    if (strcmp (((KicPlant *) g_ptr_array_index (np->plants, i))->link, link) == 0)
      return TRUE;
  return FALSE;
}

/* The plan's links as the file system would have them. */
static KicOverlay *
plan_overlay (const KicPlan *plan)
{
  KicOverlay *overlay = kic_overlay_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, plan->links);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *dir = g_path_get_dirname (key);
      g_autofree char *file = g_path_get_basename (key);

      kic_overlay_set (overlay, dir, file, TRUE);
    }
  return overlay;
}

/* The bytes the user sees for R: the file, or for a planted link the
 * file it is a copy of; "" for nothing.  transfer full */
static char *
shown (const Fixture *f, const KicResult *r)
{
  const KicPlant *plant;
  g_autoptr (GError) error = NULL;
  char *data = NULL;

  if (r->path == NULL)
    return g_strdup ("");
  plant = g_hash_table_lookup (f->plan->links, r->path);
  kic_fs_index_read_file (f->system->index, plant ? plant->source : r->path, &data, NULL, &error);
  g_assert_no_error (error);
  return data;
}

/* With the plan's links, every name of the tree (and the same with a
 * dash part more, whose cut reaches it) and every NAME given shows the
 * same bytes at every size 8-256 as before, for the configured theme and
 * for a user of any other theme. */
static void
assert_unchanged (const Fixture *f, const char *const *names)
{
  g_autoptr (KicOverlay) after = plan_overlay (f->plan);
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_free);
  KicResolver *resolvers[2] = { f->system->resolver, kic_system_new_resolver (f->system, NULL, TRUE, NULL) };

  for (guint i = 0; i < f->stems->len; i++)
    {
      g_ptr_array_add (all, g_strdup (g_ptr_array_index (f->stems, i)));
      g_ptr_array_add (all, g_strconcat (g_ptr_array_index (f->stems, i), "-kicextra", NULL));
    }
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_ptr_array_add (all, g_strdup (names[i]));
  for (guint r = 0; r < 2; r++)
    for (guint i = 0; i < all->len; i++)
      for (int size = 8; size <= 256; size++)
        {
          const char *name = g_ptr_array_index (all, i);
          g_autoptr (KicResult) before = NULL;
          g_autoptr (KicResult) with = NULL;
          g_autofree char *was = NULL;
          g_autofree char *is = NULL;

          kic_resolver_set_overlay (resolvers[r], NULL);
          before = kic_resolve (resolvers[r], name, size, FALSE);
          kic_resolver_set_overlay (resolvers[r], after);
          with = kic_resolve (resolvers[r], name, size, FALSE);
          kic_resolver_set_overlay (resolvers[r], NULL);
          was = shown (f, before);
          is = shown (f, with);
          if (strcmp (was, is) != 0)
            g_error ("%s at %d px (%s): %s before, %s with the plan", name, size,
                     r == 0 ? "breeze" : "any other theme", before->path ? before->path : "nothing",
                     with->path ? with->path : "nothing");
        }
  kic_resolver_free (resolvers[1]);
}

/* The report's figures at the target sizes are KDE's calls (the
 * resolver's count) without and with the plan's links. */
static void
assert_report (const Fixture *f, const KicNamePlan *np)
{
  g_autoptr (KicOverlay) after = plan_overlay (f->plan);
  KicResolver *resolver = f->system->resolver;

  g_assert_cmpuint (np->sizes->len, ==, f->options.targets->len);
  for (guint t = 0; t < np->sizes->len; t++)
    {
      const KicSizeReport *report = g_ptr_array_index (np->sizes, t);
      g_autoptr (KicResult) before = NULL;
      g_autoptr (KicResult) with = NULL;

      g_assert_cmpint (report->size, ==, g_array_index (f->options.targets, KicTarget, t).size);
      kic_resolver_set_overlay (resolver, NULL);
      before = kic_resolve (resolver, np->name, report->size, FALSE);
      kic_resolver_set_overlay (resolver, after);
      with = kic_resolve (resolver, np->name, report->size, FALSE);
      kic_resolver_set_overlay (resolver, NULL);
      g_assert_cmpuint (report->calls_before, ==, before->n_calls);
      g_assert_cmpuint (report->calls_after, ==, with->n_calls);
    }
}

/* KDE's calls for NP over the target sizes, weighted as the planner
 * weighs them, before (AFTER false) or after. */
static double
weighted (const Fixture *f, const KicNamePlan *np, gboolean after)
{
  double sum = 0;

  for (guint t = 0; t < np->sizes->len; t++)
    {
      const KicSizeReport *report = g_ptr_array_index (np->sizes, t);

      sum += g_array_index (f->options.targets, KicTarget, t).weight
             * (after ? report->calls_after : report->calls_before);
    }
  return sum;
}

/* breeze: apps/64 (Fixed 64, exact for no menu size: 16, 22, 32, 48),
 * then apps/32 (Fixed 32, the only exact one).  A link in apps/64 would
 * cost KDE as little as one in apps/32 (the first directory is always
 * probed, §1.2): only exactness picks apps/32. */
static const char *const breeze_32[] = { "apps/64:64:Fixed", "apps/32:32:Fixed", NULL };

/* An SVG only hicolor has, breeze current: the only candidate is breeze's
 * apps/32 (exact for 32; apps/64 fits no target size; hicolor's
 * directories come after breeze, twice in the chain, §2).  One link there
 * ends every lookup in breeze, so no link in hicolor can lower the cost
 * further: exactly that link. */
static void
test_plain_plant (void)
{
  static const char *const files[] = { H "/scalable/apps/kicplain.svg", "plain", NULL };
  static const char *const icons[] = { "kicplain", NULL };
  Fixture f;
  KicNamePlan *np;
  const KicPlant *plant;

  fixture_init (&f, breeze_32, files);
  fixture_plan (&f, icons);
  np = find_name (f.plan->names, "kicplain");
  g_assert_nonnull (np);
  g_assert_cmpint (np->status, ==, KIC_NAME_PLANTED);
  g_assert_false (np->per_size);
  g_assert_cmpuint (np->plants->len, ==, 1);
  plant = g_ptr_array_index (np->plants, 0);
  g_assert_cmpstr (plant->link, ==, B "/apps/32/kicplain.svg");
  g_assert_cmpstr (plant->source, ==, H "/scalable/apps/kicplain.svg");
  g_assert_cmpstr (plant->theme, ==, "breeze");
  g_assert_cmpstr (plant->store, ==, STORE "/files" H "/scalable/apps/kicplain.svg");
  g_assert_cmpuint (g_hash_table_size (f.plan->links), ==, 1);
  g_assert_cmpuint (f.plan->closure->len, ==, 0);
  g_assert_cmpuint (f.plan->n_verified, >, 0);
  assert_report (&f, np);
  /* the link ends each target size's lookup in the first theme: fewer
   * calls at every target size */
  for (guint t = 0; t < np->sizes->len; t++)
    {
      const KicSizeReport *report = g_ptr_array_index (np->sizes, t);

      g_assert_cmpuint (report->calls_after, <, report->calls_before);
      g_assert_cmpstr (report->path, ==, H "/scalable/apps/kicplain.svg");
    }
  assert_unchanged (&f, icons);
  fixture_clear (&f);
}

/* X (kicsym) only in hicolor's scalable/apps, X-symbolic only in its
 * symbolic/apps.  KF5 looks X-symbolic up in each theme as X-symbolic,
 * then X (the dash cut, kde-lookup.md §3.1), so X's breeze link would
 * answer X-symbolic before hicolor's own file: the proof catches that,
 * and X-symbolic, one content at every size, gets its own breeze link
 * (the closure), which ends its lookup at its own name. */
static void
test_closure (void)
{
  static const char *const files[] = {
    H "/scalable/apps/kicsym.svg", "x",
    H "/symbolic/apps/kicsym-symbolic.svg", "x-symbolic",
    NULL,
  };
  static const char *const icons[] = { "kicsym", NULL };
  Fixture f;
  KicNamePlan *np;
  KicNamePlan *sym;

  fixture_init (&f, breeze_32, files);
  fixture_plan (&f, icons);
  /* the promise first: no lookup changes */
  assert_unchanged (&f, icons);
  np = find_name (f.plan->names, "kicsym");
  g_assert_cmpint (np->status, ==, KIC_NAME_PLANTED);
  g_assert_true (has_link (np, B "/apps/32/kicsym.svg"));
  g_assert_cmpuint (np->banned->len, ==, 0);
  g_assert_null (find_name (f.plan->names, "kicsym-symbolic"));
  sym = find_name (f.plan->closure, "kicsym-symbolic");
  g_assert_nonnull (sym);
  g_assert_true (sym->closure_for == np);
  g_assert_cmpstr (sym->closure_theme, ==, "breeze");
  g_assert_null (sym->icon);
  g_assert_true (has_link (sym, B "/apps/32/kicsym-symbolic.svg"));
  g_assert_cmpstr (((KicPlant *) g_ptr_array_index (sym->plants, 0))->source, ==,
                   H "/symbolic/apps/kicsym-symbolic.svg");
  fixture_clear (&f);
}

/* As test_closure, but hicolor holds X-symbolic in 16x16/apps and
 * 48x48/apps with different bytes: KDE loads different files at
 * different sizes, so X-symbolic can have no link of one content, and the
 * closure cannot hold X's breeze link.  The proof takes X out of breeze
 * (banned, with the reason) and X is planned again without it: in hicolor
 * (which probes .svg and holds no other kicban file), where KDE's lookup
 * of X-symbolic meets its own files before any cut.  There a link pays:
 * KDE's .svg pass over hicolor's ten apps directories otherwise finds X
 * only in scalable/apps, the ninth (a hit ends the scan only when exact,
 * §1.2, and 16x16/apps is exact at 16 px). */
static const char *const ban_files[] = {
  H "/scalable/apps/kicban.svg", "x",
  H "/16x16/apps/kicban-symbolic.svg", "x-symbolic 16",
  H "/48x48/apps/kicban-symbolic.svg", "x-symbolic 48",
  NULL,
};

static void
test_ban (void)
{
  static const char *const icons[] = { "kicban", NULL };
  Fixture f;
  KicNamePlan *np;

  fixture_init (&f, breeze_32, ban_files);
  fixture_plan (&f, icons);
  /* the promise first: no lookup changes */
  assert_unchanged (&f, icons);
  np = find_name (f.plan->names, "kicban");
  g_assert_cmpuint (np->banned->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (np->banned, 0), ==, "breeze");
  g_assert_nonnull (np->ban_reason);
  g_assert_nonnull (strstr (np->ban_reason, "'kicban-symbolic'"));
  g_assert_nonnull (strstr (np->ban_reason, "breeze"));
  g_assert_cmpint (np->status, ==, KIC_NAME_PLANTED);
  g_assert_cmpuint (np->plants->len, >, 0);
  for (guint i = 0; i < np->plants->len; i++)
    {
      const KicPlant *plant = g_ptr_array_index (np->plants, i);

      g_assert_cmpstr (plant->theme, ==, "hicolor");
      g_assert_true (g_str_has_prefix (plant->link, H "/"));
    }
  /* no closure member survives: X-symbolic could not be planted */
  g_assert_null (find_name (f.plan->closure, "kicban-symbolic"));
  assert_report (&f, np);
  fixture_clear (&f);
}

/* The same where hicolor has only the directories of these files
 * (16x16, 48x48, scalable): no hicolor link lowers KDE's cost (one in
 * 16x16/apps saves two probes at 16 px and costs a second hit's l10n
 * stat at 22, 32 and 48, weighted 2, 2, 4; one in 48x48/apps saves one
 * probe at 48 and costs the stat at 16, 22, 32), so once banned from
 * breeze X is skipped, with the proof's reason. */
static void
test_ban_skipped (void)
{
  static const char *const icons[] = { "kicban", NULL };
  Fixture f;
  KicNamePlan *np;

  fixture_init_full (&f, breeze_32, ban_files, TRUE);
  fixture_plan (&f, icons);
  assert_unchanged (&f, icons);
  np = find_name (f.plan->names, "kicban");
  g_assert_cmpuint (np->banned->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (np->banned, 0), ==, "breeze");
  g_assert_cmpint (np->status, ==, KIC_NAME_SKIPPED);
  g_assert_cmpuint (np->plants->len, ==, 0);
  g_assert_cmpuint (g_hash_table_size (f.plan->links), ==, 0);
  g_assert_nonnull (np->reason);
  g_assert_nonnull (strstr (np->reason, "a link in breeze would change what KDE shows for 'kicban-symbolic'"));
  fixture_clear (&f);
}

/* breeze with a directory exact for each menu size: Threshold 16 (14-18,
 * as hicolor's 16x16: with a Fixed 16 no set could show the 16 px file
 * at 17 px, where the next directory's link would answer), Fixed 22 and
 * 32, Scalable 48-256. */
static const char *const breeze_all[] = {
  "apps/16:16:Threshold", "apps/22:22:Fixed", "apps/32:32:Fixed", "apps/48:48:Scalable", NULL,
};

/* kicsizes in hicolor 16x16/apps and 48x48/apps, of different bytes:
 * KDE loads the 16 px file at small sizes and the 48 px one at large
 * ones (MatchBest, §1.2), so no single content can be linked. */
static const char *const sizes_files[] = {
  H "/16x16/apps/kicsizes.svg", "sizes 16",
  H "/48x48/apps/kicsizes.svg", "sizes 48",
  NULL,
};

/* Off by default: skipped, with the reason naming PerSizeSets. */
static void
test_per_size_off (void)
{
  static const char *const icons[] = { "kicsizes", NULL };
  Fixture f;
  KicNamePlan *np;

  fixture_init (&f, breeze_all, sizes_files);
  fixture_plan (&f, icons);
  np = find_name (f.plan->names, "kicsizes");
  g_assert_cmpint (np->status, ==, KIC_NAME_SKIPPED);
  g_assert_true (np->per_size);
  g_assert_cmpuint (np->plants->len, ==, 0);
  g_assert_cmpuint (g_hash_table_size (f.plan->links), ==, 0);
  g_assert_nonnull (np->reason);
  g_assert_nonnull (strstr (np->reason, "PerSizeSets=true"));
  /* the hint: a set would make it faster (test_per_size_set plants it) */
  g_assert_true (np->size_set_helps);
  fixture_clear (&f);
}

/* kicsizes with a scalable/ file besides 16, 22, 32 and 48: KDE's
 * hicolor answers 19 px from scalable/, where a breeze set would answer
 * from the closest link, so no set shows each size its file.  Skipped
 * either way, and no hint to PerSizeSets=true, which would change
 * nothing. */
static const char *const sizes_scalable[] = {
  H "/16x16/apps/kicsizes.svg", "sizes 16",
  H "/22x22/apps/kicsizes.svg", "sizes 22",
  H "/32x32/apps/kicsizes.svg", "sizes 32",
  H "/48x48/apps/kicsizes.svg", "sizes 48",
  H "/scalable/apps/kicsizes.svg", "sizes scalable",
  NULL,
};

/* The plan of NAME alone over breeze_all and FILES, PerSizeSets=ON (F is
 * cleared by the caller: fixture_clear()). */
static KicNamePlan *
plan_one_name (Fixture *f, const char *const *files, const char *name, int on)
{
  const char *const icons[] = { name, NULL };
  KicNamePlan *np;

  fixture_init (f, breeze_all, files);
  f->options.per_size_sets = on;
  fixture_plan (f, icons);
  np = find_name (f->plan->names, name);
  g_test_message ("PerSizeSets=%s: %s: %s", on ? "true" : "false", kic_name_status_to_string (np->status),
                  np->reason);
  return np;
}

static void
test_per_size_no_hint (void)
{
  for (int on = 0; on < 2; on++)
    {
      Fixture f;
      KicNamePlan *np = plan_one_name (&f, sizes_scalable, "kicsizes", on);

      g_assert_true (np->per_size);
      g_assert_cmpint (np->status, ==, KIC_NAME_SKIPPED);
      g_assert_cmpuint (np->plants->len, ==, 0);
      g_assert_false (np->size_set_helps);
      g_assert_nonnull (np->reason);
      g_assert_null (strstr (np->reason, "PerSizeSets"));
      fixture_clear (&f);
    }
}

/* kicpng in hicolor, PNGs of different lengths at 16 and 48 px: breeze
 * probes .svg only, so no link of a per-size set can go there, whether
 * planted or only tried.  Neither file is read for that: the lengths
 * tell them apart (content.c), and a link's file is read (its type,
 * whether it may be copied) only once its directory could take it. */
static const char *const png_sizes_files[] = {
  H "/16x16/apps/kicpng.png", "png 16",
  H "/48x48/apps/kicpng.png", "png 48, a longer file",
  NULL,
};

static void
test_per_size_unread (void)
{
  for (int on = 0; on < 2; on++)
    {
      Fixture f;
      KicNamePlan *np = plan_one_name (&f, png_sizes_files, "kicpng", on);

      g_assert_true (np->per_size);
      g_assert_cmpint (np->status, ==, KIC_NAME_SKIPPED);
      g_assert_cmpuint (np->plants->len, ==, 0);
      g_assert_nonnull (np->reason);
      g_assert_nonnull (strstr (np->reason, "no directory of the current theme can hold one of them"));
      g_assert_cmpuint (kic_content_table_n_read (f.plan->contents), ==, 0);
      fixture_clear (&f);
    }
}

/* With PerSizeSets=true: a set of breeze links, each a copy of the file
 * KDE loads at its directory's size, and with the set every size 8-256
 * shows its own file.  One content cannot serve 16 and 48 px, so the set
 * has links to both files. */
static void
test_per_size_set (void)
{
  static const char *const icons[] = { "kicsizes", NULL };
  Fixture f;
  KicNamePlan *np;
  gboolean to16 = FALSE, to48 = FALSE;

  fixture_init (&f, breeze_all, sizes_files);
  f.options.per_size_sets = TRUE;
  fixture_plan (&f, icons);
  np = find_name (f.plan->names, "kicsizes");
  g_assert_cmpint (np->status, ==, KIC_NAME_PLANTED);
  g_assert_true (np->per_size);
  g_assert_cmpuint (np->plants->len, >=, 2);
  for (guint i = 0; i < np->plants->len; i++)
    {
      const KicPlant *plant = g_ptr_array_index (np->plants, i);
      g_autofree char *dir = g_path_get_dirname (plant->link);
      int dir_size = atoi (strrchr (dir, '/') + 1);
      g_autoptr (KicResult) r = NULL;

      g_assert_cmpstr (plant->theme, ==, "breeze");
      g_assert_true (g_str_has_prefix (plant->link, B "/apps/"));
      /* the file KDE loads without the set at the directory's size */
      kic_resolver_set_overlay (f.system->resolver, NULL);
      r = kic_resolve (f.system->resolver, "kicsizes", dir_size, FALSE);
      g_assert_cmpstr (plant->source, ==, r->path);
      to16 |= strcmp (plant->source, H "/16x16/apps/kicsizes.svg") == 0;
      to48 |= strcmp (plant->source, H "/48x48/apps/kicsizes.svg") == 0;
    }
  g_assert_true (to16 && to48);
  assert_report (&f, np);
  g_assert_cmpfloat (weighted (&f, np, TRUE), <, weighted (&f, np, FALSE));
  assert_unchanged (&f, icons);
  fixture_clear (&f);
}

/* The floor: never above what the plan gives; equal to it for a plain
 * plant (its one link is the floor's too); above it for a name the proof
 * kept out of breeze, with the ban's reason (the floor leaves other
 * names out, so breeze's apps/32 counts for it). */
static void
test_floor (void)
{
  static const char *const icons[] = { "kicplain", "kicban", NULL };
  static const char *const files[] = {
    H "/scalable/apps/kicplain.svg", "plain",
    H "/scalable/apps/kicban.svg", "x",
    H "/16x16/apps/kicban-symbolic.svg", "x-symbolic 16",
    H "/48x48/apps/kicban-symbolic.svg", "x-symbolic 48",
    NULL,
  };
  Fixture f;
  KicNamePlan *plain;
  KicNamePlan *ban;
  gboolean above = FALSE;

  fixture_init (&f, breeze_32, files);
  f.options.floor = TRUE;
  fixture_plan (&f, icons);
  plain = find_name (f.plan->names, "kicplain");
  ban = find_name (f.plan->names, "kicban");
  g_assert_cmpint (plain->status, ==, KIC_NAME_PLANTED);
  g_assert_cmpint (ban->status, ==, KIC_NAME_PLANTED);
  for (guint t = 0; t < plain->sizes->len; t++)
    {
      const KicSizeReport *report = g_ptr_array_index (plain->sizes, t);

      g_assert_cmpuint (report->calls_floor, ==, report->calls_after);
      g_assert_null (report->floor_reason);
    }
  for (guint t = 0; t < ban->sizes->len; t++)
    {
      const KicSizeReport *report = g_ptr_array_index (ban->sizes, t);

      g_assert_cmpuint (report->calls_floor, <=, report->calls_after);
      if (report->calls_floor < report->calls_after)
        {
          above = TRUE;
          g_assert_nonnull (report->floor_reason);
          g_assert_nonnull (strstr (report->floor_reason, "kept its links out of breeze"));
          g_assert_nonnull (strstr (report->floor_reason, "'kicban-symbolic'"));
        }
      else
        g_assert_null (report->floor_reason);
    }
  g_assert_true (above);
  /* without the option the floor is not worked out: it is calls_before */
  kic_plan_free (f.plan);
  f.options.floor = FALSE;
  fixture_plan (&f, icons);
  plain = find_name (f.plan->names, "kicplain");
  for (guint t = 0; t < plain->sizes->len; t++)
    {
      const KicSizeReport *report = g_ptr_array_index (plain->sizes, t);

      g_assert_cmpuint (report->calls_floor, ==, report->calls_before);
    }
  fixture_clear (&f);
}

/* A name breeze itself has at 16 and 48 px (two files): KDE answers
 * every size from breeze (MatchBest takes the closest of its own
 * directories, kde-lookup.md §1.2), so the name is the current theme's
 * own: left unchanged, no link, not reported as skipped. */
static void
test_current_theme_unchanged (void)
{
  static const char *const files[] = {
    B "/apps/16/kicown.svg", "own 16",
    B "/apps/48/kicown.svg", "own 48",
    H "/32x32/apps/kicown.svg", "hicolor 32",
    NULL,
  };
  for (int on = 0; on < 2; on++)
    {
      Fixture f;
      KicNamePlan *np = plan_one_name (&f, files, "kicown", on);

      g_assert_true (np->per_size);
      g_assert_cmpint (np->status, ==, KIC_NAME_UNCHANGED);
      g_assert_cmpuint (np->plants->len, ==, 0);
      g_assert_cmpuint (g_hash_table_size (f.plan->links), ==, 0);
      g_assert_false (np->size_set_helps);
      g_assert_nonnull (strstr (np->reason, "current theme"));
      fixture_clear (&f);
    }
}

/* An absolute Icon= is loaded as it is (no search, nothing planted, even
 * when a theme holds its base name); a name no theme holds is not found,
 * and a plain name beside them is planted as ever. */
static void
test_absolute_and_not_found (void)
{
  static const char *const files[] = {
    H "/scalable/apps/kicplain.svg", "plain",
    "/usr/share/pixmaps/kicabs.svg", "abs",
    H "/scalable/apps/kicabs.svg", "abs in hicolor",
    NULL,
  };
  static const char *const icons[] = { "/usr/share/pixmaps/kicabs.svg", "kicnosuch.png", "kicplain", NULL };
  Fixture f;
  KicNamePlan *np;

  fixture_init (&f, breeze_32, files);
  f.options.floor = TRUE;
  fixture_plan (&f, icons);
  g_assert_cmpuint (f.plan->names->len, ==, 3);
  np = find_name (f.plan->names, "/usr/share/pixmaps/kicabs.svg");
  g_assert_nonnull (np);
  g_assert_cmpint (np->status, ==, KIC_NAME_ABSOLUTE);
  g_assert_cmpuint (np->plants->len, ==, 0);
  g_assert_nonnull (np->reason);
  np = find_name (f.plan->names, "kicnosuch");
  g_assert_nonnull (np);
  g_assert_cmpstr (np->icon, ==, "kicnosuch.png");
  g_assert_cmpint (np->status, ==, KIC_NAME_NOT_FOUND);
  g_assert_cmpuint (np->plants->len, ==, 0);
  g_assert_nonnull (np->reason);
  for (guint t = 0; t < np->sizes->len; t++)
    {
      const KicSizeReport *report = g_ptr_array_index (np->sizes, t);

      g_assert_null (report->path);
      g_assert_cmpuint (report->calls_after, ==, report->calls_before);
      g_assert_cmpuint (report->calls_floor, ==, report->calls_before);
    }
  g_assert_cmpint (find_name (f.plan->names, "kicplain")->status, ==, KIC_NAME_PLANTED);
  g_assert_cmpuint (g_hash_table_size (f.plan->links), ==, 1);
  assert_unchanged (&f, icons);
  fixture_clear (&f);
}


/* A plan's results, one line each: every name's status, reason, links
 * (link, source, theme), bans; the closure's; the proof's lookups. */
static char *
plan_text (const KicPlan *plan)
{
  GString *s = g_string_new (NULL);
  const GPtrArray *lists[] = { plan->names, plan->closure };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        const KicNamePlan *np = g_ptr_array_index (lists[l], i);

        g_string_append_printf (s, "%s %s %d '%s' '%s'\n", l ? "closure" : "name", np->name, np->status,
                                np->reason ? np->reason : "", np->ban_reason ? np->ban_reason : "");
        for (guint k = 0; k < np->plants->len; k++)
          {
            const KicPlant *plant = g_ptr_array_index (np->plants, k);

            g_string_append_printf (s, "  %s <- %s (%s)\n", plant->link, plant->source, plant->theme);
          }
        for (guint k = 0; k < np->banned->len; k++)
          g_string_append_printf (s, "  banned %s\n", (char *) g_ptr_array_index (np->banned, k));
      }
  g_string_append_printf (s, "verified %u\n", plan->n_verified);
  return g_string_free (s, FALSE);
}

/* The proof's index answers from the directories, or, past a budget,
 * from a table of every known name (plan-known.c): the plan is the same
 * either way.  Names of one family (dash cuts, -symbolic, a name with a
 * longer one of its own prefix) in breeze and hicolor, some on the menu,
 * some only in the themes; planned with the table made at the first
 * question and without it. */
static void
test_known_from_table (void)
{
  static const char *const files[] = {
    H "/scalable/apps/kicfam.svg", "fam",
    H "/symbolic/apps/kicfam-symbolic.svg", "fam-symbolic",
    H "/scalable/apps/kicfam-beta.svg", "fam-beta",
    H "/16x16/apps/kicfam-beta-symbolic.svg", "fam-beta-symbolic 16",
    H "/48x48/apps/kicfam-beta-symbolic.svg", "fam-beta-symbolic 48",
    H "/scalable/apps/kicfamily.svg", "family",
    H "/scalable/apps/kicsym.svg", "x",
    H "/symbolic/apps/kicsym-symbolic.svg", "x-symbolic",
    H "/scalable/apps/kicban.svg", "ban",
    H "/16x16/apps/kicban-symbolic.svg", "ban-symbolic 16",
    H "/48x48/apps/kicban-symbolic.svg", "ban-symbolic 48",
    B "/apps/64/kicfam-gamma.svg", "fam-gamma",
    NULL,
  };
  static const char *const icons[] = { "kicfam", "kicfam-beta", "kicfamily", "kicsym", "kicban", "kicfam-delta", NULL };
  g_autofree char *lazy = NULL;
  g_autofree char *table = NULL;
  Fixture f;

  for (guint pass = 0; pass < 2; pass++)
    {
      guint budget = plan_known_checks_per_name;

      plan_known_checks_per_name = pass == 0 ? budget : 0;
      fixture_init (&f, breeze_32, files);
      fixture_plan (&f, icons);
      plan_known_checks_per_name = budget;
      assert_unchanged (&f, icons);
      if (pass == 0)
        lazy = plan_text (f.plan);
      else
        table = plan_text (f.plan);
      fixture_clear (&f);
    }
  /* (something was planned, closed and banned: the index was asked) */
  g_assert_nonnull (strstr (lazy, "closure kicsym-symbolic"));
  g_assert_nonnull (strstr (lazy, "banned breeze"));
  g_assert_cmpstr (lazy, ==, table);
}

/* breeze_all with a second 16 px directory (apps/16b, Fixed) right after
 * apps/16.  A per-size set starts with a link in every directory and
 * drops each one whose removal does not raise KDE's cost: apps/16's link
 * answers 16 px (exact) before apps/16b is probed, and at the sizes whose
 * closest directories are both of 16 px MatchBest keeps the first of
 * them (§1.2), so apps/16b's link is never reached: it is dropped, and
 * the set costs what it cost with it. */
static const char *const breeze_16_twice[] = {
  "apps/16:16:Threshold", "apps/16b:16:Fixed", "apps/22:22:Fixed", "apps/32:32:Fixed", "apps/48:48:Scalable", NULL,
};

static void
test_per_size_no_idle_link (void)
{
  static const char *const icons[] = { "kicsizes", NULL };
  Fixture f;
  KicNamePlan *np;

  fixture_init (&f, breeze_16_twice, sizes_files);
  f.options.per_size_sets = TRUE;
  fixture_plan (&f, icons);
  np = find_name (f.plan->names, "kicsizes");
  g_assert_cmpint (np->status, ==, KIC_NAME_PLANTED);
  g_assert_true (np->per_size);
  g_assert_true (has_link (np, B "/apps/16/kicsizes.svg"));
  g_assert_false (has_link (np, B "/apps/16b/kicsizes.svg"));
  assert_report (&f, np);
  assert_unchanged (&f, icons);
  fixture_clear (&f);
}

/* breeze: apps/32f (Fixed 32), apps/48f (Fixed 48), then Scalable
 * directories exact from 32 (apps/64, apps/32), from 22 (apps/22s) and
 * from 48 (apps/48), the layout of breeze's actions and animations
 * directories.  For an SVG only hicolor has, the greedy choice takes
 * apps/64's link among the first (exact at 32 and 48 alone), then the
 * links of apps/32f and apps/48f, which answer 32 and 48 exactly before
 * apps/64 is probed, and at 16 and 22 px are as close as it and come
 * first (§1.2): apps/64's link is never reached.  Dropping it costs
 * nothing, so the plan has the two Fixed links only (the same calls with
 * one link fewer). */
static const char *const breeze_fixed_scalable[] = {
  "apps/32f:32:Fixed", "apps/48f:48:Fixed", "apps/64:64:Scalable:32", "apps/32:32:Scalable:32",
  "apps/22s:22:Scalable:22", "apps/48:48:Scalable:48", NULL,
};

static void
test_no_idle_link (void)
{
  static const char *const files[] = { H "/scalable/apps/kicidle.svg", "idle", NULL };
  static const char *const icons[] = { "kicidle", NULL };
  Fixture f;
  KicNamePlan *np;

  fixture_init (&f, breeze_fixed_scalable, files);
  fixture_plan (&f, icons);
  np = find_name (f.plan->names, "kicidle");
  g_assert_cmpint (np->status, ==, KIC_NAME_PLANTED);
  g_assert_true (has_link (np, B "/apps/32f/kicidle.svg"));
  g_assert_true (has_link (np, B "/apps/48f/kicidle.svg"));
  g_assert_false (has_link (np, B "/apps/64/kicidle.svg"));
  g_assert_cmpuint (np->plants->len, ==, 2);
  assert_report (&f, np);
  assert_unchanged (&f, icons);
  fixture_clear (&f);
}

/* The proof's reach: the one link of test_plain_plant can change the
 * lookups of kicplain only (no other name of the tree has that stem, nor
 * one a dash cut brings to it), so the proof looks kicplain up at every
 * size from 8 to 256 px (249 sizes), for a user of breeze and for a user
 * of any other theme (two users, plan.c): 498 lookups proved unchanged,
 * no fewer.  (A link whose harm only another theme's user or only 256 px
 * would see: on KF5 such a user meets a breeze link only where a breeze
 * user does, after hicolor, and no hicolor directory is exact at 256 px
 * alone, so no tree this small shows one.) */
static void
test_proof_reach (void)
{
  static const char *const files[] = { H "/scalable/apps/kicplain.svg", "plain", NULL };
  static const char *const icons[] = { "kicplain", NULL };
  Fixture f;

  fixture_init (&f, breeze_32, files);
  fixture_plan (&f, icons);
  g_assert_cmpint (find_name (f.plan->names, "kicplain")->status, ==, KIC_NAME_PLANTED);
  g_assert_cmpuint (f.plan->n_verified, ==, 2 * (256 - 8 + 1));
  fixture_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  kic_verbose = g_getenv ("KIC_TEST_VERBOSE") != NULL;
  g_test_add_func ("/plan/plain-plant", test_plain_plant);
  g_test_add_func ("/plan/closure", test_closure);
  g_test_add_func ("/plan/ban", test_ban);
  g_test_add_func ("/plan/ban-skipped", test_ban_skipped);
  g_test_add_func ("/plan/per-size-off", test_per_size_off);
  g_test_add_func ("/plan/per-size-no-hint", test_per_size_no_hint);
  g_test_add_func ("/plan/per-size-set", test_per_size_set);
  g_test_add_func ("/plan/per-size-unread", test_per_size_unread);
  g_test_add_func ("/plan/floor", test_floor);
  g_test_add_func ("/plan/absolute-and-not-found", test_absolute_and_not_found);
  g_test_add_func ("/plan/current-theme-unchanged", test_current_theme_unchanged);
  g_test_add_func ("/plan/known-from-table", test_known_from_table);
  g_test_add_func ("/plan/no-idle-link", test_no_idle_link);
  g_test_add_func ("/plan/per-size-no-idle-link", test_per_size_no_idle_link);
  g_test_add_func ("/plan/proof-reach", test_proof_reach);
  return g_test_run ();
}
