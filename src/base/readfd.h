/* readfd.h - bounded reads of a descriptor
 *
 * Reads only the descriptor it is given; never opens a path.
 */
#ifndef KIC_READFD_H
#define KIC_READFD_H

#include <glib.h>

/* Files bigger than this are refused (icons, .desktop and index.theme
 * files are a few KiB to a few hundred). */
#define KIC_MAX_FILE (16 << 20)

/* Read all of FD (at most KIC_MAX_FILE, or MAX); WHAT names it in errors.
 * SIZE is what fstat() gave for FD, read into one buffer of that size
 * (-1: not known, asked here; a file that grew since is read on to its
 * end). */
gboolean kic_read_fd (int fd, const char *what, char **contents, gsize *length, GError **error);
gboolean kic_read_fd_max (int fd, const char *what, gsize max, goffset size, char **contents, gsize *length,
                          GError **error);

#endif /* KIC_READFD_H */
