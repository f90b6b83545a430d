/* test-config.c - the size syntax and /etc/kde-icon-cache.conf */
#include "config.h"

#include "diag.h"

#include <glib/gstdio.h>

static void
test_parse_size (void)
{
  static const struct {
    const char *text;
    gboolean ok;
    int size;
    double weight;
  } cases[] = {
    { "48", TRUE, 48, 1.0 },     { "48:2", TRUE, 48, 2.0 },  { "16:0.5", TRUE, 16, 0.5 },
    { "1", TRUE, 1, 1.0 },       { "4096", TRUE, 4096, 1.0 }, { "0", FALSE, 0, 0 },
    { "4097", FALSE, 0, 0 },     { "-48", FALSE, 0, 0 },     { "48px", FALSE, 0, 0 },
    { "12px", FALSE, 0, 0 },     { "48:0", FALSE, 0, 0 },    { "48:-1", FALSE, 0, 0 },
    { "48:x", FALSE, 0, 0 },     { "48:", FALSE, 0, 0 },     { ":2", FALSE, 0, 0 },
    { "", FALSE, 0, 0 },         { "48:2:3", FALSE, 0, 0 },  { "48:1e7", FALSE, 0, 0 },
    { "48:nan", FALSE, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (KicTarget));
      g_autoptr (GError) error = NULL;
      gboolean ok = kic_config_parse_size (cases[i].text, targets, &error);

      g_test_message ("'%s'", cases[i].text);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (!ok)
        {
          g_assert_error (error, KIC_ERROR, KIC_ERROR_USAGE);
          g_assert_cmpuint (targets->len, ==, 0);
          continue;
        }
      g_assert_cmpuint (targets->len, ==, 1);
      g_assert_cmpint (g_array_index (targets, KicTarget, 0).size, ==, cases[i].size);
      g_assert_cmpfloat (g_array_index (targets, KicTarget, 0).weight, ==, cases[i].weight);
    }
}

/* a size given again keeps its place and takes the new weight */
static void
test_parse_size_again (void)
{
  g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (KicTarget));

  g_assert_true (kic_config_parse_size ("16", targets, NULL));
  g_assert_true (kic_config_parse_size ("48:2", targets, NULL));
  g_assert_true (kic_config_parse_size ("16:5", targets, NULL));
  g_assert_cmpuint (targets->len, ==, 2);
  g_assert_cmpint (g_array_index (targets, KicTarget, 0).size, ==, 16);
  g_assert_cmpfloat (g_array_index (targets, KicTarget, 0).weight, ==, 5.0);
  g_assert_cmpint (g_array_index (targets, KicTarget, 1).size, ==, 48);
}

/* A root holding /etc/kde-icon-cache.conf with TEXT (none when NULL). */
static char *
make_root (const char *text)
{
  g_autoptr (GError) error = NULL;
  char *root = g_dir_make_tmp ("kic-config-XXXXXX", &error);
  g_autofree char *etc = g_build_filename (root, "etc", NULL);
  g_autofree char *file = g_build_filename (etc, "kde-icon-cache.conf", NULL);

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir (etc, 0755), ==, 0);
  if (text != NULL)
    g_assert_true (g_file_set_contents (file, text, -1, NULL));
  return root;
}

static void
remove_root (const char *root)
{
  g_autofree char *etc = g_build_filename (root, "etc", NULL);
  g_autofree char *file = g_build_filename (etc, "kde-icon-cache.conf", NULL);

  g_remove (file);
  g_rmdir (etc);
  g_rmdir (root);
}

static gboolean
load (const char *text, KicConfig *config, GError **error)
{
  g_autofree char *root = make_root (text);
  g_autoptr (KicFsIndex) index = kic_fs_index_new (root);
  gboolean ok = kic_config_load (index, config, error);

  remove_root (root);
  return ok;
}

static void
test_load_missing (void)
{
  KicConfig config = { 0 };

  g_assert_true (load (NULL, &config, NULL));
  g_assert_cmpuint (config.targets->len, ==, 0);
  g_assert_null (config.themes);
  g_assert_false (config.unthemed_links);
  kic_config_clear (&config);
}

static void
test_load (void)
{
  KicConfig config = { 0 };

  g_assert_true (load ("[kde-icon-cache]\nSizes=16:1, 22 ,,48:4\nThemes= breeze , oxygen\n", &config, NULL));
  g_assert_cmpuint (config.targets->len, ==, 3);
  g_assert_cmpint (g_array_index (config.targets, KicTarget, 1).size, ==, 22);
  g_assert_cmpfloat (g_array_index (config.targets, KicTarget, 2).weight, ==, 4.0);
  g_assert_cmpuint (g_strv_length (config.themes), ==, 2);
  g_assert_cmpstr (config.themes[0], ==, "breeze");
  g_assert_cmpstr (config.themes[1], ==, "oxygen");
  g_assert_false (config.unthemed_links);
  kic_config_clear (&config);
}

/* ExcludeNames= drops a menu name as written or without its extension,
 * and nothing else (a longer name, another case); none set drops none */
static void
test_exclude (void)
{
  KicConfig config = { 0 };
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  const char *const menu[] = { "org.gnome.Chess", "org.gnome.Chess-symbolic", "vlc.png", "ORG.GNOME.CHESS", "gimp", NULL };

  for (guint i = 0; menu[i] != NULL; i++)
    g_ptr_array_add (names, (char *) menu[i]);
  g_assert_true (load ("[kde-icon-cache]\nExcludeNames= org.gnome.Chess , vlc\n", &config, NULL));
  kic_config_exclude (&config, names);
  g_assert_cmpuint (names->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "org.gnome.Chess-symbolic");
  g_assert_cmpstr (g_ptr_array_index (names, 1), ==, "ORG.GNOME.CHESS");
  g_assert_cmpstr (g_ptr_array_index (names, 2), ==, "gimp");
  kic_config_clear (&config);
  g_assert_true (load (NULL, &config, NULL));
  kic_config_exclude (&config, names);
  g_assert_cmpuint (names->len, ==, 3);
  kic_config_clear (&config);
}

/* UnthemedLinks= (plan-choose.c, theme_forbids): off unless set */
static void
test_load_unthemed (void)
{
  KicConfig config = { 0 };

  g_autoptr (GPtrArray) said = NULL;
  g_autoptr (GError) error = NULL;

  g_ptr_array_unref (kic_diagnostics_take ());
  g_assert_true (load ("[kde-icon-cache]\nUnthemedLinks=true\n", &config, NULL));
  g_assert_true (config.unthemed_links);
  kic_config_clear (&config);
  g_assert_true (load ("[kde-icon-cache]\nUnthemedLinks=false\n", &config, NULL));
  g_assert_false (config.unthemed_links);
  kic_config_clear (&config);
  /* a known key: no "unknown key" warning */
  said = kic_diagnostics_take ();
  g_assert_cmpuint (said->len, ==, 0);
  /* a boolean as PerSizeSets= is: "maybe" is an error, not a quiet false */
  g_assert_false (load ("[kde-icon-cache]\nUnthemedLinks=maybe\n", &config, &error));
  g_assert_error (error, KIC_ERROR, KIC_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "key 'UnthemedLinks'"));
  kic_config_clear (&config);
}

/* a bad value is the file's fault, not the command line's: a runtime
 * error (KIC_ERROR_CONFIG) naming the file by its host path and the key */
static void
test_load_bad (void)
{
  g_autofree char *root = make_root ("[kde-icon-cache]\nSizes=22,big\n");
  g_autoptr (KicFsIndex) index = kic_fs_index_new (root);
  g_autoptr (GError) error = NULL;
  g_autofree char *want = g_strdup_printf ("%s/etc/kde-icon-cache.conf: key 'Sizes': ", root);
  KicConfig config = { 0 };

  g_assert_false (kic_config_load (index, &config, &error));
  g_assert_error (error, KIC_ERROR, KIC_ERROR_CONFIG);
  g_assert_true (g_str_has_prefix (error->message, want));
  kic_config_clear (&config);
  remove_root (root);
}

/* PerSizeSets takes KConfig's booleans; anything else is an error naming
 * the file and key, not a quiet "false" */
static void
test_load_bool (void)
{
  static const struct { const char *text; gboolean ok, value; } cases[] = {
    { "true", TRUE, TRUE }, { " Yes ", TRUE, TRUE }, { "on", TRUE, TRUE }, { "1", TRUE, TRUE },
    { "false", TRUE, FALSE }, { "no", TRUE, FALSE }, { "OFF", TRUE, FALSE }, { "0", TRUE, FALSE },
    { "maybe", FALSE, FALSE }, { "", FALSE, FALSE }, { "truely", FALSE, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("[kde-icon-cache]\nPerSizeSets=%s\n", cases[i].text);
      g_autofree char *root = make_root (text);
      g_autoptr (KicFsIndex) index = kic_fs_index_new (root);
      g_autoptr (GError) error = NULL;
      g_autofree char *want = g_strdup_printf ("%s/etc/kde-icon-cache.conf: key 'PerSizeSets': ", root);
      KicConfig config = { 0 };
      gboolean ok = kic_config_load (index, &config, &error);

      g_test_message ("PerSizeSets=%s", cases[i].text);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (ok)
        g_assert_cmpint (config.per_size_sets, ==, cases[i].value);
      else
        {
          g_assert_error (error, KIC_ERROR, KIC_ERROR_CONFIG);
          g_assert_true (g_str_has_prefix (error->message, want));
        }
      kic_config_clear (&config);
      remove_root (root);
    }
}

/* a key or group the file does not know is one warning naming the file
 * and the key, and the rest of the file is read */
static void
test_load_unknown (void)
{
  g_autofree char *root = make_root ("[kde-icon-cache]\nSizez=16\nThemes=oxygen\n[Other]\nA=1\n");
  g_autoptr (KicFsIndex) index = kic_fs_index_new (root);
  g_autoptr (GPtrArray) said = NULL;
  g_autofree char *key = g_strdup_printf ("warning: %s/etc/kde-icon-cache.conf: unknown key 'Sizez'", root);
  g_autofree char *group = g_strdup_printf ("warning: %s/etc/kde-icon-cache.conf: unknown group '[Other]'", root);
  KicConfig config = { 0 };

  g_ptr_array_unref (kic_diagnostics_take ());
  g_assert_true (kic_config_load (index, &config, NULL));
  g_assert_cmpstr (config.themes[0], ==, "oxygen");
  g_assert_cmpuint (config.targets->len, ==, 0);
  said = kic_diagnostics_take ();
  g_assert_cmpuint (said->len, ==, 2);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (said, 0), key));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (said, 1), group));
  kic_config_clear (&config);
  remove_root (root);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/config/parse-size", test_parse_size);
  g_test_add_func ("/config/parse-size-again", test_parse_size_again);
  g_test_add_func ("/config/load-missing", test_load_missing);
  g_test_add_func ("/config/load", test_load);
  g_test_add_func ("/config/load-bad", test_load_bad);
  g_test_add_func ("/config/load-bool", test_load_bool);
  g_test_add_func ("/config/load-unknown", test_load_unknown);
  g_test_add_func ("/config/load-unthemed", test_load_unthemed);
  g_test_add_func ("/config/exclude", test_exclude);
  return g_test_run ();
}
