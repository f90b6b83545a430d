/* detect.h - what the libraries installed in a root say about its KDE
 *
 * Facts only: which icon library is installed, the release its file name
 * carries, what it links, and the breeze resource KF6's kiconthemes may
 * carry (kde-lookup.md §2.2).  What those facts mean for the lookup is
 * profile.c's, which asks these; this module knows nothing of profiles
 * (no include of profile.h: issue 21).
 */
#ifndef KIC_DETECT_H
#define KIC_DETECT_H

#include "fsindex.h"

#include <glib.h>

/* The icon library of the newest KDE generation installed, inside the
 * root: libKF6IconThemes.so.6, libKF5IconThemes.so.5, libkdeui.so.5 (KDE
 * 4), libkdecore.so.4 (KDE 3), the first found; *KIND (may be NULL) gets
 * "kf6", "kf5", "kde4" or "kde3".  NULL when none is.  transfer full */
char *kic_detect_icon_library (KicFsIndex *index, const char **kind);

/* Where the library file LIBRARY ("libKF6BreezeIcons.so.6", or a plugin
 * "qt6/plugins/platformthemes/KDEPlasmaPlatformTheme6.so") is installed
 * in the dynamic linker's directories of the root, or NULL.  transfer full */
char *kic_detect_find_library (KicFsIndex *index, const char *library);

/* The release a shared library's real file name carries after PREFIX:
 * for LIBRARY /usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.6, a link to
 * libKF6IconThemes.so.6.30.0, and PREFIX "libKF6IconThemes.so.", "6.30.0".
 * When LIBRARY is no link (a copy), the highest such name beside it.
 * NULL when there is none.  transfer full */
char *kic_detect_library_release (KicFsIndex *index, const char *library, const char *prefix);

/* Does the ELF shared object LIBRARY (inside the root) list NEEDED among
 * its DT_NEEDED entries?  FALSE when it cannot be read or is no ELF. */
gboolean kic_detect_links (KicFsIndex *index, const char *library, const char *needed);

/* Does section SECTION (".rodata") of the ELF shared object LIBRARY
 * (inside the root) hold the string TEXT (its NUL included)?  FALSE when
 * it cannot be read or is no ELF. */
gboolean kic_detect_has_string (KicFsIndex *index, const char *library, const char *section, const char *text);

/* What the :/icons/breeze resource of libKF6BreezeIcons.so.6 holds. */
typedef struct {
  GHashTable *dirs;  /* ":/icons/breeze/actions/16" -> set of file names */
  char *index_theme; /* the text of its index.theme */
  gsize index_theme_length;
} KicEmbeddedBreeze;

/* Read it from LIBRARY (inside the root) into BREEZE; FALSE with ERROR
 * (naming the library) when it cannot be read. */
gboolean kic_detect_read_breeze (KicFsIndex *index, const char *library, KicEmbeddedBreeze *breeze,
                                 GError **error);

#endif /* KIC_DETECT_H */
