/* theme.c - index.theme parsing and theme directories
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kicontheme.cpp unless a file
 * is named; where another generation differs, its profile row says so
 * (profile.c) and the rule names it.
 */
#include "theme.h"

#include "hash.h"
#include "keyfile.h"
#include "path.h"
#include "trusted.h"

#include <stdlib.h>
#include <string.h>

static void
dir_spec_free (gpointer data)
{
  KicDirSpec *dir = data;

  g_free (dir->name);
  g_free (dir);
}

void
kic_theme_desc_free (KicThemeDesc *desc)
{
  if (desc == NULL)
    return;
  g_free (desc->name);
  g_free (desc->origin);
  g_strfreev (desc->inherits);
  g_strfreev (desc->extensions);
  g_ptr_array_unref (desc->dirs);
  g_free (desc);
}

static gpointer
copy_dir_spec (gconstpointer src, G_GNUC_UNUSED gpointer data)
{
  KicDirSpec *dir = g_memdup2 (src, sizeof (KicDirSpec));

  dir->name = g_strdup (dir->name);
  return dir;
}

static KicThemeDesc *
desc_copy (const KicThemeDesc *desc)
{
  KicThemeDesc *copy = g_memdup2 (desc, sizeof *desc);

  copy->name = g_strdup (desc->name);
  copy->origin = g_strdup (desc->origin);
  copy->inherits = g_strdupv (desc->inherits);
  copy->extensions = g_strdupv (desc->extensions);
  copy->dirs = g_ptr_array_copy (desc->dirs, copy_dir_spec, NULL);
  g_ptr_array_set_free_func (copy->dirs, dir_spec_free);
  return copy;
}

static KicThemeDesc *
desc_new (const KicProfileTable *profile, const char *name, const char *origin)
{
  KicThemeDesc *desc = g_new0 (KicThemeDesc, 1);

  desc->name = g_strdup (name);
  desc->origin = g_strdup (origin);
  desc->dirs = g_ptr_array_new_with_free_func (dir_spec_free);
  /* kicontheme.cpp:88-95 (§6): the built-in group sizes, before the
   * theme's own <Group>Default= keys */
  memcpy (desc->group_default, profile->builtin_group_size, sizeof desc->group_default);
  return desc;
}

/* kicontheme.cpp:723-759: the contexts KDE accepts.  An empty Context= is
 * fine in KF5/KF6 but makes the directory invalid in KDE 3 and 4
 * (@v4.14.2 kicontheme.cpp:634-697, @v3.5.10 :519-578); Stock, Legacy, UI
 * and anything unknown are always invalid.  FileSystems is still accepted
 * in 5.103 (deprecated, built in), not in KF6 (@v6.13.0 :797-798). */
static gboolean
context_is_valid (const KicProfileTable *profile, const char *context)
{
  static const char *const accepted[] = {
    "Devices", "MimeTypes", "Applications", "Actions", "Animations",
    "Categories", "Emblems", "Emotes", "International", "Places", "Status", NULL,
  };

  if (context[0] == '\0')
    return !profile->context_type_required;
  if (strcmp (context, "FileSystems") == 0)
    return profile->filesystems_valid;
  return g_strv_contains (accepted, context);
}

/* Sizes beyond this are refused (see parse_dir_spec). */
#define KIC_MAX_DIR_SIZE (1 << 20)

/* |V| <= KIC_MAX_DIR_SIZE, in 64 bits: ABS (G_MININT) is undefined */
static gboolean
size_in_range (int v)
{
  return ABS ((gint64) v) <= KIC_MAX_DIR_SIZE;
}

/* kicontheme.cpp:711-778, KIconThemeDir::KIconThemeDir */
static KicDirSpec *
parse_dir_spec (const KicProfileTable *profile, GKeyFile *kf, const char *dirname)
{
  KicDirSpec *dir = g_new0 (KicDirSpec, 1);
  g_autofree char *context = NULL;
  g_autofree char *type = NULL;

  dir->name = g_strdup (dirname);
  /* :712-713: Size defaults to 0, Scale to 1 (KDE 3/4 know no Scale) */
  dir->size = kic_keyfile_get_int (kf, dirname, "Size", 0);
  dir->scale = profile->scaled_dirs ? kic_keyfile_get_int (kf, dirname, "Scale", 1) : 1;
  dir->min_size = 1;
  dir->max_size = 50;
  dir->threshold = 2;
  /* :717: a directory without a size is invalid */
  if (dir->size == 0)
    return dir;
  context = kic_keyfile_get_string (kf, dirname, "Context", "");
  if (!context_is_valid (profile, context))
    return dir;
  /* :760: Type defaults to Threshold; KDE 3/4 require it */
  type = kic_keyfile_get_string (kf, dirname, "Type", profile->context_type_required ? "" : "Threshold");
  if (strcmp (type, "Fixed") == 0)
    dir->type = KIC_DIR_FIXED;
  else if (strcmp (type, "Scalable") == 0)
    dir->type = KIC_DIR_SCALABLE;
  else if (strcmp (type, "Threshold") == 0)
    dir->type = KIC_DIR_THRESHOLD;
  else
    return dir;
  /* :771-776: MinSize/MaxSize default to Size; Threshold to 2 */
  if (dir->type == KIC_DIR_SCALABLE)
    {
      dir->min_size = kic_keyfile_get_int (kf, dirname, "MinSize", dir->size);
      dir->max_size = kic_keyfile_get_int (kf, dirname, "MaxSize", dir->size);
    }
  else if (dir->type == KIC_DIR_THRESHOLD)
    dir->threshold = kic_keyfile_get_int (kf, dirname, "Threshold", 2);
  /* KDE takes any int here and then overflows in its size arithmetic
   * (undefined behaviour); no real theme has an icon a million pixels
   * wide, so such a directory is treated as invalid */
  if (!size_in_range (dir->size) || !size_in_range (dir->min_size) || !size_in_range (dir->max_size)
      || !size_in_range (dir->threshold))
    return dir;
  dir->valid = TRUE;
  return dir;
}

/* kicontheme.cpp:344-351: in Inherits=, "default" means hicolor except in
 * hicolor itself; KDE 3/4 send hicolor and default to their own default
 * theme instead, except in that theme (@v4.14.2 kicontheme.cpp:194-200,
 * @v3.5.10 :150-152). */
static void
inherits_rewrite (const KicProfileTable *profile, const char *name, char **inherits)
{
  for (guint i = 0; inherits[i] != NULL; i++)
    {
      const char *to = NULL;

      if (profile->inherits_to_default)
        {
          if (strcmp (name, profile->default_theme) != 0
              && (strcmp (inherits[i], "default") == 0 || strcmp (inherits[i], "hicolor") == 0))
            to = profile->default_theme;
        }
      else if (strcmp (name, "hicolor") != 0 && strcmp (inherits[i], "default") == 0)
        to = "hicolor";
      if (to != NULL)
        {
          g_free (inherits[i]);
          inherits[i] = g_strdup (to);
        }
    }
}

KicThemeDesc *
kic_theme_desc_parse (const KicProfileTable *profile, const char *name, const char *origin, const char *data,
                      gsize length, const char *section, GError **error)
{
  static const char *const group_key[KIC_GROUP_LAST] = {
    "DesktopDefault", "ToolbarDefault", "MainToolbarDefault",
    "SmallDefault", "PanelDefault", "DialogDefault",
  };
  g_autoptr (GKeyFile) kf = kic_keyfile_load (data, length, origin, error);
  g_autoptr (KicThemeDesc) desc = NULL;
  g_auto (GStrv) dirs = NULL;
  g_auto (GStrv) scaled = NULL;

  if (kf == NULL)
    return NULL;
  desc = desc_new (profile, name, origin);
  desc->inherits = kic_keyfile_get_list (kf, section, "Inherits", NULL);
  inherits_rewrite (profile, name, desc->inherits);
  desc->follows_color_scheme = kic_keyfile_get_bool (kf, section, "FollowsColorScheme", FALSE);
  /* :357-358: KDE-Extensions=, default .png .svgz .svg .xpm in that order
   * (KF6 6.23-6.24: SVG first, profile.c); KDE 3/4 always search those
   * four (@v4.14.2 kiconloader.cpp:903-991) */
  desc->extensions = profile->theme_extensions
                       ? kic_keyfile_get_list (kf, section, "KDE-Extensions", profile->default_extensions)
                       : g_strsplit (profile->default_extensions, ",", -1);
  /* :383-386: <Group>Default= overrides the built-in group size */
  for (int g = 0; g < KIC_GROUP_LAST; g++)
    {
      int size = kic_keyfile_get_int (kf, section, group_key[g], desc->group_default[g]);

      /* an absurd size would only overflow later: keep the built-in one */
      if (size >= 1 && size <= 4096)
        desc->group_default[g] = size;
    }
  /* :362: Directories= then ScaledDirectories= (KF only) */
  dirs = kic_keyfile_get_list (kf, section, "Directories", NULL);
  scaled = profile->scaled_dirs ? kic_keyfile_get_list (kf, section, "ScaledDirectories", NULL)
                                : g_new0 (char *, 1);
  for (guint i = 0; dirs[i] != NULL; i++)
    g_ptr_array_add (desc->dirs, parse_dir_spec (profile, kf, dirs[i]));
  for (guint i = 0; scaled[i] != NULL; i++)
    g_ptr_array_add (desc->dirs, parse_dir_spec (profile, kf, scaled[i]));
  return g_steal_pointer (&desc);
}

static void
add_hicolor_dir (KicThemeDesc *desc, const char *name, KicDirType type, int size, int min, int max)
{
  KicDirSpec *dir = g_new0 (KicDirSpec, 1);

  dir->name = g_strdup (name);
  dir->valid = TRUE;
  dir->type = type;
  dir->size = size;
  dir->scale = 1;
  dir->min_size = type == KIC_DIR_SCALABLE ? min : 1;
  dir->max_size = type == KIC_DIR_SCALABLE ? max : 50;
  dir->threshold = 2;
  g_ptr_array_add (desc->dirs, dir);
}

/* The hicolor.theme of kiconthemes gives its filesystems directories
 * Context=FileSystems, which KF6 no longer accepts (§2.2). */
static void
mark_filesystems (const KicProfileTable *profile, KicThemeDesc *desc)
{
  KicDirSpec *dir = g_ptr_array_index (desc->dirs, desc->dirs->len - 1);

  if (!profile->filesystems_valid && g_str_has_suffix (dir->name, "/filesystems"))
    dir->valid = FALSE;
}

/* kiconthemes embeds its own hicolor description (src/hicolor.theme, put in
 * the :/icons resource by src/hicolor.qrc), and :/icons comes first among
 * the bases (kicontheme.cpp:296), so KDE never reads the index.theme of the
 * hicolor-icon-theme package.  The description lists, for each size
 * directory in this order, the contexts below plus twelve stock/ contexts;
 * Context=Stock is invalid (:748), so those are left out here.  Fixed sizes
 * are Threshold directories (threshold 2); 256x256 and 512x512 are Scalable
 * from 64; scalable/ is Scalable from 1 up to 256, or 512 for the contexts
 * marked so; symbolic/apps is Scalable 8-512. */
typedef struct {
  char *data;
  gsize length;
  char *name;
  KicThemeDesc *desc;
} CachedDesc;

static void
cached_desc_free (gpointer data)
{
  CachedDesc *cached = data;

  g_free (cached->data);
  g_free (cached->name);
  kic_theme_desc_free (cached->desc);
  g_free (cached);
}

GHashTable *
kic_theme_desc_cache_new (void)
{
  return g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, cached_desc_free);
}

KicThemeDesc *
kic_theme_desc_parse_cached (GHashTable *cache, const KicProfileTable *profile, const char *name, const char *origin,
                             const char *data, gsize length, const char *section, GError **error)
{
  g_autofree char *key = NULL;
  CachedDesc *cached;
  KicThemeDesc *desc;

  if (cache == NULL)
    return kic_theme_desc_parse (profile, name, origin, data, length, section, error);
  key = g_strconcat (origin, "\n", section, NULL);
  cached = g_hash_table_lookup (cache, key);

  if (cached != NULL && cached->length == length && memcmp (cached->data, data, length) == 0
      && strcmp (cached->name, name) == 0)
    return desc_copy (cached->desc);
  desc = kic_theme_desc_parse (profile, name, origin, data, length, section, error);
  if (desc == NULL)
    return NULL;
  cached = g_new0 (CachedDesc, 1);
  cached->data = g_memdup2 (data, length);
  cached->length = length;
  cached->name = g_strdup (name);
  cached->desc = desc_copy (desc);
  g_hash_table_replace (cache, g_steal_pointer (&key), cached);
  return desc;
}

KicThemeDesc *
kic_theme_desc_hicolor_embedded (const KicProfileTable *profile)
{
  static const struct {
    const char *name;
    int scalable_max;
  } contexts[] = {
    { "actions", 256 }, { "animations", 256 }, { "apps", 256 }, { "categories", 256 },
    { "devices", 512 }, { "emblems", 256 }, { "emotes", 512 }, { "filesystems", 256 },
    { "intl", 512 }, { "mimetypes", 256 }, { "places", 512 }, { "status", 256 },
  };
  static const int threshold_sizes[] = { 16, 22, 24, 32, 36, 48, 64, 72, 96, 128, 192 };
  KicThemeDesc *desc = desc_new (profile, "hicolor", ":/icons/hicolor/index.theme");

  desc->inherits = g_new0 (char *, 1);
  /* hicolor.theme has no KDE-Extensions=: the release's default */
  desc->extensions = g_strsplit (profile->default_extensions, ",", -1);
  for (guint s = 0; s < G_N_ELEMENTS (threshold_sizes); s++)
    for (guint c = 0; c < G_N_ELEMENTS (contexts); c++)
      {
        g_autofree char *name = g_strdup_printf ("%dx%d/%s", threshold_sizes[s],
                                                 threshold_sizes[s], contexts[c].name);

        add_hicolor_dir (desc, name, KIC_DIR_THRESHOLD, threshold_sizes[s], 0, 0);
        mark_filesystems (profile, desc);
      }
  for (int big = 256; big <= 512; big *= 2)
    for (guint c = 0; c < G_N_ELEMENTS (contexts); c++)
      {
        g_autofree char *name = g_strdup_printf ("%dx%d/%s", big, big, contexts[c].name);

        add_hicolor_dir (desc, name, KIC_DIR_SCALABLE, big, 64, big);
        mark_filesystems (profile, desc);
      }
  for (guint c = 0; c < G_N_ELEMENTS (contexts); c++)
    {
      g_autofree char *name = g_strconcat ("scalable/", contexts[c].name, NULL);

      add_hicolor_dir (desc, name, KIC_DIR_SCALABLE, 128, 1, contexts[c].scalable_max);
      mark_filesystems (profile, desc);
    }
  add_hicolor_dir (desc, "symbolic/apps", KIC_DIR_SCALABLE, 16, 8, 512);
  return desc;
}

/* KDE computes in int and may overflow (undefined behaviour) on absurd
 * sizes; we compute in 64 bits and clamp, which is what KDE's wrapped
 * arithmetic gives for any size a real theme has. */
static int
clamp_int (gint64 v)
{
  return (int) CLAMP (v, -G_MAXINT, G_MAXINT);
}

/* kicontheme.cpp:196-206, the MatchExact test */
gboolean
kic_dir_spec_exact (const KicDirSpec *dir, int size)
{
  switch (dir->type)
    {
    case KIC_DIR_FIXED:
      return dir->size == size;
    case KIC_DIR_SCALABLE:
      return size >= dir->min_size && size <= dir->max_size;
    case KIC_DIR_THRESHOLD:
      return ABS ((gint64) dir->size - size) <= (gint64) dir->threshold;
    }
  return FALSE;
}

/* kicontheme.cpp:210-228, the MatchBest distance dw */
int
kic_dir_spec_distance (const KicDirSpec *dir, int size)
{
  gint64 s = size;

  switch (dir->type)
    {
    case KIC_DIR_FIXED:
      return clamp_int ((gint64) dir->size - s);
    case KIC_DIR_SCALABLE:
      if (s < dir->min_size)
        return clamp_int (dir->min_size - s);
      if (s > dir->max_size)
        return clamp_int (dir->max_size - s);
      return 0;
    case KIC_DIR_THRESHOLD:
      if (s < (gint64) dir->size - dir->threshold)
        return clamp_int ((gint64) dir->size - dir->threshold - s);
      if (s > (gint64) dir->size + dir->threshold)
        return clamp_int ((gint64) dir->size + dir->threshold - s);
      return 0;
    }
  return 0;
}

static void
theme_dir_free (gpointer data)
{
  KicThemeDir *dir = data;

  g_free (dir->path);
  g_free (dir->mirror);
  g_free (dir);
}

KicTheme *
kic_theme_new (KicThemeDesc *desc, GPtrArray *theme_bases, const KicResource *resource,
               gboolean dedup, KicFsIndex *index)
{
  KicTheme *theme = g_new0 (KicTheme, 1);
  g_autoptr (GHashTable) added = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);

  theme->ref = 1;
  theme->desc = desc;
  theme->dirs = g_ptr_array_new_with_free_func (theme_dir_free);
  theme->scaled_dirs = g_ptr_array_new_with_free_func (theme_dir_free);
  /* :360-380: directory name major, base minor; a path is added once
   * (KDE 3 has no such set, @v3.5.10 :164-181), only if the directory
   * exists; Scale > 1 goes to the scaled list */
  for (guint d = 0; d < desc->dirs->len; d++)
    {
      const KicDirSpec *spec = g_ptr_array_index (desc->dirs, d);

      for (guint b = 0; b < theme_bases->len; b++)
        {
          const char *base = g_ptr_array_index (theme_bases, b);
          g_autofree char *path = g_strconcat (base, "/", spec->name, NULL);
          g_autofree char *mirror = NULL;
          GHashTable *files = NULL;
          KicThemeDir *dir;

          /* a Qt resource directory exists when it holds something */
          if (base[0] == ':')
            {
              if (resource == NULL)
                continue;
              if (resource->dirs != NULL)
                {
                  if ((files = g_hash_table_lookup (resource->dirs, path)) == NULL)
                    continue;
                }
              else if (resource->mirror != NULL)
                mirror = g_strconcat (resource->mirror, "/", spec->name, NULL);
              else
                continue;
            }
          /* a directory behind one not every user may search is there
           * for some users: kept, each probe of it unknown (fsindex.h) */
          if ((dedup && g_hash_table_contains (added, path))
              || (files == NULL && kic_fs_index_stat (index, mirror ? mirror : path) != KIC_FS_DIR
                  && (mirror != NULL || !kic_fs_index_hidden (index, path))))
            continue;
          g_hash_table_add (added, g_strdup (path));
          if (!spec->valid)
            continue;
          dir = g_new0 (KicThemeDir, 1);
          dir->spec = spec;
          dir->path = g_steal_pointer (&path);
          dir->mirror = g_steal_pointer (&mirror);
          dir->resource_files = files;
          if (files == NULL && dir->mirror == NULL && !kic_path_has_dotdot (dir->path))
            {
              g_autofree char *clean = kic_path_clean (dir->path);
              g_autofree char *real = kic_fs_index_realpath (index, clean);

              dir->real = real != NULL && strcmp (real, clean) == 0;
            }
          theme->guessed_resource |= dir->mirror != NULL;
          g_ptr_array_add (spec->scale > 1 ? theme->scaled_dirs : theme->dirs, dir);
        }
    }
  return theme;
}

KicTheme *
kic_theme_new_nowhere (KicThemeDesc *desc)
{
  KicTheme *theme = g_new0 (KicTheme, 1);

  theme->ref = 1;
  theme->desc = desc;
  theme->dirs = g_ptr_array_new_with_free_func (theme_dir_free);
  theme->scaled_dirs = g_ptr_array_new_with_free_func (theme_dir_free);
  for (guint d = 0; d < desc->dirs->len; d++)
    {
      KicThemeDir *dir = g_new0 (KicThemeDir, 1);

      dir->spec = g_ptr_array_index (desc->dirs, d);
      dir->path = g_strconcat ("/@nowhere@/", desc->name, "/", dir->spec->name, NULL);
      g_ptr_array_add (theme->dirs, dir);
    }
  return theme;
}

KicTheme *
kic_theme_ref (KicTheme *theme)
{
  g_atomic_int_inc (&theme->ref);
  return theme;
}

void
kic_theme_free (KicTheme *theme)
{
  if (theme == NULL || !g_atomic_int_dec_and_test (&theme->ref))
    return;
  g_ptr_array_unref (theme->dirs);
  g_ptr_array_unref (theme->scaled_dirs);
  if (theme->gtk_caches != NULL)
    g_ptr_array_unref (theme->gtk_caches);
  kic_theme_desc_free (theme->desc);
  g_free (theme);
}

typedef struct {
  KicTheme *theme;
  guint generation;
} CachedTheme;

static void
cached_theme_free (gpointer data)
{
  kic_theme_free (((CachedTheme *) data)->theme);
  g_free (data);
}

GHashTable *
kic_theme_cache_new (void)
{
  return g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, cached_theme_free);
}

KicTheme *
kic_theme_cache_find (GHashTable *cache, const char *name, guint generation, GPtrArray *taken)
{
  CachedTheme *cached = g_hash_table_lookup (cache, name);

  if (cached == NULL || cached->generation != generation
      || (taken != NULL && g_ptr_array_find (taken, cached->theme, NULL)))
    return NULL;
  return kic_theme_ref (cached->theme);
}

void
kic_theme_cache_keep (GHashTable *cache, const char *name, guint generation, KicTheme *theme)
{
  CachedTheme *cached = g_hash_table_lookup (cache, name);

  if (cached != NULL && cached->generation == generation)
    return;
  cached = g_new0 (CachedTheme, 1);
  cached->theme = kic_theme_ref (theme);
  cached->generation = generation;
  g_hash_table_replace (cache, g_strdup (name), cached);
}

gboolean
kic_theme_is_valid (const KicTheme *theme)
{
  return theme->dirs->len > 0 || theme->scaled_dirs->len > 0;
}
