/* test-gtkcache.c - GTK's icon-theme.cache read as KIconThemes a8749c1
 * reads it
 *
 * The caches are laid out here by hand from GTK's format (gtk/
 * updateiconcache.c: header, hash table, directory list, icons, names,
 * image lists, big-endian), never taken from the program.
 */
#include "gtkcache.h"

#include <string.h>

typedef struct {
  const char *name;
  guint16 dirs[4];
  guint n_dirs;
} Icon;

static void
put32 (guint8 *p, guint32 off, guint32 v)
{
  p[off] = (guint8) (v >> 24);
  p[off + 1] = (guint8) (v >> 16);
  p[off + 2] = (guint8) (v >> 8);
  p[off + 3] = (guint8) v;
}

static guint32
align4 (guint32 v)
{
  return (v + 3) & ~3u;
}

/* A version 1.0 cache of DIRS and ICONS with N_BUCKETS buckets.
 * transfer full */
static GBytes *
build_cache (const char *const *dirs, const Icon *icons, guint n_icons, guint n_buckets)
{
  guint n_dirs = g_strv_length ((char **) dirs);
  g_autofree guint32 *dir_name = g_new0 (guint32, n_dirs + 1);
  g_autofree guint32 *icon_at = g_new0 (guint32, n_icons + 1);
  g_autofree guint32 *name_at = g_new0 (guint32, n_icons + 1);
  g_autofree guint32 *images_at = g_new0 (guint32, n_icons + 1);
  guint32 hash_at = 12, dirs_at, pos;
  guint8 *p;

  dirs_at = hash_at + 4 + 4 * n_buckets;
  pos = dirs_at + 4 + 4 * n_dirs;
  for (guint d = 0; d < n_dirs; d++)
    {
      dir_name[d] = pos;
      pos += (guint32) strlen (dirs[d]) + 1;
    }
  pos = align4 (pos);
  for (guint i = 0; i < n_icons; i++)
    {
      icon_at[i] = pos;
      pos += 12;
      name_at[i] = pos;
      pos = align4 (pos + (guint32) strlen (icons[i].name) + 1);
      images_at[i] = pos;
      pos += 4 + 8 * icons[i].n_dirs;
    }
  p = g_malloc0 (pos);
  p[1] = 1; /* major 1, minor 0 */
  put32 (p, 4, hash_at);
  put32 (p, 8, dirs_at);
  put32 (p, hash_at, n_buckets);
  for (guint b = 0; b < n_buckets; b++)
    put32 (p, hash_at + 4 + 4 * b, 0xffffffff);
  put32 (p, dirs_at, n_dirs);
  for (guint d = 0; d < n_dirs; d++)
    {
      put32 (p, dirs_at + 4 + 4 * d, dir_name[d]);
      memcpy (p + dir_name[d], dirs[d], strlen (dirs[d]));
    }
  /* each bucket's chain in reverse, so that icons come in the given order */
  for (guint i = n_icons; i-- > 0;)
    {
      guint32 b = kic_gtk_cache_hash (icons[i].name) % n_buckets;
      guint32 head = hash_at + 4 + 4 * b;

      put32 (p, icon_at[i], (guint32) p[head] << 24 | (guint32) p[head + 1] << 16 | (guint32) p[head + 2] << 8
                               | p[head + 3]);
      put32 (p, head, icon_at[i]);
      put32 (p, icon_at[i] + 4, name_at[i]);
      put32 (p, icon_at[i] + 8, images_at[i]);
      memcpy (p + name_at[i], icons[i].name, strlen (icons[i].name));
      put32 (p, images_at[i], icons[i].n_dirs);
      for (guint j = 0; j < icons[i].n_dirs; j++)
        {
          p[images_at[i] + 4 + 8 * j] = (guint8) (icons[i].dirs[j] >> 8);
          p[images_at[i] + 5 + 8 * j] = (guint8) icons[i].dirs[j];
        }
    }
  return g_bytes_new_take (p, pos);
}

static const char *const small_dirs[] = { "actions/16", "actions/32", "apps/48", NULL };
static const Icon small_icons[] = {
  { "doc", { 1 }, 1 },
  { "app", { 0, 2 }, 2 },
  { "org.kde.thing", { 2 }, 1 },
};

static void
test_hash (void)
{
  /* GTK's icon_name_hash(): h = h * 31 + c over signed chars */
  g_assert_cmpuint (kic_gtk_cache_hash ("a"), ==, 97);
  g_assert_cmpuint (kic_gtk_cache_hash ("doc"), ==, (100u * 31 + 111) * 31 + 99);
  /* "é" in UTF-8: 0xc3 0xa9, each a negative signed char */
  g_assert_cmpuint (kic_gtk_cache_hash ("\xc3\xa9"), ==, (guint32) (-61 * 31 - 87));
}

static void
test_stem (void)
{
  g_autofree char *a = kic_gtk_cache_stem ("doc.svg");
  g_autofree char *b = kic_gtk_cache_stem ("org.kde.thing.png");
  g_autofree char *c = kic_gtk_cache_stem ("plain");

  g_assert_cmpstr (a, ==, "doc");
  g_assert_cmpstr (b, ==, "org.kde.thing");
  g_assert_cmpstr (c, ==, "plain");
}

static void
test_parse (void)
{
  /* one bucket (every icon in one chain) and many (mostly empty ones) */
  for (guint nb = 1; nb <= 64; nb *= 4)
    {
      g_autoptr (GBytes) bytes = build_cache (small_dirs, small_icons, G_N_ELEMENTS (small_icons), nb);
      g_autoptr (GError) error = NULL;
      g_autoptr (KicGtkCache) cache
          = kic_gtk_cache_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);

      g_assert_no_error (error);
      g_assert_cmpuint (kic_gtk_cache_n_dirs (cache), ==, 3);
      g_assert_cmpstr (kic_gtk_cache_dir (cache, 2), ==, "apps/48");
      g_assert_true (kic_gtk_cache_lists (cache, "actions/32", "doc"));
      g_assert_false (kic_gtk_cache_lists (cache, "actions/16", "doc"));
      g_assert_true (kic_gtk_cache_lists (cache, "actions/16", "app"));
      g_assert_true (kic_gtk_cache_lists (cache, "apps/48", "app"));
      g_assert_true (kic_gtk_cache_lists (cache, "apps/48", "org.kde.thing"));
      g_assert_false (kic_gtk_cache_lists (cache, "apps/48", "missing"));
      g_assert_false (kic_gtk_cache_lists (cache, "apps/48", ""));
      /* the directory is compared whole, as Directories= names it */
      g_assert_false (kic_gtk_cache_lists (cache, "apps/48/", "app"));
    }
}

/* A cache gtk-update-icon-cache 3.24 wrote (tests/fuzz/seeds/gtkcache/
 * small.cache: a theme of actions/16/doc.svg, apps/48/doc.svg and
 * apps/48/org.kde.konsole.svg): its hash is GTK's, or nothing is found. */
static void
test_gtk_written (void)
{
  g_autofree char *data = NULL;
  gsize length;
  g_autoptr (KicGtkCache) cache = NULL;

  if (!g_file_get_contents ("tests/fuzz/seeds/gtkcache/small.cache", &data, &length, NULL))
    {
      g_test_skip ("run from the top of the source tree: tests/fuzz/seeds/gtkcache/small.cache");
      return;
    }
  cache = kic_gtk_cache_parse ((const guchar *) data, length, NULL);
  g_assert_nonnull (cache);
  g_assert_true (kic_gtk_cache_lists (cache, "actions/16", "doc"));
  g_assert_true (kic_gtk_cache_lists (cache, "apps/48", "doc"));
  g_assert_true (kic_gtk_cache_lists (cache, "apps/48", "org.kde.konsole"));
  g_assert_false (kic_gtk_cache_lists (cache, "actions/16", "org.kde.konsole"));
  g_assert_false (kic_gtk_cache_lists (cache, "apps/48", "index"));
}

/* The same name twice in one chain: KDE takes the first. */
static void
test_first_wins (void)
{
  static const Icon twice[] = { { "doc", { 0 }, 1 }, { "doc", { 1 }, 1 } };
  g_autoptr (GBytes) bytes = build_cache (small_dirs, twice, 2, 1);
  g_autoptr (KicGtkCache) cache
      = kic_gtk_cache_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);

  g_assert_nonnull (cache);
  g_assert_true (kic_gtk_cache_lists (cache, "actions/16", "doc"));
  g_assert_false (kic_gtk_cache_lists (cache, "actions/32", "doc"));
}

static KicGtkCache *
parse_edited (GBytes *bytes, guint32 at, guint32 value, gboolean use32)
{
  gsize n = g_bytes_get_size (bytes);
  g_autofree guint8 *p = g_memdup2 (g_bytes_get_data (bytes, NULL), n);

  if (use32)
    put32 (p, at, value);
  else
    {
      p[at] = (guint8) (value >> 8);
      p[at + 1] = (guint8) value;
    }
  return kic_gtk_cache_parse (p, n, NULL);
}

/* What KIconCache takes as bad is no cache at all; nothing is read out of
 * bounds (ASan) and a loop ends. */
static void
test_damaged (void)
{
  g_autoptr (GBytes) bytes = build_cache (small_dirs, small_icons, G_N_ELEMENTS (small_icons), 1);
  const guint8 *p = g_bytes_get_data (bytes, NULL);
  gsize n = g_bytes_get_size (bytes);
  guint32 head = (guint32) p[16] << 24 | (guint32) p[17] << 16 | (guint32) p[18] << 8 | p[19];
  KicGtkCache *c;

  /* major version 2 */
  g_assert_null (parse_edited (bytes, 0, 2, FALSE));
  /* the hash table off the end, misaligned, with no bucket */
  g_assert_null (parse_edited (bytes, 4, (guint32) n, TRUE));
  g_assert_null (parse_edited (bytes, 4, 13, TRUE));
  g_assert_null (parse_edited (bytes, 12, 0, TRUE));
  /* a chain that loops on itself */
  g_assert_null (parse_edited (bytes, head, head, TRUE));
  /* an icon's name off the end */
  g_assert_null (parse_edited (bytes, head + 4, (guint32) n + 4, TRUE));
  /* every cut of the file: none is read past its end; a chain whose
   * head lies past the end is empty (a8749c1 :280), so a cut that keeps
   * the first icons whole lists those (doc: its 12 bytes, its name padded
   * to 4, its image list of 12) */
  for (gsize cut = 0; cut < n; cut++)
    {
      c = kic_gtk_cache_parse (p, cut, NULL);
      if (c != NULL)
        {
          g_assert_true (cut < head + 12 || cut >= head + 28);
          g_assert_true (kic_gtk_cache_lists (c, "actions/32", "doc") == (cut >= head + 28));
        }
      kic_gtk_cache_free (c);
    }
  /* an image naming directory 3 of 3 */
  {
    static const Icon bad[] = { { "doc", { 3 }, 1 } };
    g_autoptr (GBytes) b = build_cache (small_dirs, bad, 1, 1);

    g_assert_null (kic_gtk_cache_parse (g_bytes_get_data (b, NULL), g_bytes_get_size (b), NULL));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gtkcache/hash", test_hash);
  g_test_add_func ("/gtkcache/stem", test_stem);
  g_test_add_func ("/gtkcache/parse", test_parse);
  g_test_add_func ("/gtkcache/gtk-written", test_gtk_written);
  g_test_add_func ("/gtkcache/first-wins", test_first_wins);
  g_test_add_func ("/gtkcache/damaged", test_damaged);
  return g_test_run ();
}
