/* test-rcc.c - reading breeze out of a library image: a Qt resource tree
 * laid out by hand as rcc lays it out (qtbase rcc.cpp), between junk */
#include "rcc.h"

#include "diag.h"

#include <string.h>
#include <zstd.h>

static void
put_be (GByteArray *a, guint64 v, guint size)
{
  for (guint i = size; i-- > 0;)
    {
      guint8 b = (guint8) (v >> (8 * i));
      g_byte_array_append (a, &b, 1);
    }
}

/* a name table entry; returns its offset */
static guint32
add_name (GByteArray *names, const char *name)
{
  guint32 at = names->len;

  put_be (names, strlen (name), 2);
  put_be (names, kic_rcc_hash (name), 4);
  for (const char *c = name; *c; c++)
    put_be (names, (guchar) *c, 2);
  return at;
}

static void
add_dir (GByteArray *tree, guint32 name, guint32 count, guint32 first)
{
  put_be (tree, name, 4);
  put_be (tree, 2, 2);
  put_be (tree, count, 4);
  put_be (tree, first, 4);
  put_be (tree, 0, 8);
}

static void
add_file (GByteArray *tree, guint32 name, guint16 flags, guint32 data)
{
  put_be (tree, name, 4);
  put_be (tree, flags, 2);
  put_be (tree, 0, 4);
  put_be (tree, data, 4);
  put_be (tree, 0, 8);
}

static const char index_text[] = "[Icon Theme]\nName=Breeze\nDirectories=actions/16\n";

/* junk, data, names, tree, junk */
static GByteArray *
make_image (void)
{
  GByteArray *image = g_byte_array_new ();
  g_autoptr (GByteArray) data = g_byte_array_new ();
  g_autoptr (GByteArray) names = g_byte_array_new ();
  g_autoptr (GByteArray) tree = g_byte_array_new ();
  guchar frame[256];
  size_t n = ZSTD_compress (frame, sizeof frame, index_text, strlen (index_text), 3);
  guint32 svg_at, icons, breeze, index, actions, size16, a, b;

  g_assert_false (ZSTD_isError (n));
  put_be (data, n, 4);
  g_byte_array_append (data, frame, n);
  svg_at = data->len;
  put_be (data, 5, 4);
  g_byte_array_append (data, (const guint8 *) "<svg>", 5);
  icons = add_name (names, "icons");
  breeze = add_name (names, "breeze");
  index = add_name (names, "index.theme");
  actions = add_name (names, "actions");
  size16 = add_name (names, "16");
  a = add_name (names, "a.svg");
  b = add_name (names, "b.svg");
  add_dir (tree, 0, 1, 1);         /* 0: root */
  add_dir (tree, icons, 1, 2);     /* 1: icons */
  add_dir (tree, breeze, 2, 3);    /* 2: breeze */
  add_file (tree, index, 4, 0);    /* 3: index.theme, zstd */
  add_dir (tree, actions, 1, 5);   /* 4: actions */
  add_dir (tree, size16, 2, 6);    /* 5: 16 */
  add_file (tree, a, 0, svg_at);   /* 6 */
  add_file (tree, b, 0, svg_at);   /* 7 */
  for (int i = 0; i < 1000; i++)
    put_be (image, (guint64) i * 2654435761u, 4);
  g_byte_array_append (image, data->data, data->len);
  g_byte_array_append (image, names->data, names->len);
  g_byte_array_append (image, tree->data, tree->len);
  for (int i = 0; i < 1000; i++)
    put_be (image, 0, 1);
  return image;
}

static void
test_read (void)
{
  g_autoptr (GByteArray) image = make_image ();
  g_autoptr (GError) error = NULL;
  g_autoptr (KicRccBreeze) breeze = kic_rcc_read_breeze (image->data, image->len, &error);

  g_assert_no_error (error);
  g_assert_nonnull (breeze);
  g_assert_cmpuint (breeze->files->len, ==, 3);
  g_assert_true (g_ptr_array_find_with_equal_func (breeze->files, ":/icons/breeze/index.theme", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (breeze->files, ":/icons/breeze/actions/16/a.svg", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (breeze->files, ":/icons/breeze/actions/16/b.svg", g_str_equal, NULL));
  g_assert_cmpstr (breeze->index_theme, ==, index_text);
  g_assert_cmpuint (breeze->index_theme_length, ==, strlen (index_text));
}

/* Qt's qt_hash: "icons" by hand (h = (h << 4) + c: 0x69, 0x6f3, 0x6f9f,
 * 0x6fa5e, 0x6fa653; no nibble to fold yet); a long name as Debian 13's
 * libKF6BreezeIcons stores it (folding many times) */
static void
test_hash (void)
{
  g_assert_cmpuint (kic_rcc_hash ("icons"), ==, 0x6fa653);
  g_assert_cmpuint (kic_rcc_hash ("weather-showers-scattered-storm-night-symbolic.svg"), ==, 0xb3b1607);
  g_assert_cmpuint (kic_rcc_hash (""), ==, 0);
}

/* damaged images: no crash (ASan in check-asan), no made-up file */
static void
test_damaged (void)
{
  g_autoptr (GByteArray) image = make_image ();
  g_autoptr (GError) error = NULL;
  g_autoptr (KicRccBreeze) none = kic_rcc_read_breeze ((const guchar *) "junk", 4, &error);

  g_assert_null (none);
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  for (guint i = 0; i < 3000; i++)
    {
      g_autoptr (GByteArray) copy = g_byte_array_sized_new (image->len);
      g_autoptr (KicRccBreeze) breeze = NULL;
      gsize cut = g_test_rand_int_range (0, (gint32) image->len + 1);

      g_byte_array_append (copy, image->data, image->len);
      copy->data[g_test_rand_int_range (4000, (gint32) image->len)] = (guint8) g_test_rand_int ();
      breeze = kic_rcc_read_breeze (copy->data, i % 2 ? cut : copy->len, NULL);
      for (guint f = 0; breeze != NULL && f < breeze->files->len; f++)
        g_assert_true (g_str_has_prefix (g_ptr_array_index (breeze->files, f), ":/icons/breeze/"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rcc/read", test_read);
  g_test_add_func ("/rcc/hash", test_hash);
  g_test_add_func ("/rcc/damaged", test_damaged);
  return g_test_run ();
}
