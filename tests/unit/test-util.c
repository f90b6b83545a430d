/* test-util.c - the base layer's helpers: path cleaning, relative link targets, the integer parser */
#include "hash.h"
#include "number.h"
#include "path.h"
#include "readfd.h"
#include "sorted.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static void
test_path_clean (void)
{
  static const char *const cases[][2] = {
    { "/", "/" },
    { "//usr//share/", "/usr/share" },
    { "/usr/./share/../lib", "/usr/lib" },
    { "/../../etc", "/etc" },
    { "/a/b/../../..", "/" },
    { "/.", "/" },
    { "/a/.../b/..c/.d", "/a/.../b/..c/.d" },
    { "/a/b/../c/./d/..", "/a/c" },
    { "/usr/share/icons/hicolor/48x48/apps/../../../../../../../var/x.png", "/var/x.png" },
    { "/a//b/./../../c/", "/c" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *clean = kic_path_clean (cases[i][0]);

      g_assert_cmpstr (clean, ==, cases[i][1]);
    }
}

/* a relative path is taken from the current directory, as --root's is */
static void
test_path_clean_relative (void)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *parent = g_path_get_dirname (cwd);
  g_autofree char *clean = kic_path_clean ("x/../../y/.");
  g_autofree char *want = g_build_filename (parent, "y", NULL);

  g_assert_cmpstr (clean, ==, strcmp (parent, "/") == 0 ? "/y" : want);
}

/* worked out by hand: the link's directory has N components, so N "../"
 * reach "/" unless a prefix is shared */
static void
test_relative_link (void)
{
  static const char *const cases[][3] = {
    { "/usr/share/icons/breeze/apps/48/foo.svg", "/var/lib/kde-icon-cache/files/foo.svg",
      "../../../../../../var/lib/kde-icon-cache/files/foo.svg" },
    { "/var/lib/x/link", "/var/lib/y/target", "../y/target" },
    { "/a/b/link", "/a/b/target", "target" },
    { "/link", "/var/t", "var/t" },
    { "/a/b/c/link", "/a/t", "../../t" },
    { "/a/bc/link", "/a/b/t", "../b/t" },   /* "b" is a prefix of "bc", not the same directory */
    { "/a/b/link", "/a/bc/t", "../bc/t" },
    { "/a/b/link", "/a/b/c/d/t", "c/d/t" },
    { "/a/b/link", "/a/b", "" },            /* its own directory: no component left */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rel = kic_relative_link (cases[i][0], cases[i][1]);

      g_assert_cmpstr (rel, ==, cases[i][2]);
    }
}

/* the relative target, followed from the link's directory, is the target */
static void
test_relative_link_resolves (void)
{
  static const char *const links[] = { "/usr/share/icons/hicolor/48x48/apps/a.png", "/b", "/var/lib/kde-icon-cache/l" };
  static const char *const targets[] = { "/var/lib/kde-icon-cache/files/usr/share/pixmaps/a.png", "/var/lib/b",
                                         "/usr/share/icons/hicolor/48x48/apps/a.png" };

  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    for (guint j = 0; j < G_N_ELEMENTS (targets); j++)
      {
        g_autofree char *rel = kic_relative_link (links[i], targets[j]);
        g_autofree char *dir = g_path_get_dirname (links[i]);
        g_autofree char *joined = g_build_filename (dir, rel, NULL);
        g_autofree char *clean = kic_path_clean (joined);

        g_assert_false (g_path_is_absolute (rel));
        g_assert_cmpstr (clean, ==, targets[j]);
      }
}

/* the same on random pairs of paths over a few names, some of them
 * prefixes of others ("b", "bc", "ab"): what a component-by-component
 * comparison could get wrong */
static void
test_relative_link_random (void)
{
  static const char *const parts[] = { "a", "b", "bc", "ab", "c" };
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);

  for (int k = 0; k < 20000; k++)
    {
      g_autoptr (GString) link = g_string_new (NULL);
      g_autoptr (GString) target = g_string_new (NULL);
      int n_link = g_rand_int_range (rand, 1, 6), n_target = g_rand_int_range (rand, 1, 6);

      for (int i = 0; i < n_link; i++)
        g_string_append_printf (link, "/%s", parts[g_rand_int_range (rand, 0, G_N_ELEMENTS (parts))]);
      for (int i = 0; i < n_target; i++)
        g_string_append_printf (target, "/%s", parts[g_rand_int_range (rand, 0, G_N_ELEMENTS (parts))]);
      {
        g_autofree char *rel = kic_relative_link (link->str, target->str);
        g_autofree char *dir = g_path_get_dirname (link->str);
        g_autofree char *joined = g_build_filename (dir, rel, NULL);
        g_autofree char *clean = kic_path_clean (joined);

        g_assert_false (g_path_is_absolute (rel));
        g_assert_cmpstr (clean, ==, target->str);
        /* and the shortest: no "../" when the target is in the link's
         * directory or below it */
        if (kic_path_is_under (target->str, dir))
          g_assert_false (g_str_has_prefix (rel, "../"));
      }
    }
}

/* kic_path_is_clean() against kic_path_clean() on 50 000 random absolute
 * paths of "", ".", "..", "a", ".a", "a." and "..." components, and by
 * hand at the edges */
static void
test_path_is_clean (void)
{
  static const char *const parts[] = { "", ".", "..", "a", ".a", "a.", "...", "bc" };
  static const char *const clean[] = { "/", "/a", "/a/b", "/.a/..b/...", "/a./b" };
  static const char *const unclean[] = { "", "a", "a/b", "//", "/a/", "/a//b", "/./a", "/a/.", "/a/..", "/../a" };
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);

  for (guint i = 0; i < G_N_ELEMENTS (clean); i++)
    g_assert_true (kic_path_is_clean (clean[i]));
  for (guint i = 0; i < G_N_ELEMENTS (unclean); i++)
    g_assert_false (kic_path_is_clean (unclean[i]));
  g_assert_false (kic_path_is_clean (NULL));
  for (int k = 0; k < 50000; k++)
    {
      g_autoptr (GString) path = g_string_new (NULL);
      int n = g_rand_int_range (rand, 1, 6);

      for (int i = 0; i < n; i++)
        g_string_append_printf (path, "/%s", parts[g_rand_int_range (rand, 0, G_N_ELEMENTS (parts))]);
      {
        g_autofree char *cleaned = kic_path_clean (path->str);

        if (kic_path_is_clean (path->str) != (strcmp (cleaned, path->str) == 0))
          g_error ("kic_path_is_clean (\"%s\"): %d, kic_path_clean(): \"%s\"", path->str,
                   kic_path_is_clean (path->str), cleaned);
      }
    }
}

/* worked out by hand */
static void
test_path_is_under (void)
{
  g_assert_true (kic_path_is_under ("/a/b", "/a"));
  g_assert_true (kic_path_is_under ("/a", "/a"));
  g_assert_false (kic_path_is_under ("/ab", "/a"));
  g_assert_false (kic_path_is_under ("/a", "/a/b"));
  g_assert_true (kic_path_is_under ("/var/lib", "/"));
  g_assert_true (kic_path_is_under ("/", "/"));
}

/* kic_path_child() is g_build_filename() of a clean absolute directory
 * and one component */
static void
test_path_child (void)
{
  static const char *const dirs[] = { "/", "/a", "/a/b", "/usr/share/icons/hicolor/48x48/apps" };
  static const char *const names[] = { "x", ".x", "x.png", "..." };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    for (guint j = 0; j < G_N_ELEMENTS (names); j++)
      {
        g_autofree char *want = g_build_filename (dirs[i], names[j], NULL);
        g_autofree char *got = kic_path_child (dirs[i], names[j]);

        g_assert_cmpstr (got, ==, want);
      }
}

static void
test_parse_int (void)
{
  static const struct {
    const char *text;
    gboolean ok;
    gint64 value;
  } cases[] = {
    { "48", TRUE, 48 },     { " 48 ", TRUE, 48 },   { "+7", TRUE, 7 },     { "-3", TRUE, -3 },
    { "48px", FALSE, 0 },   { "", FALSE, 0 },       { " ", FALSE, 0 },     { "4 8", FALSE, 0 },
    { "0x10", FALSE, 0 },   { "1.5", FALSE, 0 },    { "4096", TRUE, 4096 }, { "4097", FALSE, 0 },
    { "-4097", FALSE, 0 },  { "99999999999999999999", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 value = -12345;
      gboolean ok = kic_parse_int (cases[i].text, -4096, 4096, &value);

      g_test_message ("'%s'", cases[i].text);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (ok)
        g_assert_cmpint (value, ==, cases[i].value);
    }
}

static void
test_read_uint (void)
{
  static const guchar data[] = { 0x01, 0x02, 0x03, 0x04 };
  guint64 v = 0;

  g_assert_true (kic_read_uint (data, sizeof data, 0, 4, TRUE, &v));
  g_assert_cmphex (v, ==, 0x01020304);
  g_assert_true (kic_read_uint (data, sizeof data, 2, 2, FALSE, &v));
  g_assert_cmphex (v, ==, 0x0403);
  g_assert_false (kic_read_uint (data, sizeof data, 3, 2, TRUE, &v));
  g_assert_false (kic_read_uint (data, sizeof data, G_MAXUINT64, 1, TRUE, &v));
}

/* The state's checksum (state.c) tells a damaged text from a whole one:
 * every single bit flipped, every cut and every byte added changes it. */
static void
test_checksum64 (void)
{
  guchar data[301];
  g_autofree char *whole = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < sizeof data; i++)
    data[i] = (guchar) (i * 37 + 11);
  whole = kic_checksum64 (data, sizeof data);
  g_assert_cmpuint (strlen (whole), ==, 16);
  g_assert_true (g_str_is_ascii (whole));
  g_hash_table_add (seen, g_strdup (whole));
  for (guint i = 0; i < sizeof data; i++)
    for (guint bit = 0; bit < 8; bit++)
      {
        data[i] ^= (guchar) (1u << bit);
        g_assert_true (g_hash_table_add (seen, kic_checksum64 (data, sizeof data)));
        data[i] ^= (guchar) (1u << bit);
      }
  for (gsize n = 0; n < sizeof data; n++)
    g_assert_true (g_hash_table_add (seen, kic_checksum64 (data, n)));
  {
    g_autofree char *again = kic_checksum64 (data, sizeof data);

    g_assert_cmpstr (again, ==, whole);
  }
  /* the states already written are checked with it: the values the code
   * that wrote them gave (kic_checksum64() as of 2ebeafd, built apart) */
  {
    const char *text = "kde-icon-cache state 2\nthe text a checksum is of\n";
    g_autofree char *of_text = kic_checksum64 (text, strlen (text));
    g_autofree char *of_nothing = kic_checksum64 ("", 0);

    g_assert_cmpstr (of_text, ==, "616eae0072264448");
    g_assert_cmpstr (of_nothing, ==, "7acdbb98b1344213");
  }
}

/* kic_siphash(): SipHash-2-4's published test vectors (key 00..0f,
 * message 00..len-1; Aumasson and Bernstein's reference code), and the key
 * counts */
static void
test_siphash (void)
{
  static const struct {
    gsize length;
    guint64 sum;
  } vectors[] = {
    { 0, 0x726fdb47dd0e0e31ULL }, { 1, 0x74f839c593dc67fdULL }, { 2, 0x0d6c8009d9a94f5aULL },
    { 3, 0x85676696d7fb7e2dULL }, { 4, 0xcf2794e0277187b7ULL }, { 5, 0x18765564cd99a68dULL },
    { 6, 0xcbc9466e58fee3ceULL }, { 7, 0xab0200f58b01d137ULL },
    { 8, 0x93f5f5799a932462ULL }, { 15, 0xa129ca6149be45e5ULL }, { 63, 0x958a324ceb064572ULL },
  };
  const guint64 key[2] = { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL };
  const guint64 other[2] = { 0x0706050403020101ULL, 0x0f0e0d0c0b0a0908ULL };
  guchar data[64];

  for (guint i = 0; i < sizeof data; i++)
    data[i] = (guchar) i;
  for (guint i = 0; i < G_N_ELEMENTS (vectors); i++)
    g_assert_cmphex (kic_siphash (key, data, vectors[i].length, 2, 4), ==, vectors[i].sum);
  g_assert_cmphex (kic_siphash (key, data, 15, 1, 3), !=, kic_siphash (other, data, 15, 1, 3));
}

/* kic_sorted_keys(): every key once, in strcmp() order */
static void
test_sorted_keys (void)
{
  g_autoptr (GHashTable) table = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) keys = NULL;

  for (guint i = 0; i < 500; i++)
    g_hash_table_add (table, g_strdup_printf ("/usr/share/icons/t%u/%u.png", (i * 7919u) % 500u, i));
  keys = kic_sorted_keys (table);
  g_assert_cmpuint (keys->len, ==, 500);
  for (guint i = 1; i < keys->len; i++)
    g_assert_cmpint (strcmp (g_ptr_array_index (keys, i - 1), g_ptr_array_index (keys, i)), <, 0);
  for (guint i = 0; i < keys->len; i++)
    g_assert_true (g_hash_table_contains (table, g_ptr_array_index (keys, i)));
}

/* kic_str_hash(), the hash of every table keyed by a name or a path:
 * equal strings hash alike wherever they are, and paths that differ only
 * deep inside (as a theme's do) spread over every value and every bucket
 * of a table. */
static void
test_str_hash (void)
{
  const guint n = 20000;
  g_autoptr (GHashTable) values = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint buckets[1024] = { 0 };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/usr/share/icons/hicolor/%ux%u/apps/org.example.App%u.png",
                                               16 << (i % 5), 16 << (i % 5), i);
      g_autofree char *copy = g_strdup (path);
      guint h = kic_str_hash (path);

      g_assert_cmpuint (kic_str_hash (copy), ==, h);
      g_hash_table_add (values, GUINT_TO_POINTER (h));
      buckets[h % G_N_ELEMENTS (buckets)]++;
    }
  /* (20 000 values drawn at random from 2^32 collide about 0.05 times:
   * more than 3 collisions, about once in 5 million runs; the key is new
   * each run) */
  g_assert_cmpuint (g_hash_table_size (values), >=, n - 3);
  for (guint b = 0; b < G_N_ELEMENTS (buckets); b++)
    {
      /* about 19.5 each; a Poisson count leaves these bounds in one of a
       * few hundred thousand runs */
      g_assert_cmpuint (buckets[b], >=, 1);
      g_assert_cmpuint (buckets[b], <=, 60);
    }
  g_assert_cmpuint (kic_str_hash (""), !=, kic_str_hash ("a"));
}

/* kic_str_hash() over every byte of a short string, whatever its place
 * in a word (each of the 2^L strings of 'a' and 'b' of every length L up
 * to 10), and past the first KiB, which SipHash takes */
static void
test_str_hash_every_byte (void)
{
  g_autoptr (GHashTable) values = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint n = 0;

  for (guint length = 1; length <= 10; length++)
    for (guint bits = 0; bits < 1u << length; bits++)
      {
        char name[11];

        for (guint i = 0; i < length; i++)
          name[i] = bits & (1u << i) ? 'b' : 'a';
        name[length] = '\0';
        g_hash_table_add (values, GUINT_TO_POINTER (kic_str_hash (name)));
        n++;
      }
  /* (2 046 strings: a collision among them, for 2^-32 a pair, about once
   * in two thousand runs; two, once in millions) */
  g_assert_cmpuint (g_hash_table_size (values), >=, n - 1);
  {
    g_autofree char *longer = g_strnfill (5000, 'x');
    g_autofree char *same = g_strnfill (5000, 'x');
    guint h = kic_str_hash (longer);

    g_assert_cmpuint (kic_str_hash (same), ==, h);
    same[4999] = 'y';
    g_assert_cmpuint (kic_str_hash (same), !=, h);
    same[4999] = 'x';
    same[1024] = 'y';
    g_assert_cmpuint (kic_str_hash (same), !=, h);
  }
}

/* kic_format_int64() and kic_format_uint64() must print what printf's
 * "%" G_GINT64_FORMAT and G_GUINT64_FORMAT do
 * (the state and the plan key were written that way before it) */
static void
test_format_int64 (void)
{
  const gint64 values[] = { 0, 1, 9, 10, -1, -10, 1796191166895137387, G_MAXINT64, G_MININT64, G_MININT64 + 1 };
  const guint64 unsigned_values[] = { 0, 7, 10, 6341201, G_MAXINT64, (guint64) G_MAXINT64 + 1, G_MAXUINT64 };
  const guint n_signed = G_N_ELEMENTS (values);

  for (guint i = 0; i < n_signed + G_N_ELEMENTS (unsigned_values); i++)
    {
      char buf[KIC_INT64_DIGITS];
      gboolean is_signed = i < n_signed;
      g_autofree char *want = is_signed ? g_strdup_printf ("%" G_GINT64_FORMAT, values[i])
                                        : g_strdup_printf ("%" G_GUINT64_FORMAT, unsigned_values[i - n_signed]);
      gsize n = is_signed ? kic_format_int64 (buf, values[i]) : kic_format_uint64 (buf, unsigned_values[i - n_signed]);

      g_assert_cmpstr (buf, ==, want);
      g_assert_cmpuint (n, ==, strlen (want));
    }
  /* every number of digits, odd and even, at its ends, and numbers of
   * every size between */
  for (guint k = 0; k < 64 * 64; k++)
    {
      guint64 v = (k & 1 ? G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) * (k + 1) : 1) >> (k % 64);
      guint64 ten = 1;
      char buf[KIC_INT64_DIGITS];

      for (guint d = 0; d < k % 20; d++)
        ten *= 10;
      for (guint64 u = k & 1 ? v : ten - 1; u <= (k & 1 ? v : ten); u++)
        {
          g_autofree char *want = g_strdup_printf ("%" G_GUINT64_FORMAT, u);
          g_autofree char *want_signed = g_strdup_printf ("%" G_GINT64_FORMAT, -(gint64) (u >> 1));

          g_assert_cmpuint (kic_format_uint64 (buf, u), ==, strlen (want));
          g_assert_cmpstr (buf, ==, want);
          g_assert_cmpuint (kic_format_int64 (buf, -(gint64) (u >> 1)), ==, strlen (want_signed));
          g_assert_cmpstr (buf, ==, want_signed);
          if (u == G_MAXUINT64)
            break;
        }
    }
}

/* kic_read_fd_max(): every byte, one NUL after them, and the bound held,
 * whether the size is asked (SIZE -1: fstat() of a file; a pipe has none,
 * and is read into a buffer that grows) or given, and then right, or
 * stale (the file grew or shrank since it was stated) */
static void
check_read (int fd, gsize max, goffset size, const char *want, gsize want_len)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  gsize length = 0;
  gboolean ok;

  /* (a file read from its start again; a pipe cannot be) */
  if (lseek (fd, 0, SEEK_SET) < 0)
    g_assert_cmpint (errno, ==, ESPIPE);
  ok = kic_read_fd_max (fd, "test", max, size, &text, &length, &error);
  if (want == NULL)
    {
      g_assert_false (ok);
      g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM);
      return;
    }
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (length, ==, want_len);
  g_assert_cmpmem (text, length, want, want_len);
  g_assert_cmpint (text[length], ==, '\0');
}

static void
test_read_fd_max (void)
{
  g_autofree char *dir = g_dir_make_tmp ("kic-read-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "f", NULL);
  /* past the old 64 KiB chunk, not a multiple of it */
  gsize big_len = 200000 + 17;
  g_autofree char *big = g_malloc (big_len);
  const gsize sizes[] = { 0, 1, 8190, 8191, 8192, 65536, big_len };

  for (gsize i = 0; i < big_len; i++)
    big[i] = (char) ('a' + i % 23);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gsize n = sizes[s];
      int fd;
      int pipefd[2];

      g_assert_true (g_file_set_contents (path, big, n, NULL));
      /* a file: exactly MAX bytes pass, one more fails, the size asked,
       * given, or given stale */
      fd = open (path, O_RDONLY);
      for (goffset size = -1; size <= (goffset) n + 1; size = size < 2 ? size + 1 : size * 2)
        {
          check_read (fd, n, size, big, n);
          check_read (fd, n + 1000, size, big, n);
          if (n > 0)
            check_read (fd, n - 1, size, NULL, 0);
        }
      check_read (fd, n + 1, n, big, n);
      close (fd);
      /* a pipe: no size to start from */
      g_assert_cmpint (pipe (pipefd), ==, 0);
      if (n <= 65536)
        {
          g_assert_cmpint (write (pipefd[1], big, n), ==, (gssize) n);
          close (pipefd[1]);
          check_read (pipefd[0], n + 5, -1, big, n);
        }
      else
        close (pipefd[1]);
      close (pipefd[0]);
    }
  g_assert_cmpint (unlink (path), ==, 0);
  g_assert_cmpint (rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/util/path-clean", test_path_clean);
  g_test_add_func ("/util/path-clean-relative", test_path_clean_relative);
  g_test_add_func ("/util/relative-link", test_relative_link);
  g_test_add_func ("/util/relative-link-resolves", test_relative_link_resolves);
  g_test_add_func ("/util/relative-link-random", test_relative_link_random);
  g_test_add_func ("/util/path-is-clean", test_path_is_clean);
  g_test_add_func ("/util/path-is-under", test_path_is_under);
  g_test_add_func ("/util/path-child", test_path_child);
  g_test_add_func ("/util/parse-int", test_parse_int);
  g_test_add_func ("/util/read-uint", test_read_uint);
  g_test_add_func ("/util/checksum64", test_checksum64);
  g_test_add_func ("/util/str-hash", test_str_hash);
  g_test_add_func ("/util/str-hash-every-byte", test_str_hash_every_byte);
  g_test_add_func ("/util/sorted-keys", test_sorted_keys);
  g_test_add_func ("/util/siphash", test_siphash);
  g_test_add_func ("/util/format-int64", test_format_int64);
  g_test_add_func ("/util/read-fd-max", test_read_fd_max);
  return g_test_run ();
}
