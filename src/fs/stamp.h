/* stamp.h - what a directory or file was when a run read it
 *
 * A stamp is made of one fstat(2): its identity, size, times, owner and
 * mode, and the time it was read at.  The fingerprint writes it as text
 * (kic_fs_stamp_format()) and compares it with what is there now
 * (kic_fs_stamp_unchanged()); the index keeps one for every input it reads
 * (fsindex.h), the state one for every store copy (state.h).
 */
#ifndef KIC_STAMP_H
#define KIC_STAMP_H

#include "number.h"

#include <glib.h>
#include <sys/stat.h>

/* What an object of the file system is, as the index and a stamp say. */
typedef enum {
  KIC_FS_NONE = 0, /* no such object, a dangling link or a link loop */
  KIC_FS_FILE,     /* a regular file, after following links */
  KIC_FS_DIR,      /* a directory, after following links */
  KIC_FS_OTHER,    /* exists, but is neither (device, fifo, socket) */
} KicFsType;

/* What a directory or file was when it was read: its
 * identity, size and times, or that there was none of TYPE there. */
typedef struct {
  KicFsType type;   /* KIC_FS_DIR or KIC_FS_FILE */
  gboolean exists;
  guint64 dev;
  guint64 ino;
  gint64 size;
  gint64 mtime_ns;
  gint64 ctime_ns;
  guint32 uid;      /* who may change it (stamp.c: a directory */
  guint32 mode;     /* others may write is stamped by its ctime too) */
  gboolean acl;     /* a directory: it has an access ACL (asked by
                     * kic_fs_stamp_ask_acl(); FALSE when not asked) */
  gint64 acl_ctime_ns; /* a directory only root may write: the change
                        * time ACL holds for, 0 when none vouches for it
                        * (stamp.c: the ACL is not asked again while the
                        * change time stays) */
  gint64 read_ns;   /* CLOCK_REALTIME_COARSE, the clock file times come
                     * from, just before the fstat; 0 when not read so
                     * (stamp.c: git's racy rule) */
} KicFsStamp;

/* A read_ns that makes a stamp prove nothing, whatever its times say
 * ("racy", stamp.c): for an object on a file system that keeps no time
 * of a change (fsindex-kept.c). */
#define KIC_FS_STAMP_PROVES_NOTHING 1

/* STAMP of an object of TYPE from ST (NULL: nothing there). */
void kic_fs_stamp_of_stat (KicFsStamp *stamp, KicFsType type, const struct stat *st);

/* For a directory's STAMP, whether NAME in DIRFD (NAME NULL: DIRFD
 * itself) has an access ACL: a setfacl moves only the change time, which
 * the stamp of a directory only root may write does not hold (stamp.c).
 * An answer that is not known counts as one.  READ_NS: the clock before
 * the stat STAMP is of (kic_fs_stamp_clock(); 0: not known), which says
 * whether its change time vouches for the answer. */
void kic_fs_stamp_ask_acl (KicFsStamp *stamp, int dirfd, const char *name, gint64 read_ns);

/* Has the directory NAME in DIRFD (NAME NULL: DIRFD itself, which may be
 * an O_PATH descriptor) an access ACL?  Asked through /proc/self/fd, else
 * (no /proc) of the directory opened for reading; TRUE when the answer is
 * not known. */
gboolean kic_fs_dir_has_acl (int dirfd, const char *name);

/* The ACL of the directory stamped as STAMP (now) taken from WAS, the
 * fingerprint's state of it, when that holds the change time its ACL
 * answer was vouched for by and STAMP's is the same (any setfacl, chmod
 * or chown since moved it): TRUE, and there is no need to ask. */
gboolean kic_fs_stamp_acl_from (KicFsStamp *stamp, const char *was);

/* Do the states NOW and WAS of a directory (kic_fs_stamp_format()'s
 * text) say the same?  The change time a state of a directory only root
 * may write ends with is a note of when its ACL was known, not part of
 * what the directory is. */
gboolean kic_fs_stamp_dir_states_equal (const char *now, const char *was);

/* May someone other than root (and the user running the tool) write the
 * directory stamped as STAMP: its owner, group or other write bits, or an
 * access ACL (asked by kic_fs_stamp_ask_acl())? */
gboolean kic_fs_stamp_others_may_write (const KicFsStamp *stamp);

/* The time a stamp is read at, taken before the stat it stamps: a change
 * after the stat gets a time no earlier than this (stamp.c, the racy
 * rule). */
gint64 kic_fs_stamp_clock (void);

/* PATH (a real path inside the root whose descriptor is ROOTFD), an
 * object of TYPE, as it is now.  The path's components are directories
 * whose listings are inputs too, so a link put in place of one shows
 * there. */
void kic_fs_stamp_of_path (int rootfd, KicFsType type, const char *path, KicFsStamp *stamp);

/* Up to six numbers joined by spaces, and a NUL: kic_fs_stamp_format()'s text */
typedef struct {
  char text[6 * KIC_INT64_DIGITS + 1];
  gsize len;
} KicFsStampText;

/* A stamp as the fingerprint writes it: "none", "racy" (it proves
 * nothing), or its numbers, in T.  transfer none (T's, or static) */
const char *kic_fs_stamp_format (const KicFsStamp *stamp, KicFsStampText *t);

/* A store copy's stamp as the fingerprint's 'c' line holds it: never
 * "racy" (stamp.c).  transfer none (T's, or static) */
const char *kic_fs_stamp_format_copy (const KicFsStamp *stamp, KicFsStampText *t);

/* Does NOW (what is there now) show the object stamped as WAS unchanged,
 * by the fingerprint's rules (its identity and times; WAS not racy)? */
gboolean kic_fs_stamp_unchanged (const KicFsStamp *was, const KicFsStamp *now);

#endif /* KIC_STAMP_H */
