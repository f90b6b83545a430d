/* raster.h - an XPM icon as a PNG with the pixels Qt reads from it
 *
 * KDE tries ".xpm" last in every directory (kde-lookup.md §3.1): an icon
 * that only exists as XPM costs KDE a PNG, an SVGZ and an SVG miss in
 * each directory first.  A PNG with exactly the pixels Qt's XPM reader
 * gives (qxpmhandler.cpp, read_xpm_body) ends the search in the PNG pass.
 *
 * libXpm parses the file; libpng writes the PNG.  What is ours is only
 * Qt's choice of the colour each entry means, and only where it cannot
 * be misread: "None" and "#" hex colours.  A file Qt could read another
 * way (a colour name, a header Qt does not accept) is not converted.
 */
#ifndef KIC_RASTER_H
#define KIC_RASTER_H

#include <glib.h>

/* The PNG for the XPM file DATA (LENGTH bytes), or NULL with *WHY set
 * (transfer full) when it cannot be made pixel for pixel.  The bytes only
 * depend on DATA, so a second run writes the same file. */
GBytes *kic_raster_xpm_to_png (const char *data, gsize length, char **why);

/* Is STORE (a file in the store) the PNG made from SOURCE, an XPM? */
gboolean kic_raster_is_png_of_xpm (const char *store, const char *source);

#endif /* KIC_RASTER_H */
