/* test-keyfile.c - GKeyFile with KConfig's leniency */
#include "commands.h"
#include "keyfile.h"

#include "kic.h"

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
  g_autoptr (GKeyFile) kf = load ("[G]\nA=48px\nB= 22 \nC=yes\nD=off\nE=99999999999\n", NULL);
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
  s = kic_keyfile_get_string (kf, "G", "missing", "dflt");
  g_assert_cmpstr (s, ==, "dflt");
  empty = kic_keyfile_get_list (kf, "G", "missing", NULL);
  g_assert_nonnull (empty);
  g_assert_null (empty[0]);
  def = kic_keyfile_get_list (kf, "G", "missing", "a,b");
  g_assert_cmpuint (g_strv_length (def), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/keyfile/valid", test_valid);
  g_test_add_func ("/keyfile/lenient", test_lenient);
  g_test_add_func ("/keyfile/nothing-parses", test_nothing_parses);
  g_test_add_func ("/keyfile/getters-default", test_getters_default);
  return g_test_run ();
}
