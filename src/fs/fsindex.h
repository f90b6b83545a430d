/* fsindex.h - an in-memory picture of the part of a file system KDE probes
 *
 * KDE tests every icon candidate with one access(2).  We answer the same
 * question from directory listings instead: each directory is read once
 * (readdir), each symbolic link is read once (readlink), and every later
 * question about that directory is a hash lookup.  Paths are absolute paths
 * as seen inside the root (--root): symbolic links are followed the way the
 * kernel follows them inside a chroot, so an absolute link target never
 * leaves the root.
 *
 * An index made with kic_fs_index_new_virtual() never touches the disk: its
 * directories exist only through kic_fs_index_add(), its files' bytes only
 * through kic_fs_index_add_contents() (it has no symbolic links: every path
 * is its own real path).  The unit tests use that, down to a whole KDE
 * system for the planner (kic_system_load_index(), iconloader.h).
 */
#ifndef KIC_FSINDEX_H
#define KIC_FSINDEX_H


#include "stamp.h"

#include <dirent.h>
#include <glib.h>


typedef struct _KicFsIndex KicFsIndex;

/* transfer full; ROOT is a host directory ("/" for the running system) */
KicFsIndex *kic_fs_index_new (const char *root);
/* transfer full; an index with no disk behind it */
KicFsIndex *kic_fs_index_new_virtual (void);
void kic_fs_index_free (KicFsIndex *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicFsIndex, kic_fs_index_free)

/* TRUE when what the index read is the disk's picture; FALSE with ERROR
 * naming the path when the root could not be opened or a directory's
 * listing failed part way (a readdir error): a run must then stop (exit
 * 3), not take a partial listing as complete. */
gboolean kic_fs_index_complete (const KicFsIndex *index, GError **error);

/* transfer none; the host directory the index reads, "" when virtual */
const char *kic_fs_index_root (const KicFsIndex *index);

/* PATH (inside the root) as the host sees it: what every message prints,
 * as update-alternatives --root does.  transfer full */
char *kic_fs_index_host_path (const KicFsIndex *index, const char *path);

/* A directory's listing, for asking many questions about it without
 * hashing its path each time: NULL when PATH is not a directory (one of
 * no name, hidden, when kic_fs_index_hidden() says PATH is unknown).  Valid
 * while the index lives (kic_fs_index_add() never replaces a listing that
 * was found).  transfer none */
typedef struct _KicFsDir KicFsDir;
const KicFsDir *kic_fs_index_dir (KicFsIndex *index, const char *path);

/* Has what PATH is no one answer: does the walk to it pass a directory
 * not every user may search (in a run by root)?  Some users then find
 * something there and others do not; the index answers every question
 * about it KIC_FS_OTHER (unknown: nothing is read from there, nor equal
 * to anything), and kic_fs_index_dir() gives it a listing of no name
 * that answers every name so (kic_fs_dir_hidden()).  Not for PATH itself
 * being such a directory, which users see exists. */
gboolean kic_fs_index_hidden (KicFsIndex *index, const char *path);
/* What NAME in DIR is (one hash lookup of NAME). */
KicFsType kic_fs_index_dir_stat (KicFsIndex *index, const KicFsDir *dir, const char *name);

/* The same for a NAME asked of many directories: its hash, computed once
 * by kic_fs_name_hash(), and a binary search of DIR's names by hash: no
 * string is hashed per directory. */
guint kic_fs_name_hash (const char *name);
KicFsType kic_fs_index_dir_stat_hashed (KicFsIndex *index, const KicFsDir *dir, const char *name, guint hash);

/* What PATH is, following symbolic links inside the root. */
KicFsType kic_fs_index_stat (KicFsIndex *index, const char *path);

/* What DIR/NAME is; the fast form the resolver calls once per candidate.
 * NAME is a single path component. */
KicFsType kic_fs_index_stat_at (KicFsIndex *index, const char *dir, const char *name);

/* The real path of the directory DIR (a listing of kic_fs_index_dir()):
 * the key of the planner's overlay, so that a link planted there is seen
 * by every path that resolves to it.  transfer none */
const char *kic_fs_dir_real (const KicFsDir *dir);

/* The names in directory PATH, sorted; NULL when PATH is not a directory
 * or its names are not known (kic_fs_dir_listed()).
 * transfer container (the strings belong to the index) */
GPtrArray *kic_fs_index_list (KicFsIndex *index, const char *path);


/* The real path of PATH inside the root with every link resolved, or NULL
 * when it does not exist.  transfer full */
char *kic_fs_index_realpath (KicFsIndex *index, const char *path);

/* Record that DIR/NAME exists as TYPE; DIR (and its parents) are created as
 * directories when they are not in the index.  For a disk-backed index this
 * overrides what the disk says, for as long as the index lives. */
void kic_fs_index_add (KicFsIndex *index, const char *dir, const char *name, KicFsType type);

/* Record that DIR/NAME is a regular file holding LENGTH bytes of DATA
 * (copied), which kic_fs_index_read_file() then returns.  Only for a
 * virtual index: a file it was told of with kic_fs_index_add() alone
 * cannot be read. */
void kic_fs_index_add_contents (KicFsIndex *index, const char *dir, const char *name, const void *data,
                                gsize length);

/* Read a regular file under the root (following links inside the root),
 * of at most KIC_MAX_FILE bytes, or MAX. */
gboolean kic_fs_index_read_file (KicFsIndex *index, const char *path,
                                 char **contents, gsize *length, GError **error);
gboolean kic_fs_index_read_file_max (KicFsIndex *index, const char *path, gsize max,
                                     char **contents, gsize *length, GError **error);

/* Open the file at REAL (a real path inside the root) for reading
 * (O_NONBLOCK: a FIFO put there since the listing cannot hang the run),
 * keeping its stamp like kic_fs_index_read_file(); -1 with errno.  The
 * caller checks what it is (fstat) and closes it. */
int kic_fs_index_open_file (KicFsIndex *index, const char *real);

/* The file at REAL was read now, through a descriptor opened elsewhere
 * (source.h), whose fstat(2) is ST, made after kic_fs_stamp_clock() said
 * READ_NS: its stamp is kept as kic_fs_index_open_file() keeps it. */
struct stat;
void kic_fs_index_file_was_read (KicFsIndex *index, const char *real, const struct stat *st, gint64 read_ns);

/* The descriptor of the root every file is opened from (-1 if virtual). */
int kic_fs_index_rootfd (const KicFsIndex *index);

/* From now on, keep the stamp of every directory the index reads (or
 * finds missing) and every file it reads: one fstat(2) each. */
void kic_fs_index_keep_stamps (KicFsIndex *index);
/* Real path -> KicFsStamp*, or NULL when not kept.  transfer none */
GHashTable *kic_fs_index_stamps (KicFsIndex *index);

/* The stamp the index keeps of REAL (a read's, or a seed's), or FALSE. */
gboolean kic_fs_index_kept_stamp (KicFsIndex *index, const char *real, KicFsStamp *stamp);

/* The stamp of the regular file at REAL (a real path inside the root)
 * without reading it: the one the index keeps (a read's, or a seed's),
 * else one taken now (an O_PATH open through no link, and fstat(2)) and
 * kept as a read's would be.  FALSE when there is no regular file there
 * (STAMP says what was found). */
gboolean kic_fs_index_file_stamp (KicFsIndex *index, const char *real, KicFsStamp *stamp);

/* Keep STAMP as REAL's, in place of what a later read found. */
void kic_fs_index_keep_file_stamp (KicFsIndex *index, const char *real, const KicFsStamp *stamp);

/* One name of a directory as the index read it. */
typedef struct {
  char *name;
  char kind;    /* what readdir said: 'f' file, 'd' directory, 'l' link, 'o' other */
  char *target; /* a link some question followed: its target joined to its
                 * directory, cleaned; else NULL */
  char *real;   /* ... the real path it led to, NULL when it led nowhere */
} KicFsListingEntry;

void kic_fs_listing_entry_free (gpointer entry);

/* The one name (kind 'o') of the listing of a directory not every user
 * may search (kic_fs_dir_hidden()), whose names are not read: no entry
 * of a directory has it.  A listing that gains or loses it changes every
 * lookup that passes the directory. */
#define KIC_FS_HIDDEN_MARK "."

/* Every directory the index read from disk: real path -> its names
 * (GPtrArray of KicFsListingEntry*, sorted by name), or NULL when there
 * was no directory there.  transfer container: the paths and the
 * entries' strings are the index's (or those of the listing a directory
 * was seeded from, kic_fs_index_seed()), valid while it lives and is not
 * asked anything more (the state is written from them at once) */
GHashTable *kic_fs_index_listings (KicFsIndex *index);

/* The directories read from disk whose names are not known
 * (kic_fs_dir_listed()), which kic_fs_index_listings() leaves out: their
 * real paths, sorted.  transfer container (the strings are the index's) */
GPtrArray *kic_fs_index_unlisted (KicFsIndex *index);
/* Is REAL (a real path, read if it was not) a directory whose names are
 * not known? */
gboolean kic_fs_index_is_unlisted (KicFsIndex *index, const char *real);

/* The run's budget on the names of directories users may write
 * (fsindex-budget.c): count the directory PATH (read if it was not; once
 * however often asked) when users may write it; one past the bound on
 * one counts as the bound.  Every directory the run searches is counted
 * before any question is asked of them.  Once the sum passes the
 * budget, no further directory users may write is read. */
void kic_fs_index_budget_count (KicFsIndex *index, const char *path);
/* Decide, once: past the budget, every directory users may write, and
 * every one below it, has names not known (kic_fs_dir_listed()), with
 * one warning naming the first few counted; TRUE then.  Asked after
 * every directory is counted and before anything is looked up. */
gboolean kic_fs_index_budget_settle (KicFsIndex *index);
/* Did the sum pass the budget (kic_fs_index_budget_settle())? */
gboolean kic_fs_index_budget_spent (const KicFsIndex *index);
/* The directory REAL, of users, was unknown for the budget when a run
 * read it, holding N names, and its STAMP says it has not changed since:
 * counted as N without reading it, and, the budget spent, unknown again
 * (not read at all).  Before the count. */
void kic_fs_index_budget_seed (KicFsIndex *index, const char *real, const KicFsStamp *stamp, guint n);
/* How many names REAL, a directory of users' made unknown, held then;
 * -1 when not counted (never read: the budget was spent before). */
gint64 kic_fs_index_unknown_names (KicFsIndex *index, const char *real);

/* The target of a link in directory DIR whose text is TEXT, as a listing
 * keeps it (KicFsListingEntry.target): joined to DIR (an absolute TEXT
 * starts at the root, as in a chroot) and cleaned.  transfer full */
char *kic_fs_link_target (const char *dir, const char *text);

/* The type of the entry DE of the directory open as DIRFD (DT_REG,
 * DT_DIR, DT_LNK, DT_FIFO for anything else), asked with fstatat() where
 * readdir gives none (old NFS, XFS v4); DT_UNKNOWN when that fails too. */
unsigned char kic_fs_entry_type (int dirfd, const struct dirent *de);

/* A listing's letter for the entry type D_TYPE (KicFsListingEntry.kind):
 * 'f', 'd', 'l', or 'o' for anything else. */
char kic_fs_kind_letter (unsigned char d_type);

/* The names of the directory REAL (a real path) as the index has them
 * (KicFsListingEntry*, sorted: read from the disk, or taken from the state
 * by kic_fs_index_seed(), which leaves out our own links), or NULL when it
 * has not read REAL or REAL is not a directory; never reads the disk, nor
 * a virtual index's listing.  transfer container: the strings are the
 * index's */
GPtrArray *kic_fs_index_listing_read (KicFsIndex *index, const char *real);

/* The names of directory REAL (a real path), read if they were not, each
 * link whose name is in FOLLOW (NULL: none) followed first, so that its
 * TARGET and REAL say where it leads now; NULL when it is not a
 * directory.  transfer full */
GPtrArray *kic_fs_index_listing (KicFsIndex *index, const char *real, GHashTable *follow);

/* Take the listing of directory REAL (a real path) as given instead of
 * reading it: what it was when a run read it, for a directory whose STAMP
 * (kept as if it was read now) says it has not changed since (state.h).
 * ENTRIES (KicFsListingEntry*; NULL: no directory there): each name and
 * kind; a link's TARGET and REAL are where that run found it led, kept
 * for kic_fs_index_listings() until a question follows the link again
 * (reading it then).  ENTRIES is kept (a reference; sorted by name, as
 * kic_fs_index_listings() gives them) and given back as the listing
 * while it still is one.  Before anything reads REAL. */
void kic_fs_index_seed (KicFsIndex *index, const char *real, const KicFsStamp *stamp, GPtrArray *entries);

/* The same for a directory whose names were not known when a run read
 * it (kic_fs_dir_listed()), and whose STAMP says it has not changed since:
 * not read, its names not known. */
void kic_fs_index_seed_unlisted (KicFsIndex *index, const char *real, const KicFsStamp *stamp);

/* Changes by kic_fs_index_add() so far: what was worked out from the
 * listings before may be stale when it changed. */
guint kic_fs_index_generation (const KicFsIndex *index);

/* The names in the listing DIR (kic_fs_index_dir()).  transfer container
 * (the strings belong to the index) */
GPtrArray *kic_fs_dir_names (const KicFsDir *dir);
/* The same, sorted (a seeded listing's order, else sorted now). */
GPtrArray *kic_fs_dir_sorted_names (const KicFsDir *dir);
/* Does DIR hide what it holds: not every user may search it (a run by
 * root), so it lists no name and every name asked of it is unknown,
 * KIC_FS_OTHER (there for some users, not for others)? */
gboolean kic_fs_dir_hidden (const KicFsDir *dir);
/* Does DIR list NAME (TRUE for every name when its names are not known)?
 * How many names does it list (none then)?  Are its names known: not
 * those of a directory users may write that holds more than the index
 * reads of one (fsindex-read.c), nor of one below it?  Every name in such
 * a directory is KIC_FS_OTHER, and kic_fs_index_list() gives NULL. */
gboolean kic_fs_dir_has (const KicFsDir *dir, const char *name);
guint kic_fs_dir_size (const KicFsDir *dir);
gboolean kic_fs_dir_listed (const KicFsDir *dir);
/* Does root know DIR's names: neither hidden from some users
 * (kic_fs_dir_hidden()) nor a user's past the bound (kic_fs_dir_listed())?
 * A directory whose names are not known may hold any name, one no file
 * root reads carries among them. */
gboolean kic_fs_dir_names_known (const KicFsDir *dir);

/* Keep STAMP as the stamp of the file REAL, as if it was read now (a file
 * a previous run read, whose content is known and did not change). */
void kic_fs_index_seed_file (KicFsIndex *index, const char *real, const KicFsStamp *stamp);

/* The same for every file of STAMPS (real path -> KicFsStamp*, what the
 * fingerprint found as it was: kic_fingerprint_changes()) the index has
 * no stamp of. */
void kic_fs_index_seed_files (KicFsIndex *index, GHashTable *stamps);

/* The modification time (ns) of what PATH (inside the root, links
 * followed) is now: one fstat(2) of its real path, opened through no
 * link; a virtual index answers what kic_fs_index_set_mtime() said (0
 * when nothing).  FALSE when there is nothing at PATH.  Not stamped: a
 * directory's listing is, when read (fsindex-mtime.c). */
gboolean kic_fs_index_mtime (KicFsIndex *index, const char *path, gint64 *mtime_ns);
/* A virtual index's PATH (a real path) has that modification time. */
void kic_fs_index_set_mtime (KicFsIndex *index, const char *path, gint64 mtime_ns);

/* How many directories the index has read from disk (for tests). */
guint kic_fs_index_n_dirs_read (const KicFsIndex *index);

#endif /* KIC_FSINDEX_H */
