/* test-resolver.c - the KF5 lookup and its call count, on virtual indexes
 *
 * Expected paths and counts are derived by hand from kde-lookup.md §1.2,
 * §3.1 and §4.3 (each test says how), never taken from the program.
 */
#include "mime-icons.h"
#include "resolver.h"

#include <string.h>

/* A breeze-like theme: Fixed 16, Fixed 22, Scalable 32-256 (actions), then
 * apps/48 Scalable 48-256; extensions .svg only. */
static const char breeze_index[] =
  "[Icon Theme]\nName=Breeze\nInherits=hicolor\nKDE-Extensions=.svg\nDesktopDefault=48\n"
  "Directories=actions/16,actions/22,actions/32,apps/48,missing/64\n"
  "[actions/16]\nSize=16\nType=Fixed\n"
  "[actions/22]\nSize=22\nType=Fixed\n"
  "[actions/32]\nSize=32\nMinSize=32\nMaxSize=256\nType=Scalable\n"
  "[apps/48]\nSize=48\nMinSize=48\nMaxSize=256\nType=Scalable\n"
  "[missing/64]\nSize=64\nType=Fixed\n";

typedef struct {
  KicFsIndex *index;
  KicResolver *resolver;
} Fixture;

static KicTheme *
make_theme (KicFsIndex *index, const char *name, KicThemeDesc *desc)
{
  g_autoptr (GPtrArray) bases = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (bases, g_strconcat ("/usr/share/icons/", name, NULL));
  return kic_theme_new (desc, bases, NULL, TRUE, index);
}

static void
add_file (KicFsIndex *index, const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);

  kic_fs_index_add (index, dir, base, KIC_FS_FILE);
}

static void
add_dir (KicFsIndex *index, const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);

  kic_fs_index_add (index, dir, base, KIC_FS_DIR);
}

static KicProfile kf5;

/* links = [breeze, breeze, hicolor] as KDE builds them with breeze current */
static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  const char *const *files = data;
  const char *data_dirs[] = { "/usr/share", NULL };
  const char *search[] = { "plasmashell/pics", "icons", "pixmaps", NULL };
  KicResolverSetup setup = { 0 };
  KicThemeDesc *hicolor = kic_theme_desc_hicolor_embedded (kic_profile_table ("kf5"));

  f->index = kic_fs_index_new_virtual ();
  add_dir (f->index, "/usr/share/icons/breeze/actions/16");
  add_dir (f->index, "/usr/share/icons/breeze/actions/22");
  add_dir (f->index, "/usr/share/icons/breeze/actions/32");
  add_dir (f->index, "/usr/share/icons/breeze/apps/48");
  add_dir (f->index, "/usr/share/icons/hicolor/16x16/apps");
  add_dir (f->index, "/usr/share/icons/hicolor/48x48/apps");
  add_dir (f->index, "/usr/share/icons/hicolor/scalable/apps");
  add_dir (f->index, "/usr/share/pixmaps");
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    add_file (f->index, files[i]);

  setup.themes = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_theme_free);
  for (int copy = 0; copy < 2; copy++)
    g_ptr_array_add (setup.themes,
                     make_theme (f->index, "breeze",
                                 kic_theme_desc_parse (kic_profile_table ("kf5"), "breeze", "breeze/index.theme", breeze_index,
                                                       strlen (breeze_index), "Icon Theme", NULL)));
  g_ptr_array_add (setup.themes, make_theme (f->index, "hicolor", hicolor));
  kf5.table = kic_profile_table ("kf5");
  setup.profile = &kf5;
  setup.data_dirs = (char **) data_dirs;
  setup.data_home_hidden = TRUE;
  setup.user_search_paths = (char **) search;
  setup.generic_icons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_insert (setup.generic_icons, g_strdup ("application-x-thing"), g_strdup ("package-x-generic"));
  f->resolver = kic_resolver_new (&setup, f->index);
}

static void
fixture_tear_down (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  kic_resolver_free (f->resolver);
  kic_fs_index_free (f->index);
}

/* Breeze has 4 existing dirs (missing/64 is dropped), hicolor 3. */
#define BREEZE_DIRS 4
#define HICOLOR_DIRS 3
/* hicolor probes .png .svgz .svg .xpm in each dir */
#define HICOLOR_MISS (HICOLOR_DIRS * 4)
#define THEMES_MISS (2 * BREEZE_DIRS + HICOLOR_MISS)
/* User group: 4 extensions x 3 search paths x (hidden data home + /usr/share) */
#define USER_MISS (4 * 3 * 2)

static const char *const exact_files[] = { "/usr/share/icons/breeze/actions/32/doc.svg", NULL };

static void
test_exact_hit (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) r48 = kic_resolve (f->resolver, "doc", 48, TRUE);
  g_autoptr (KicResult) r16 = kic_resolve (f->resolver, "doc", 16, FALSE);

  /* 48 px: actions/16 and actions/22 probed (dw -32, -26: nothing found
   * yet, so never skipped), actions/32 hits with dw 0: 3 access + 1 l10n */
  g_assert_cmpstr (r48->path, ==, "/usr/share/icons/breeze/actions/32/doc.svg");
  g_assert_cmpint (r48->via, ==, KIC_VIA_THEME);
  g_assert_cmpuint (r48->n_calls, ==, 4);
  g_assert_cmpuint (r48->calls->len, ==, 4);
  g_assert_cmpstr (((KicCall *) g_ptr_array_index (r48->calls, 0))->path, ==,
                   "/usr/share/icons/breeze/actions/16/doc.svg");
  g_assert_cmpstr (((KicCall *) g_ptr_array_index (r48->calls, 3))->path, ==,
                   "/usr/share/icons/breeze/actions/32/l10n");
  /* 16 px: actions/16 (dw 0) misses; actions/22 dw 6; actions/32 dw 16
   * hits (not exact, the scan goes on with delta 16); apps/48 dw 32 is
   * not closer: skipped.  3 access + 1 l10n, and the hit stands */
  g_assert_cmpstr (r16->path, ==, "/usr/share/icons/breeze/actions/32/doc.svg");
  g_assert_cmpuint (r16->n_calls, ==, 4);
}

static const char *const continue_files[] = {
  "/usr/share/icons/breeze/actions/22/pick.svg",
  "/usr/share/icons/breeze/apps/48/pick.svg",
  NULL,
};

static void
test_scan_continues (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) r = kic_resolve (f->resolver, "pick", 16, FALSE);

  /* 16 px: actions/16 miss (1); actions/22 dw 6 hit (1 + l10n 1), delta 6;
   * actions/32 dw 16 skipped; apps/48 dw 32 skipped: 3 calls, 22 wins */
  g_assert_cmpstr (r->path, ==, "/usr/share/icons/breeze/actions/22/pick.svg");
  g_assert_cmpuint (r->n_calls, ==, 3);
}

static void
test_miss (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) plain = kic_resolve (f->resolver, "nothing", 48, FALSE);
  g_autoptr (KicResult) dashed = kic_resolve (f->resolver, "no-thing", 48, FALSE);

  g_assert_null (plain->path);
  g_assert_cmpint (plain->via, ==, KIC_VIA_NONE);
  g_assert_cmpuint (plain->n_calls, ==, THEMES_MISS + USER_MISS);
  /* "no-thing" then "no" in every theme: twice the theme cost */
  g_assert_cmpuint (dashed->n_calls, ==, 2 * THEMES_MISS + USER_MISS);
}

static const char *const hicolor_files[] = {
  "/usr/share/icons/hicolor/16x16/apps/app.png",
  "/usr/share/icons/hicolor/48x48/apps/app.png",
  "/usr/share/icons/hicolor/scalable/apps/app.svg",
  NULL,
};

static void
test_hicolor_sizes (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) r48 = kic_resolve (f->resolver, "app", 48, FALSE);
  g_autoptr (KicResult) r16 = kic_resolve (f->resolver, "app", 16, FALSE);
  g_autoptr (KicResult) r32 = kic_resolve (f->resolver, "app", 32, FALSE);

  /* .png first: 16x16 (dw -30) hit +1 l10n, 48x48 (dw 0) hit: 8 breeze
   * misses + 2 + 2 */
  g_assert_cmpstr (r48->path, ==, "/usr/share/icons/hicolor/48x48/apps/app.png");
  g_assert_cmpuint (r48->n_calls, ==, 2 * BREEZE_DIRS + 4);
  /* 16 px: 16x16 exact at once */
  g_assert_cmpstr (r16->path, ==, "/usr/share/icons/hicolor/16x16/apps/app.png");
  g_assert_cmpuint (r16->n_calls, ==, 2 * BREEZE_DIRS + 2);
  /* 32 px: 16x16 (Threshold 14-18: dw -14) hit; 48x48 dw 14: |14| >= |-14|
   * and delta < 0, dw > 0: probed, hit, delta 14; scalable/apps dw 0
   * (1-256) but .png is not there: miss.  Best is 48x48 (downscale). */
  g_assert_cmpstr (r32->path, ==, "/usr/share/icons/hicolor/48x48/apps/app.png");
  g_assert_cmpuint (r32->n_calls, ==, 2 * BREEZE_DIRS + 2 + 2 + 1);
}

static const char *const truncation_files[] = {
  "/usr/share/icons/breeze/apps/48/org.example.svg",
  "/usr/share/icons/hicolor/48x48/apps/org.example.tool-beta.png",
  NULL,
};

static void
test_truncation_per_theme (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) r = kic_resolve (f->resolver, "org.example.tool-beta", 48, FALSE);

  /* Each breeze pass tries "org.example.tool-beta" then the cut
   * "org.example.tool" (4 probes each; no '-' is left after that and it is
   * no media type), so breeze costs 2 x 2 x 4.  hicolor then finds the
   * full name: .png in 16x16/apps misses (1), 48x48/apps hits (1 + l10n). */
  g_assert_cmpstr (r->path, ==, "/usr/share/icons/hicolor/48x48/apps/org.example.tool-beta.png");
  g_assert_cmpuint (r->n_calls, ==, 2 * (2 * BREEZE_DIRS) + 1 + 2);
}

static const char *const cut_in_first_files[] = {
  "/usr/share/icons/breeze/apps/48/org.example.svg",
  "/usr/share/icons/hicolor/48x48/apps/org.example-tool.png",
  NULL,
};

static void
test_cut_beats_later_theme (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) r = kic_resolve (f->resolver, "org.example-tool", 48, FALSE);

  /* kde-lookup.md §3.1: a truncated name found in theme 1 beats the exact
   * name in a later theme */
  g_assert_cmpstr (r->path, ==, "/usr/share/icons/breeze/apps/48/org.example.svg");
  g_assert_cmpuint (r->n_calls, ==, BREEZE_DIRS + BREEZE_DIRS + 1);
}

static const char *const cut_files[] = { "/usr/share/icons/breeze/apps/48/foo-bar.svg", NULL };

static void
test_truncation_hit (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) r = kic_resolve (f->resolver, "foo-bar-baz-x-qux", 48, FALSE);

  /* foo-bar-baz-x-qux -> foo-bar-baz (the "-x" is dropped) -> foo-bar */
  g_assert_cmpstr (r->path, ==, "/usr/share/icons/breeze/apps/48/foo-bar.svg");
  g_assert_cmpuint (r->n_calls, ==, 2 * BREEZE_DIRS + 4 + 1);
}

static const char *const generic_files[] = {
  "/usr/share/icons/hicolor/48x48/apps/text-foo.png",
  "/usr/share/icons/hicolor/48x48/apps/package-x-generic.png",
  NULL,
};

static void
test_generic_flag_carries_over (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) r = kic_resolve (f->resolver, "text-foo", 48, FALSE);
  g_autoptr (KicResult) g = kic_resolve (f->resolver, "application-x-thing", 48, FALSE);

  /* breeze #1: text-foo, text, text-x-generic: 3 x 4 misses; breeze #2
   * and hicolor then only try "text-foo" (genericFallback stays set);
   * hicolor: 16x16/apps miss, 48x48/apps hit + l10n */
  g_assert_cmpstr (r->path, ==, "/usr/share/icons/hicolor/48x48/apps/text-foo.png");
  g_assert_cmpuint (r->n_calls, ==, 3 * BREEZE_DIRS + BREEZE_DIRS + 3);
  /* mime/generic-icons: after the themes fail for the name (and its cuts
   * "application-x" -> "application" -> "application-x-generic"), the
   * generic icon is looked up through the themes */
  g_assert_cmpstr (g->path, ==, "/usr/share/icons/hicolor/48x48/apps/package-x-generic.png");
  g_assert_cmpint (g->via, ==, KIC_VIA_GENERIC);
}

static const char *const user_files[] = {
  "/usr/share/pixmaps/old.xpm",
  "/usr/share/icons/old.png",
  "/usr/share/pixmaps/only.xpm",
  NULL,
};

static void
test_user_group (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) old = kic_resolve (f->resolver, "old", 48, TRUE);
  g_autoptr (KicResult) only = kic_resolve (f->resolver, "only.xpm", 48, FALSE);

  /* .png first over every search path: plasmashell/pics (2 stats), then
   * icons: $XDG_DATA_HOME miss, /usr/share/icons/old.png hit */
  g_assert_cmpstr (old->path, ==, "/usr/share/icons/old.png");
  g_assert_cmpint (old->via, ==, KIC_VIA_USER);
  g_assert_cmpuint (old->n_calls, ==, THEMES_MISS + 4);
  /* the extension is stripped; .png .svgz .svg each miss everywhere (3 x
   * 6), then .xpm: pics 2, icons 2, pixmaps 2 */
  g_assert_cmpstr (only->path, ==, "/usr/share/pixmaps/only.xpm");
  g_assert_cmpuint (only->n_calls, ==, THEMES_MISS + 3 * 6 + 6);
}

static void
test_names (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (KicResult) abs = kic_resolve (f->resolver, "/opt/app/icon.png", 48, FALSE);
  g_autoptr (KicResult) empty = kic_resolve (f->resolver, "", 48, FALSE);
  g_autofree char *a = kic_icon_name_strip_extension ("foo.svgz");
  g_autofree char *b = kic_icon_name_strip_extension ("foo.jpg");
  g_autofree char *c = kic_icon_name_strip_extension ("foo.png.xpm");

  g_assert_cmpstr (abs->path, ==, "/opt/app/icon.png");
  g_assert_cmpint (abs->via, ==, KIC_VIA_ABSOLUTE);
  g_assert_cmpuint (abs->n_calls, ==, 0);
  g_assert_null (empty->path);
  g_assert_cmpuint (empty->n_calls, ==, 0);
  g_assert_cmpstr (a, ==, "foo");
  g_assert_cmpstr (b, ==, "foo.jpg");
  g_assert_cmpstr (c, ==, "foo.png");
}

/* kic_resolve_sizes() must give what kic_resolve() gives at each size,
 * and kic_resolve_sizes_uncounted() the same files from the same
 * directories */
static void
test_sizes_shortcut (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const char *names[] = { "app", "doc", "pick", "nothing", "org.example.tool-beta", "text-foo",
                          "application-x-thing", "old", "only.xpm", "/abs.png", NULL };

  for (guint n = 0; names[n] != NULL; n++)
    {
      g_autoptr (GPtrArray) all = kic_resolve_sizes (f->resolver, names[n], 8, 256);
      g_autoptr (GPtrArray) uncounted = kic_resolve_sizes_uncounted (f->resolver, names[n], 8, 256);

      g_assert_cmpuint (all->len, ==, 249);
      g_assert_cmpuint (uncounted->len, ==, 249);
      for (int s = 8; s <= 256; s++)
        {
          g_autoptr (KicResult) one = kic_resolve (f->resolver, names[n], s, FALSE);
          const KicResult *r = g_ptr_array_index (all, s - 8);

          g_assert_cmpstr (r->path, ==, one->path);
          g_assert_cmpuint (r->n_calls, ==, one->n_calls);
          g_assert_cmpint (r->via, ==, one->via);
          r = g_ptr_array_index (uncounted, s - 8);
          g_assert_cmpstr (r->path, ==, one->path);
          g_assert_true (r->dir == one->dir);
          g_assert_true (r->theme == one->theme);
          g_assert_cmpint (r->via, ==, one->via);
        }
    }
}

static const char *const many_files[] = {
  "/usr/share/icons/breeze/actions/16/doc.svg",
  "/usr/share/icons/breeze/actions/32/doc.svg",
  "/usr/share/icons/breeze/actions/22/pick.svg",
  "/usr/share/icons/breeze/apps/48/pick.svg",
  "/usr/share/icons/hicolor/16x16/apps/app.png",
  "/usr/share/icons/hicolor/48x48/apps/app.png",
  "/usr/share/icons/hicolor/scalable/apps/app.svg",
  "/usr/share/icons/hicolor/48x48/apps/org.example.tool-beta.png",
  "/usr/share/icons/hicolor/48x48/apps/package-x-generic.png",
  "/usr/share/pixmaps/only.xpm",
  "/usr/share/icons/old.png",
  NULL,
};

/* kic_resolver_theme_may_hold() and the lookups: the first asks of a
 * theme look in each directory's listing, the later ones (once the asks
 * would have cost a quarter of a table of every name the theme lists) in
 * that table; both must say the same.  400 more files in each theme make
 * the first round of asks below (7 a theme, 4 directories each at most)
 * cost less than that quarter; 1000 asks of a name none lists then make
 * the table. */
static void
test_may_hold_asked_then_listed (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const GPtrArray *themes = kic_resolver_themes (f->resolver);
  const KicTheme *breeze = g_ptr_array_index (themes, 0), *hicolor = g_ptr_array_index (themes, 2);
  const struct {
    const KicTheme *theme;
    const char *file;
    gboolean held;
  } asks[] = {
    { breeze, "doc.svg", TRUE },   /* actions/16 and actions/32 */
    { breeze, "pick.svg", TRUE },  /* actions/22 and apps/48 */
    { breeze, "app.png", FALSE },  /* only hicolor lists it */
    { breeze, "only.xpm", FALSE }, /* pixmaps, in no theme */
    { hicolor, "app.png", TRUE },
    { hicolor, "app.svg", TRUE },
    { hicolor, "doc.svg", FALSE },
  };

  for (int i = 0; i < 400; i++)
    {
      g_autofree char *in_breeze = g_strdup_printf ("/usr/share/icons/breeze/apps/48/filler-%d.svg", i);
      g_autofree char *in_hicolor = g_strdup_printf ("/usr/share/icons/hicolor/48x48/apps/filler-%d.png", i);

      add_file (f->index, in_breeze);
      add_file (f->index, in_hicolor);
    }
  for (int round = 0; round < 2; round++)
    {
      g_autoptr (GPtrArray) doc = NULL;
      g_autoptr (GPtrArray) app = NULL;

      for (guint a = 0; a < G_N_ELEMENTS (asks); a++)
        g_assert_cmpint (kic_resolver_theme_may_hold (f->resolver, asks[a].theme, asks[a].file), ==, asks[a].held);
      /* doc at 16: actions/16 (dw 0); at 48: actions/32 (Scalable 32-256)
       * before apps/48, which has no doc; app at 48: hicolor 48x48 */
      doc = kic_resolve_sizes_uncounted (f->resolver, "doc", 16, 48);
      app = kic_resolve_sizes_uncounted (f->resolver, "app", 48, 48);
      g_assert_cmpstr (((KicResult *) g_ptr_array_index (doc, 0))->path, ==, "/usr/share/icons/breeze/actions/16/doc.svg");
      g_assert_cmpstr (((KicResult *) g_ptr_array_index (doc, 32))->path, ==, "/usr/share/icons/breeze/actions/32/doc.svg");
      g_assert_cmpstr (((KicResult *) g_ptr_array_index (app, 0))->path, ==, "/usr/share/icons/hicolor/48x48/apps/app.png");
      for (int n = 0; round == 0 && n < 1000; n++)
        {
          g_assert_false (kic_resolver_theme_may_hold (f->resolver, breeze, "nothing.svg"));
          g_assert_false (kic_resolver_theme_may_hold (f->resolver, hicolor, "nothing.png"));
        }
    }
}

/* KF6's table of mime icon names to generic icons, when many types share
 * one icon name: the last type by name gives it (whatever the order of the
 * hash table the types are read into). */
static void
test_mime_shared_icon (void)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  g_autoptr (GString) types = g_string_new (NULL);
  g_autoptr (GString) icons = g_string_new (NULL);
  g_autoptr (GString) generic = g_string_new (NULL);
  g_autoptr (GHashTable) map = NULL;
  char *dirs[] = { (char *) "/usr/share", NULL };

  /* (written in falling order: the table must not follow the files' order either) */
  for (int i = 19; i >= 0; i--)
    {
      g_string_append_printf (types, "media%02d/type\n", i);
      g_string_append_printf (icons, "media%02d/type:shared-icon\n", i);
      g_string_append_printf (generic, "media%02d/type:generic-%02d\n", i, i);
    }
  kic_fs_index_add_contents (index, "/usr/share/mime", "mime.cache", "", 0);
  kic_fs_index_add_contents (index, "/usr/share/mime", "types", types->str, types->len);
  kic_fs_index_add_contents (index, "/usr/share/mime", "icons", icons->str, icons->len);
  kic_fs_index_add_contents (index, "/usr/share/mime", "generic-icons", generic->str, generic->len);
  map = kic_mime_generic_icons (index, kic_profile_table ("kf6"), dirs);
  g_assert_cmpstr (g_hash_table_lookup (map, "shared-icon"), ==, "generic-19");
}

/* KF5's table: each generic-icons line keyed by the icon name of its type
 * as it is read (KIconLoaderGlobalData, kiconloader.cpp:155-227): of
 * "tNN/x-y" and "tNN-x/y", one icon name, the later line wins */
static void
test_mime_kf5_later_line (void)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  g_autoptr (GString) generic = g_string_new (NULL);
  g_autoptr (GHashTable) map = NULL;
  char *dirs[] = { (char *) "/usr/share", NULL };

  for (int i = 0; i < 20; i++)
    g_string_append_printf (generic, "t%02d/x-y:first-%02d\nt%02d-x/y:second-%02d\n", i, i, i, i);
  kic_fs_index_add_contents (index, "/usr/share/mime", "generic-icons", generic->str, generic->len);
  map = kic_mime_generic_icons (index, kic_profile_table ("kf5"), dirs);
  for (int i = 0; i < 20; i++)
    {
      g_autofree char *icon = g_strdup_printf ("t%02d-x-y", i);
      g_autofree char *want = g_strdup_printf ("second-%02d", i);

      g_assert_cmpstr (g_hash_table_lookup (map, icon), ==, want);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, files, fn) g_test_add ("/resolver/" path, Fixture, files, fixture_set_up, fn, fixture_tear_down)
  ADD ("exact-hit", exact_files, test_exact_hit);
  ADD ("scan-continues", continue_files, test_scan_continues);
  ADD ("miss", NULL, test_miss);
  ADD ("hicolor-sizes", hicolor_files, test_hicolor_sizes);
  ADD ("truncation-per-theme", truncation_files, test_truncation_per_theme);
  ADD ("cut-beats-later-theme", cut_in_first_files, test_cut_beats_later_theme);
  ADD ("truncation-hit", cut_files, test_truncation_hit);
  ADD ("generic-flag", generic_files, test_generic_flag_carries_over);
  ADD ("user-group", user_files, test_user_group);
  ADD ("names", NULL, test_names);
  ADD ("sizes-shortcut", many_files, test_sizes_shortcut);
  ADD ("may-hold-asked-then-listed", many_files, test_may_hold_asked_then_listed);
  g_test_add_func ("/resolver/mime-shared-icon", test_mime_shared_icon);
  g_test_add_func ("/resolver/mime-kf5-later-line", test_mime_kf5_later_line);
  return g_test_run ();
}
