/* fuzz-raster.c - kic_raster_xpm_to_png(): an XPM file, from any package,
 * as a palette PNG (libXpm parses it, libpng writes it)
 *
 * libXpm itself is not instrumented: its reads past a buffer's end
 * (RESULTS.md, finding 7) showed as PNGs made at one call and not
 * at another.  Invariants: a PNG comes with no reason and no PNG with one; the same
 * input gives the same bytes (a second run writes nothing new); the PNG
 * is one libpng reads back, the size libXpm gives the XPM, at most
 * KIC_RASTER_MAX_SIDE (1024) a side; a pixel is fully transparent in the
 * PNG exactly where its XPM colour is "None", and fully opaque elsewhere
 * (raster.c only converts "None" and hex colours, which have no alpha).
 */
#include "fuzz-common.h"
#include "raster.h"

#include <X11/xpm.h>
#include <png.h>
#include <sys/mman.h>
#include <unistd.h>

int
LLVMFuzzerInitialize (G_GNUC_UNUSED int *argc, G_GNUC_UNUSED char ***argv)
{
  fuzz_init ();
  return 0;
}

/* the value Qt reads for entry I: c, else g, g4, m (raster.c) */
static const char *
entry_spec (const XpmColor *entry)
{
  return entry->c_color ? entry->c_color
         : entry->g_color ? entry->g_color
         : entry->g4_color ? entry->g4_color
         : entry->m_color;
}

/* libXpm's file parser on DATA, as raster.c parses it (its buffer
 * parser reads past the end of some inputs: RESULTS.md) */
static int
read_xpm (const uint8_t *data, size_t size, XpmImage *xpm)
{
  int fd = memfd_create ("fuzz-xpm", MFD_CLOEXEC);
  char path[64];
  int status;

  FUZZ_CHECK (fd >= 0 && write (fd, data, size) == (ssize_t) size);
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  status = XpmReadFileToXpmImage (path, xpm, NULL);
  close (fd);
  return status;
}

static void
check_png (const uint8_t *data, size_t size, GBytes *png)
{
  png_image image;
  gsize png_size;
  const void *png_data = g_bytes_get_data (png, &png_size);
  g_autofree guchar *pixels = NULL;
  XpmImage xpm;

  memset (&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  FUZZ_CHECK (png_image_begin_read_from_memory (&image, png_data, png_size));
  image.format = PNG_FORMAT_RGBA;
  pixels = g_malloc (PNG_IMAGE_SIZE (image));
  FUZZ_CHECK (png_image_finish_read (&image, NULL, pixels, 0, NULL));
  FUZZ_CHECK (image.width >= 1 && image.width <= 1024 && image.height >= 1 && image.height <= 1024);

  memset (&xpm, 0, sizeof xpm);
  FUZZ_CHECK (read_xpm (data, size, &xpm) == XpmSuccess);
  FUZZ_CHECK (xpm.width == image.width && xpm.height == image.height && xpm.ncolors <= 256);
  for (gsize i = 0; i < (gsize) xpm.width * xpm.height; i++)
    {
      const char *spec;

      FUZZ_CHECK (xpm.data[i] < xpm.ncolors);
      spec = entry_spec (&xpm.colorTable[xpm.data[i]]);
      FUZZ_CHECK (spec != NULL);
      FUZZ_CHECK (pixels[i * 4 + 3] == (g_ascii_strcasecmp (spec, "none") == 0 ? 0 : 255));
    }
  XpmFreeXpmImage (&xpm);
  png_image_free (&image);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *why = NULL;
  g_autofree char *why_again = NULL;
  g_autoptr (GBytes) png = kic_raster_xpm_to_png ((const char *) data, size, &why);
  g_autoptr (GBytes) again = kic_raster_xpm_to_png ((const char *) data, size, &why_again);

  FUZZ_CHECK ((png == NULL) == (why != NULL));
  FUZZ_CHECK ((again == NULL) == (why_again != NULL));
  FUZZ_CHECK ((png == NULL) == (again == NULL));
  if (png == NULL)
    {
      if (getenv ("KIC_FUZZ_VERBOSE") != NULL)
        fprintf (stderr, "fuzz-raster: no PNG: %s\n", why);
      FUZZ_CHECK (why[0] != '\0');
      return 0;
    }
  if (getenv ("KIC_FUZZ_VERBOSE") != NULL)
    fprintf (stderr, "fuzz-raster: a PNG of %zu bytes\n", g_bytes_get_size (png));
  FUZZ_CHECK (g_bytes_equal (png, again));
  check_png (data, size, png);
  return 0;
}
