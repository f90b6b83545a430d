/* writer-private.h - what the parts of the writer share (not for the
 * writer's callers: they see writer.h)
 *
 *   writer.c           open, apply, clean (the order of writer.h)
 *   writer-fs.c        file operations relative to directory descriptors
 *   writer-lock.c      the store's lock
 *   writer-store.c     store copies, the manifest file, removing the store
 *   writer-recovery.c  reading the manifest, a killed run's leftovers
 */
#ifndef KIC_WRITER_PRIVATE_H
#define KIC_WRITER_PRIVATE_H

#include "writer.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

/* ".NAME.kic-TOKEN", the temporary name beside NAME: TOKEN is new for
 * every run and recorded in its journal, so that a name the run did not
 * make is never taken for one (temp_name()) */
#define TEMP_PREFIX "."
#define TEMP_INFIX ".kic-"
#define TEMP_TOKEN_LEN 8
/* what runs before the token named it, ".NAME.kic-tmp" */
#define TEMP_SUFFIX ".kic-tmp"
/* how deep the search for our links goes below a theme base */
#define MAX_LINK_DEPTH 16
/* directories open at once: the least recently used is closed (its time
 * put back first) when one more is needed, so that a tree of any size
 * needs no more descriptors than this (issue 19, row 8) */
#define MAX_OPEN_DIRS 64

typedef struct {
  char *path;
  int fd;                   /* -1 while closed */
  dev_t dev;                /* the directory it was when first opened */
  ino_t ino;
  struct timespec times[2]; /* atime, mtime to restore */
  gboolean changed;
  gboolean trusted;         /* FD was opened by kic_trusted_dir_open() */
  GList *open_link;         /* its link in the writer's OPEN queue */
} DirHandle;

/* open_dir() FLAGS */
enum {
  OPEN_CREATE = 1 << 0,  /* make the directory (and its parents) first */
  OPEN_TRUSTED = 1 << 1, /* a directory root may plant in (trusted.h) */
};

struct _KicWriter {
  KicWriterOptions options;
  const char *prefix;   /* host prefix of the root, "" for "/" (messages) */
  char *files;          /* "<store>/files/": every copy of ours lies below */
  int rootfd;           /* every path is opened from it (safeopen.h) */
  int lock;             /* the flock'ed lock file, -1 for a dry run */
  GHashTable *dirs;     /* real dir path -> DirHandle* */
  GQueue open;          /* the DirHandles whose fd is open, most recent first */
  GError *deferred;     /* the first error of putting a directory's time back */
  char *token;          /* this run's temporary names (temp_name()) */
  GHashTable *untrusted; /* link directories refused, warned about (a set) */
  GHashTable *lost;     /* store copies that could not be written this run */
  gboolean budget_spent; /* the store's file system is as full as it may get */
  KicManifest *old;     /* the manifest as read */
  GPtrArray *made;      /* parents of the store this run created */
  GHashTable *in_place; /* store copies that already have their content */
  GHashTable *too_long; /* names already warned about */
  KicWriteStats *stats;
  KicWriteStats no_stats;
  char *inputs;         /* kic_writer_set_inputs(), or NULL */
  GHashTable *contents; /* store path -> const KicContent* of its source */
};

typedef KicWriter Writer;

/* writer-fs.c */
void dir_handle_free (gpointer data);
void close_all_dirs (Writer *w);
DIR *dir_stream (int fd);
gboolean read_dir_end (DIR *d, const char *host, GError **error);
char *host_path (const Writer *w, const char *path);
gboolean make_dirs (Writer *w, const char *dir, GPtrArray *made, GError **error);
gboolean name_fits (Writer *w, const char *path);
DirHandle *open_dir (Writer *w, const char *dir, int flags, GError **error);
gboolean read_in_root (Writer *w, const char *path, char **data, gsize *length, GError **error);
char *read_link (int dirfd, const char *name);
gboolean restore_time (Writer *w, DirHandle *handle, GError **error);
gboolean set_errno_error (GError **error, int errsv, const char *what, const char *path);
gboolean errno_is_global (int errsv);
gboolean error_is_global (const GError *error);
char *sha256_at (int dirfd, const char *name);
char *sha256_of_fd (int fd);
char *temp_name (const Writer *w, const char *name);
char *new_temp_token (void);
gboolean write_file_at (Writer *w, DirHandle *dir, const char *name, const char *data, gsize length,
                        const struct timespec *mtime, mode_t mode, gboolean durable, const char *what,
                        GError **error);

/* writer-lock.c */
gboolean take_lock (Writer *w, GError **error);

/* writer-store.c */
gboolean in_store (const Writer *w, const char *path);
char *manifest_path (const Writer *w);
gboolean prune_store (Writer *w, GError **error);
void remove_store_temps (int fd);
gboolean store_budget_allows (Writer *w, DirHandle *dir, gsize length);
gboolean put_file (Writer *w, const KicManifestEntry *entry, GError **error);
gboolean put_manifest (Writer *w, const char *text, GError **error);
gboolean sync_store (Writer *w, GError **error);
void remove_store (Writer *w);
GBytes *store_content (Writer *w, const char *store, const char *source, const KicContent *content,
                       const char **sha256, struct timespec *mtime, GError **error);
char *store_copy_of_link (const Writer *w, const char *link, const char *target);
gboolean store_slot_ok (Writer *w, const char *store, const char *sum);

/* writer-recovery.c */
void journal_dir_times (Writer *w, KicManifest *journal);
gboolean read_manifest (Writer *w, GError **error);
gboolean recover_killed_run (Writer *w, GError **error);
gboolean restore_dir_times (Writer *w, GError **error);

/* writer.c */
void say (const Writer *w, const char *action, const char *path, const char *detail);

/* writer-links.c */
gboolean put_link (Writer *w, const KicManifestEntry *entry, KicManifest *refused, GError **error);
/* writer-links.c */
gboolean remove_entry (Writer *w, const KicManifestEntry *entry, GError **error);
/* writer.c */
void before_link (const Writer *w, const char *link);

#endif
