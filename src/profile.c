/* profile.c - the table of differences between KDE generations, and which
 * one a system has
 *
 * Each row cites the spec (../shared/docs/kde-lookup.md, "§") and the KDE
 * source it summarises; tests/profiles/MODEL.md is the same table for
 * readers.
 */
#include "profile.h"

#include "kic.h"
#include "rcc.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const int kf_menu_sizes[] = { 16, 22, 32, 48, 0 };
static const double kf_menu_weights[] = { 1.0, 1.0, 2.0, 4.0 };
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

/* Fixed-width reads of an ELF file in its own byte order. */
typedef struct {
  const guchar *data;
  gsize length;
  gboolean is64;
  gboolean big;
} Elf;

static gboolean
elf_uint (const Elf *elf, guint64 offset, guint size, guint64 *value)
{
  return kic_read_uint (elf->data, elf->length, offset, size, elf->big, value);
}

/* An address-sized field (4 or 8 bytes). */
static gboolean
elf_word (const Elf *elf, guint64 offset, guint64 *value)
{
  return elf_uint (elf, offset, elf->is64 ? 8 : 4, value);
}

/* The section headers' sh_type, sh_offset, sh_size, sh_link, sh_entsize. */
typedef struct {
  guint64 type, offset, size, link, entsize;
} ElfSection;

static gboolean
elf_section (const Elf *elf, guint64 shoff, guint64 shentsize, guint64 i, ElfSection *s)
{
  guint64 at = shoff + i * shentsize;

  if (elf->is64)
    return elf_uint (elf, at + 4, 4, &s->type) && elf_uint (elf, at + 24, 8, &s->offset)
           && elf_uint (elf, at + 32, 8, &s->size) && elf_uint (elf, at + 40, 4, &s->link)
           && elf_uint (elf, at + 56, 8, &s->entsize);
  return elf_uint (elf, at + 4, 4, &s->type) && elf_uint (elf, at + 16, 4, &s->offset)
         && elf_uint (elf, at + 20, 4, &s->size) && elf_uint (elf, at + 24, 4, &s->link)
         && elf_uint (elf, at + 36, 4, &s->entsize);
}

/* The SHT_DYNAMIC section's DT_NEEDED strings, from its linked string
 * table.  Stripped libraries keep their section headers. */
char **
kic_elf_needed (const char *data, gsize length)
{
  enum { SHT_DYNAMIC = 6, DT_NULL = 0, DT_NEEDED = 1, MAX_SECTIONS = 4096 };
  Elf elf = { (const guchar *) data, length, FALSE, FALSE };
  g_autoptr (GPtrArray) needed = g_ptr_array_new_with_free_func (g_free);
  guint64 shoff, shentsize, shnum;

  if (length < 52 || memcmp (data, "\177ELF", 4) != 0 || (data[4] != 1 && data[4] != 2)
      || (data[5] != 1 && data[5] != 2))
    return NULL;
  elf.is64 = data[4] == 2;
  elf.big = data[5] == 2;
  if (!elf_word (&elf, elf.is64 ? 40 : 32, &shoff)
      || !elf_uint (&elf, elf.is64 ? 58 : 46, 2, &shentsize)
      || !elf_uint (&elf, elf.is64 ? 60 : 48, 2, &shnum)
      || shentsize < (elf.is64 ? 64u : 40u) || shnum > MAX_SECTIONS || shoff >= length)
    return NULL;
  for (guint64 i = 0; i < shnum; i++)
    {
      ElfSection dyn, str;
      guint64 entsize;

      if (!elf_section (&elf, shoff, shentsize, i, &dyn) || dyn.type != SHT_DYNAMIC)
        continue;
      if (dyn.link >= shnum || !elf_section (&elf, shoff, shentsize, dyn.link, &str))
        return NULL;
      entsize = dyn.entsize ? dyn.entsize : (elf.is64 ? 16 : 8);
      /* every bound is checked by subtraction: the offsets come from the
       * file and may be anything */
      for (guint64 at = dyn.offset; at < length && length - at >= entsize && at - dyn.offset + entsize <= dyn.size;
           at += entsize)
        {
          guint64 tag, value;

          if (!elf_word (&elf, at, &tag) || !elf_word (&elf, at + (elf.is64 ? 8 : 4), &value)
              || tag == DT_NULL)
            break;
          if (tag == DT_NEEDED && value < str.size && str.offset < length && value < length - str.offset)
            {
              const char *s = data + str.offset + value;
              gsize max = MIN (str.size - value, length - str.offset - value);

              g_ptr_array_add (needed, g_strndup (s, strnlen (s, max)));
            }
        }
      break;
    }
  g_ptr_array_add (needed, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&needed), FALSE);
}

/* The directories a dynamic linker looks in, inside the root: /usr/lib,
 * /lib and their multiarch subdirectories. */
static GPtrArray *
library_dirs (KicFsIndex *index)
{
  static const char *const tops[] = { "/usr/lib", "/lib", "/usr/lib64", "/lib64" };
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);

  for (guint t = 0; t < G_N_ELEMENTS (tops); t++)
    {
      g_autoptr (GPtrArray) names = kic_fs_index_list (index, tops[t]);

      if (names == NULL)
        continue;
      g_ptr_array_add (dirs, g_strdup (tops[t]));
      for (guint i = 0; i < names->len; i++)
        {
          const char *name = g_ptr_array_index (names, i);
          g_autofree char *path = g_build_filename (tops[t], name, NULL);

          if (strstr (name, "-linux-") != NULL && kic_fs_index_stat (index, path) == KIC_FS_DIR)
            g_ptr_array_add (dirs, g_steal_pointer (&path));
        }
    }
  return dirs;
}

/* The first LIBRARY in DIRS (inside the root), or NULL.  transfer full */
static char *
find_library (KicFsIndex *index, GPtrArray *dirs, const char *library)
{
  for (guint i = 0; i < dirs->len; i++)
    if (kic_fs_index_stat_at (index, g_ptr_array_index (dirs, i), library) == KIC_FS_FILE)
      return g_build_filename (g_ptr_array_index (dirs, i), library, NULL);
  return NULL;
}

/* KDE 4's libraries are named after the release: libkdeui.so.5.X.Y is
 * KDE 4.X.Y. */
static void
kde4_version_of (KicFsIndex *index, const char *library, int version[3])
{
  g_autofree char *real = kic_fs_index_realpath (index, library);
  g_autofree char *base = real ? g_path_get_basename (real) : NULL;
  g_autofree char *text = NULL;

  if (base == NULL || !g_str_has_prefix (base, "libkdeui.so.5."))
    return;
  text = g_strconcat ("4.", base + strlen ("libkdeui.so.5."), NULL);
  if (!kic_profile_parse_version (text, version))
    memset (version, 0, 3 * sizeof (int));
}

/* §2.2: kiconthemes built with USE_BreezeIcons links libKF6BreezeIcons,
 * which puts breeze into :/icons/breeze. */
static gboolean
links_breeze_icons (KicFsIndex *index, const char *library)
{
  g_autofree char *data = NULL;
  g_auto (GStrv) needed = NULL;
  gsize length;

  if (!kic_fs_index_read_file (index, library, &data, &length, NULL))
    return FALSE;
  needed = kic_elf_needed (data, length);
  return needed != NULL && g_strv_contains ((const char *const *) needed, "libKF6BreezeIcons.so.6");
}

/* The generation whose icon library is installed, newest first. */
static void
detect (KicProfile *profile, KicFsIndex *index, GPtrArray *dirs)
{
  static const struct {
    const char *library;
    const char *profile;
  } libraries[] = {
    { "libKF6IconThemes.so.6", "kf6" },
    { "libKF5IconThemes.so.5", "kf5" },
    { "libkdeui.so.5", "kde4" },
    { "libkdecore.so.4", "kde3" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    {
      profile->found = find_library (index, dirs, libraries[i].library);
      if (profile->found != NULL)
        {
          profile->table = kic_profile_table (libraries[i].profile);
          return;
        }
    }
  profile->table = kic_profile_table ("kf5");
}

/* Libraries bigger than this are not read (libKF6BreezeIcons of Debian 13
 * is 19 MB). */
#define KIC_MAX_LIBRARY (128 << 20)

/* §2.2: what the :/icons/breeze resource of libKF6BreezeIcons.so.6 holds,
 * read from the library itself (rcc.c); on failure breeze_problem says
 * why and the model takes the disk's breeze instead. */
static void
read_embedded_breeze (KicProfile *profile, KicFsIndex *index, GPtrArray *dirs)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (KicRccBreeze) breeze = NULL;
  gsize length;

  profile->breeze_library = find_library (index, dirs, "libKF6BreezeIcons.so.6");
  if (profile->breeze_library == NULL)
    {
      profile->breeze_problem = g_strdup ("libKF6BreezeIcons.so.6 is not installed");
      return;
    }
  if (!kic_fs_index_read_file_max (index, profile->breeze_library, KIC_MAX_LIBRARY, &data, &length, &error)
      || (breeze = kic_rcc_read_breeze ((const guchar *) data, length, &error)) == NULL)
    {
      profile->breeze_problem = g_strdup_printf ("%s: %s", profile->breeze_library, error->message);
      return;
    }
  if (breeze->index_theme == NULL)
    {
      profile->breeze_problem = g_strdup_printf ("%s: its breeze index.theme cannot be read", profile->breeze_library);
      return;
    }
  profile->breeze_resource_dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_hash_table_unref);
  for (guint i = 0; i < breeze->files->len; i++)
    {
      const char *path = g_ptr_array_index (breeze->files, i);
      const char *slash = strrchr (path, '/');
      g_autofree char *dir = g_strndup (path, (gsize) (slash - path));
      GHashTable *files = g_hash_table_lookup (profile->breeze_resource_dirs, dir);

      if (files == NULL)
        {
          files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          g_hash_table_insert (profile->breeze_resource_dirs, g_strdup (dir), files);
        }
      g_hash_table_add (files, g_strdup (slash + 1));
    }
  profile->breeze_resource_index = g_steal_pointer (&breeze->index_theme);
  profile->breeze_resource_index_length = breeze->index_theme_length;
}

/* The library LIBRARY detection found, else where it is installed, else
 * NULL.  transfer full */
static char *
installed_library (const KicProfile *profile, KicFsIndex *index, GPtrArray *dirs, const char *library)
{
  if (profile->found != NULL && g_str_has_suffix (profile->found, library))
    return g_strdup (profile->found);
  return find_library (index, dirs, library);
}

/* KDE 4's release: VERSION (--kde-version), else the installed libkdeui's,
 * else 4.14.2, jessie's, the last; and whether it has the /apps/ pass. */
static void
set_kde4_version (KicProfile *profile, KicFsIndex *index, GPtrArray *dirs, const char *version)
{
  if (version == NULL || !kic_profile_parse_version (version, profile->version))
    {
      g_autofree char *library = installed_library (profile, index, dirs, "libkdeui.so.5");

      if (library != NULL)
        kde4_version_of (index, library, profile->version);
      if (profile->version[0] == 0)
        memcpy (profile->version, (int[3]) { 4, 14, 2 }, sizeof profile->version);
    }
  /* §3.2: commit 23863e3cd1, first in v4.10.1 */
  profile->apps_first_pass = profile->version[1] > 10
                             || (profile->version[1] == 10 && profile->version[2] >= 1);
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
  g_autoptr (GPtrArray) dirs = library_dirs (index);

  if (!kic_profile_check_options (kind, version, error))
    return NULL;
  if (kind == NULL || strcmp (kind, "auto") == 0)
    detect (profile, index, dirs);
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
    set_kde4_version (profile, index, dirs, version);
  if (profile->table->generation == KIC_KDE_KF6)
    {
      g_autofree char *library = installed_library (profile, index, dirs, "libKF6IconThemes.so.6");

      /* without the library, take upstream's default (USE_BreezeIcons=ON) */
      profile->breeze_embedded = library == NULL || links_breeze_icons (index, library);
      if (profile->breeze_embedded)
        read_embedded_breeze (profile, index, dirs);
    }
  return g_steal_pointer (&profile);
}
