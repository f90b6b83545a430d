/* system.c - kdeglobals, base directories, themes and the theme list
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless
 * kicontheme.cpp is named.
 */
#include "system.h"

#include "keyfile.h"
#include "kic.h"
#include "paths.h"

#include <string.h>

/* kicontheme.cpp:659: KIconTheme::defaultThemeName() */
#define KIC_DEFAULT_THEME "hicolor"
/* kicontheme.cpp:63-73: KF5 forces QIcon::fallbackThemeName() to breeze */
#define KIC_FALLBACK_THEME "breeze"

void
kic_system_free (KicSystem *system)
{
  if (system == NULL)
    return;
  kic_resolver_free (system->resolver);
  g_strfreev (system->data_dirs);
  g_strfreev (system->icon_bases);
  g_free (system->configured_theme);
  g_free (system->current_theme);
  g_free (system->app_name);
  if (system->kdeglobals)
    g_ptr_array_unref (system->kdeglobals);
  kic_fs_index_free (system->index);
  g_free (system);
}

/* The kdeglobals files KSharedConfig::openConfig() cascades, highest
 * priority first: $XDG_CONFIG_DIRS/kdeglobals in order. */
static GPtrArray *
load_kdeglobals (KicFsIndex *index, char **config_dirs)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_key_file_free);

  for (guint i = 0; config_dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (config_dirs[i], "kdeglobals", NULL);
      g_autofree char *data = NULL;
      g_autoptr (GError) error = NULL;
      GKeyFile *kf;
      gsize length;

      if (kic_fs_index_stat (index, path) == KIC_FS_NONE)
        continue;
      if (!kic_fs_index_read_file (index, path, &data, &length, &error))
        {
          kic_warning ("cannot read '%s': %s", path, error->message);
          continue;
        }
      kf = kic_keyfile_load (data, length, path, &error);
      if (kf == NULL)
        {
          kic_warning ("%s", error->message);
          continue;
        }
      g_ptr_array_add (files, kf);
    }
  return files;
}

static char *
kdeglobals_get (GPtrArray *kdeglobals, const char *group, const char *key)
{
  for (guint i = 0; i < kdeglobals->len; i++)
    {
      char *value = g_key_file_get_string (g_ptr_array_index (kdeglobals, i), group, key, NULL);

      if (value != NULL)
        return value;
    }
  return NULL;
}

/* kicontheme.cpp:567-597, KIconTheme::current(): kdeglobals [Icons] Theme=,
 * default breeze (in a Plasma session QIcon::themeName() holds the same
 * value); an empty name or "hicolor" means KIconTheme::defaultThemeName(). */
static char *
current_theme_name (const char *configured)
{
  if (configured[0] == '\0' || strcmp (configured, "hicolor") == 0)
    return g_strdup (KIC_DEFAULT_THEME);
  return g_strdup (configured);
}

/* kicontheme.cpp:292-302: the bases are ":/icons" (resources, handled as
 * the embedded hicolor), then every "<datadir>/icons" that exists, then
 * every "<datadir>/pixmaps" (QStandardPaths::locateAll). */
static char **
find_icon_bases (KicFsIndex *index, char **data_dirs)
{
  static const char *const kinds[] = { "icons", "pixmaps" };
  GPtrArray *bases = g_ptr_array_new ();

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint i = 0; data_dirs[i] != NULL; i++)
      {
        char *path = g_build_filename (data_dirs[i], kinds[k], NULL);

        if (kic_fs_index_stat (index, path) == KIC_FS_DIR)
          g_ptr_array_add (bases, path);
        else
          g_free (path);
      }
  g_ptr_array_add (bases, NULL);
  return (char **) g_ptr_array_free (bases, FALSE);
}

typedef struct {
  KicFsIndex *index;
  char **data_dirs;
  char **icon_bases;
  const char *app_name;
} ThemeLoader;

/* kicontheme.cpp:305-339: index.theme (else theme.desktop) from the first
 * base that has one; hicolor's comes from the resource :/icons first. */
static KicThemeDesc *
load_theme_desc (ThemeLoader *loader, const char *name, GPtrArray *disk_bases)
{
  if (strcmp (name, "hicolor") == 0)
    return kic_theme_desc_hicolor_kf5 ();
  for (guint b = 0; b < disk_bases->len; b++)
    {
      static const struct {
        const char *file;
        const char *section;
      } kinds[] = { { "index.theme", "Icon Theme" }, { "theme.desktop", "KDE Icon Theme" } };

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          g_autofree char *path = g_build_filename (g_ptr_array_index (disk_bases, b), kinds[k].file, NULL);
          g_autofree char *data = NULL;
          g_autoptr (GError) error = NULL;
          KicThemeDesc *desc;
          gsize length;

          if (kic_fs_index_stat (loader->index, path) == KIC_FS_NONE)
            continue;
          if (!kic_fs_index_read_file (loader->index, path, &data, &length, &error))
            {
              kic_warning ("cannot read '%s': %s", path, error->message);
              return NULL;
            }
          desc = kic_theme_desc_parse (name, path, data, length, kinds[k].section, &error);
          if (desc == NULL)
            kic_warning ("%s", error->message);
          return desc;
        }
    }
  return NULL;
}

/* kicontheme.cpp:268-339, KIconTheme::KIconTheme(): the theme's bases,
 * then its description laid over them.  NULL when the theme has no
 * description. */
static KicTheme *
load_theme (ThemeLoader *loader, const char *name)
{
  g_autoptr (GPtrArray) bases = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) disk_bases = g_ptr_array_new_with_free_func (g_free);
  KicThemeDesc *desc;

  /* :273-290: hicolor and locolor get "<datadir>/<app>/icons/<theme>"
   * first (defaultThemeName() is hicolor too) */
  if (loader->app_name[0] != '\0' && (strcmp (name, "hicolor") == 0 || strcmp (name, "locolor") == 0))
    for (guint i = 0; loader->data_dirs[i] != NULL; i++)
      {
        char *path = g_build_filename (loader->data_dirs[i], loader->app_name, "icons", name, NULL);

        if (kic_fs_index_stat (loader->index, path) != KIC_FS_NONE)
          g_ptr_array_add (bases, path);
        else
          g_free (path);
      }
  /* :305-316: every base where the theme is a directory */
  for (guint i = 0; loader->icon_bases[i] != NULL; i++)
    {
      char *path = g_build_filename (loader->icon_bases[i], name, NULL);

      if (kic_fs_index_stat (loader->index, path) == KIC_FS_DIR)
        {
          g_ptr_array_add (bases, g_strdup (path));
          g_ptr_array_add (disk_bases, path);
        }
      else
        g_free (path);
    }
  desc = load_theme_desc (loader, name, disk_bases);
  if (desc == NULL)
    return NULL;
  return kic_theme_new (desc, bases, loader->index);
}

/* The theme list ("links") being built, with KDE's de-duplication key. */
typedef struct {
  ThemeLoader *loader;
  GPtrArray *links;    /* KicTheme*, owned */
  GPtrArray *in_tree;  /* mThemesInTree: the keys already added */
} Chain;

static void add_inherited_themes (Chain *chain, const KicTheme *theme);

/* :528-542, addThemeByName(): the key is name + appname, while the root
 * was recorded under its bare name (:447) -- which is why the current
 * theme appears twice when it is also the fallback (breeze). */
static void
add_theme_by_name (Chain *chain, const char *name)
{
  g_autofree char *key = g_strconcat (name, chain->loader->app_name, NULL);
  KicTheme *theme;

  if (g_ptr_array_find_with_equal_func (chain->in_tree, key, g_str_equal, NULL))
    return;
  theme = load_theme (chain->loader, name);
  if (theme == NULL || !kic_theme_is_valid (theme))
    {
      kic_theme_free (theme);
      return;
    }
  g_ptr_array_add (chain->in_tree, g_steal_pointer (&key));
  g_ptr_array_add (chain->links, theme);
  add_inherited_themes (chain, theme);
}

/* :513-526, addInheritedThemes(): depth first, hicolor left for the end */
static void
add_inherited_themes (Chain *chain, const KicTheme *theme)
{
  char **inherits = theme->desc->inherits;

  for (guint i = 0; inherits[i] != NULL; i++)
    if (strcmp (inherits[i], "hicolor") != 0)
      add_theme_by_name (chain, inherits[i]);
}

/* :425-458, initIconThemes(), and :496-511, addBaseThemes() */
static GPtrArray *
build_links (ThemeLoader *loader, const char *current, char **used_theme)
{
  Chain chain = { loader, g_ptr_array_new_with_free_func ((GDestroyNotify) kic_theme_free),
                  g_ptr_array_new_with_free_func (g_free) };
  KicTheme *root = load_theme (loader, current);

  /* :433-442: an invalid current theme is replaced by hicolor */
  if (root == NULL || !kic_theme_is_valid (root))
    {
      kic_theme_free (root);
      root = load_theme (loader, KIC_DEFAULT_THEME);
      if (root != NULL && !kic_theme_is_valid (root))
        g_clear_pointer (&root, kic_theme_free);
    }
  if (root != NULL)
    {
      *used_theme = g_strdup (root->desc->name);
      g_ptr_array_add (chain.in_tree, g_strdup (root->desc->name));
      g_ptr_array_add (chain.links, root);
      add_inherited_themes (&chain, root);
      add_theme_by_name (&chain, KIC_FALLBACK_THEME);
      add_theme_by_name (&chain, "hicolor");
    }
  g_ptr_array_unref (chain.in_tree);
  return chain.links;
}

/* KIconLoaderGlobalData (:155-227): "<datadir>/mime/generic-icons" lines
 * "type/subtype:icon"; a later file wins, the '/' becomes '-'. */
static GHashTable *
load_generic_icons (KicFsIndex *index, char **data_dirs)
{
  GHashTable *map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; data_dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (data_dirs[i], "mime", "generic-icons", NULL);
      g_autofree char *data = NULL;
      g_auto (GStrv) lines = NULL;

      if (kic_fs_index_stat (index, path) != KIC_FS_FILE
          || !kic_fs_index_read_file (index, path, &data, NULL, NULL))
        continue;
      lines = g_strsplit (data, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        {
          char *colon = strchr (lines[l], ':');
          char *slash;

          if (lines[l][0] == '\0' || lines[l][0] == '#' || colon == NULL)
            continue;
          *colon = '\0';
          slash = strchr (lines[l], '/');
          if (slash != NULL)
            *slash = '-';
          g_hash_table_replace (map, g_strdup (lines[l]), g_strdup (colon + 1));
        }
    }
  return map;
}

/* :404-422: kdeglobals [<Group>Icons] Size=, else the first theme's
 * <Group>Default= */
static void
load_group_sizes (KicResolverSetup *setup, GPtrArray *kdeglobals, const KicTheme *root)
{
  static const char *const groups[KIC_GROUP_LAST] = {
    "DesktopIcons", "ToolbarIcons", "MainToolbarIcons", "SmallIcons", "PanelIcons", "DialogIcons",
  };

  for (int g = 0; g < KIC_GROUP_LAST; g++)
    {
      g_autofree char *value = kdeglobals_get (kdeglobals, groups[g], "Size");
      int size = value ? atoi (value) : 0;

      if ((size < 1 || size > 4096) && root != NULL)
        size = root->desc->group_default[g];
      setup->group_size[g] = size;
    }
}

/* A theme that holds nothing: what every other user's theme looks like to
 * a name it lacks.  Its one directory does not exist, so it probes in vain,
 * as a real theme without the name would. */
static KicTheme *
void_theme (void)
{
  static const char index[] = "[Icon Theme]\nDirectories=void\n[void]\nSize=48\nType=Scalable\nMinSize=1\nMaxSize=512\n";

  return kic_theme_new_nowhere (kic_theme_desc_parse ("@void@", "@void@", index, sizeof index - 1,
                                                      "Icon Theme", NULL));
}

KicResolver *
kic_system_new_resolver (KicSystem *system, const char *configured_theme, gboolean other_theme,
                         char **used_theme)
{
  const char *pics_path[] = { NULL, "icons", "pixmaps", NULL };
  g_autofree char *pics = g_strconcat (system->app_name, "/pics", NULL);
  g_autofree char *current = current_theme_name (configured_theme ? configured_theme : "");
  KicResolverSetup setup = { 0 };
  ThemeLoader loader = { system->index, system->data_dirs, system->icon_bases, system->app_name };
  char *used = NULL;

  if (other_theme)
    {
      Chain chain = { &loader, g_ptr_array_new_with_free_func ((GDestroyNotify) kic_theme_free),
                      g_ptr_array_new_with_free_func (g_free) };

      g_ptr_array_add (chain.links, void_theme ());
      g_ptr_array_add (chain.in_tree, g_strdup ("@void@"));
      add_theme_by_name (&chain, KIC_FALLBACK_THEME);
      add_theme_by_name (&chain, "hicolor");
      g_ptr_array_unref (chain.in_tree);
      setup.themes = chain.links;
      used = g_strdup ("@void@");
    }
  else
    setup.themes = build_links (&loader, current, &used);
  load_group_sizes (&setup, system->kdeglobals,
                    setup.themes->len > 0 ? g_ptr_array_index (setup.themes, 0) : NULL);
  setup.data_dirs = system->data_dirs;
  setup.data_home_hidden = TRUE;
  /* :452-457: the "User" group search paths -- set only after a theme was
   * found: without even hicolor initIconThemes() returns first (:436-441)
   * and the User group has nowhere to look */
  pics_path[0] = pics;
  setup.user_search_paths = setup.themes->len > 0 ? (char **) pics_path : (char **) pics_path + 3;
  setup.generic_icons = load_generic_icons (system->index, system->data_dirs);
  if (used_theme != NULL)
    *used_theme = used ? used : g_strdup ("");
  else
    g_free (used);
  return kic_resolver_new (&setup, system->index);
}

KicSystem *
kic_system_load (const KicSystemOptions *options, GError **error)
{
  g_autoptr (KicSystem) system = g_new0 (KicSystem, 1);
  g_auto (GStrv) config_dirs = NULL;
  g_autofree char *root = NULL;

  root = g_canonicalize_filename (options->root ? options->root : "/", NULL);
  if (!g_file_test (root, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR, "root '%s' is not a directory", root);
      return NULL;
    }
  system->index = kic_fs_index_new (root);
  system->app_name = g_strdup (options->app_name ? options->app_name : "plasmashell");
  system->data_dirs = options->data_dirs ? g_strdupv (options->data_dirs) : kic_paths_data_dirs ();
  config_dirs = options->config_dirs ? g_strdupv (options->config_dirs) : kic_paths_config_dirs ();
  system->kdeglobals = load_kdeglobals (system->index, config_dirs);
  if (options->theme != NULL)
    system->configured_theme = g_strdup (options->theme);
  else
    {
      system->configured_theme = kdeglobals_get (system->kdeglobals, "Icons", "Theme");
      if (system->configured_theme == NULL)
        system->configured_theme = g_strdup ("breeze");
    }
  system->icon_bases = find_icon_bases (system->index, system->data_dirs);
  system->resolver = kic_system_new_resolver (system, system->configured_theme, FALSE,
                                              &system->current_theme);
  return g_steal_pointer (&system);
}
