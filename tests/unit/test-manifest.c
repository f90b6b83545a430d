/* test-manifest.c - the manifest's text form */
#include "commands.h"
#include "manifest.h"


#include <string.h>

static KicManifest *
parse (const char *text)
{
  return kic_manifest_parse (text, strlen (text), "test-manifest");
}

static const KicManifestEntry *
entry (const KicManifest *m, const char *path)
{
  return g_hash_table_lookup (m->entries, path);
}

static void
test_parse (void)
{
  g_autoptr (KicManifest) m = parse ("# kde-icon-cache manifest 1\n"
                                     "# settings: profile=kf5 themes=breeze sizes=48:1\n"
                                     "file\t/var/lib/kic/files/a.png\t/usr/share/pixmaps/a.png\tabc123\n"
                                     "link\t/usr/share/icons/breeze/apps/48/a.png\t../../x/a.png\n");

  g_assert_cmpuint (g_hash_table_size (m->entries), ==, 2);
  g_assert_cmpstr (m->settings, ==, "profile=kf5 themes=breeze sizes=48:1");
  g_assert_false (m->journal);
  g_assert_cmpint (entry (m, "/var/lib/kic/files/a.png")->kind, ==, KIC_ENTRY_FILE);
  g_assert_cmpstr (entry (m, "/var/lib/kic/files/a.png")->target, ==, "/usr/share/pixmaps/a.png");
  g_assert_cmpstr (entry (m, "/var/lib/kic/files/a.png")->sha256, ==, "abc123");
  g_assert_cmpint (entry (m, "/usr/share/icons/breeze/apps/48/a.png")->kind, ==, KIC_ENTRY_LINK);
  g_assert_cmpstr (entry (m, "/usr/share/icons/breeze/apps/48/a.png")->target, ==, "../../x/a.png");
  g_assert_null (entry (m, "/usr/share/icons/breeze/apps/48/a.png")->sha256);
}

static void
test_journal (void)
{
  g_autoptr (KicManifest) m = parse ("# kde-icon-cache manifest 1\n# journal: a run was under way\n");

  g_assert_true (m->journal);
  g_assert_cmpuint (g_hash_table_size (m->entries), ==, 0);
}

/* each bad line is skipped with a warning naming the origin and line;
 * the good ones around it are kept */
static void
test_bad_lines (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (KicManifest) m = parse ("link\trelative/path\tt\n"        /* 1: not absolute */
                                         "link\t/a\n"                      /* 2: no target */
                                         "file\t/s\t/src\n"                /* 3: no checksum */
                                         "junk\t/a\tb\n"                   /* 4: unknown kind */
                                         "link\t/ok\tt\n"                  /* 5: good */
                                         "link\t/a\tt\textra\n"            /* 6: a field too many */
                                         "link\t/b\t\n"                    /* 7: empty target */
                                         "file\t/s\t/src\tsum\tmore\n");    /* 8: a field too many */

      g_assert_cmpuint (g_hash_table_size (m->entries), ==, 1);
      g_assert_nonnull (entry (m, "/ok"));
      kic_print_diagnostics (); /* (what the face does with them) */
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  for (guint line = 1; line <= 8; line++)
    {
      g_autofree char *want = g_strdup_printf ("*test-manifest:%u: ignoring a line*", line);

      if (line != 5)
        g_test_trap_assert_stderr (want);
    }
  g_test_trap_assert_stderr_unmatched ("*test-manifest:5:*");
}

/* kic_manifest_inputs() says what kic_manifest_parse() says of the
 * inputs line: the last one it parses, none in a line with a NUL byte or
 * cut short, none when the prefix is not at the start of a line. */
static void
test_inputs_only (void)
{
  static const struct {
    const char *text;
    gsize length;
  } cases[] = {
#define T(s) { s, sizeof s - 1 }
    T ("# kde-icon-cache manifest\n# inputs: abc\n# end\n"),
    T ("# inputs: one\n# inputs: two\n# end\n"),
    T ("# inputs: one\n# inputs: t\0wo\n# end\n"),
    T ("# inputs: one\n# inputs: cut"),
    T ("# inputs: \n"),
    T ("x# inputs: no\n# end\n"),
    T ("#  inputs: no\n"),
    T ("# inputs:no\n"),
    T ("# inputs: a\tb\n\n\n# end"),
    T ("link\t/a\tt\n# inputs: late\n"),
    T (""),
#undef T
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (KicManifest) m = NULL;
      g_autofree char *inputs = kic_manifest_inputs (cases[i].text, cases[i].length);

      m = kic_manifest_parse (cases[i].text, cases[i].length, "test-manifest");
      g_test_message ("case %u: %s", i, inputs ? inputs : "(none)");
      g_assert_cmpstr (inputs, ==, m->inputs);
    }
}

static void
test_path_ok (void)
{
  g_assert_true (kic_manifest_path_ok ("/usr/share/icons/a b.png"));
  g_assert_false (kic_manifest_path_ok ("usr/share"));
  g_assert_false (kic_manifest_path_ok ("/a\tb"));
  g_assert_false (kic_manifest_path_ok ("/a\nb"));
  g_assert_false (kic_manifest_path_ok ("/a\x7f"));
  g_assert_false (kic_manifest_path_ok ("/caf\xe9"));
  g_assert_false (kic_manifest_path_ok ("/caf\xc3\xa9\x01"));
  g_assert_true (kic_manifest_path_ok ("/caf\xc3\xa9/x"));
  g_assert_false (kic_manifest_path_ok (NULL));
}

/* kic_manifest_path_ok() as a byte at a time decides it, for a path of
 * 1 to 40 bytes with any one byte anywhere in it (a control character,
 * DEL, a byte beyond ASCII alone, or starting a UTF-8 pair), the other
 * bytes plain */
static gboolean
path_ok_bytes (const char *path)
{
  if (path[0] != '/')
    return FALSE;
  for (const char *p = path; *p; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      return FALSE;
  return g_utf8_validate (path, -1, NULL);
}

static void
test_path_ok_every_place (void)
{
  guint n_ok = 0, n_not = 0;

  for (guint length = 1; length <= 40; length++)
    for (guint at = 1; at < length; at++)
      for (guint byte = 1; byte < 256; byte++)
        {
          char path[42];

          memset (path, 'a', length);
          path[0] = '/';
          path[length] = '\0';
          path[at] = (char) byte;
          if (byte >= 0xc2 && byte <= 0xdf && at + 1 < length)
            path[at + 1] = (char) 0xa9; /* (a whole pair) */
          if (path_ok_bytes (path))
            n_ok++;
          else
            n_not++;
          g_assert_cmpint (kic_manifest_path_ok (path), ==, path_ok_bytes (path));
        }
  g_assert_cmpuint (n_ok, >, 0);
  g_assert_cmpuint (n_not, >, 0);
}

/* what the writer can write: the planner's filter too (issue 39, row 6) */
static void
test_path_writable (void)
{
  g_autofree char *n241 = g_strnfill (241, 'n');
  g_autofree char *n242 = g_strnfill (242, 'n');
  g_autofree char *fits = g_strconcat ("/usr/share/icons/", n241, NULL);
  g_autofree char *over = g_strconcat ("/usr/share/icons/", n242, NULL);
  g_autofree char *dir_over = g_strconcat ("/usr/", n242, "/x.png", NULL);

  g_assert_true (kic_manifest_path_writable ("/usr/share/icons/a b.png"));
  g_assert_true (kic_manifest_path_writable (fits));
  g_assert_false (kic_manifest_path_writable (over));
  g_assert_true (kic_manifest_path_writable (dir_over)); /* only the name gets a temporary name */
  g_assert_false (kic_manifest_path_writable ("/usr/share/../x.png"));
  g_assert_false (kic_manifest_path_writable ("/usr//x.png"));
  g_assert_false (kic_manifest_path_writable ("/usr/a\x01.png"));
  g_assert_false (kic_manifest_path_writable ("x.png"));
}

/* to_string sorts (files first, then links, each by path), writes the
 * header, journal, settings and inputs lines, and parses back to the same */
static void
test_round_trip (void)
{
  g_autoptr (KicManifest) m = kic_manifest_new ();
  g_autoptr (KicManifest) back = NULL;
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;

  kic_manifest_add (m, KIC_ENTRY_LINK, "/z/link", "../t", NULL);
  kic_manifest_add (m, KIC_ENTRY_LINK, "/a/link", "../u", NULL);
  kic_manifest_add (m, KIC_ENTRY_FILE, "/s/f", "/src/f", "00ff");
  kic_manifest_add (m, KIC_ENTRY_LINK, "/a/link", "../v", NULL); /* replaces */
  m->settings = g_strdup ("profile=kf5");
  m->inputs = g_strdup ("d1e5");
  m->journal = TRUE;
  text = kic_manifest_to_string (m);
  g_assert_cmpstr (text, ==,
                   "# kde-icon-cache manifest 1\n"
                   "# journal: a run was under way; it may have left more than this\n"
                   "# settings: profile=kf5\n"
                   "# inputs: d1e5\n"
                   "file\t/s/f\t/src/f\t00ff\n"
                   "link\t/a/link\t../v\n"
                   "link\t/z/link\t../t\n"
                   "# end\n");
  back = parse (text);
  g_assert_true (back->journal);
  g_assert_cmpstr (back->inputs, ==, "d1e5");
  again = kic_manifest_to_string (back);
  g_assert_cmpstr (again, ==, text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/manifest/parse", test_parse);
  g_test_add_func ("/manifest/journal", test_journal);
  g_test_add_func ("/manifest/bad-lines", test_bad_lines);
  g_test_add_func ("/manifest/path-ok", test_path_ok);
  g_test_add_func ("/manifest/path-ok-every-place", test_path_ok_every_place);
  g_test_add_func ("/manifest/path-writable", test_path_writable);
  g_test_add_func ("/manifest/inputs-only", test_inputs_only);
  g_test_add_func ("/manifest/round-trip", test_round_trip);
  return g_test_run ();
}
