/* number.c - integers read from bytes and text, and written as decimal (number.h) */
#include "number.h"

#include <string.h>

gboolean
kic_read_uint (const guchar *data, gsize length, guint64 offset, guint size, gboolean big_endian,
               guint64 *value)
{
  guint64 v = 0;

  if (offset > length || size > length - offset || size > 8)
    return FALSE;
  for (guint i = 0; i < size; i++)
    v = (v << 8) | data[offset + (big_endian ? i : size - 1 - i)];
  *value = v;
  return TRUE;
}

gboolean
kic_parse_int (const char *text, gint64 min, gint64 max, gint64 *value)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  return g_ascii_string_to_signed (stripped, 10, min, max, value, NULL);
}

/* U in decimal, after SIGN ('-' or 0) */
static gsize
format_decimal (char buf[KIC_INT64_DIGITS], guint64 u, char sign)
{
  /* two digits a division (the times of every stamp the fingerprint
   * writes and compares have nineteen) */
  static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
  char digits[KIC_INT64_DIGITS];
  char *p = digits + sizeof digits;
  gsize n;

  while (u >= 100)
    {
      guint r = (guint) (u % 100);

      u /= 100;
      p -= 2;
      memcpy (p, pairs + 2 * r, 2);
    }
  if (u >= 10)
    {
      p -= 2;
      memcpy (p, pairs + 2 * u, 2);
    }
  else
    *--p = (char) ('0' + u);
  if (sign != 0)
    *--p = sign;
  n = (gsize) (digits + sizeof digits - p);
  memcpy (buf, p, n);
  buf[n] = '\0';
  return n;
}

gsize
kic_format_int64 (char buf[KIC_INT64_DIGITS], gint64 v)
{
  return format_decimal (buf, v < 0 ? -(guint64) v : (guint64) v, v < 0 ? '-' : 0);
}

gsize
kic_format_uint64 (char buf[KIC_INT64_DIGITS], guint64 v)
{
  return format_decimal (buf, v, 0);
}
