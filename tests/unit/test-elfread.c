/* test-elfread.c - DT_NEEDED and sections of ELF objects of both classes
 * and byte orders, made here with <elf.h>'s structures */
#include "elfread.h"

#include <elf.h>
#include <string.h>

/* An object of CLASS and byte order ORDER: section 0 null, 1 .dynstr,
 * 2 .dynamic (DT_NEEDED libfoo.so.1 and libbar.so.2), 3 .shstrtab; the
 * file's bytes, *LENGTH of them.  Each field written in ORDER. */
typedef struct {
  GByteArray *bytes;
  gboolean big;
} Out;

static void
put (Out *o, guint64 v, guint size)
{
  for (guint i = 0; i < size; i++)
    {
      guint shift = 8 * (o->big ? size - 1 - i : i);
      guint8 b = (guint8) (v >> shift);

      g_byte_array_append (o->bytes, &b, 1);
    }
}

static void
pad_to (Out *o, gsize at)
{
  g_assert_cmpuint (o->bytes->len, <=, at);
  while (o->bytes->len < at)
    put (o, 0, 1);
}

static char *
make_elf (gboolean is64, gboolean big, gsize *length)
{
  static const char dynstr[] = "\0libfoo.so.1\0libbar.so.2";
  static const char shstrtab[] = "\0.dynstr\0.dynamic\0.shstrtab";
  guint w = is64 ? 8 : 4;
  gsize ehsize = is64 ? sizeof (Elf64_Ehdr) : sizeof (Elf32_Ehdr);
  gsize shsize = is64 ? sizeof (Elf64_Shdr) : sizeof (Elf32_Shdr);
  gsize dynsize = is64 ? sizeof (Elf64_Dyn) : sizeof (Elf32_Dyn);
  gsize str_at = ehsize, dyn_at = 128, names_at = dyn_at + 3 * dynsize, sh_at = 256;
  guint64 sections[4][5] = {
    /* name, type, offset, size, link */
    { 0, SHT_NULL, 0, 0, 0 },
    { 1, SHT_STRTAB, str_at, sizeof dynstr, 0 },
    { 9, SHT_DYNAMIC, dyn_at, 3 * dynsize, 1 },
    { 18, SHT_STRTAB, names_at, sizeof shstrtab, 0 },
  };
  Out o = { g_byte_array_new (), big };
  guint8 ident[EI_NIDENT] = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, is64 ? ELFCLASS64 : ELFCLASS32,
                              big ? ELFDATA2MSB : ELFDATA2LSB, EV_CURRENT };

  g_byte_array_append (o.bytes, ident, EI_NIDENT);
  put (&o, ET_DYN, 2), put (&o, EM_NONE, 2), put (&o, EV_CURRENT, 4);
  put (&o, 0, w), put (&o, 0, w), put (&o, sh_at, w); /* entry, phoff, shoff */
  put (&o, 0, 4), put (&o, ehsize, 2), put (&o, 0, 2), put (&o, 0, 2); /* flags, ehsize, phentsize, phnum */
  put (&o, shsize, 2), put (&o, 4, 2), put (&o, 3, 2);                 /* shentsize, shnum, shstrndx */
  g_assert_cmpuint (o.bytes->len, ==, ehsize);
  g_byte_array_append (o.bytes, (const guint8 *) dynstr, sizeof dynstr);
  pad_to (&o, dyn_at);
  put (&o, DT_NEEDED, w), put (&o, 1, w);
  put (&o, DT_NEEDED, w), put (&o, 13, w);
  put (&o, DT_NULL, w), put (&o, 0, w);
  g_byte_array_append (o.bytes, (const guint8 *) shstrtab, sizeof shstrtab);
  pad_to (&o, sh_at);
  for (guint i = 0; i < 4; i++)
    {
      gsize start = o.bytes->len;

      put (&o, sections[i][0], 4), put (&o, sections[i][1], 4);
      put (&o, 0, w), put (&o, 0, w);                             /* flags, addr */
      put (&o, sections[i][2], w), put (&o, sections[i][3], w);   /* offset, size */
      put (&o, sections[i][4], 4), put (&o, 0, 4), put (&o, 1, w); /* link, info, addralign */
      put (&o, i == 2 ? dynsize : 0, w);                          /* entsize */
      g_assert_cmpuint (o.bytes->len - start, ==, shsize);
    }
  *length = o.bytes->len;
  return (char *) g_byte_array_free (o.bytes, FALSE);
}

static void
test_classes_and_orders (void)
{
  for (guint k = 0; k < 4; k++)
    {
      gboolean is64 = k & 1, big = k & 2;
      gsize length, offset = 0, size = 0;
      g_autofree char *data = make_elf (is64, big, &length);
      g_auto (GStrv) needed = kic_elf_needed (data, length);

      g_test_message ("%s-bit, %s-endian", is64 ? "64" : "32", big ? "big" : "little");
      g_assert_nonnull (needed);
      g_assert_cmpuint (g_strv_length (needed), ==, 2);
      g_assert_cmpstr (needed[0], ==, "libfoo.so.1");
      g_assert_cmpstr (needed[1], ==, "libbar.so.2");
      g_assert_true (kic_elf_section (data, length, ".dynamic", &offset, &size));
      g_assert_cmpuint (offset, ==, 128);
      g_assert_cmpuint (size, ==, 3 * (is64 ? sizeof (Elf64_Dyn) : sizeof (Elf32_Dyn)));
      g_assert_false (kic_elf_section (data, length, ".dyn", &offset, &size));
      /* cut anywhere: never a name that is not there, no read outside
       * the bytes (ASan) */
      for (gsize cut = 0; cut < length; cut++)
        {
          g_auto (GStrv) part = kic_elf_needed (data, cut);

          for (guint i = 0; part != NULL && part[i] != NULL; i++)
            g_assert_true (g_str_has_prefix ("libfoo.so.1", part[i]) || g_str_has_prefix ("libbar.so.2", part[i]));
          kic_elf_section (data, cut, ".dynstr", &offset, &size);
        }
    }
}

static void
test_not_elf (void)
{
  gsize length;
  g_autofree char *data = make_elf (TRUE, FALSE, &length);

  g_assert_null (kic_elf_needed ("#!/bin/sh\n", 10));
  data[EI_CLASS] = 3;
  g_assert_null (kic_elf_needed (data, length));
  data[EI_CLASS] = ELFCLASS64;
  data[EI_DATA] = 0;
  g_assert_null (kic_elf_needed (data, length));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/elfread/classes-and-orders", test_classes_and_orders);
  g_test_add_func ("/elfread/not-elf", test_not_elf);
  return g_test_run ();
}
