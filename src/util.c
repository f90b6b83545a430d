/* util.c - messages and the error domain */
#include "kic.h"

#include <stdarg.h>

gboolean kic_quiet = FALSE;
gboolean kic_verbose = FALSE;

G_DEFINE_QUARK (kic-error-quark, kic_error)

static void
print_prefixed (const char *level, const char *format, va_list args)
{
  g_autofree char *msg = g_strdup_vprintf (format, args);
  g_printerr ("%s: %s%s\n", g_get_prgname () ? g_get_prgname () : "kde-icon-cache", level, msg);
}

void
kic_warning (const char *format, ...)
{
  va_list args;

  if (kic_quiet)
    return;
  va_start (args, format);
  print_prefixed ("warning: ", format, args);
  va_end (args);
}

void
kic_debug (const char *format, ...)
{
  va_list args;

  if (!kic_verbose)
    return;
  va_start (args, format);
  print_prefixed ("", format, args);
  va_end (args);
}

void
kic_note (const char *format, ...)
{
  va_list args;

  if (kic_quiet)
    return;
  va_start (args, format);
  print_prefixed ("note: ", format, args);
  va_end (args);
}

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
