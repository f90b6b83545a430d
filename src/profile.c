/* profile.c - the table of differences between KDE generations; which
 * one a system has is detect.c's
 *
 * Each row cites the spec (../shared/docs/kde-lookup.md, "§") and the KDE
 * source it summarises; tests/profiles/MODEL.md is the same table for
 * readers.
 */
#include "profile.h"

#include "detect.h"
#include "kic.h"
#include "util.h"

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
  {
    /* KDE/kiconthemes@v6.13.0 (Debian 13), §2.2: as KF5 but for these */
    .generation = KIC_KDE_KF6,
    .name = "kf6",
    .title = "KDE Frameworks 6",
    .configured_default = "breeze",
    .default_theme = "hicolor",
    .base_theme = "breeze", /* BreezeIcons::initIcons(), kicontheme.cpp:68-126 */
    .hicolor_last = TRUE,
    .hicolor_is_default = TRUE,
    .app_name = "plasmashell",
    .hicolor_embedded = TRUE,
    .filesystems_valid = FALSE, /* kicontheme.cpp:797-798 */
    .scaled_dirs = TRUE,
    .theme_extensions = TRUE,
    .index_files = { "index.theme", "theme.desktop" },
    .index_sections = { "Icon Theme", "KDE Icon Theme" },
    .dedup_theme_dirs = TRUE,
    .passes = KIC_PASSES_BEST,
    .prune = KIC_PRUNE_KF,
    .name_variants = TRUE,
    .symbolic_variants = TRUE, /* kiconloader.cpp:781-858 */
    .generic_icons = TRUE,
    .l10n_stat = TRUE,
    .kdeglobals_sizes = FALSE, /* kiconloader.cpp:403-432, since 5.245 */
    .builtin_group_size = { 32, 22, 22, 16, 48, 32 },
    .menu_sizes = kf_menu_sizes,
    .menu_weights = kf_menu_weights,
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

      if (i < n && !kic_parse_int (parts[i], 0, 99, &v))
        return FALSE;
      version[i] = (int) v;
    }
  return version[0] == 4;
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
  if (profile->breeze_embedded)
    return g_strdup_printf ("%s (breeze embedded)", profile->table->name);
  return g_strdup (profile->table->name);
}

char *
kic_profile_id (const KicProfile *profile)
{
  if (profile->table->generation == KIC_KDE_KDE4)
    return g_strdup_printf ("kde4-%d.%d.%d", profile->version[0], profile->version[1], profile->version[2]);
  if (profile->breeze_embedded)
    return g_strdup_printf ("%s+breeze", profile->table->name);
  return g_strdup (profile->table->name);
}

gboolean
kic_profile_check_options (const char *kind, const char *version, GError **error)
{
  int parsed[3];

  if (kind != NULL && strcmp (kind, "auto") != 0 && kic_profile_table (kind) == NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE,
                   "unknown KDE generation '%s' (use auto, kf6, kf5, kde4 or kde3)", kind);
      return FALSE;
    }
  if (version != NULL && !kic_profile_parse_version (version, parsed))
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE, "bad KDE 4 version '%s' (expected 4.X or 4.X.Y)", version);
      return FALSE;
    }
  if (version != NULL && kind != NULL && strcmp (kind, "auto") != 0 && strcmp (kind, "kde4") != 0)
    {
      g_set_error_literal (error, KIC_ERROR, KIC_ERROR_USAGE, "--kde-version goes with --kde=kde4");
      return FALSE;
    }
  return TRUE;
}

KicProfile *
kic_profile_new (KicFsIndex *index, const char *kind, const char *version, GError **error)
{
  g_autoptr (KicProfile) profile = g_new0 (KicProfile, 1);

  if (!kic_profile_check_options (kind, version, error))
    return NULL;
  if (kind == NULL || strcmp (kind, "auto") == 0)
    kic_detect_generation (profile, index);
  else
    profile->table = kic_profile_table (kind);
  /* detection may have found another generation */
  if (version != NULL && profile->table->generation != KIC_KDE_KDE4)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE, "--kde-version goes with --kde=kde4 (the root has %s)",
                   profile->table->title);
      return NULL;
    }
  if (profile->table->generation == KIC_KDE_KDE4)
    kic_detect_kde4_version (profile, index, version);
  if (profile->table->generation == KIC_KDE_KF6)
    kic_detect_embedded_breeze (profile, index);
  return g_steal_pointer (&profile);
}
