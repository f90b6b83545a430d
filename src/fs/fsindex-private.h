/* fsindex-private.h - what the files of the index share (fsindex.c,
 * fsindex-kept.c, fsindex-virtual.c), nothing outside them includes it
 */
#ifndef KIC_FSINDEX_PRIVATE_H
#define KIC_FSINDEX_PRIVATE_H

#include "fsindex.h"

/* The kernel gives up after 40 links in one lookup (ELOOP); so do we. */
#define KIC_MAX_LINKS 40

typedef struct {
  guint8 d_type;     /* DT_REG, DT_DIR, DT_LNK, DT_UNKNOWN... from readdir */
  gboolean resolved; /* type below is known */
  KicFsType type;    /* what the entry is after following links */
  char *target;      /* a link that was followed: its target, joined to its directory */
  char *real;        /* ... and the real path it led to (NULL: nowhere) */
  GBytes *contents;  /* a virtual file's bytes (kic_fs_index_add_contents()), or NULL */
} KicFsEntry;

/* One name of a listing in the form kic_fs_index_dir_stat_hashed() searches. */
typedef struct {
  guint hash;
  const char *name;   /* the key in entries */
  KicFsEntry *entry;
} KicFsSlot;

struct _KicFsDir {
  GHashTable *entries; /* name -> KicFsEntry*; NULL for a directory seeded
                        * from a sorted listing until first asked
                        * (fsindex_dir_entries()) */
  char *real;          /* its real path */
  gboolean from_disk;  /* read by read_dir() (not made by kic_fs_index_add()) */
  GArray *by_hash;     /* KicFsSlot sorted by hash, built when first asked;
                        * NULL again whenever entries change */
  GPtrArray *seeded;   /* the sorted listing it was seeded from
                        * (kic_fs_index_seed(), a reference), or NULL */
  gboolean hidden;     /* not every user may search it: its names are not
                        * read, and every name asked of it is unknown
                        * (KIC_FS_OTHER; fsindex_dir_hides()) */
  gboolean unlisted;   /* its names are not known: a directory users may
                        * write that holds more than the index reads of
                        * one, or one below such a directory; every name
                        * in it is KIC_FS_OTHER, and ENTRIES is empty
                        * (fsindex_user_dir_full()) */
  gboolean users_write; /* someone other than root may write it (its
                         * stamp: owner, group and other bits, ACL) */
  guint n_was;          /* a directory of theirs made unknown: the names it
                         * held then, plus one; 0: not counted */
};

struct _KicFsIndex {
  char *root;             /* host prefix, "" for "/" and for virtual */
  int rootfd;             /* every open is relative to it (safeopen.h) */
  /* the directory of the last link read, open O_PATH: a listing's links
   * are read one after the other, so one open serves them all */
  char *link_parent;
  int link_parent_fd;
  gboolean is_virtual;
  GHashTable *dirs;       /* real path -> KicFsDir*, or NULL: not a readable directory */
  GHashTable *real_paths; /* path as asked -> real path, or NULL: missing */
  GHashTable *stamps;     /* real path -> KicFsStamp*: what was read, when asked */
  GHashTable *no_entries; /* the entries of every empty directory read_dir()
                           * made (shared: made a table of its own before
                           * anything is added, kic_fs_dir_own_entries()) */
  guint n_dirs_read;
  guint generation;       /* kic_fs_index_add() calls so far */
  GHashTable *mtimes;     /* virtual: real path -> gint64* (kic_fs_index_set_mtime()) */
  GHashTable *searchable; /* real path -> GINT_TO_POINTER (1 or -1): may every
                           * user search the directory (fsindex_dir_searchable()) */
  guint n_unlisted;       /* directories whose names are not known */
  /* the run's budget on the names of directories users may write
   * (fsindex-budget.c) */
  GHashTable *budget_counted; /* real paths counted (a set) */
  guint64 user_names;     /* their names, each directory's at most KIC_USER_ENTRIES */
  gboolean budget_spent;  /* USER_NAMES passed KIC_USER_ENTRIES_RUN */
  gboolean budget_settled; /* kic_fs_index_budget_settle() ran */
  GHashTable *budget_seeds; /* real path -> BudgetSeed*: directories of
                             * theirs unknown for the budget when the
                             * state was made, unchanged since
                             * (kic_fs_index_budget_seed()) */
  gboolean walk_hidden;   /* the last walk stopped at a directory not every
                           * user may search (resolve()) */
  GHashTable *hidden_paths; /* paths asked whose walk stopped so (a set) */
  GHashTable *placeholders; /* such a path -> the KicFsDir kic_fs_index_dir()
                             * gives for it (hidden, listing nothing) */
  GHashTable *fs_magics;  /* device -> GSIZE_TO_POINTER (its statfs f_type)
                           * (fsindex-kept.c, stamp_can_tell()) */
  GError *incomplete;     /* the first reason the picture is not the disk's:
                           * the root could not be opened, a listing failed
                           * part way (kic_fs_index_complete()) */
};

/* The most names the index reads of one directory users may write: past
 * it the directory's names are not known (fsindex_user_dir_full()).
 * Above the largest directory of a real icon theme, so that a theme a
 * user installed under /usr/local is read whole (SECURITY.md). */
#define KIC_USER_ENTRIES 16384

/* The most names of directories users may write that one run reads,
 * summed over the directories it searches (fsindex-budget.c): past it no
 * such directory's names are known.  Eight times the bound on one: above
 * the largest real theme (Papirus, every directory of it together, in
 * the realistic tree), so that one a user installed under /usr/local is
 * read whole. */
#define KIC_USER_ENTRIES_RUN 131072
/* fsindex-budget.c: the names of DIR, a directory users may write read
 * from disk once the run's budget is spent, are not read nor known (as
 * fsindex_user_dir_full(), without its warning) */
void fsindex_user_dir_unknown (KicFsIndex *index, KicFsDir *dir);

/* fsindex-read.c: the stamp of the directory REAL, just opened as FD:
 * the one kept of it, else OWN made from FD (its fstat(2) and ACL, asked
 * once for who may search it and who may write it); NULL when FD cannot
 * be asked. */
const KicFsStamp *fsindex_dir_stamp (KicFsIndex *index, const char *real, int fd, KicFsStamp *own);
/* fsindex-read.c: DIR, read from disk, holds more names than the index
 * reads of a directory users may write: its partial listing dropped, it
 * is marked unlisted, with a warning naming HOST once. */
void fsindex_user_dir_full (KicFsIndex *index, KicFsDir *dir, const char *host);
/* fsindex.c: the entry every name of an unlisted directory has */
KicFsEntry *fsindex_dir_find (KicFsDir *dir, const char *name);

/* fsindex-read.c: may every user search the directory REAL (a real path
 * inside the root, not "/")?  Asked once a run per directory. */
gboolean fsindex_dir_searchable (KicFsIndex *index, const char *real);
/* fsindex-read.c: does the directory REAL, just opened as FD (a listing's
 * descriptor) or stamped as STAMP (seeded: FD -1), hide what is in it
 * from some users?  Remembered for fsindex_dir_searchable(). */
gboolean fsindex_dir_hides (KicFsIndex *index, const char *real, int fd, const KicFsStamp *stamp);
/* fsindex.c */
void kic_fs_dir_own_entries (KicFsIndex *index, KicFsDir *dir);
/* fsindex.c: DIR's entries (made from its seeded listing when first asked) */
GHashTable *fsindex_dir_entries (KicFsDir *dir);
/* fsindex-kept.c */
KicFsEntry *fsindex_entry_of_listing (const KicFsListingEntry *e);
const KicFsListingEntry *fsindex_seeded_find (const KicFsDir *dir, const char *name);
/* fsindex-kept.c: is NAME in DIR?  Then *D_TYPE is its entry's type
 * (DT_LNK for a link) and *TYPE what it is unless a link, as its entry
 * says: asked of a seeded listing without making its table */
gboolean fsindex_dir_entry_kind (KicFsDir *dir, const char *name, unsigned char *d_type, KicFsType *type);
/* fsindex-kept.c */
void fsindex_keep_stamp (KicFsIndex *index, KicFsType type, const char *real, int fd);
/* The same from a stat ST (NULL: nothing there) made after READ_NS, what
 * kic_fs_stamp_clock() said before it.  A file the run opens is stamped
 * from the stat its open made, not a second one. */
void fsindex_keep_stat (KicFsIndex *index, KicFsType type, const char *real, const struct stat *st, gint64 read_ns);
/* fsindex-virtual.c */
gboolean fsindex_read_virtual_file (KicFsIndex *index, const char *path, gsize max, char **contents, gsize *length, GError **error);
/* fsindex.c */
KicFsDir * fsindex_fs_dir_new (const char *real);
/* fsindex.c */
KicFsDir * fsindex_get_dir (KicFsIndex *index, const char *real);
/* fsindex.c */
KicFsIndex * fsindex_index_new (const char *root, gboolean is_virtual);
/* fsindex.c */
KicFsType fsindex_entry_type (KicFsIndex *index, const char *dir_real, const char *name, KicFsEntry *entry);
/* fsindex.c */
const char * fsindex_real_path_cached (KicFsIndex *index, const char *path);

#endif
