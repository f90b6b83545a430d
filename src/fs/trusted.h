/* trusted.h - is a directory a place where root may plant?
 *
 * The model follows every link and ".." inside the root, as KDE does; the
 * writer must not.  A directory is TRUSTED when it is reached from the
 * root's descriptor one component at a time, each opened with
 * O_NOFOLLOW | O_DIRECTORY (so no component is a symbolic link, and a ".."
 * component is refused outright), and each directory on the way -- the root
 * directory itself, every component below it and the directory itself -- is
 * owned by a trusted owner and writable neither by its group nor by others,
 * sticky or not.  That is the rule dpkg and sudo apply to the paths they
 * trust: nobody but the owner can rename, replace or add anything there.
 *
 * The trusted owners are root and the effective user of the run: for the
 * usual run as root that is root alone; a run by a user on a scratch tree of
 * their own (the test suite, a --dry-run) trusts that user's directories,
 * as ssh's StrictModes trusts the user's own files.  The host directories
 * above the root (--root's parents) are not checked: the caller chose the
 * root, and everything is opened from its descriptor (SECURITY.md, "What it
 * trusts").
 *
 * The checks are made on the descriptors (fstat), not on names, so what was
 * checked is what is returned: the writer plants relative to that
 * descriptor.
 */
#ifndef KIC_TRUSTED_H
#define KIC_TRUSTED_H

#include <glib.h>
#include "stamp.h"
#include <sys/types.h>

/* Open PATH (absolute, inside the root ROOTFD; as KDE names it, not
 * resolved) as a trusted directory: an O_RDONLY | O_DIRECTORY descriptor,
 * or -1 with ERROR (KIC_ERROR_IO) naming the first component that is a
 * link, "..", not a directory, owned by another user or writable by group
 * or others, or that cannot be opened (the message names the host path
 * below HOST_ROOT, the --root prefix: "" for "/"; may be NULL). */
int kic_trusted_dir_open (int rootfd, const char *host_root, const char *path, GError **error);

/* One component more (sec-b): NAME in DIRFD, a trusted directory (HOST
 * names NAME's host path in messages), opened and checked the same way. */
int kic_trusted_dir_open_at (int dirfd, const char *host, const char *name, GError **error);

/* The same verdict without a descriptor (one fstatat(2), for a question
 * asked of many directories: the planner's, which the writer asks again
 * on the descriptor it plants in). */
gboolean kic_trusted_dir_check_at (int dirfd, const char *host, const char *name, GError **error);

/* The same verdict from STAMP, the index's stamp of the directory (one
 * this run took: a read's, or the fingerprint's look's that seeded it,
 * fsindex.h), asked of it in a trusted parent: the stat(2) it holds is
 * the one kic_trusted_dir_check_at() would take.  A stamp of nothing
 * there (or not a directory) proves nothing: FALSE with *KNOWN unset. */
gboolean kic_trusted_dir_stamp (const KicFsStamp *stamp, gboolean *known);

/* The same, the descriptor closed: TRUE when PATH is a trusted directory. */
gboolean kic_trusted_dir_check (int rootfd, const char *host_root, const char *path, GError **error);

/* kic_trusted_dir_open() with OWNER as the one trusted owner besides root
 * (the effective uid above); for the unit tests. */
int kic_trusted_dir_open_for (int rootfd, const char *host_root, const char *path, uid_t owner, GError **error);

/* Does the theme directory PATH (base/theme/entry as KDE joins them) hold a
 * ".." component?  Such a directory is KDE's all the same, but never a
 * place to plant (kic_theme_dir_is_plantable()).  Pure: no disk access. */
gboolean kic_path_has_dotdot (const char *path);

#endif /* KIC_TRUSTED_H */
