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
#include <sys/stat.h>

/* Open the root directory ROOT (a host path).  -1 and errno on failure. */
int kic_root_open (const char *root);

/* Open PATH (absolute, inside the root) with FLAGS (O_* as for openat,
 * O_CREAT with mode 0644).  With NO_LINKS no component may be a symbolic
 * link (for writing: the index already resolved every link).  -1 and errno
 * on failure (ELOOP for a refused link). */
int kic_open_in_root (int rootfd, const char *path, int flags, gboolean no_links);

/* The run's effective uid, asked once (the tool never changes it). */
uid_t kic_run_euid (void);

/* May someone other than root and the run's user (who trusts their own
 * tree, as trusted.h does) write what is owned by UID with MODE: its
 * owner, or its group or everyone by the mode (an ACL that grants a write
 * shows in the group bits)?  The one rule of the stamps, the index and
 * the reads. */
gboolean kic_others_may_write (guint32 uid, guint32 mode);

/* Reopen the O_PATH descriptor PATHFD for reading (O_NONBLOCK) when it is
 * a regular file: its type is known before anything is opened, so a
 * device node is never opened (a watchdog reboots a host on open) nor a
 * FIFO waited on.  ST gets its state.  -1 with errno EINVAL when it is not
 * a regular file (ST says what it is), or the open's errno.  Through
 * /proc/self/fd, the same inode; PATHFD stays open. */
int kic_reopen_regular (int pathfd, struct stat *st);

/* NAME (one component) in DIRFD as a regular file for reading: an
 * O_PATH | O_NOFOLLOW open, fstat, then kic_reopen_regular() (without
 * /proc: an O_NOFOLLOW open checked to be the same inode).  A link is not
 * a regular file.  -1 and errno as there.  A file others may write
 * (kic_others_may_write()) is written back (fdatasync) before it is
 * returned: a later write to it through a shared mapping then moves its
 * times, which a stamp taken from ST tells (safeopen.c). */
int kic_open_regular_at (int dirfd, const char *name, struct stat *st);

/* PATH inside the root, no link anywhere in it, the same way. */
int kic_open_regular_in_root (int rootfd, const char *path, struct stat *st);

/* The bytes of the regular file PATH inside the root (no link in its
 * path), opened as kic_open_regular_in_root() opens it: at most MAX of
 * them, a NUL after them, their number in *LENGTH (may be NULL).  NULL
 * when it is not a regular file, cannot be read or is larger.  The store's
 * own files (the fingerprint, the manifest, the state) are read so.
 * transfer full */
char *kic_read_regular_in_root (int rootfd, const char *path, gsize max, gsize *length);

/* mkdir -p of DIR inside the root, new directories mode 0755 whatever the
 * umask; no component may be a link (one swapped in after mkdirat is
 * refused, never followed).  The directories created are appended to MADE
 * (may be NULL), parents first.  -1 and errno on failure. */
int kic_mkdirs_in_root (int rootfd, const char *dir, GPtrArray *made);

/* After kic_mkdirs_in_root() failed: which component of DIR is a link or
 * not a directory, in words; NULL when none is.  transfer full */
char *kic_mkdirs_obstacle (int rootfd, const char *dir);

/* A walk no link and no ".." can redirect, one directory at a time (the
 * trusted directories root plants in, trusted.c; the directories above a
 * file every user may read, source.c): each component opened from its
 * parent's descriptor and checked on that descriptor.  A RULE says why
 * the directory open as FD (HOST names it) is refused, or NULL. */
typedef char *(*KicDirRule) (int fd, const char *host, gpointer data);

/* kic_walk_step()'s answer for "" and "." (a "//" or "/./" in a path):
 * no step, nothing opened. */
#define KIC_WALK_SKIP (-2)

/* One step: COMPONENT of the directory DIRFD, its name appended to HOST
 * (the host path walked so far), opened with FLAGS | O_NOFOLLOW |
 * O_CLOEXEC (O_PATH; or O_RDONLY | O_DIRECTORY, which the kernel refuses
 * for anything but a directory before opening it) and passed to RULE,
 * which must refuse anything but a directory (O_PATH opens anything, a
 * link itself included: the step then names the link).
 * The new descriptor; KIC_WALK_SKIP; or -1 with *WHY (transfer full)
 * naming the component: "..", a symbolic link, not a directory, what RULE
 * says, or why it cannot be opened. */
int kic_walk_step (int dirfd, const char *component, GString *host, int flags, KicDirRule rule, gpointer data,
                   char **why);

/* Directories kept open by path, for a question asked of many paths that
 * share a few directories: at most KIC_KEPT_DIRS descriptors (so that a
 * tree of 100 000 theme directories stays under RLIMIT_NOFILE), and any
 * number of directories known not to open (a descriptor of -1).  Each
 * descriptor is closed with the table (g_hash_table_unref()). */
#define KIC_KEPT_DIRS 64
GHashTable *kic_kept_dirs_new (void);

/* The descriptor kept for PATH in DIRS into *FD (-1: known not to open);
 * FALSE when PATH is not there. */
gboolean kic_kept_dirs_lookup (GHashTable *dirs, const char *path, int *fd);

/* Keep FD (-1: PATH does not open) for PATH in DIRS; FALSE when there is
 * no room for another descriptor: FD stays the caller's to close. */
gboolean kic_kept_dirs_keep (GHashTable *dirs, const char *path, int fd);

#endif /* KIC_SAFEOPEN_H */
