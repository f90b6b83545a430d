/* detect.c - which KDE a root runs, from the libraries installed in it
 *
 * The libraries' ELF headers (elfread.c), the dynamic linker's directories,
 * and the breeze resource KF6's kiconthemes may carry (rcc.c).  All reads go
 * through the KicFsIndex.
 */
#include "detect.h"

#include "diag.h"
#include "elfread.h"
#include "hash.h"
#include "rcc.h"

#include <string.h>

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

/* The first LIBRARY in DIRS (inside the root), or NULL; LIBRARY may lie
 * in a subdirectory ("qt6/plugins/platformthemes/X.so").  transfer full */
static char *
find_library (KicFsIndex *index, GPtrArray *dirs, const char *library)
{
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *path = g_build_filename (g_ptr_array_index (dirs, i), library, NULL);

      if (strchr (library, '/') != NULL ? kic_fs_index_stat (index, path) == KIC_FS_FILE
                                        : kic_fs_index_stat_at (index, g_ptr_array_index (dirs, i), library)
                                              == KIC_FS_FILE)
        return g_steal_pointer (&path);
    }
  return NULL;
}

char *
kic_detect_find_library (KicFsIndex *index, const char *library)
{
  g_autoptr (GPtrArray) dirs = library_dirs (index);

  return find_library (index, dirs, library);
}

char *
kic_detect_icon_library (KicFsIndex *index, const char **kind)
{
  g_autoptr (GPtrArray) dirs = library_dirs (index);
  static const struct {
    const char *library;
    const char *kind;
  } libraries[] = {
    { "libKF6IconThemes.so.6", "kf6" },
    { "libKF5IconThemes.so.5", "kf5" },
    { "libkdeui.so.5", "kde4" },
    { "libkdecore.so.4", "kde3" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    {
      char *found = find_library (index, dirs, libraries[i].library);

      if (found != NULL)
        {
          if (kind != NULL)
            *kind = libraries[i].kind;
          return found;
        }
    }
  if (kind != NULL)
    *kind = NULL;
  return NULL;
}

/* "6.30.0" of "libKF6IconThemes.so.6.30.0" after PREFIX: digits and dots,
 * starting and ending with a digit; NULL otherwise.  transfer full */
static char *
release_of (const char *base, const char *prefix)
{
  const char *rest;

  if (!g_str_has_prefix (base, prefix))
    return NULL;
  rest = base + strlen (prefix);
  if (!g_ascii_isdigit (rest[0]) || !g_ascii_isdigit (rest[strlen (rest) - 1])
      || rest[strspn (rest, "0123456789.")] != '\0' || strstr (rest, "..") != NULL)
    return NULL;
  return g_strdup (rest);
}

/* Compare releases "6.9.0" and "6.30.0" number by number. */
static int
release_cmp (const char *a, const char *b)
{
  while (*a != '\0' || *b != '\0')
    {
      char *ea, *eb;
      guint64 na = g_ascii_strtoull (a, &ea, 10), nb = g_ascii_strtoull (b, &eb, 10);

      if (na != nb)
        return na < nb ? -1 : 1;
      a = *ea == '.' ? ea + 1 : ea;
      b = *eb == '.' ? eb + 1 : eb;
    }
  return 0;
}

char *
kic_detect_library_release (KicFsIndex *index, const char *library, const char *prefix)
{
  g_autofree char *real = kic_fs_index_realpath (index, library);
  g_autofree char *base = real ? g_path_get_basename (real) : NULL;
  g_autofree char *soname = g_path_get_basename (library);
  g_autofree char *dir = NULL;
  g_autoptr (GPtrArray) names = NULL;
  char *best = NULL;

  /* the soname itself ("libKF6IconThemes.so.6") carries only the major */
  if (base != NULL && strcmp (base, soname) != 0 && (best = release_of (base, prefix)) != NULL)
    return best;
  /* a copy of the library (cp -L) keeps only the soname: the real file
   * may still lie beside it */
  dir = g_path_get_dirname (library);
  names = kic_fs_index_list (index, dir);
  for (guint i = 0; names != NULL && i < names->len; i++)
    {
      const char *other = g_ptr_array_index (names, i);
      char *release = strcmp (other, soname) == 0 ? NULL : release_of (other, prefix);

      if (release != NULL && (best == NULL || release_cmp (release, best) > 0))
        {
          g_free (best);
          best = release;
        }
      else
        g_free (release);
    }
  return best;
}

gboolean
kic_detect_links (KicFsIndex *index, const char *library, const char *needed_library)
{
  g_autofree char *data = NULL;
  g_auto (GStrv) needed = NULL;
  gsize length;

  if (!kic_fs_index_read_file (index, library, &data, &length, NULL))
    return FALSE;
  needed = kic_elf_needed (data, length);
  return needed != NULL && g_strv_contains ((const char *const *) needed, needed_library);
}

/* Libraries bigger than this are not read (libKF6BreezeIcons of Debian 13
 * is 19 MB). */
#define KIC_MAX_LIBRARY (128 << 20)

gboolean
kic_detect_has_string (KicFsIndex *index, const char *library, const char *section, const char *text)
{
  g_autofree char *data = NULL;
  gsize length, offset, size, want = strlen (text) + 1;

  if (!kic_fs_index_read_file_max (index, library, KIC_MAX_LIBRARY, &data, &length, NULL)
      || !kic_elf_section (data, length, section, &offset, &size))
    return FALSE;
  /* the string and its NUL: not the start of a longer one (a linker may
   * keep a literal as the tail of another that ends the same) */
  return memmem (data + offset, size, text, want) != NULL;
}

/* §2.2: the :/icons/breeze resource of libKF6BreezeIcons.so.6, read from
 * the library itself (rcc.c). */
gboolean
kic_detect_read_breeze (KicFsIndex *index, const char *library, KicEmbeddedBreeze *out, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (KicRccBreeze) breeze = NULL;
  gsize length;

  if (!kic_fs_index_read_file_max (index, library, KIC_MAX_LIBRARY, &data, &length, &local)
      || (breeze = kic_rcc_read_breeze ((const guchar *) data, length, &local)) == NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s: %s", library, local->message);
      return FALSE;
    }
  if (breeze->index_theme == NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s: its breeze index.theme cannot be read", library);
      return FALSE;
    }
  out->dirs = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  for (guint i = 0; i < breeze->files->len; i++)
    {
      const char *path = g_ptr_array_index (breeze->files, i);
      const char *slash = strrchr (path, '/');
      g_autofree char *dir = g_strndup (path, (gsize) (slash - path));
      GHashTable *files = g_hash_table_lookup (out->dirs, dir);

      if (files == NULL)
        {
          files = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
          g_hash_table_insert (out->dirs, g_strdup (dir), files);
        }
      g_hash_table_add (files, g_strdup (slash + 1));
    }
  out->index_theme = g_steal_pointer (&breeze->index_theme);
  out->index_theme_length = breeze->index_theme_length;
  return TRUE;
}
