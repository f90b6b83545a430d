/* test-keyfile.c - GKeyFile with KConfig's leniency */
#include "commands.h"
#include "keyfile.h"

#include "diag.h"


#include <string.h>

static GKeyFile *
load (const char *text, GError **error)
{
  return kic_keyfile_load (text, strlen (text), "test.theme", error);
}

static void
test_valid (void)
{
  g_autoptr (GKeyFile) kf = load ("[Icon Theme]\nName=Breeze\nInherits=hicolor,oxygen\n", NULL);
  g_auto (GStrv) list = NULL;
  g_autofree char *name = NULL;

  g_assert_nonnull (kf);
  name = kic_keyfile_get_string (kf, "Icon Theme", "Name", "x");
  g_assert_cmpstr (name, ==, "Breeze");
  list = kic_keyfile_get_list (kf, "Icon Theme", "Inherits", NULL);
  g_assert_cmpuint (g_strv_length (list), ==, 2);
  g_assert_cmpstr (list[0], ==, "hicolor");
  g_assert_cmpstr (list[1], ==, "oxygen");
}

/* GKeyFile rejects the whole file for one bad line; KConfig skips the
 * line, so we do, with one warning naming the file and first bad line */
static void
test_lenient (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (GKeyFile) kf = load ("[Icon Theme]\nName=A\nthis is no key\n=novalue\nSize=32\n", NULL);

      g_assert_nonnull (kf);
      g_assert_cmpint (kic_keyfile_get_int (kf, "Icon Theme", "Size", 0), ==, 32);
      kic_print_diagnostics (); /* (what the face does with them) */
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*test.theme:3: skipping 2 lines that are not 'key=value' or '[group]'*");
}

static void
test_nothing_parses (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GKeyFile) kf = NULL;
  gboolean quiet = kic_quiet;

  kic_quiet = TRUE;
  kf = load ("[unclosed\n", &error);
  kic_quiet = quiet;
  /* the bad line is skipped, the rest (nothing) loads */
  g_assert_nonnull (kf);
  g_assert_no_error (error);
  g_assert_false (g_key_file_has_group (kf, "unclosed"));
}

/* KConfigGroup::readEntry(): the default when missing or not a number */
static void
test_getters_default (void)
{
  g_autoptr (GKeyFile) kf = load ("[G]\nA=48px\nB= 22 \nC=yes\nD=off\nE=99999999999\nF=maybe\nG=\nH= No \nI=00\n", NULL);
  g_auto (GStrv) empty = NULL;
  g_auto (GStrv) def = NULL;
  g_autofree char *s = NULL;

  g_assert_cmpint (kic_keyfile_get_int (kf, "G", "A", 7), ==, 7);
  g_assert_cmpint (kic_keyfile_get_int (kf, "G", "B", 7), ==, 22);
  g_assert_cmpint (kic_keyfile_get_int (kf, "G", "E", 7), ==, 7);
  g_assert_cmpint (kic_keyfile_get_int (kf, "G", "missing", 7), ==, 7);
  g_assert_cmpint (kic_keyfile_get_int (kf, "nogroup", "A", 9), ==, 9);
  g_assert_true (kic_keyfile_get_bool (kf, "G", "C", FALSE));
  g_assert_false (kic_keyfile_get_bool (kf, "G", "D", TRUE));
  g_assert_true (kic_keyfile_get_bool (kf, "G", "missing", TRUE));
  /* KConfig: anything but false/no/off/0 is true, the empty value too */
  g_assert_true (kic_keyfile_get_bool (kf, "G", "F", FALSE));
  g_assert_true (kic_keyfile_get_bool (kf, "G", "G", FALSE));
  g_assert_false (kic_keyfile_get_bool (kf, "G", "H", TRUE));
  g_assert_true (kic_keyfile_get_bool (kf, "G", "I", FALSE));
  s = kic_keyfile_get_string (kf, "G", "missing", "dflt");
  g_assert_cmpstr (s, ==, "dflt");
  empty = kic_keyfile_get_list (kf, "G", "missing", NULL);
  g_assert_nonnull (empty);
  g_assert_null (empty[0]);
  def = kic_keyfile_get_list (kf, "G", "missing", "a,b");
  g_assert_cmpuint (g_strv_length (def), ==, 2);
}

/* kic_keyfile_untranslated(): the lines it drops, and those it keeps */
static void
test_untranslated_lines (void)
{
  static const char *const cases[][2] = {
    /* nothing to drop */
    { "[Desktop Entry]\nName=A\nIcon=a\n", NULL },
    /* before the first group: kept (GKeyFile refuses a key there) */
    { "Name[de]=A\n[Desktop Entry]\nIcon=a\n", NULL },
    { "[Desktop Entry]\nName=A\nName[de]=B\nIcon=a\nComment[pt_BR]=C\n", "[Desktop Entry]\nName=A\nIcon=a\n" },
    { "[Desktop Entry]\nName[sr@latin]=B\nName[de.UTF-8]=C\nName[x-test] =D\nName[de]  =E\nIcon=a",
      "[Desktop Entry]\nIcon=a" },
    /* the last line, with no newline; a CR before the newline */
    { "[Desktop Entry]\nIcon=a\nName[de]=B", "[Desktop Entry]\nIcon=a\n" },
    { "[Desktop Entry]\r\nName[de]=B\r\nIcon=a\r\n", "[Desktop Entry]\r\nIcon=a\r\n" },
    /* keys read or not, every group */
    { "[Desktop Entry]\nIcon[de]=b\nIcon=a\n[Desktop Action x]\nName[fr]=c\nExec=x\n",
      "[Desktop Entry]\nIcon=a\n[Desktop Action x]\nExec=x\n" },
    /* what GKeyFile may refuse, or reads otherwise, stays */
    { "[Desktop Entry]\nName[]=B\nNa me[de]=B\nName[d e]=B\n Name[de]=B\nName[de]x=B\nName[de]\nName[de\n"
      "Name[de]]=B\nName[de][fr]=B\nName[dé]=B\nNäme[de]=B\n\tName[de]=B\nName[de]\t=B\nIcon=a\n", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize length = 0;
      g_autofree char *lean = kic_keyfile_untranslated (cases[i][0], strlen (cases[i][0]), &length);

      g_assert_cmpstr (lean, ==, cases[i][1]);
      if (lean != NULL)
        g_assert_cmpuint (length, ==, strlen (lean));
    }
}

/* What a load leaves: NULL, or every group and every key that is not a
 * translation with its value, one a line; and the diagnostics it gave */
static char *
loaded (GKeyFile *kf, GPtrArray *diagnostics, const char *origin)
{
  GString *out = g_string_new (kf == NULL ? "NULL\n" : "");
  g_auto (GStrv) groups = kf != NULL ? g_key_file_get_groups (kf, NULL) : NULL;

  for (guint g = 0; groups != NULL && groups[g] != NULL; g++)
    {
      g_auto (GStrv) keys = g_key_file_get_keys (kf, groups[g], NULL, NULL);

      g_string_append_printf (out, "[%s]\n", groups[g]);
      for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
        if (strchr (keys[k], '[') == NULL)
          {
            g_autofree char *value = g_key_file_get_value (kf, groups[g], keys[k], NULL);

            g_string_append_printf (out, "%s=%s\n", keys[k], value);
          }
    }
  for (guint i = 0; i < diagnostics->len; i++)
    {
      /* (the file's name aside) */
      g_auto (GStrv) parts = g_strsplit (g_ptr_array_index (diagnostics, i), origin, -1);
      g_autofree char *said = g_strjoinv ("FILE", parts);

      g_string_append_printf (out, "! %s\n", said);
    }
  return g_string_free (out, FALSE);
}

/* kic_keyfile_load_untranslated() loads what kic_keyfile_load() loads,
 * with the same warnings, on random files of good and bad lines */
static void
test_untranslated_same (void)
{
  static const char *const pool[] = {
    "[Desktop Entry]", "[Desktop Action new]", "[Other Group]", "[unclosed", "[]", "  [Indented]",
    "Name=Files", "Name[de]=Dateien", "Name[sr@latin]=Fajlovi", "Comment[pt_BR] = Arquivos", "Icon=org.x.Files",
    "Icon[de]=other", "Icon=second", "Hidden=true", "Hidden[de]=false", "Keywords[fr]=a;b;", "Name[x-test]=T",
    "# a comment", "", "junk line", "=novalue", "Name[de", "Name[]=empty", "Name[d e]=space", " Name[de]=lead",
    "Name[de]\t=tab", "Encoding=UTF-8", "Encoding=Latin-1", "Name[de]=\xff\xfe", "Icon=\xe9t\xe9", "Na\xffme[de]=x",
    "Name[de]=x\r", "Icon=a\\sb", "X-KDE-Key[de]=v", "Type=Application",
  };
  GRand *rand = g_rand_new_with_seed (20261204);
  gboolean quiet = kic_quiet;
  guint dropped = 0, refused = 0;

  kic_quiet = TRUE;
  g_ptr_array_unref (kic_diagnostics_take ());
  for (guint round = 0; round < 3000; round++)
    {
      GString *text = g_string_new (NULL);
      guint n = g_rand_int_range (rand, 0, 14);
      g_autoptr (GKeyFile) full = NULL;
      g_autoptr (GKeyFile) lean = NULL;
      g_autoptr (GPtrArray) full_said = NULL;
      g_autoptr (GPtrArray) lean_said = NULL;
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;
      g_autofree char *cut = NULL;
      gsize cut_length;
      /* (each load names its file: a diagnostic is said once a run) */
      g_autofree char *full_origin = g_strdup_printf ("full%u.desktop", round);
      g_autofree char *lean_origin = g_strdup_printf ("lean%u.desktop", round);

      for (guint i = 0; i < n; i++)
        {
          g_string_append (text, pool[g_rand_int_range (rand, 0, G_N_ELEMENTS (pool))]);
          if (i + 1 < n || g_rand_boolean (rand))
            g_string_append_c (text, '\n');
        }
      full = kic_keyfile_load (text->str, text->len, full_origin, NULL);
      full_said = kic_diagnostics_take ();
      lean = kic_keyfile_load_untranslated (text->str, text->len, lean_origin, NULL);
      lean_said = kic_diagnostics_take ();
      a = loaded (full, full_said, full_origin);
      b = loaded (lean, lean_said, lean_origin);
      if (g_strcmp0 (a, b) != 0)
        g_test_message ("text:\n%s\nfull:\n%s\nuntranslated:\n%s", text->str, a, b);
      g_assert_cmpstr (a, ==, b);
      cut = kic_keyfile_untranslated (text->str, text->len, &cut_length);
      dropped += cut != NULL;
      refused += full == NULL || full_said->len > 0;
      g_string_free (text, TRUE);
    }
  kic_quiet = quiet;
  g_rand_free (rand);
  /* the rounds saw both: lines dropped, and files GKeyFile refused */
  g_assert_cmpuint (dropped, >, 500);
  g_assert_cmpuint (refused, >, 500);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/keyfile/valid", test_valid);
  g_test_add_func ("/keyfile/lenient", test_lenient);
  g_test_add_func ("/keyfile/nothing-parses", test_nothing_parses);
  g_test_add_func ("/keyfile/getters-default", test_getters_default);
  g_test_add_func ("/keyfile/untranslated-lines", test_untranslated_lines);
  g_test_add_func ("/keyfile/untranslated-same", test_untranslated_same);
  return g_test_run ();
}
