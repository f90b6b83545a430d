/* test-theme.c - index.theme parsing, the size rules, embedded hicolor */
#include "theme.h"

#include "diag.h"

#include <string.h>

static KicThemeDesc *
parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  KicThemeDesc *desc = kic_theme_desc_parse (kic_profile_table ("kf5"), "t", "test/index.theme", text, strlen (text),
                                             "Icon Theme", &error);

  g_assert_no_error (error);
  g_assert_nonnull (desc);
  return desc;
}

static const KicDirSpec *
dir_named (const KicThemeDesc *desc, const char *name)
{
  for (guint i = 0; i < desc->dirs->len; i++)
    {
      const KicDirSpec *dir = g_ptr_array_index (desc->dirs, i);
      if (strcmp (dir->name, name) == 0)
        return dir;
    }
  g_assert_not_reached ();
}

static void
test_defaults (void)
{
  g_autoptr (KicThemeDesc) desc = parse ("[Icon Theme]\nName=T\nDirectories=a,b\n"
                                         "[a]\nSize=22\n[b]\nSize=32\nType=Scalable\n");
  const KicDirSpec *a = dir_named (desc, "a");
  const KicDirSpec *b = dir_named (desc, "b");

  /* no Type= means Threshold with threshold 2 */
  g_assert_true (a->valid);
  g_assert_cmpint (a->type, ==, KIC_DIR_THRESHOLD);
  g_assert_cmpint (a->threshold, ==, 2);
  g_assert_cmpint (a->scale, ==, 1);
  /* Scalable without MinSize/MaxSize spans just Size */
  g_assert_cmpint (b->min_size, ==, 32);
  g_assert_cmpint (b->max_size, ==, 32);
  /* no KDE-Extensions: png, svgz, svg, xpm in that order */
  g_assert_cmpuint (g_strv_length (desc->extensions), ==, 4);
  g_assert_cmpstr (desc->extensions[0], ==, ".png");
  g_assert_cmpstr (desc->extensions[1], ==, ".svgz");
  g_assert_cmpstr (desc->extensions[2], ==, ".svg");
  g_assert_cmpstr (desc->extensions[3], ==, ".xpm");
  /* built-in group sizes: Desktop 32, Small 16, Panel 48 */
  g_assert_cmpint (desc->group_default[KIC_GROUP_DESKTOP], ==, 32);
  g_assert_cmpint (desc->group_default[KIC_GROUP_SMALL], ==, 16);
  g_assert_cmpint (desc->group_default[KIC_GROUP_PANEL], ==, 48);
}

static void
test_invalid_dirs (void)
{
  g_autoptr (KicThemeDesc) desc = parse ("[Icon Theme]\nDirectories=nosize,stock,weird,badtype,ok,empty\n"
                                         "[nosize]\nContext=Actions\n"
                                         "[stock]\nSize=16\nContext=Stock\n"
                                         "[weird]\nSize=16\nContext=Whatever\n"
                                         "[badtype]\nSize=16\nType=Huge\n"
                                         "[ok]\nSize=16\nContext=FileSystems\nType=Fixed\n"
                                         "[empty]\nSize=16\nContext=\n");

  g_assert_false (dir_named (desc, "nosize")->valid);
  g_assert_false (dir_named (desc, "stock")->valid);
  g_assert_false (dir_named (desc, "weird")->valid);
  g_assert_false (dir_named (desc, "badtype")->valid);
  g_assert_true (dir_named (desc, "ok")->valid);
  g_assert_true (dir_named (desc, "empty")->valid);
}

/* issue 19: Size=-2147483648 took ABS() of INT_MIN (undefined behaviour,
 * and in practice a negative number that passed the bound) */
static void
test_extreme_sizes (void)
{
  g_autoptr (KicThemeDesc) desc = parse ("[Icon Theme]\nDirectories=min,minsize,max,thr,fine\n"
                                         "[min]\nSize=-2147483648\n"
                                         "[minsize]\nSize=32\nType=Scalable\nMinSize=-2147483648\n"
                                         "[max]\nSize=2147483647\n"
                                         "[thr]\nSize=32\nThreshold=-2147483648\n"
                                         "[fine]\nSize=-32\n");

  g_assert_false (dir_named (desc, "min")->valid);
  g_assert_false (dir_named (desc, "minsize")->valid);
  g_assert_false (dir_named (desc, "max")->valid);
  g_assert_false (dir_named (desc, "thr")->valid);
  /* a negative size within the bound is KDE's (it never fits) */
  g_assert_true (dir_named (desc, "fine")->valid);
}

/* issue 19 row 2: a directory KDE reaches through ".." or a link is in the
 * theme (the model keeps it) but not a place to plant */
static void
test_plantable (void)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  g_autoptr (GPtrArray) bases = g_ptr_array_new ();
  KicThemeDesc *desc = parse ("[Icon Theme]\nDirectories=a/22,../../../../etc/logrotate.d,a//32/\n"
                              "[a/22]\nSize=22\n[../../../../etc/logrotate.d]\nSize=22\n[a//32/]\nSize=32\n");
  g_autoptr (KicTheme) theme = NULL;

  kic_fs_index_add (index, "/usr/share/icons/t/a", "22", KIC_FS_DIR);
  kic_fs_index_add (index, "/usr/share/icons/t/a", "32", KIC_FS_DIR);
  kic_fs_index_add (index, "/etc", "logrotate.d", KIC_FS_DIR);
  g_ptr_array_add (bases, "/usr/share/icons/t");
  theme = kic_theme_new (desc, bases, NULL, TRUE, index);
  g_assert_cmpuint (theme->dirs->len, ==, 3);
  /* the model follows "..", as KDE does */
  g_assert_cmpstr (((KicThemeDir *) g_ptr_array_index (theme->dirs, 1))->path, ==,
                   "/usr/share/icons/t/../../../../etc/logrotate.d");
  g_assert_true (kic_theme_dir_is_plantable (g_ptr_array_index (theme->dirs, 0)));
  g_assert_false (kic_theme_dir_is_plantable (g_ptr_array_index (theme->dirs, 1)));
  /* "//" and a trailing "/" are only spelling */
  g_assert_true (kic_theme_dir_is_plantable (g_ptr_array_index (theme->dirs, 2)));
}

static void
test_keys (void)
{
  g_autoptr (KicThemeDesc) desc = parse ("[Icon Theme]\nInherits=default,parent\nKDE-Extensions=.svg\n"
                                         "DesktopDefault=48\nFollowsColorScheme=true\n"
                                         "Directories=x\nScaledDirectories=x@2\n"
                                         "[x]\nSize=32\nType=Scalable\nMinSize=16\nMaxSize=256\n"
                                         "[x@2]\nSize=32\nScale=2\nType=Threshold\nThreshold=5\n");

  /* "default" in Inherits= means hicolor */
  g_assert_cmpstr (desc->inherits[0], ==, "hicolor");
  g_assert_cmpstr (desc->inherits[1], ==, "parent");
  g_assert_cmpstr (desc->extensions[0], ==, ".svg");
  g_assert_null (desc->extensions[1]);
  g_assert_cmpint (desc->group_default[KIC_GROUP_DESKTOP], ==, 48);
  g_assert_true (desc->follows_color_scheme);
  g_assert_cmpuint (desc->dirs->len, ==, 2);
  g_assert_cmpint (dir_named (desc, "x")->min_size, ==, 16);
  g_assert_cmpint (dir_named (desc, "x")->max_size, ==, 256);
  g_assert_cmpint (dir_named (desc, "x@2")->scale, ==, 2);
  g_assert_cmpint (dir_named (desc, "x@2")->threshold, ==, 5);
}

static void
test_lenient (void)
{
  /* KConfig skips junk lines; GKeyFile alone would reject the file */
  g_autoptr (KicThemeDesc) desc = NULL;

  desc = parse ("garbage before any group\n[Icon Theme]\nthis is not a key\nDirectories=a\n[a]\nSize=16\n");
  g_assert_cmpuint (desc->dirs->len, ==, 1);
  g_assert_true (dir_named (desc, "a")->valid);
}

static void
test_size_rules (void)
{
  KicDirSpec fixed = { .type = KIC_DIR_FIXED, .size = 22 };
  KicDirSpec scalable = { .type = KIC_DIR_SCALABLE, .size = 32, .min_size = 32, .max_size = 256 };
  KicDirSpec threshold = { .type = KIC_DIR_THRESHOLD, .size = 48, .threshold = 2 };

  g_assert_true (kic_dir_spec_exact (&fixed, 22));
  g_assert_false (kic_dir_spec_exact (&fixed, 24));
  g_assert_cmpint (kic_dir_spec_distance (&fixed, 16), ==, 6);
  g_assert_cmpint (kic_dir_spec_distance (&fixed, 48), ==, -26);

  g_assert_true (kic_dir_spec_exact (&scalable, 48));
  g_assert_false (kic_dir_spec_exact (&scalable, 22));
  g_assert_cmpint (kic_dir_spec_distance (&scalable, 22), ==, 10);
  g_assert_cmpint (kic_dir_spec_distance (&scalable, 100), ==, 0);
  g_assert_cmpint (kic_dir_spec_distance (&scalable, 512), ==, -256);

  g_assert_true (kic_dir_spec_exact (&threshold, 50));
  g_assert_false (kic_dir_spec_exact (&threshold, 51));
  g_assert_cmpint (kic_dir_spec_distance (&threshold, 32), ==, 14);
  g_assert_cmpint (kic_dir_spec_distance (&threshold, 47), ==, 0);
  g_assert_cmpint (kic_dir_spec_distance (&threshold, 64), ==, -14);
}

static void
test_hicolor (void)
{
  g_autoptr (KicThemeDesc) desc = kic_theme_desc_hicolor_embedded (kic_profile_table ("kf5"));
  guint valid = 0;

  for (guint i = 0; i < desc->dirs->len; i++)
    valid += ((KicDirSpec *) g_ptr_array_index (desc->dirs, i))->valid;
  /* 13 sizes x 12 contexts + 12 scalable + symbolic/apps (kde-lookup.md §3.4) */
  g_assert_cmpuint (valid, ==, 169);
  g_assert_cmpstr (((KicDirSpec *) g_ptr_array_index (desc->dirs, 0))->name, ==, "16x16/actions");
  g_assert_cmpint (dir_named (desc, "48x48/apps")->type, ==, KIC_DIR_THRESHOLD);
  g_assert_cmpint (dir_named (desc, "256x256/apps")->min_size, ==, 64);
  g_assert_cmpint (dir_named (desc, "512x512/apps")->max_size, ==, 512);
  g_assert_cmpint (dir_named (desc, "scalable/apps")->max_size, ==, 256);
  g_assert_cmpint (dir_named (desc, "scalable/places")->max_size, ==, 512);
  g_assert_cmpint (dir_named (desc, "symbolic/apps")->min_size, ==, 8);
  g_assert_cmpint (desc->group_default[KIC_GROUP_DESKTOP], ==, 32);
}

/* The same text parsed again is the first parse's description, a copy
 * of its own (the first freed, the second intact), and parsing warns
 * once; other text is parsed anew. */
static void
test_desc_cache (void)
{
  static const char text[] = "[Icon Theme]\nName=T\nInherits=hicolor\nDirectories=a,b\nstray line\n"
                             "[a]\nSize=22\n[b]\nSize=32\nType=Scalable\nMinSize=8\nMaxSize=512\n";
  static const char other[] = "[Icon Theme]\nName=T\nInherits=breeze\nDirectories=a\n[a]\nSize=48\n";
  const KicProfileTable *profile = kic_profile_table ("kf5");
  g_autoptr (GHashTable) cache = kic_theme_desc_cache_new ();
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (KicThemeDesc) second = NULL;
  g_autoptr (KicThemeDesc) third = NULL;
  KicThemeDesc *first;

  g_ptr_array_unref (kic_diagnostics_take ());
  first = kic_theme_desc_parse_cached (cache, profile, "t", "test/index.theme", text, strlen (text), "Icon Theme", NULL);
  second = kic_theme_desc_parse_cached (cache, profile, "t", "test/index.theme", text, strlen (text), "Icon Theme", NULL);
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_true (first != second && first->dirs != second->dirs);
  kic_theme_desc_free (first);
  g_assert_cmpstr (second->name, ==, "t");
  g_assert_cmpstr (second->origin, ==, "test/index.theme");
  g_assert_cmpstr (second->inherits[0], ==, "hicolor");
  g_assert_cmpuint (g_strv_length (second->extensions), ==, 4);
  g_assert_cmpuint (second->dirs->len, ==, 2);
  g_assert_cmpstr (dir_named (second, "b")->name, ==, "b");
  g_assert_cmpint (dir_named (second, "b")->max_size, ==, 512);
  g_assert_cmpint (second->group_default[KIC_GROUP_PANEL], ==, 48);
  warnings = kic_diagnostics_take ();
  g_assert_cmpuint (warnings->len, ==, 1);
  third = kic_theme_desc_parse_cached (cache, profile, "t", "test/index.theme", other, strlen (other), "Icon Theme", NULL);
  g_assert_cmpstr (third->inherits[0], ==, "breeze");
  g_assert_cmpuint (third->dirs->len, ==, 1);
  g_assert_cmpint (dir_named (third, "a")->size, ==, 48);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/theme/defaults", test_defaults);
  g_test_add_func ("/theme/invalid-dirs", test_invalid_dirs);
  g_test_add_func ("/theme/keys", test_keys);
  g_test_add_func ("/theme/extreme-sizes", test_extreme_sizes);
  g_test_add_func ("/theme/plantable", test_plantable);
  g_test_add_func ("/theme/lenient", test_lenient);
  g_test_add_func ("/theme/size-rules", test_size_rules);
  g_test_add_func ("/theme/hicolor-kf5", test_hicolor);
  g_test_add_func ("/theme/desc-cache", test_desc_cache);
  return g_test_run ();
}
