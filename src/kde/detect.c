/* detect.c - which KDE a root runs, from the libraries installed in it
 *
 * An ELF reader (DT_NEEDED only), the dynamic linker's directories, and
 * the breeze resource KF6's kiconthemes may carry (rcc.c).  All reads go
 * through the KicFsIndex.
 */
#include "detect.h"

#include "diag.h"
#include "hash.h"
#include "number.h"
#include "rcc.h"

#include <string.h>

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

/* The ELF header's fields a section lookup needs. */
static gboolean
elf_open (Elf *elf, const char *data, gsize length, guint64 *shoff, guint64 *shentsize, guint64 *shnum)
{
  enum { MAX_SECTIONS = 4096 };

  if (length < 52 || memcmp (data, "\177ELF", 4) != 0 || (data[4] != 1 && data[4] != 2)
      || (data[5] != 1 && data[5] != 2))
    return FALSE;
  elf->data = (const guchar *) data;
  elf->length = length;
  elf->is64 = data[4] == 2;
  elf->big = data[5] == 2;
  return elf_word (elf, elf->is64 ? 40 : 32, shoff) && elf_uint (elf, elf->is64 ? 58 : 46, 2, shentsize)
         && elf_uint (elf, elf->is64 ? 60 : 48, 2, shnum) && *shentsize >= (elf->is64 ? 64u : 40u)
         && *shnum <= MAX_SECTIONS && *shoff < length;
}

gboolean
kic_elf_section (const char *data, gsize length, const char *name, gsize *offset, gsize *size)
{
  Elf elf;
  guint64 shoff, shentsize, shnum, shstrndx;
  ElfSection names;
  gsize want = strlen (name) + 1;

  if (!elf_open (&elf, data, length, &shoff, &shentsize, &shnum)
      || !elf_uint (&elf, elf.is64 ? 62 : 50, 2, &shstrndx) || shstrndx >= shnum
      || !elf_section (&elf, shoff, shentsize, shstrndx, &names) || names.offset >= length)
    return FALSE;
  for (guint64 i = 0; i < shnum; i++)
    {
      ElfSection sec;
      guint64 at;

      /* sh_name, the first word of a section header: an offset in NAMES */
      if (!elf_section (&elf, shoff, shentsize, i, &sec) || !elf_uint (&elf, shoff + i * shentsize, 4, &at)
          || at >= names.size || names.size - at < want || length - names.offset < at + want
          || memcmp (data + names.offset + at, name, want) != 0)
        continue;
      if (sec.offset > length || sec.size > length - sec.offset)
        return FALSE;
      *offset = (gsize) sec.offset;
      *size = (gsize) sec.size;
      return TRUE;
    }
  return FALSE;
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
