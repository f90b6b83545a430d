/* iconloader.c - kdeglobals, base directories, themes and the theme list
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless
 * kicontheme.cpp is named; "§" is kde-lookup.md, whose sections give the
 * other generations' lines.  What differs per generation comes from the
 * profile table (profile.c).
 */
#include "iconloader.h"

#include "diag.h"
#include "keyfile.h"
#include "mime-icons.h"
#include "number.h"
#include "path.h"
#include "paths.h"

#include <string.h>

/* A theme list longer than this is cut: KDE 3 may list hicolor again and
 * again when a broken hicolor inherits itself (it would loop forever). */
#define KIC_MAX_THEMES 64

void
kic_system_free (KicSystem *system)
{
  if (system == NULL)
    return;
  kic_resolver_free (system->resolver);
  if (system->theme_names != NULL)
    g_hash_table_unref (system->theme_names);
  if (system->generic_icons != NULL)
    g_hash_table_unref (system->generic_icons);
  if (system->themes != NULL)
    g_hash_table_unref (system->themes);
  if (system->theme_descs != NULL)
    g_hash_table_unref (system->theme_descs);
  kic_profile_free (system->profile);
  g_strfreev (system->data_dirs);
  kic_session_dirs_clear (&system->session);
  g_strfreev (system->config_dirs);
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
 * priority first: $XDG_CONFIG_DIRS/kdeglobals in order (KF), or KDE 3/4's
 * fixed config directories. */
static GPtrArray *
load_kdeglobals (KicFsIndex *index, const KicProfileTable *profile, char **config_dirs)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_key_file_free);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; profile->config_files != NULL && profile->config_files[i] != NULL; i++)
    g_ptr_array_add (paths, g_strdup (profile->config_files[i]));
  for (guint i = 0; profile->config_files == NULL && config_dirs[i] != NULL; i++)
    g_ptr_array_add (paths, g_build_filename (config_dirs[i], "kdeglobals", NULL));
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *host = kic_fs_index_host_path (index, path);
      g_autofree char *data = NULL;
      g_autoptr (GError) error = NULL;
      GKeyFile *kf;
      gsize length;

      if (kic_fs_index_stat (index, path) == KIC_FS_NONE)
        continue;
      if (!kic_fs_index_read_file (index, path, &data, &length, &error))
        {
          kic_warning ("%s", error->message);
          continue;
        }
      kf = kic_keyfile_load (data, length, host, &error);
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
 * value); an empty name or "hicolor" means KIconTheme::defaultThemeName()
 * (KDE 4: oxygen, §2.3). */
static char *
current_theme_name (const KicProfileTable *profile, const char *configured)
{
  if (configured[0] == '\0' || (profile->hicolor_is_default && strcmp (configured, "hicolor") == 0))
    return g_strdup (profile->default_theme);
  return g_strdup (configured);
}

/* Add "<dir>/<kind>" for each of DIRS that is a directory, unless DEDUP
 * finds it in BASES already. */
static void
add_bases (GPtrArray *bases, KicFsIndex *index, const char *const *dirs, const char *kind,
           gboolean dedup)
{
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      char *path = g_build_filename (dirs[i], kind, NULL);

      /* (one behind a directory not every user may search is there for
       * some users: kept, every probe below it unknown, fsindex.h) */
      if ((kic_fs_index_stat (index, path) == KIC_FS_DIR || kic_fs_index_hidden (index, path))
          && !(dedup && g_ptr_array_find_with_equal_func (bases, path, g_str_equal, NULL)))
        g_ptr_array_add (bases, path);
      else
        g_free (path);
    }
}

/* The theme bases, in the order of §2: KF (kicontheme.cpp:292-302)
 * ":/icons" (resources, handled as the embedded themes), then every
 * "<datadir>/icons", then every "<datadir>/pixmaps" (QStandardPaths::
 * locateAll).  KDE 4 (@v4.14.2 kicontheme.cpp:152-178): KStandardDirs'
 * "icon" ($KDEDIRS=/usr), "xdgdata-icon", /usr/share/pixmaps and
 * "xdgdata-pixmap", without duplicates.  KDE 3 (@v3.5.10 :95-123): the
 * same lists, duplicates dropped only within one list, and the xdg list
 * starts with $KDEDIRS/share (kstandarddirs.cpp:1377-1413). */
static char **
find_icon_bases (KicFsIndex *index, const KicProfileTable *profile, char **data_dirs)
{
  static const char *const kdedirs_share[] = { "/usr/share", NULL };
  GPtrArray *bases = g_ptr_array_new ();

  switch (profile->generation)
    {
    case KIC_KDE_KF5:
    case KIC_KDE_KF6:
      add_bases (bases, index, (const char *const *) data_dirs, "icons", TRUE);
      add_bases (bases, index, (const char *const *) data_dirs, "pixmaps", TRUE);
      break;
    case KIC_KDE_KDE4:
      add_bases (bases, index, kdedirs_share, "icons", TRUE);
      add_bases (bases, index, (const char *const *) data_dirs, "icons", TRUE);
      add_bases (bases, index, kdedirs_share, "pixmaps", TRUE);
      add_bases (bases, index, (const char *const *) data_dirs, "pixmaps", TRUE);
      break;
    case KIC_KDE_KDE3:
      {
        g_autoptr (GPtrArray) xdg = g_ptr_array_new ();
        g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func (g_free);

        g_ptr_array_add (xdg, (char *) kdedirs_share[0]);
        for (guint i = 0; data_dirs[i] != NULL; i++)
          if (!g_ptr_array_find_with_equal_func (xdg, data_dirs[i], g_str_equal, NULL))
            g_ptr_array_add (xdg, data_dirs[i]);
        g_ptr_array_add (xdg, NULL);
        add_bases (bases, index, kdedirs_share, "icons", FALSE);
        add_bases (list, index, (const char *const *) xdg->pdata, "icons", TRUE);
        add_bases (list, index, kdedirs_share, "pixmaps", FALSE);
        g_ptr_array_extend_and_steal (bases, g_steal_pointer (&list));
        list = g_ptr_array_new_with_free_func (g_free);
        add_bases (list, index, (const char *const *) xdg->pdata, "pixmaps", TRUE);
        g_ptr_array_extend_and_steal (bases, g_steal_pointer (&list));
      }
      break;
    }
  g_ptr_array_add (bases, NULL);
  return (char **) g_ptr_array_free (bases, FALSE);
}

typedef struct {
  KicFsIndex *index;
  const KicProfile *profile;
  char **data_dirs;
  char **icon_bases;
  const char *app_name;
  gboolean platform_theme; /* the process loads the KDE platform theme (profile.h) */
  GHashTable *themes;      /* KicSystem.themes, or NULL */
  GHashTable *descs;       /* KicSystem.theme_descs */
} ThemeLoader;

/* kicontheme.cpp:305-339: index.theme (else theme.desktop; KDE 3/4:
 * index.desktop) from the first base that has one.  KF's hicolor has its
 * own description in the resource :/icons, the first base up to KF6 6.13
 * (@v6.13.0 kicontheme.cpp:376-377), so the disk's is never read; from
 * 6.14 :/icons is the last base (@v6.14.0 kicontheme.cpp:381-409), so
 * the disk's wins where there is one. */
static KicThemeDesc *
load_theme_desc (ThemeLoader *loader, const char *name, GPtrArray *disk_bases)
{
  const KicProfileTable *profile = loader->profile->table;

  if (profile->hicolor_embedded && !profile->resources_last && strcmp (name, "hicolor") == 0)
    return kic_theme_desc_hicolor_embedded (profile);
  for (guint b = 0; b < disk_bases->len; b++)
    {
      for (guint k = 0; k < G_N_ELEMENTS (profile->index_files); k++)
        {
          g_autofree char *path = g_build_filename (g_ptr_array_index (disk_bases, b),
                                                    profile->index_files[k], NULL);
          g_autofree char *host = kic_fs_index_host_path (loader->index, path);
          g_autofree char *data = NULL;
          g_autoptr (GError) error = NULL;
          KicThemeDesc *desc;
          gsize length;

          /* one behind a directory not every user may search is not
           * read: those who may not search it go on to the next base */
          if (kic_fs_index_stat (loader->index, path) == KIC_FS_NONE || kic_fs_index_hidden (loader->index, path))
            continue;
          if (!kic_fs_index_read_file (loader->index, path, &data, &length, &error))
            {
              kic_warning ("%s", error->message);
              return NULL;
            }
          desc = kic_theme_desc_parse_cached (loader->descs, profile, name, host, data, length,
                                              profile->index_sections[k], &error);
          if (desc == NULL)
            kic_warning ("%s", error->message);
          return desc;
        }
    }
  if (profile->hicolor_embedded && strcmp (name, "hicolor") == 0)
    return kic_theme_desc_hicolor_embedded (profile);
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
  KicThemeDesc *desc = NULL;
  const KicProfileTable *profile = loader->profile->table;
  KicResource resource = { NULL, NULL };
  KicTheme *theme;

  /* :273-290: hicolor, locolor and defaultThemeName() (KF: hicolor too)
   * get "<datadir>/<app>/icons/<theme>" first; KDE 3/4 take KStandardDirs'
   * "data" directory (@v4.14.2 kicontheme.cpp:138-151) */
  const char *const kde_data[] = { profile->kde_data, NULL };
  const char *const *app_dirs = profile->kde_data ? kde_data : (const char *const *) loader->data_dirs;

  if (loader->app_name[0] != '\0'
      && (strcmp (name, "hicolor") == 0 || strcmp (name, "locolor") == 0
          || strcmp (name, profile->default_theme) == 0))
    for (guint i = 0; app_dirs[i] != NULL; i++)
      {
        char *path = g_build_filename (app_dirs[i], loader->app_name, "icons", name, NULL);

        if (kic_fs_index_stat (loader->index, path) != KIC_FS_NONE)
          g_ptr_array_add (bases, path);
        else
          g_free (path);
      }
  /* :305-316: every base where the theme is a directory */
  for (guint i = 0; loader->icon_bases[i] != NULL; i++)
    {
      char *path = g_build_filename (loader->icon_bases[i], name, NULL);

      if (kic_fs_index_stat (loader->index, path) == KIC_FS_DIR || kic_fs_index_hidden (loader->index, path))
        {
          g_ptr_array_add (bases, g_strdup (path));
          g_ptr_array_add (disk_bases, path);
        }
      else
        g_free (path);
    }
  /* §2.2: KF6 built with BreezeIcons has breeze in :/icons/breeze, the
   * first base, index.theme included (@v6.13.0 kicontheme.cpp:373-410),
   * the last one from 6.14, whose index.theme is read only when no disk
   * base has one (@v6.14.0 kicontheme.cpp:381-409): read from
   * libKF6BreezeIcons (profile.c), else taken to be the disk copy whose
   * index.theme KDE would read */
  if (loader->profile->breeze_embedded && strcmp (name, "breeze") == 0)
    {
      guint at = profile->resources_last ? bases->len : 0;

      if (loader->profile->breeze_resource_dirs != NULL)
        {
          resource.dirs = loader->profile->breeze_resource_dirs;
          g_ptr_array_insert (bases, (gint) at, g_strdup (":/icons/breeze"));
          if (profile->resources_last)
            desc = load_theme_desc (loader, name, disk_bases);
          if (desc == NULL)
            {
              g_autoptr (GError) error = NULL;

              desc = kic_theme_desc_parse_cached (loader->descs, profile, "breeze", ":/icons/breeze/index.theme",
                                                  loader->profile->breeze_resource_index,
                                                  loader->profile->breeze_resource_index_length, "Icon Theme",
                                                  &error);
              if (desc == NULL)
                kic_warning ("%s", error->message);
            }
        }
      else
        for (guint b = 0; b < disk_bases->len && resource.mirror == NULL; b++)
          if (kic_fs_index_stat_at (loader->index, g_ptr_array_index (disk_bases, b), "index.theme") == KIC_FS_FILE)
            {
              resource.mirror = g_ptr_array_index (disk_bases, b);
              g_ptr_array_insert (bases, (gint) at, g_strdup (":/icons/breeze"));
            }
    }
  if (desc == NULL)
    desc = load_theme_desc (loader, name, disk_bases);
  if (desc == NULL)
    return NULL;
  theme = kic_theme_new (desc, bases, &resource, profile->dedup_theme_dirs, loader->index);
  if (loader->profile->gtk_icon_cache)
    kic_theme_use_gtk_caches (theme, loader->index);
  return theme;
}

/* load_theme (LOADER, NAME), made once for all the theme lists of a
 * system (kic_theme_cache_find()): an index.theme of 100 000 directories
 * is parsed and laid over the bases once, not per list.  transfer full */
static KicTheme *
load_theme_once (ThemeLoader *loader, const char *name, GPtrArray *taken)
{
  guint generation = kic_fs_index_generation (loader->index);
  KicTheme *theme = loader->themes ? kic_theme_cache_find (loader->themes, name, generation, taken) : NULL;

  if (theme != NULL)
    return theme;
  theme = load_theme (loader, name);
  if (theme != NULL && loader->themes != NULL)
    kic_theme_cache_keep (loader->themes, name, generation, theme);
  return theme;
}

/* The theme list being built (KIconLoaderPrivate's "links"; here "links"
 * are only ever symbolic links), with KDE's de-duplication key. */
typedef struct {
  ThemeLoader *loader;
  GPtrArray *themes;   /* KicTheme*, owned */
  GPtrArray *in_tree;  /* mThemesInTree: the keys already added */
} Chain;

static void add_inherited_themes (Chain *chain, const KicTheme *theme);

/* :528-542, addThemeByName(): the key is name + appname, while the root
 * was recorded under its bare name (:447) -- which is why the current
 * theme appears twice when it is also the fallback (breeze; KDE 4:
 * oxygen, §2.3).  KDE 3 keys by the bare name but lets hicolor repeat
 * (@v3.5.10 kiconloader.cpp:324-343). */
static void
add_theme_by_name (Chain *chain, const char *name)
{
  const KicProfileTable *profile = chain->loader->profile->table;
  g_autofree char *key = profile->inherits_keep_hicolor ? g_strdup (name)
                                                         : g_strconcat (name, chain->loader->app_name, NULL);
  KicTheme *theme;

  if (chain->themes->len >= KIC_MAX_THEMES)
    return;
  if (g_ptr_array_find_with_equal_func (chain->in_tree, key, g_str_equal, NULL)
      && !(profile->inherits_keep_hicolor && strcmp (name, "hicolor") == 0))
    return;
  theme = load_theme_once (chain->loader, name, chain->themes);
  if (theme == NULL || !kic_theme_is_valid (theme))
    {
      kic_theme_free (theme);
      return;
    }
  g_ptr_array_add (chain->in_tree, g_steal_pointer (&key));
  g_ptr_array_add (chain->themes, theme);
  add_inherited_themes (chain, theme);
}

/* :513-526, addInheritedThemes(): depth first, hicolor left for the end
 * (KDE 3 follows it where it is inherited) */
static void
add_inherited_themes (Chain *chain, const KicTheme *theme)
{
  char **inherits = theme->desc->inherits;

  for (guint i = 0; inherits[i] != NULL; i++)
    if (chain->loader->profile->table->inherits_keep_hicolor || strcmp (inherits[i], "hicolor") != 0)
      add_theme_by_name (chain, inherits[i]);
}

/* :425-458, initIconThemes(), and :496-511, addBaseThemes(): ROOT
 * (taken), its inherits, the generation's base theme (the fallback), then
 * hicolor.  transfer full */
static GPtrArray *
chain_from_root (ThemeLoader *loader, KicTheme *root)
{
  const KicProfileTable *profile = loader->profile->table;
  Chain chain = { loader, g_ptr_array_new_with_free_func ((GDestroyNotify) kic_theme_free),
                  g_ptr_array_new_with_free_func (g_free) };

  g_ptr_array_add (chain.in_tree, g_strdup (root->desc->name));
  g_ptr_array_add (chain.themes, root);
  add_inherited_themes (&chain, root);
  /* KF6 with the KDE platform theme: KHintsSettings' constructor asks
   * KIconLoader::global() for a size (KDE/plasma-integration@v6.3.6
   * qt6/src/platformtheme/khintssettings.cpp:91) while the platform theme
   * is being made, before BreezeIcons::initIcons() sets breeze as Qt's
   * fallback (KDE/kiconthemes@v6.13.0 kicontheme.cpp:68-88, a startup
   * function), so addBaseThemes() (kiconloader.cpp:518) adds hicolor or
   * nothing there: breeze only where the inherits name it (measured,
   * tests/oracle/FINDINGS.md §l; KF5 5.103 with plasma-integration 5.27
   * keeps both breeze passes) */
  if (profile->base_theme != NULL && !loader->platform_theme)
    add_theme_by_name (&chain, profile->base_theme);
  if (profile->hicolor_last)
    add_theme_by_name (&chain, "hicolor");
  g_ptr_array_unref (chain.in_tree);
  return chain.themes;
}

static GPtrArray *
build_theme_list (ThemeLoader *loader, const char *current, char **used_theme)
{
  KicTheme *root = load_theme_once (loader, current, NULL);

  /* :433-442: an invalid current theme is replaced by
   * KIconTheme::defaultThemeName() */
  if (root == NULL || !kic_theme_is_valid (root))
    {
      kic_theme_free (root);
      root = load_theme_once (loader, loader->profile->table->default_theme, NULL);
      if (root != NULL && !kic_theme_is_valid (root))
        g_clear_pointer (&root, kic_theme_free);
    }
  if (root == NULL)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) kic_theme_free);
  *used_theme = g_strdup (root->desc->name);
  return chain_from_root (loader, root);
}

/* :404-422: kdeglobals [<Group>Icons] Size=, else the first theme's
 * <Group>Default= (KF6 reads the theme only, §2.2) */
static void
load_group_sizes (KicResolverSetup *setup, const KicProfileTable *profile, GPtrArray *kdeglobals,
                  const KicTheme *root)
{
  static const char *const groups[KIC_GROUP_LAST] = {
    "DesktopIcons", "ToolbarIcons", "MainToolbarIcons", "SmallIcons", "PanelIcons", "DialogIcons",
  };

  for (int g = 0; g < KIC_GROUP_LAST; g++)
    {
      g_autofree char *value = profile->kdeglobals_sizes ? kdeglobals_get (kdeglobals, groups[g], "Size") : NULL;
      gint64 size;

      /* KConfigGroup::readEntry(key, 0): "48px" is no number, so 0, and
       * 0 means the theme's default (kiconloader.cpp:410-414) */
      if (value == NULL || !kic_parse_int (value, 1, 4096, &size))
        size = root != NULL ? root->desc->group_default[g] : profile->builtin_group_size[g];
      setup->group_size[g] = (int) size;
    }
}

/* A theme that holds nothing: what every other user's theme looks like to
 * a name it lacks.  Its one directory does not exist, so it probes in vain,
 * as a real theme without the name would.  It inherits hicolor, as themes
 * do, which KDE 3/4 turn into their default theme. */
static KicTheme *
void_theme (const KicProfileTable *profile)
{
  static const char index[] = "[Icon Theme]\nInherits=hicolor\nDirectories=void\n"
                              "[void]\nSize=48\nContext=Applications\nType=Scalable\nMinSize=1\nMaxSize=512\n";

  return kic_theme_new_nowhere (kic_theme_desc_parse (profile, "@void@", "@void@", index, sizeof index - 1,
                                                      "Icon Theme", NULL));
}

/* The "User" group (KF, :946-962): "<app>/pics", "icons", "pixmaps", each
 * in every data directory.  KDE 3/4's "appicon" resource (§4.3,
 * @v4.14.2 kiconloader.cpp:531-545): the app's pics and toolbar, then
 * KStandardDirs' icon and pixmap directories, the xdg ones and
 * /usr/share/pixmaps; only those that exist, each once.  transfer full */
static char **
user_search_paths (KicSystem *system)
{
  const KicProfileTable *profile = system->profile->table;
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (profile->kde_data == NULL)
    {
      g_ptr_array_add (paths, g_strconcat (system->app_name, "/pics", NULL));
      g_ptr_array_add (paths, g_strdup ("icons"));
      g_ptr_array_add (paths, g_strdup ("pixmaps"));
    }
  else
    {
      static const char *const share[] = { "/usr/share", NULL };
      static const char *const pixmaps[] = { "/usr/share/pixmaps", NULL };
      g_autofree char *app = g_build_filename (profile->kde_data, system->app_name, NULL);
      const char *const app_dirs[] = { app, NULL };

      /* in KDE's order: <app>/pics, <app>/toolbar, "icon", "pixmap",
       * "xdgdata-icon", /usr/share/pixmaps, "xdgdata-pixmap" */
      add_bases (paths, system->index, app_dirs, "pics", TRUE);
      add_bases (paths, system->index, app_dirs, "toolbar", TRUE);
      add_bases (paths, system->index, share, "icons", TRUE);
      add_bases (paths, system->index, share, "pixmaps", TRUE);
      add_bases (paths, system->index, (const char *const *) system->data_dirs, "icons", TRUE);
      add_bases (paths, system->index, pixmaps, "", TRUE);
      add_bases (paths, system->index, (const char *const *) system->data_dirs, "pixmaps", TRUE);
    }
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&paths), FALSE);
}

KicResolver *
kic_system_new_resolver (KicSystem *system, const char *configured_theme, gboolean other_theme,
                         char **used_theme)
{
  return kic_system_new_resolver_for (system, configured_theme, other_theme, system->profile->platform_theme,
                                      used_theme);
}

KicResolver *
kic_system_new_resolver_for (KicSystem *system, const char *configured_theme, gboolean other_theme,
                             gboolean platform_theme, char **used_theme)
{
  const KicProfileTable *profile = system->profile->table;
  g_autofree char *current = current_theme_name (profile, configured_theme ? configured_theme : "");
  g_auto (GStrv) user_paths = user_search_paths (system);
  char *no_paths[] = { NULL };
  KicResolverSetup setup = { 0 };
  ThemeLoader loader = { system->index, system->profile, system->data_dirs, system->icon_bases,
                         system->app_name, platform_theme, system->themes, system->theme_descs };
  char *used = NULL;

  if (other_theme)
    {
      setup.themes = chain_from_root (&loader, void_theme (profile));
      used = g_strdup ("@void@");
    }
  else
    setup.themes = build_theme_list (&loader, current, &used);
  load_group_sizes (&setup, profile, system->kdeglobals,
                    setup.themes->len > 0 ? g_ptr_array_index (setup.themes, 0) : NULL);
  setup.profile = system->profile;
  setup.data_dirs = system->data_dirs;
  setup.data_home_hidden = profile->kde_data == NULL;
  /* :452-457: the "User" group search paths -- set only after a theme was
   * found: without even hicolor initIconThemes() returns first (:436-441)
   * and the User group has nowhere to look */
  setup.user_search_paths = setup.themes->len > 0 ? user_paths : no_paths;
  if (profile->generic_icons && system->generic_icons == NULL)
    system->generic_icons = kic_mime_generic_icons (system->index, profile, system->data_dirs);
  setup.generic_icons = system->generic_icons != NULL ? g_hash_table_ref (system->generic_icons) : NULL;
  if (used_theme != NULL)
    *used_theme = used ? used : g_strdup ("");
  else
    g_free (used);
  setup.theme_names = system->theme_names;
  return kic_resolver_new (&setup, system->index);
}

gboolean
kic_system_has_theme (KicSystem *system, const char *name)
{
  /* (through the system's theme cache: the resolver's lists take the
   * same parse, not a second one of a large index.theme) */
  ThemeLoader loader = { system->index, system->profile, system->data_dirs, system->icon_bases,
                         system->app_name, system->profile->platform_theme, system->themes,
                         system->theme_descs };
  g_autoptr (KicTheme) theme = NULL;

  if (name[0] == '\0' || strchr (name, '/') != NULL)
    return FALSE;
  theme = load_theme_once (&loader, name, NULL);
  /* kiconloader.cpp:433-442 (build_theme_list()): a theme with no valid
   * directory is not used, as if it were not there */
  return theme != NULL && kic_theme_is_valid (theme);
}

KicSystem *
kic_system_load (const KicSystemOptions *options, GError **error)
{
  g_autofree char *root = NULL;

  root = kic_path_clean (options->root ? options->root : "/");
  if (!g_file_test (root, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR, "root '%s' is not a directory", root);
      return NULL;
    }
  return kic_system_load_index (options, kic_fs_index_new (root), error);
}

KicSystem *
kic_system_load_index (const KicSystemOptions *options, KicFsIndex *index, GError **error)
{
  g_autoptr (KicSystem) system = g_new0 (KicSystem, 1);
  g_auto (GStrv) base = NULL;

  system->index = index;
  system->themes = kic_theme_cache_new ();
  system->theme_descs = kic_theme_desc_cache_new ();
  system->theme_names = kic_resolver_names_new ();
  /* a root that cannot be opened is an error, not an empty system */
  if (!kic_fs_index_complete (system->index, error))
    return NULL;
  if (options->keep_stamps)
    kic_fs_index_keep_stamps (system->index);
  if (options->seed != NULL)
    options->seed (system->index, options->seed_data);
  system->profile = kic_profile_new (system->index, options->kde, options->kde_version, error);
  if (system->profile == NULL)
    return NULL;
  system->app_name = g_strdup (options->app_name ? options->app_name : system->profile->table->app_name);
  base = options->data_dirs ? g_strdupv (options->data_dirs) : kic_paths_data_dirs ();
  system->session.user_data_home = g_strdup (options->user_data_home);
  system->data_dirs = kic_paths_session_data_dirs (system->index, base, &system->session);
  system->config_dirs = options->config_dirs ? g_strdupv (options->config_dirs) : kic_paths_config_dirs ();
  system->kdeglobals = load_kdeglobals (system->index, system->profile->table, system->config_dirs);
  if (options->theme != NULL)
    system->configured_theme = g_strdup (options->theme);
  else
    {
      system->configured_theme = kdeglobals_get (system->kdeglobals, "Icons", "Theme");
      if (system->configured_theme == NULL)
        system->configured_theme = g_strdup (system->profile->table->configured_default);
    }
  system->icon_bases = find_icon_bases (system->index, system->profile->table, system->data_dirs);
  system->resolver = kic_system_new_resolver (system, system->configured_theme, FALSE,
                                              &system->current_theme);
  return g_steal_pointer (&system);
}
