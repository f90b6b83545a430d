/* safeopen.h - open a path as if the root directory were a chroot
 *
 * kde-icon-cache runs as root on trees that any package or chroot can
 * shape.  Every file it reads or writes is opened relative to a descriptor
 * of the root with openat2(RESOLVE_IN_ROOT): "/", ".." and absolute link
 * targets cannot leave it, and nothing is opened through a race.  Where
 * the kernel lacks openat2 (before Linux 5.6), the path is walked one
 * component at a time with O_NOFOLLOW, which refuses links altogether.
 */
#ifndef KIC_SAFEOPEN_H
#define KIC_SAFEOPEN_H

#include <glib.h>

/* Open the root directory ROOT (a host path).  -1 and errno on failure. */
int kic_root_open (const char *root);

/* Open PATH (absolute, inside the root) with FLAGS (O_* as for openat,
 * O_CREAT with mode 0644).  With NO_LINKS no component may be a symbolic
 * link (for writing: the index already resolved every link).  -1 and errno
 * on failure (ELOOP for a refused link). */
int kic_open_in_root (int rootfd, const char *path, int flags, gboolean no_links);

/* mkdir -p of DIR inside the root, new directories mode 0755 whatever the
 * umask; no component may be a link (one swapped in after mkdirat is
 * refused, never followed).  The directories created are appended to MADE
 * (may be NULL), parents first.  -1 and errno on failure. */
int kic_mkdirs_in_root (int rootfd, const char *dir, GPtrArray *made);

/* After kic_mkdirs_in_root() failed: which component of DIR is a link or
 * not a directory, in words; NULL when none is.  transfer full */
char *kic_mkdirs_obstacle (int rootfd, const char *dir);

#endif /* KIC_SAFEOPEN_H */
