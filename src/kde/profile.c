/* profile.c - the table of differences between KDE generations; which
 * one a system has is detect.c's
 *
 * Each row cites the spec (../shared/docs/kde-lookup.md, "§") and the KDE
 * source it summarises; tests/profiles/MODEL.md is the same table for
 * readers.
 */
#include "profile.h"

#include "detect.h"
#include "diag.h"
#include "number.h"

#include <stdlib.h>
#include <string.h>

static const int kf_menu_sizes[] = { 16, 22, 32, 48, 0 };
/* 22 px weighs as much as 32: Kickoff's category column asks each
 * category icon at 22 px (and twice at 32) every time it opens
 * (tests/oracle/FINDINGS.md §h, make bench-plasma) */
static const double kf_menu_weights[] = { 1.0, 2.0, 2.0, 4.0 };
/* §7.3: the classic menu at 16 px, Kickoff at 32 */
static const int kde4_menu_sizes[] = { 16, 32, 0 };
static const double kde4_menu_weights[] = { 1.0, 4.0 };
/* §7.4: KMenu uses the Small group */
static const int kde3_menu_sizes[] = { 16, 0 };
static const double kde3_menu_weights[] = { 1.0 };

static const char *const kde4_config[] = { "/etc/kde4/kdeglobals", "/usr/share/kde4/config/kdeglobals", NULL };
static const char *const kde3_config[] = { "/etc/kde3/kdeglobals", "/usr/share/config/kdeglobals", NULL };

/* What every KF6 row shares: KDE/kiconthemes@v6.13.0, §2.2: as KF5 but
 * for these */
#define KF6_COMMON                                                                          \
  .generation = KIC_KDE_KF6, .name = "kf6", .title = "KDE Frameworks 6",                    \
  .configured_default = "breeze", .default_theme = "hicolor",                              \
  /* BreezeIcons::initIcons(), kicontheme.cpp:68-126 */                                    \
  .base_theme = "breeze", .hicolor_last = TRUE, .hicolor_is_default = TRUE,                 \
  /* KDE/plasma-integration@v6.3.6 qt6/src/platformtheme/khintssettings.cpp:91, every 6.x:  \
   * the KDE platform theme builds KIconLoader::global() while Qt's fallback theme is not  \
   * breeze yet (FINDINGS.md §l) */                                                        \
  .platform_theme = "qt6/plugins/platformthemes/KDEPlasmaPlatformTheme6.so",                \
  .app_name = "plasmashell", .hicolor_embedded = TRUE,                                      \
  /* kicontheme.cpp:797-798 */                                                             \
  .filesystems_valid = FALSE, .scaled_dirs = TRUE, .theme_extensions = TRUE,                \
  .index_files = { "index.theme", "theme.desktop" },                                        \
  .index_sections = { "Icon Theme", "KDE Icon Theme" }, .dedup_theme_dirs = TRUE,           \
  .passes = KIC_PASSES_BEST, .prune = KIC_PRUNE_KF, .name_variants = TRUE,                  \
  /* kiconloader.cpp:781-858 */                                                            \
  .symbolic_variants = TRUE, .generic_icons = TRUE, .l10n_stat = TRUE,                      \
  /* kiconloader.cpp:403-432, since 5.245 */                                               \
  .kdeglobals_sizes = FALSE, .builtin_group_size = { 32, 22, 22, 16, 48, 32 },              \
  .menu_sizes = kf_menu_sizes, .menu_weights = kf_menu_weights

static const KicProfileTable tables[] = {
  {
    /* KDE/kiconthemes@v5.103.0 (Debian 12) */
    .generation = KIC_KDE_KF5,
    .name = "kf5",
    .title = "KDE Frameworks 5",
    /* §2.1: kdeglobals [Icons] Theme=, default breeze; the fallback
     * theme is forced to breeze (kicontheme.cpp:63-73) */
    .configured_default = "breeze",
    .default_theme = "hicolor", /* kicontheme.cpp:659 */
    .base_theme = "breeze",
    .hicolor_last = TRUE, /* kiconloader.cpp:496-511 */
    .app_name = "plasmashell",
    .hicolor_embedded = TRUE,
    .filesystems_valid = TRUE, /* kicontheme.cpp:726-729 */
    .scaled_dirs = TRUE,
    .theme_extensions = TRUE, /* kicontheme.cpp:357-358 */
    .default_extensions = ".png,.svgz,.svg,.xpm",
    .user_extensions = ".png,.svgz,.svg,.xpm", /* kiconloader.cpp:982-994 */
    .index_files = { "index.theme", "theme.desktop" },
    .index_sections = { "Icon Theme", "KDE Icon Theme" },
    .hicolor_is_default = TRUE, /* kicontheme.cpp:567-597 */
    .dedup_theme_dirs = TRUE,
    .passes = KIC_PASSES_BEST,
    .prune = KIC_PRUNE_KF,
    .name_variants = TRUE,
    .generic_icons = TRUE,
    .l10n_stat = TRUE,
    .kdeglobals_sizes = TRUE, /* kiconloader.cpp:404-422 */
    .builtin_group_size = { 32, 22, 22, 16, 48, 32 },
    .menu_sizes = kf_menu_sizes,
    .menu_weights = kf_menu_weights,
  },
  /* KDE/kiconthemes@v6.13.0 (Debian 13) and the releases after it whose
   * lookup changed (git diff v6.13.0..v6.30.0 -- src/kicontheme.cpp
   * src/kiconloader.cpp, tests/oracle/kf6/FINDINGS.md): the lookup of
   * one row and the next differ only in the fields after KF6_COMMON */
  {
    KF6_COMMON,
    .since = { 6, 0 },
    .releases = "6.0-6.13",
    /* @v6.13.0 kicontheme.cpp:444: KDE-Extensions default */
    .default_extensions = ".png,.svgz,.svg,.xpm",
    /* @v6.13.0 kicontheme.cpp:376-377: "local embedded icons have
     * preference", :/icons is the first base */
    .resources_last = FALSE,
    /* @v6.13.0 kiconloader.cpp:952-964 */
    .user_extensions = ".png,.svgz,.svg,.xpm",
  },
  {
    KF6_COMMON,
    .since = { 6, 14 },
    .releases = "6.14-6.18",
    .default_extensions = ".png,.svgz,.svg,.xpm",
    /* @v6.14.0 kicontheme.cpp:381-388 (1baf0ad, "Prefer themes on disk
     * over qrc"): every <datadir>/icons and /pixmaps, then :/icons; the
     * first with an index.theme gives the description (:395-409) */
    .resources_last = TRUE,
    .user_extensions = ".png,.svgz,.svg,.xpm",
  },
  {
    KF6_COMMON,
    .since = { 6, 19 },
    .releases = "6.19-6.22",
    .default_extensions = ".png,.svgz,.svg,.xpm",
    .resources_last = TRUE,
    /* @v6.19.0 kiconloader.cpp:956-968 (4510bba, "Prefer SVG files
     * before PNG files"): the "User" group tries .svg first */
    .user_extensions = ".svg,.svgz,.png,.xpm",
  },
  {
    KF6_COMMON,
    .since = { 6, 23 },
    .releases = "6.23-6.24",
    /* @v6.23.0 kicontheme.cpp:438-439 (a47280f, "Prefer SVG files over
     * PNG files"): a theme without KDE-Extensions= tries SVG first */
    .default_extensions = ".svgz,.svg,.png,.xpm",
    .resources_last = TRUE,
    .user_extensions = ".svg,.svgz,.png,.xpm",
  },
  {
    KF6_COMMON,
    .since = { 6, 25 },
    .releases = "6.25 and later",
    /* @v6.25.0 kicontheme.cpp:443-445 (2dc30a2 reverts a47280f:
     * "Prefer png due to svg support being incomplete") */
    .default_extensions = ".png,.svgz,.svg,.xpm",
    /* 6.30.0 (09f8556, Debian testing) unchanged in both files since
     * v6.25.0: kicontheme.cpp:381-388 :/icons the last base,
     * kiconloader.cpp:960-971 the User group .svg first; measured equal,
     * path and calls, by tests/integration/oracle-kf6.sh (kf6-forky) */
    .resources_last = TRUE,
    .user_extensions = ".svg,.svgz,.png,.xpm",
  },
  {
    /* KDE/kdelibs@v4.4.5, v4.8.4, v4.14.2: kdeui/icons (§2.3, §3.2) */
    .generation = KIC_KDE_KDE4,
    .name = "kde4",
    .title = "KDE 4",
    .configured_default = "oxygen", /* kicontheme.cpp:522-542, 594-597 */
    .default_theme = "oxygen",
    .base_theme = "oxygen", /* kiconloader.cpp:596-642, addBaseThemes() */
    .hicolor_last = TRUE,
    .app_name = "plasma-desktop",
    .config_files = kde4_config,
    .kde_data = "/usr/share/kde4/apps",
    .context_type_required = TRUE, /* kicontheme.cpp:634-697 */
    .filesystems_valid = TRUE,
    .default_extensions = ".png,.svgz,.svg,.xpm", /* @v4.14.2 kiconloader.cpp:903-991 */
    .user_extensions = ".png,.svgz,.svg,.xpm",    /* §4.3 */
    .index_files = { "index.theme", "index.desktop" },
    .index_sections = { "Icon Theme", "KDE Icon Theme" },
    .hicolor_is_default = TRUE,
    .dedup_theme_dirs = TRUE,    /* @v4.4.5: kicontheme.cpp:137,210 */
    .inherits_to_default = TRUE, /* kicontheme.cpp:194-200 */
    .passes = KIC_PASSES_EXACT_BEST,
    .prune = KIC_PRUNE_KF,
    .name_variants = TRUE,
    .generic_icons = TRUE, /* @v4.4.5: kiconloader.cpp:661-694 */
    .kdeglobals_sizes = TRUE,
    .builtin_group_size = { 32, 22, 22, 16, 32, 32 }, /* kicontheme.cpp:240-262 */
    .menu_sizes = kde4_menu_sizes,
    .menu_weights = kde4_menu_weights,
  },
  {
    /* KDE/kdelibs@v3.5.10: kdecore (§2.4, §3.3) */
    .generation = KIC_KDE_KDE3,
    .name = "kde3",
    .title = "KDE 3",
    .configured_default = "crystalsvg", /* kicontheme.cpp:444-463, 512-515 */
    .default_theme = "crystalsvg",
    .base_theme = NULL, /* kiconloader.cpp:324-343: inherits only */
    .app_name = "kicker",
    .config_files = kde3_config,
    .kde_data = "/usr/share/apps",
    .context_type_required = TRUE, /* kicontheme.cpp:519-578 */
    .filesystems_valid = TRUE,
    .default_extensions = ".png,.svgz,.svg,.xpm",
    .user_extensions = ".png,.svgz,.svg,.xpm",
    /* kicontheme.cpp:118-140: index.desktop before index.theme */
    .index_files = { "index.desktop", "index.theme" },
    .index_sections = { "KDE Icon Theme", "Icon Theme" },
    .dedup_theme_dirs = FALSE,   /* kicontheme.cpp:164-181: no duplicate set */
    .inherits_to_default = TRUE, /* kicontheme.cpp:150-152 */
    .inherits_keep_hicolor = TRUE,
    .passes = KIC_PASSES_ALL_EXACT_FIRST, /* kiconloader.cpp:446-492 */
    .prune = KIC_PRUNE_KDE3,              /* kicontheme.cpp:361-435 */
    .builtin_group_size = { 32, 22, 22, 16, 32, 32 }, /* kicontheme.cpp:197-218; no Dialog group */
    .kdeglobals_sizes = TRUE,
    .menu_sizes = kde3_menu_sizes,
    .menu_weights = kde3_menu_weights,
  },
};

const KicProfileTable *
kic_profile_table (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (strcmp (tables[i].name, name) == 0)
      return &tables[i];
  return NULL;
}

const KicProfileTable *
kic_profile_table_for (const char *name, const int version[3])
{
  const KicProfileTable *found = NULL;

  /* the rows of one generation are in release order */
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (strcmp (tables[i].name, name) == 0
        && (found == NULL || version[0] > tables[i].since[0]
            || (version[0] == tables[i].since[0] && version[1] >= tables[i].since[1])))
      found = &tables[i];
  return found;
}

gboolean
kic_profile_parse_version (const char *text, int version[3])
{
  g_auto (GStrv) parts = g_strsplit (text, ".", 4);
  guint n = g_strv_length (parts);

  if (n < 2 || n > 3)
    return FALSE;
  for (guint i = 0; i < 3; i++)
    {
      gint64 v = 0;

      if (i < n && !kic_parse_int (parts[i], 0, 999, &v))
        return FALSE;
      version[i] = (int) v;
    }
  return version[0] == 4 || version[0] == 6;
}

void
kic_profile_free (KicProfile *profile)
{
  if (profile == NULL)
    return;
  g_free (profile->found);
  if (profile->breeze_resource_dirs)
    g_hash_table_unref (profile->breeze_resource_dirs);
  g_free (profile->breeze_resource_index);
  g_free (profile->breeze_library);
  g_free (profile->breeze_problem);
  g_free (profile);
}

char *
kic_profile_describe (const KicProfile *profile)
{
  if (profile->table->generation == KIC_KDE_KDE4)
    return g_strdup_printf ("kde4 %d.%d.%d", profile->version[0], profile->version[1], profile->version[2]);
  if (profile->table->generation == KIC_KDE_KF6)
    return g_strdup_printf ("kf6 %d.%d.%d (%s%s%s%s%s)", profile->version[0], profile->version[1], profile->version[2],
                            profile->version_detected ? "" : "taken to be ", profile->table->releases,
                            profile->breeze_embedded ? ", breeze embedded" : "",
                            profile->platform_theme ? ", KDE platform theme" : "",
                            profile->gtk_icon_cache ? ", reads icon-theme.cache" : "");
  return g_strdup (profile->table->name);
}

char *
kic_profile_id (const KicProfile *profile)
{
  if (profile->table->generation == KIC_KDE_KDE4)
    return g_strdup_printf ("kde4-%d.%d.%d", profile->version[0], profile->version[1], profile->version[2]);
  if (profile->table->generation == KIC_KDE_KF6)
    return g_strdup_printf ("kf6-%d.%d.%d%s%s", profile->version[0], profile->version[1], profile->version[2],
                            profile->breeze_embedded ? "+breeze" : "", profile->gtk_icon_cache ? "+iconcache" : "");
  return g_strdup (profile->table->name);
}

/* The generation a --kde-version release belongs to. */
static const char *
version_kind (const int version[3])
{
  return version[0] == 4 ? "kde4" : "kf6";
}

/* VERSION without KIC_KF6_ICON_CACHE_SUFFIX; *ICON_CACHE (may be NULL)
 * says whether it had it.  transfer full */
static char *
version_release (const char *version, gboolean *icon_cache)
{
  gboolean has = version != NULL && g_str_has_suffix (version, KIC_KF6_ICON_CACHE_SUFFIX);

  if (icon_cache != NULL)
    *icon_cache = has;
  if (version == NULL)
    return NULL;
  return has ? g_strndup (version, strlen (version) - strlen (KIC_KF6_ICON_CACHE_SUFFIX)) : g_strdup (version);
}

gboolean
kic_profile_check_options (const char *kind, const char *version_option, GError **error)
{
  int parsed[3];
  gboolean icon_cache;
  g_autofree char *version = version_release (version_option, &icon_cache);

  if (kind != NULL && strcmp (kind, "auto") != 0 && kic_profile_table (kind) == NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE,
                   "unknown KDE generation '%s' (use auto, kf6, kf5, kde4 or kde3)", kind);
      return FALSE;
    }
  if (version != NULL && (!kic_profile_parse_version (version, parsed) || (icon_cache && parsed[0] != 6)))
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE,
                   "bad KDE version '%s' (expected 4.X[.Y] for KDE 4 or 6.X[.Y][%s] for KF6)", version_option,
                   KIC_KF6_ICON_CACHE_SUFFIX);
      return FALSE;
    }
  if (version != NULL && kind != NULL && strcmp (kind, "auto") != 0 && strcmp (kind, version_kind (parsed)) != 0)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE, "--kde-version %s goes with --kde=%s", version,
                   version_kind (parsed));
      return FALSE;
    }
  return TRUE;
}

/* KDE 4's libraries are named after the release: libkdeui.so.5.X.Y is
 * KDE 4.X.Y; KF6's carry it as it is: libKF6IconThemes.so.6.X.Y. */
static gboolean
library_version (KicFsIndex *index, const char *library, KicKdeGeneration generation, int version[3])
{
  g_autofree char *release = kic_detect_library_release (index, library, generation == KIC_KDE_KDE4
                                                                             ? "libkdeui.so.5."
                                                                             : "libKF6IconThemes.so.");
  g_autofree char *text = NULL;
  int parsed[3];

  if (release == NULL)
    return FALSE;
  text = generation == KIC_KDE_KDE4 ? g_strconcat ("4.", release, NULL) : g_strdup (release);
  if (!kic_profile_parse_version (text, parsed) || parsed[0] != (generation == KIC_KDE_KDE4 ? 4 : 6))
    return FALSE;
  memcpy (version, parsed, sizeof parsed);
  return TRUE;
}

/* The installed library of GENERATION: the one detection found, else
 * where it lies.  transfer full */
static char *
installed_library (const KicProfile *profile, KicFsIndex *index, const char *library)
{
  if (profile->found != NULL && g_str_has_suffix (profile->found, library))
    return g_strdup (profile->found);
  return kic_detect_find_library (index, library);
}

/* The release: VERSION (--kde-version), else the installed library's,
 * else DEFAULT (KDE 4: 4.14.2, jessie's, the last; KF6: Debian 13's). */
static void
find_version (KicProfile *profile, KicFsIndex *index, const char *version, const char *library,
              const char *fallback)
{
  g_autofree char *installed = NULL;

  if (version != NULL && kic_profile_parse_version (version, profile->version))
    return;
  installed = installed_library (profile, index, library);
  if (installed != NULL && library_version (index, installed, profile->table->generation, profile->version))
    profile->version_detected = TRUE;
  else
    kic_profile_parse_version (fallback, profile->version);
}

/* KF6: whether kiconthemes carries breeze (§2.2: built with
 * USE_BreezeIcons it links libKF6BreezeIcons, which puts breeze into
 * :/icons/breeze), and then what that breeze holds, or why it could not
 * be read (the model then takes the disk's breeze). */
static void
find_embedded_breeze (KicProfile *profile, KicFsIndex *index)
{
  g_autofree char *library = installed_library (profile, index, "libKF6IconThemes.so.6");
  g_autoptr (GError) error = NULL;
  KicEmbeddedBreeze breeze = { NULL, NULL, 0 };

  /* without the library, take upstream's default (USE_BreezeIcons=ON) */
  profile->breeze_embedded = library == NULL || kic_detect_links (index, library, "libKF6BreezeIcons.so.6");
  if (!profile->breeze_embedded)
    return;
  profile->breeze_library = kic_detect_find_library (index, "libKF6BreezeIcons.so.6");
  if (profile->breeze_library == NULL)
    profile->breeze_problem = g_strdup ("libKF6BreezeIcons.so.6 is not installed");
  else if (!kic_detect_read_breeze (index, profile->breeze_library, &breeze, &error))
    profile->breeze_problem = g_strdup (error->message);
  else
    {
      profile->breeze_resource_dirs = breeze.dirs;
      profile->breeze_resource_index = breeze.index_theme;
      profile->breeze_resource_index_length = breeze.index_theme_length;
    }
}

/* KF6: does KIconThemes read GTK's icon-theme.cache?  PINNED
 * (--kde-version): what it said (ICON_CACHE); else what the installed
 * library says: a8749c1's KIconCache opens "icon-theme.cache", a string
 * in no release's library (git grep of v6.0.0..v6.30.0). */
static void
find_icon_cache (KicProfile *profile, KicFsIndex *index, gboolean pinned, gboolean icon_cache)
{
  g_autofree char *library = NULL;

  if (pinned)
    {
      profile->gtk_icon_cache = icon_cache;
      return;
    }
  library = installed_library (profile, index, "libKF6IconThemes.so.6");
  profile->gtk_icon_cache = library != NULL && kic_detect_has_string (index, library, ".rodata", "icon-theme.cache");
}

/* A KIconThemes newer than any the rows were checked against: say which
 * rules it is planned with, and how to pin them. */
static void
warn_newer (const KicProfile *profile)
{
  if (!profile->version_detected || profile->version[0] < KIC_KF6_CHECKED_MAJOR
      || (profile->version[0] == KIC_KF6_CHECKED_MAJOR && profile->version[1] <= KIC_KF6_CHECKED_MINOR))
    return;
  kic_warning ("%s is KIconThemes %d.%d.%d, newer than %d.%d, the newest release kde-icon-cache was checked "
               "against: planned with the rules of %s (--kde-version pins them)",
               profile->found ? profile->found : "libKF6IconThemes.so.6", profile->version[0], profile->version[1],
               profile->version[2], KIC_KF6_CHECKED_MAJOR, KIC_KF6_CHECKED_MINOR, profile->table->releases);
}

KicProfile *
kic_profile_new (KicFsIndex *index, const char *kind, const char *version_option, GError **error)
{
  g_autoptr (KicProfile) profile = g_new0 (KicProfile, 1);
  const char *name = kind;
  int parsed[3];
  gboolean icon_cache;
  g_autofree char *version = version_release (version_option, &icon_cache);

  if (!kic_profile_check_options (kind, version_option, error))
    return NULL;
  if (kind == NULL || strcmp (kind, "auto") == 0)
    {
      profile->found = kic_detect_icon_library (index, &name);
      if (name == NULL)
        name = "kf5";
    }
  profile->table = kic_profile_table (name);
  /* detection may have found another generation */
  if (version != NULL && kic_profile_parse_version (version, parsed)
      && strcmp (version_kind (parsed), profile->table->name) != 0)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE, "--kde-version %s goes with --kde=%s (the root has %s)",
                   version, version_kind (parsed), profile->table->title);
      return NULL;
    }
  if (profile->table->generation == KIC_KDE_KDE4)
    {
      find_version (profile, index, version, "libkdeui.so.5", "4.14.2");
      /* §3.2: commit 23863e3cd1, first in v4.10.1 */
      profile->apps_first_pass = profile->version[1] > 10
                                 || (profile->version[1] == 10 && profile->version[2] >= 1);
    }
  if (profile->table->generation == KIC_KDE_KF6)
    {
      find_version (profile, index, version, "libKF6IconThemes.so.6", KIC_KF6_DEFAULT_VERSION);
      profile->table = kic_profile_table_for ("kf6", profile->version);
      find_embedded_breeze (profile, index);
      find_icon_cache (profile, index, version != NULL, icon_cache);
      warn_newer (profile);
    }
  if (profile->table->platform_theme != NULL)
    {
      g_autofree char *plugin = kic_detect_find_library (index, profile->table->platform_theme);

      profile->platform_theme = plugin != NULL;
    }
  return g_steal_pointer (&profile);
}
