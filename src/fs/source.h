/* source.h - open an icon file for a copy into the store
 *
 * The store is mode 0755/0644: anyone may read a copy.  So a file is only
 * copied when every user could read it already (issue 19, row 3): a
 * regular file its group and others may read, in directories its group
 * and others may search and list, from below the root down (the root
 * itself holds the store too), none of them with an access ACL (whose
 * entries may deny a user what the mode gives), reached without a link (the path is the
 * real path the index resolved: a link there now is a change made since),
 * each component opened O_PATH | O_NOFOLLOW and checked on its descriptor
 * before the next; the file is opened for reading only once its type is
 * known (kic_reopen_regular()), and its content is read from that
 * descriptor.  So no private file, nor the name of one, reaches the store.
 *
 * And so that one user's files cannot swamp /var: at most
 * KIC_MAX_ICON_BYTES, and no holes (a sparse file's size is not what its
 * owner paid for on disk).
 */
#ifndef KIC_SOURCE_H
#define KIC_SOURCE_H

#include <glib.h>
#include <sys/stat.h>

/* The largest icon file copied: 16 times the largest icon file of Debian
 * 12's and 13's Plasma roots (breeze's apps/48/kmplot.svg, 250 032 bytes;
 * the largest the realistic tree's menu copies is hicolor's redshift.svg,
 * 98 173 bytes; tests/bench/largest-icon.sh measures them). */
#define KIC_MAX_ICON_BYTES (4 << 20)

/* The directories checked in one phase of a run, kept open (O_PATH, at
 * most 48) so that the files of one directory are not each walked from
 * the root: one for the plan's reads, which all happen within a moment,
 * then a fresh one for the writer's (RECHECK), which checks each directory
 * again before its first copy from it and, at every later copy, asks each
 * directory from the root down again by name in its parent (one fstatat:
 * the same directory, still searchable and readable by every user), so
 * that a directory made private or moved after one copy lets no later
 * copy through.  ROOTFD (the root's descriptor; HOST_ROOT its host
 * prefix, for messages) must outlive it. */
typedef struct _KicSourceDirs KicSourceDirs;
KicSourceDirs *kic_source_dirs_new (int rootfd, const char *host_root, gboolean recheck);
void kic_source_dirs_free (KicSourceDirs *dirs);

/* Open PATH (a real path inside the root) for a copy: a descriptor to
 * read, ST its state; -1 and ERROR (KIC_ERROR_IO, naming the file and
 * why; KIC_ERROR_PRIVATE when the file or a directory on the way is not
 * every user's to read or search) otherwise.  Its directories are taken from DIRS where it checked
 * them in this phase, and those checked now are kept there. */
int kic_source_open_in (KicSourceDirs *dirs, const char *path, struct stat *st, GError **error);

/* A file as a run that checked it found it (its stamp, which runs since
 * found again: fingerprint.h): its identity and change time. */
typedef struct {
  dev_t dev;
  ino_t ino;
  gint64 ctime_ns;
} KicSourceSeen;

/* The checks of kic_source_open_in() on PATH but for its holes, without
 * opening the file for reading (O_PATH only): for a file read before,
 * whose state then the caller compares with ST's (the same file, size and
 * times: then it has no holes either, nor an ACL set since).  With SEEN
 * (may be NULL), a file of that identity and change time is not opened
 * and its ACL not asked again: a change of its ACL, mode, owner or links
 * moves the change time (the others are asked again of its stat). */
gboolean kic_source_stat_in (KicSourceDirs *dirs, const char *path, const KicSourceSeen *seen, struct stat *st,
                             GError **error);

/* Whether the kernel lets a user make a hard link only to a file they
 * own or may read and write (fs.protected_hardlinks = 1): without, a file
 * of more than one name is not copied.  A setting of the plan, as the
 * options are (the fingerprint's settings say it).  Asked once a run. */
gboolean kic_source_hardlinks_protected (void);

#endif /* KIC_SOURCE_H */
