/* test-gtkcache.c - GTK's icon-theme.cache read as KIconThemes a8749c1
 * reads it, and the lookup that uses it, on virtual indexes
 *
 * The caches are laid out here by hand from GTK's format (gtk/
 * updateiconcache.c: header, hash table, directory list, icons, names,
 * image lists, big-endian); expected counts follow kde-lookup.md §1.2 and
 * a8749c1's KIconThemeDir::iconPath() (a directory a valid cache does not
 * list the name in costs no call), never taken from the program.
 */
#include "gtkcache.h"
#include "diag.h"
#include "resolver.h"

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

/* --- the lookup with caches (theme-gtkcache.c, resolver-scan.c) --- */

static const char breeze_index[] = "[Icon Theme]\nName=Breeze\nKDE-Extensions=.svg\n"
                                   "Directories=actions/16,actions/22,actions/32,apps/48\n"
                                   "[actions/16]\nSize=16\nType=Fixed\n"
                                   "[actions/22]\nSize=22\nType=Fixed\n"
                                   "[actions/32]\nSize=32\nMinSize=32\nMaxSize=256\nType=Scalable\n"
                                   "[apps/48]\nSize=48\nMinSize=48\nMaxSize=256\nType=Scalable\n";
static const char *const breeze_dirs[] = { "actions/16", "actions/22", "actions/32", "apps/48", NULL };
#define B "/usr/share/icons/breeze"

typedef struct {
  KicFsIndex *index;
  KicResolver *resolver;
  KicProfile profile;
} Fixture;

static void
add (KicFsIndex *index, const char *path, KicFsType type)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);

  kic_fs_index_add (index, dir, base, type);
}

/* breeze with doc.svg in actions/32 and apps/48, and hidden.svg in
 * actions/22 that the cache does not list; the theme directory and the
 * others at 1 s, actions/16 at DIR16_NS, the cache at CACHE_NS (0: no
 * cache) */
static void
fixture_set (Fixture *f, gint64 cache_ns, gint64 dir16_ns)
{
  static const Icon icons[] = { { "doc", { 2, 3 }, 2 } };
  const char *data_dirs[] = { "/usr/share", NULL };
  const char *search[] = { "icons", "pixmaps", NULL };
  KicResolverSetup setup = { 0 };
  g_autoptr (GPtrArray) bases = g_ptr_array_new_with_free_func (g_free);
  KicTheme *theme;

  f->index = kic_fs_index_new_virtual ();
  for (guint d = 0; breeze_dirs[d] != NULL; d++)
    {
      g_autofree char *path = g_strconcat (B "/", breeze_dirs[d], NULL);

      add (f->index, path, KIC_FS_DIR);
      kic_fs_index_set_mtime (f->index, path, G_GINT64_CONSTANT (1000000000));
    }
  kic_fs_index_set_mtime (f->index, B, G_GINT64_CONSTANT (1000000000));
  kic_fs_index_set_mtime (f->index, B "/actions/16", dir16_ns);
  add (f->index, "/usr/share/pixmaps", KIC_FS_DIR);
  add (f->index, B "/index.theme", KIC_FS_FILE);
  add (f->index, B "/actions/32/doc.svg", KIC_FS_FILE);
  add (f->index, B "/apps/48/doc.svg", KIC_FS_FILE);
  add (f->index, B "/actions/22/hidden.svg", KIC_FS_FILE);
  if (cache_ns > 0)
    {
      g_autoptr (GBytes) bytes = build_cache (breeze_dirs, icons, G_N_ELEMENTS (icons), 7);

      kic_fs_index_add_contents (f->index, B, "icon-theme.cache", g_bytes_get_data (bytes, NULL),
                                 g_bytes_get_size (bytes));
      kic_fs_index_set_mtime (f->index, B "/icon-theme.cache", cache_ns);
    }
  g_ptr_array_add (bases, g_strdup (B));
  f->profile.table = kic_profile_table_for ("kf6", (const int[]) { 6, 30, 0 });
  f->profile.gtk_icon_cache = TRUE;
  theme = kic_theme_new (kic_theme_desc_parse (f->profile.table, "breeze", B "/index.theme", breeze_index,
                                               strlen (breeze_index), "Icon Theme", NULL),
                         bases, NULL, TRUE, f->index);
  kic_theme_use_gtk_caches (theme, f->index);
  setup.themes = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_theme_free);
  g_ptr_array_add (setup.themes, theme);
  setup.profile = &f->profile;
  setup.data_dirs = (char **) data_dirs;
  setup.data_home_hidden = TRUE;
  setup.user_search_paths = (char **) search;
  setup.generic_icons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  f->resolver = kic_resolver_new (&setup, f->index);
}

static void
fixture_free (Fixture *f)
{
  kic_resolver_free (f->resolver);
  kic_fs_index_free (f->index);
}

/* The calls of NAME at SIZE; its path into *PATH (may be NULL). */
static guint
calls_of (Fixture *f, const char *name, int size, gboolean list, char **path)
{
  g_autoptr (KicResult) r = kic_resolve (f->resolver, name, size, list);

  if (path != NULL)
    *path = g_strdup (r->path);
  if (list)
    g_assert_cmpuint (r->calls->len, ==, r->n_calls);
  return r->n_calls;
}

#define MS(n) ((gint64) (n) * 1000000)

/* A valid cache: MatchBest scans in Directories= order: actions/16,
 * actions/22 (not listed: no call), actions/32 (listed: its access hits,
 * Scalable 32-256 holds 48: dw 0, the scan ends) + 1 l10n stat. */
static void
test_lookup_valid (void)
{
  for (int list = 0; list < 2; list++)
    {
      Fixture f = { 0 };
      g_autofree char *path = NULL;

      fixture_set (&f, MS (2000), MS (1000));
      g_assert_cmpuint (calls_of (&f, "doc", 48, list, &path), ==, 2);
      g_assert_cmpstr (path, ==, B "/actions/32/doc.svg");
      /* a file the cache does not list is not seen, at no call in breeze */
      g_clear_pointer (&path, g_free);
      calls_of (&f, "hidden", 22, list, &path);
      g_assert_null (path);
      /* ... and no breeze directory can take a link */
      {
        KicTheme *theme = g_ptr_array_index (kic_resolver_themes (f.resolver), 0);

        for (guint i = 0; i < theme->dirs->len; i++)
          g_assert_false (kic_theme_dir_is_plantable (g_ptr_array_index (theme->dirs, i)));
      }
      fixture_free (&f);
    }
}

/* A cache older than a directory it lists, or than the theme directory,
 * or none: every directory is checked (3 accesses for doc at 48, the
 * last hits, + 1 l10n), and hidden.svg is found. */
static void
test_lookup_stale (void)
{
  const gint64 cases[][2] = { { MS (2000), MS (2001) }, { MS (999), MS (500) }, { 0, MS (1000) } };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int list = 0; list < 2; list++)
      {
        Fixture f = { 0 };
        g_autofree char *path = NULL;

        g_autoptr (GPtrArray) said = NULL;
        gboolean none_said = FALSE;

        g_ptr_array_unref (kic_diagnostics_take ());
        fixture_set (&f, cases[c][0], cases[c][1]);
        /* the admin is told why: a note naming the cache or its absence
         * (once per run: asked the first time) */
        said = kic_diagnostics_take ();
        none_said = list == 1;
        for (guint i = 0; i < said->len; i++)
          none_said |= strstr (g_ptr_array_index (said, i), cases[c][0] == 0 ? "has no icon-theme.cache"
                                                                             : "icon-theme.cache is not used")
                       != NULL;
        g_assert_true (none_said);
        g_assert_cmpuint (calls_of (&f, "doc", 48, list, NULL), ==, 4);
        calls_of (&f, "hidden", 22, list, &path);
        g_assert_cmpstr (path, ==, B "/actions/22/hidden.svg");
        fixture_free (&f);
      }
}

/* Times are compared to the millisecond (QFileInfo::lastModified()): a
 * cache written in the same millisecond as a directory is not older, one
 * a millisecond before is. */
static void
test_lookup_same_ms (void)
{
  Fixture f = { 0 };

  fixture_set (&f, MS (1000) + 1, MS (1000) + 999999);
  g_assert_cmpuint (calls_of (&f, "doc", 48, FALSE, NULL), ==, 2);
  fixture_free (&f);
  fixture_set (&f, MS (1000) + 999999, MS (1001));
  g_assert_cmpuint (calls_of (&f, "doc", 48, FALSE, NULL), ==, 4);
  fixture_free (&f);
}

/* A directory list that gives one long name 65 536 times (a cache of
 * under 1 MB whose names, copied each time, would take gigabytes): one
 * string, shared; a list longer than a 16-bit index can name is refused
 * before a name is read. */
static void
test_shared_names (void)
{
  const guint32 n = G_MAXUINT16 + 1u, name_len = 1u << 16;
  guint32 dirs_at = 20, name_at = dirs_at + 4 + 4 * n;
  gsize length = name_at + name_len + 1;
  g_autofree guint8 *p = g_malloc0 (length);
  g_autoptr (GError) error = NULL;
  KicGtkCache *cache;

  p[1] = 1;
  put32 (p, 4, 12);
  put32 (p, 8, dirs_at);
  put32 (p, 12, 1);
  put32 (p, 16, 0xffffffff);
  put32 (p, dirs_at, n);
  for (guint32 i = 0; i < n; i++)
    put32 (p, dirs_at + 4 + 4 * i, name_at);
  memset (p + name_at, 'x', name_len);
  cache = kic_gtk_cache_parse (p, length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (kic_gtk_cache_n_dirs (cache), ==, n);
  g_assert_true (kic_gtk_cache_dir (cache, 0) == kic_gtk_cache_dir (cache, n - 1));
  kic_gtk_cache_free (cache);
  put32 (p, dirs_at, n + 1);
  g_assert_null (kic_gtk_cache_parse (p, length, &error));
  g_assert_nonnull (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gtkcache/hash", test_hash);
  g_test_add_func ("/gtkcache/shared-names", test_shared_names);
  g_test_add_func ("/gtkcache/stem", test_stem);
  g_test_add_func ("/gtkcache/parse", test_parse);
  g_test_add_func ("/gtkcache/gtk-written", test_gtk_written);
  g_test_add_func ("/gtkcache/first-wins", test_first_wins);
  g_test_add_func ("/gtkcache/damaged", test_damaged);
  g_test_add_func ("/gtkcache/lookup-valid", test_lookup_valid);
  g_test_add_func ("/gtkcache/lookup-stale", test_lookup_stale);
  g_test_add_func ("/gtkcache/lookup-same-ms", test_lookup_same_ms);
  return g_test_run ();
}
