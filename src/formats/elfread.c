/* elfread.c - what detect.c asks of an ELF shared object: its DT_NEEDED
 * entries and where a named section lies (elfread.h)
 *
 * The structures are glibc's <elf.h>; a 32-bit file's are widened to the
 * 64-bit ones, and a file of the other byte order is swapped, so that the
 * rest reads one kind.  Every offset and size comes from the file and may
 * be anything: each is checked against the bytes there are, by
 * subtraction, before a structure is copied out.
 */
#include "elfread.h"

#include <elf.h>
#include <string.h>

/* More section headers than any shared object has: a bound on the loops. */
#define ELF_MAX_SECTIONS 4096

typedef struct {
  const guchar *data;
  gsize length;
  gboolean is64;
  gboolean swap; /* the file's byte order is not this host's */
  Elf64_Ehdr header;
} ElfFile;

static guint16
elf16 (const ElfFile *f, guint16 v)
{
  return f->swap ? GUINT16_SWAP_LE_BE (v) : v;
}

static guint32
elf32 (const ElfFile *f, guint32 v)
{
  return f->swap ? GUINT32_SWAP_LE_BE (v) : v;
}

static guint64
elf64 (const ElfFile *f, guint64 v)
{
  return f->swap ? GUINT64_SWAP_LE_BE (v) : v;
}

/* SIZE bytes at OFFSET of F into OUT, when they lie inside F. */
static gboolean
elf_copy (const ElfFile *f, guint64 offset, gsize size, void *out)
{
  if (offset > f->length || size > f->length - offset)
    return FALSE;
  memcpy (out, f->data + offset, size);
  return TRUE;
}

/* F's header, widened and in this host's order; FALSE when DATA is no ELF
 * file of either class and byte order, or its section headers cannot be
 * where it says. */
static gboolean
elf_file_open (ElfFile *f, const char *data, gsize length)
{
  gboolean host_big = G_BYTE_ORDER == G_BIG_ENDIAN;
  Elf64_Ehdr *h = &f->header;

  f->data = (const guchar *) data;
  f->length = length;
  if (length < EI_NIDENT || memcmp (data, ELFMAG, SELFMAG) != 0
      || (data[EI_CLASS] != ELFCLASS32 && data[EI_CLASS] != ELFCLASS64)
      || (data[EI_DATA] != ELFDATA2LSB && data[EI_DATA] != ELFDATA2MSB))
    return FALSE;
  f->is64 = data[EI_CLASS] == ELFCLASS64;
  f->swap = (data[EI_DATA] == ELFDATA2MSB) != host_big;
  if (f->is64)
    {
      if (!elf_copy (f, 0, sizeof *h, h))
        return FALSE;
      h->e_shoff = elf64 (f, h->e_shoff);
    }
  else
    {
      Elf32_Ehdr h32;

      if (!elf_copy (f, 0, sizeof h32, &h32))
        return FALSE;
      h->e_shoff = elf32 (f, h32.e_shoff);
      h->e_shentsize = h32.e_shentsize;
      h->e_shnum = h32.e_shnum;
      h->e_shstrndx = h32.e_shstrndx;
    }
  h->e_shentsize = elf16 (f, h->e_shentsize);
  h->e_shnum = elf16 (f, h->e_shnum);
  h->e_shstrndx = elf16 (f, h->e_shstrndx);
  return h->e_shentsize >= (f->is64 ? sizeof (Elf64_Shdr) : sizeof (Elf32_Shdr)) && h->e_shnum <= ELF_MAX_SECTIONS
         && h->e_shoff < length;
}

/* Section header I of F, widened and in this host's order. */
static gboolean
elf_section (const ElfFile *f, guint64 i, Elf64_Shdr *s)
{
  guint64 at = f->header.e_shoff + i * f->header.e_shentsize;

  if (f->is64)
    {
      if (!elf_copy (f, at, sizeof *s, s))
        return FALSE;
      s->sh_name = elf32 (f, s->sh_name);
      s->sh_type = elf32 (f, s->sh_type);
      s->sh_offset = elf64 (f, s->sh_offset);
      s->sh_size = elf64 (f, s->sh_size);
      s->sh_link = elf32 (f, s->sh_link);
      s->sh_entsize = elf64 (f, s->sh_entsize);
      return TRUE;
    }
  Elf32_Shdr s32;

  if (!elf_copy (f, at, sizeof s32, &s32))
    return FALSE;
  s->sh_name = elf32 (f, s32.sh_name);
  s->sh_type = elf32 (f, s32.sh_type);
  s->sh_offset = elf32 (f, s32.sh_offset);
  s->sh_size = elf32 (f, s32.sh_size);
  s->sh_link = elf32 (f, s32.sh_link);
  s->sh_entsize = elf32 (f, s32.sh_entsize);
  return TRUE;
}

/* The dynamic entry at AT of F, widened and in this host's order. */
static gboolean
elf_dyn (const ElfFile *f, guint64 at, Elf64_Dyn *d)
{
  if (f->is64)
    {
      if (!elf_copy (f, at, sizeof *d, d))
        return FALSE;
      d->d_tag = (Elf64_Sxword) elf64 (f, (guint64) d->d_tag);
      d->d_un.d_val = elf64 (f, d->d_un.d_val);
      return TRUE;
    }
  Elf32_Dyn d32;

  if (!elf_copy (f, at, sizeof d32, &d32))
    return FALSE;
  d->d_tag = (Elf32_Sword) elf32 (f, (guint32) d32.d_tag);
  d->d_un.d_val = elf32 (f, d32.d_un.d_val);
  return TRUE;
}

/* The NUL-ended string at INDEX of the string table STR, cut where the
 * table or the file ends; NULL when it lies outside them. */
static char *
elf_string (const ElfFile *f, const Elf64_Shdr *str, guint64 index)
{
  const char *s;
  gsize max;

  if (index >= str->sh_size || str->sh_offset >= f->length || index >= f->length - str->sh_offset)
    return NULL;
  s = (const char *) f->data + str->sh_offset + index;
  max = MIN (str->sh_size - index, f->length - str->sh_offset - index);
  return g_strndup (s, strnlen (s, max));
}

/* The DT_NEEDED strings of the dynamic section DYN, into NEEDED. */
static void
elf_needed_of (const ElfFile *f, const Elf64_Shdr *dyn, const Elf64_Shdr *str, GPtrArray *needed)
{
  guint64 entsize = dyn->sh_entsize ? dyn->sh_entsize : (f->is64 ? sizeof (Elf64_Dyn) : sizeof (Elf32_Dyn));

  for (guint64 at = dyn->sh_offset; at < f->length && f->length - at >= entsize && at - dyn->sh_offset + entsize <= dyn->sh_size;
       at += entsize)
    {
      Elf64_Dyn d;
      char *name;

      if (!elf_dyn (f, at, &d) || d.d_tag == DT_NULL)
        break;
      if (d.d_tag == DT_NEEDED && (name = elf_string (f, str, d.d_un.d_val)) != NULL)
        g_ptr_array_add (needed, name);
    }
}

char **
kic_elf_needed (const char *data, gsize length)
{
  g_autoptr (GPtrArray) needed = g_ptr_array_new_with_free_func (g_free);
  ElfFile f;

  if (!elf_file_open (&f, data, length))
    return NULL;
  /* the first SHT_DYNAMIC section and the string table it links to
   * (stripped libraries keep their section headers) */
  for (guint64 i = 0; i < f.header.e_shnum; i++)
    {
      Elf64_Shdr dyn, str;

      if (!elf_section (&f, i, &dyn) || dyn.sh_type != SHT_DYNAMIC)
        continue;
      if (dyn.sh_link >= f.header.e_shnum || !elf_section (&f, dyn.sh_link, &str))
        return NULL;
      elf_needed_of (&f, &dyn, &str, needed);
      break;
    }
  g_ptr_array_add (needed, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&needed), FALSE);
}

gboolean
kic_elf_section (const char *data, gsize length, const char *name, gsize *offset, gsize *size)
{
  gsize want = strlen (name) + 1;
  Elf64_Shdr names;
  ElfFile f;

  if (!elf_file_open (&f, data, length) || f.header.e_shstrndx >= f.header.e_shnum
      || !elf_section (&f, f.header.e_shstrndx, &names) || names.sh_offset >= length)
    return FALSE;
  for (guint64 i = 0; i < f.header.e_shnum; i++)
    {
      Elf64_Shdr sec;
      guint64 at;

      /* sh_name: an offset in the section names' table */
      if (!elf_section (&f, i, &sec))
        continue;
      at = sec.sh_name;
      if (at >= names.sh_size || names.sh_size - at < want || length - names.sh_offset < at + want
          || memcmp (data + names.sh_offset + at, name, want) != 0)
        continue;
      if (sec.sh_offset > length || sec.sh_size > length - sec.sh_offset)
        return FALSE;
      *offset = (gsize) sec.sh_offset;
      *size = (gsize) sec.sh_size;
      return TRUE;
    }
  return FALSE;
}
