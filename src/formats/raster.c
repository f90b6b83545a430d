/* raster.c - an XPM icon as a PNG with the pixels Qt reads from it
 *
 * Qt's reader (qtbase v5.15 src/gui/image/qxpmhandler.cpp, read_xpm_body):
 *   - the file must begin with "/ * XPM" (QXpmHandler::canRead);
 *   - each colour entry's value is the one after its "c" key, else "g",
 *     "g4", "m" (the "s" name is never used); lowercased; "none" is
 *     transparent (0x00000000), "#..." goes through qt_get_hex_rgb, any
 *     other word through Qt's own X11 name table;
 *   - up to 256 colours give an Indexed8 image with that colour table,
 *     more give RGB32, or ARGB32 when one of them is "none".
 * The PNG mirrors the first case: a palette PNG (with tRNS for "none")
 * that Qt's PNG reader turns into the same Indexed8 image.  Files with
 * more colours, and colour names (their table is Qt's, not ours to copy),
 * stay XPM.
 */
#include "raster.h"

#include <X11/xpm.h>
#include <errno.h>
#include <png.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Icons, not photographs: anything larger is left as it is. */
#define KIC_RASTER_MAX_SIDE 1024

typedef struct {
  guchar r, g, b, a;
} Rgba;

static int
hex_value (const char *s, int n)
{
  int v = 0;

  for (int i = 0; i < n; i++)
    {
      if (!g_ascii_isxdigit (s[i]))
        return -1;
      v = v * 16 + g_ascii_xdigit_value (s[i]);
    }
  return v;
}

/* QRgba64::toArgb32's 16 -> 8 bit rounding (qrgba64.h, div_257). */
static guchar
div_257 (int x)
{
  return (guchar) ((x - (x >> 8) + 0x80) >> 8);
}

/* qt_get_hex_rgb (qcolor.cpp, get_hex_rgb): "#rgb", "#rrggbb",
 * "#rrrgggbbb" and "#rrrrggggbbbb", widened to 16 bits per channel, then
 * rounded to 8.  Lengths Qt's XPM reader would first cut ("alpha left by
 * imagemagick") or that Qt rejects are refused. */
static gboolean
hex_colour (const char *spec, Rgba *out)
{
  gsize n = strlen (spec + 1);
  int d = n == 3 ? 1 : n == 6 ? 2 : n == 9 ? 3 : n == 12 ? 4 : 0;
  int c[3];

  if (d == 0)
    return FALSE;
  for (int i = 0; i < 3; i++)
    {
      int v = hex_value (spec + 1 + i * d, d);

      if (v < 0)
        return FALSE;
      c[i] = d == 1 ? v * 0x1111 : d == 2 ? v * 0x101 : d == 3 ? (v << 4) | (v >> 8) : v;
    }
  out->r = div_257 (c[0]);
  out->g = div_257 (c[1]);
  out->b = div_257 (c[2]);
  out->a = 255;
  return TRUE;
}

/* The colour Qt gives one entry of the colour table; FALSE when it is
 * not one we can be sure of. */
static gboolean
entry_colour (const XpmColor *entry, Rgba *out, char **why)
{
  const char *spec = entry->c_color ? entry->c_color
                     : entry->g_color ? entry->g_color
                     : entry->g4_color ? entry->g4_color
                     : entry->m_color;

  if (spec == NULL)
    {
      *why = g_strdup ("a colour with no c, g, g4 or m value (Qt rejects the file)");
      return FALSE;
    }
  if (strpbrk (spec, " \t") != NULL)
    {
      *why = g_strdup_printf ("colour '%s' (a name)", spec);
      return FALSE;
    }
  if (g_ascii_strcasecmp (spec, "none") == 0)
    {
      *out = (Rgba) { 0, 0, 0, 0 };
      return TRUE;
    }
  if (spec[0] == '#' && hex_colour (spec, out))
    return TRUE;
  *why = g_strdup_printf ("colour '%s' (%s)", spec, spec[0] == '#' ? "not a hex form Qt reads as such" : "a name");
  return FALSE;
}

static void
png_append (png_structp png, png_bytep data, png_size_t length)
{
  g_byte_array_append (png_get_io_ptr (png), data, (guint) length);
}

static void
png_flush_nothing (G_GNUC_UNUSED png_structp png)
{
}

/* Write the image as a palette PNG: Qt reads it as Indexed8 with the
 * same colour table (alpha from tRNS), as it reads the XPM. */
static GBytes *
write_png (const XpmImage *xpm, const Rgba *colours, char **why)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();
  guchar *row = g_malloc (xpm->width);
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct (png) : NULL;
  png_color palette[256];
  png_byte alpha[256];
  int n_alpha = 0;

  if (png == NULL || info == NULL || setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      g_free (row);
      *why = g_strdup ("libpng could not write it");
      return NULL;
    }
  png_set_write_fn (png, out, png_append, png_flush_nothing);
  png_set_IHDR (png, info, xpm->width, xpm->height, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  for (unsigned i = 0; i < xpm->ncolors; i++)
    {
      palette[i] = (png_color) { colours[i].r, colours[i].g, colours[i].b };
      alpha[i] = colours[i].a;
      if (colours[i].a != 255)
        n_alpha = (int) i + 1;
    }
  png_set_PLTE (png, info, palette, (int) xpm->ncolors);
  if (n_alpha > 0)
    png_set_tRNS (png, info, alpha, n_alpha, NULL);
  png_write_info (png, info);
  for (unsigned y = 0; y < xpm->height; y++)
    {
      const unsigned *src = xpm->data + (gsize) y * xpm->width;

      for (unsigned x = 0; x < xpm->width; x++)
        row[x] = (guchar) src[x];
      png_write_row (png, row);
    }
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  g_free (row);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* The values line (the first C string: width, height, colours,
 * characters a pixel) within what is converted at all.  libXpm allocates
 * from these before it reads the rest (fuzz-raster, RESULTS.md finding
 * 8: "1 3 3 66666666666666666660000" made it ask for 4 GB), so they are
 * checked first.  A file whose first string is not the values line (a
 * quote in a comment before it) is refused: it stays XPM. */
static gboolean
values_in_bounds (const char *data, gsize length, char **why)
{
  const char *quote = memchr (data, '"', length);
  g_autofree char *line = NULL;
  const char *end;
  guint64 v[4];
  char *next;

  if (quote == NULL || (end = memchr (quote + 1, '"', length - (gsize) (quote + 1 - data))) == NULL)
    {
      *why = g_strdup ("no values line");
      return FALSE;
    }
  line = g_strndup (quote + 1, (gsize) (end - quote - 1));
  next = line;
  for (int i = 0; i < 4; i++)
    {
      char *after;

      while (g_ascii_isspace (*next))
        next++;
      if (!g_ascii_isdigit (*next))
        {
          *why = g_strdup_printf ("values line '%s' (not four numbers)", line);
          return FALSE;
        }
      v[i] = g_ascii_strtoull (next, &after, 10);
      next = after;
    }
  if (v[0] < 1 || v[0] > KIC_RASTER_MAX_SIDE || v[1] < 1 || v[1] > KIC_RASTER_MAX_SIDE || v[2] < 1 || v[2] > 256
      || v[3] < 1 || v[3] > 15)
    {
      *why = g_strdup_printf ("values line '%s' (more than a %dx%d, 256-colour palette image)", line,
                              KIC_RASTER_MAX_SIDE, KIC_RASTER_MAX_SIDE);
      return FALSE;
    }
  return TRUE;
}

/* libXpm parses DATA into XPM.  Not from a buffer: libXpm 3.5.12's
 * buffer parser (XpmCreateXpmImageFromBuffer) reads past the string's end
 * on some malformed files (tests/fuzz/RESULTS.md, finding 7), so
 * what follows it in memory could become pixels.  Its file parser reads
 * with getc and stops at EOF: the bytes go to an anonymous memory file,
 * read back through /proc (a path that does not end in .Z or .gz, which
 * would make libXpm run a decompressor).  Without /proc the icon stays
 * XPM. */
static gboolean
parse_xpm (const char *data, gsize length, XpmImage *xpm, char **why)
{
  g_autofree char *path = NULL;
  gsize done = 0;
  int status;
  int fd;

  fd = memfd_create ("kic-xpm", MFD_CLOEXEC);
  if (fd < 0)
    {
      *why = g_strdup_printf ("memfd_create: %s", g_strerror (errno));
      return FALSE;
    }
  while (done < length)
    {
      ssize_t n = write (fd, data + done, length - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          *why = g_strdup_printf ("writing the memory file: %s", g_strerror (errno));
          close (fd);
          return FALSE;
        }
      done += (gsize) n;
    }
  path = g_strdup_printf ("/proc/self/fd/%d", fd);
  status = XpmReadFileToXpmImage (path, xpm, NULL);
  close (fd);
  if (status != XpmSuccess)
    {
      *why = g_strdup_printf ("libXpm cannot parse it (%s)", XpmGetErrorString (status));
      return FALSE;
    }
  return TRUE;
}

GBytes *
kic_raster_xpm_to_png (const char *data, gsize length, char **why)
{
  g_autofree Rgba *colours = NULL;
  XpmImage xpm;
  GBytes *png;

  *why = NULL;
  /* QXpmHandler::canRead: the first line begins with the magic */
  if (length < 6 || memcmp (data, "/* XPM", 6) != 0)
    {
      *why = g_strdup ("it does not begin with '/* XPM' (Qt does not read it as XPM)");
      return NULL;
    }
  if (memchr (data, '\0', length) != NULL)
    {
      *why = g_strdup ("a NUL byte in the file");
      return NULL;
    }
  if (!values_in_bounds (data, length, why))
    return NULL;
  memset (&xpm, 0, sizeof xpm);
  if (!parse_xpm (data, length, &xpm, why))
    return NULL;
  if (xpm.width == 0 || xpm.height == 0 || xpm.width > KIC_RASTER_MAX_SIDE || xpm.height > KIC_RASTER_MAX_SIDE
      || xpm.ncolors == 0 || xpm.cpp > 15)
    {
      *why = g_strdup_printf ("%ux%u pixels, %u colours, %u characters a pixel", xpm.width, xpm.height,
                              xpm.ncolors, xpm.cpp);
      XpmFreeXpmImage (&xpm);
      return NULL;
    }
  /* Qt reads more colours as RGB32/ARGB32 from both files, yet KF5's
   * downscaled renders of such an XPM and its RGBA PNG differ
   * (tests/integration/xpm-png.sh found it on 3 files of 19): only the
   * Indexed8 case, a palette PNG, is known to give the same pixels */
  if (xpm.ncolors > 256)
    {
      *why = g_strdup_printf ("%u colours (more than a palette holds)", xpm.ncolors);
      XpmFreeXpmImage (&xpm);
      return NULL;
    }
  colours = g_new0 (Rgba, xpm.ncolors);
  for (unsigned i = 0; i < xpm.ncolors; i++)
    {
      if (!entry_colour (&xpm.colorTable[i], &colours[i], why))
        {
          XpmFreeXpmImage (&xpm);
          return NULL;
        }
    }
  for (gsize i = 0; i < (gsize) xpm.width * xpm.height; i++)
    if (xpm.data[i] >= xpm.ncolors)
      {
        *why = g_strdup ("a pixel outside the colour table");
        XpmFreeXpmImage (&xpm);
        return NULL;
      }
  png = write_png (&xpm, colours, why);
  XpmFreeXpmImage (&xpm);
  return png;
}

gboolean
kic_raster_is_png_of_xpm (const char *store, const char *source)
{
  return g_str_has_suffix (store, ".png") && g_str_has_suffix (source, ".xpm");
}
