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
 * make is never taken for one (writer_temp_name()) */
#define TEMP_PREFIX KIC_TEMP_PREFIX
#define TEMP_INFIX KIC_TEMP_INFIX
#define TEMP_TOKEN_LEN KIC_TEMP_TOKEN_LEN
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
  /* each name the run changed -> what it left there: a link's target,
   * or WRITER_LEFT_GONE or WRITER_LEFT_FILE (writer_dir_left()) */
  GHashTable *left;
  gboolean foreign;         /* someone else changed it while the run ran */
  gboolean trusted;         /* FD was opened by kic_trusted_dir_open() */
  GList *open_link;         /* its link in the writer's OPEN queue */
} DirHandle;

/* writer_open_dir() FLAGS */
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
  char *token;          /* this run's temporary names (writer_temp_name()) */
  GHashTable *untrusted; /* link directories refused, warned about (a set) */
  GHashTable *lost;     /* store copies that could not be written this run */
  GHashTable *stuck;    /* links of ours that stay, their directory not writable -> why */
  gboolean budget_spent; /* the store's file system is as full as it may get */
  KicManifest *old;     /* the manifest as read */
  KicManifest *committed; /* the manifest kic_writer_apply() committed */
  const KicManifest *committing; /* ... while it is made durable */
  void (*meanwhile) (gpointer data); /* kic_writer_set_meanwhile() */
  gpointer meanwhile_data;
  GPtrArray *made;      /* parents of the store this run created */
  GHashTable *in_place; /* store copies that already have their content ->
                         * the stamp they were found with (KicFsStamp*),
                         * which kic_writer_store_stamps() gives the state:
                         * the run does not touch them */
  GHashTable *too_long; /* names already warned about */
  KicWriteStats *stats;
  KicWriteStats no_stats;
  char *inputs;         /* kic_writer_set_inputs(), or NULL */
  GHashTable *contents; /* store path -> const KicContent* of its source */
};

typedef KicWriter Writer;

/* writer-fs.c */
void writer_dir_handle_free (gpointer data);
void writer_close_all_dirs (Writer *w);
DIR *writer_dir_stream (int fd);
gboolean writer_read_dir_end (DIR *d, const char *host, GError **error);
char *writer_host_path (const Writer *w, const char *path);
gboolean writer_make_dirs (Writer *w, const char *dir, GPtrArray *made, GError **error);
gboolean writer_name_fits (Writer *w, const char *path);
DirHandle *writer_open_dir (Writer *w, const char *dir, int flags, GError **error);
gboolean writer_read_in_root (Writer *w, const char *path, char **data, gsize *length, GError **error);
gboolean writer_file_holds (Writer *w, const char *path, const char *text, gsize length);
char *writer_read_link (int dirfd, const char *name);
gboolean writer_restore_time (Writer *w, DirHandle *handle, GError **error);
/* what writer_dir_left() records of a name besides a link's target */
extern const char WRITER_LEFT_GONE[];
extern const char WRITER_LEFT_FILE[];
void writer_dir_left (DirHandle *handle, const char *name, const char *what);
void writer_dir_foreign (DirHandle *handle);
gboolean writer_set_errno_error (GError **error, int errsv, const char *what, const char *path);
gboolean writer_errno_is_global (int errsv);
gboolean writer_error_is_global (const GError *error);
char *writer_sha256_at (int dirfd, const char *name);
char *writer_sha256_of_fd (int fd);
char *writer_temp_name (const Writer *w, const char *name);
char *writer_new_temp_token (void);
gboolean writer_write_file_at (Writer *w, DirHandle *dir, const char *name, const char *data, gsize length,
                        const struct timespec *mtime, mode_t mode, gboolean durable, const char *what,
                        GError **error);

/* writer-lock.c */
gboolean writer_take_lock (Writer *w, GError **error);

/* writer-store.c */
gboolean writer_in_store (const Writer *w, const char *path);
char *writer_manifest_path (const Writer *w);
gboolean writer_prune_store (Writer *w, GError **error);
void writer_remove_store_temps (int fd);
gboolean writer_store_budget_allows (Writer *w, DirHandle *dir, gsize length);
gboolean writer_put_file (Writer *w, const KicManifestEntry *entry, GError **error);
gboolean writer_put_manifest (Writer *w, const char *text, GError **error);
gboolean writer_sync_store (Writer *w, GError **error);
void writer_remove_store (Writer *w);
GBytes *writer_store_content (Writer *w, const char *store, const char *source, const KicContent *content,
                       const char **sha256, struct timespec *mtime, GError **error);
char *writer_store_copy_of_link (const Writer *w, const char *link, const char *target);
gboolean writer_store_slot_ok (Writer *w, GHashTable *dirs, const char *store, const char *sum);

/* writer-recovery.c */
void writer_journal_dir_times (Writer *w, KicManifest *journal);
gboolean writer_read_manifest (Writer *w, GError **error);
gboolean writer_recover_killed_run (Writer *w, GError **error);
gboolean writer_restore_dir_times (Writer *w, GError **error);

/* writer.c */
gboolean writer_link_settled (const Writer *w, const KicManifestEntry *was, const char *target);
void writer_say (const Writer *w, const char *action, const char *path, const char *detail);

/* writer-links.c */
gboolean writer_put_link (Writer *w, const KicManifestEntry *entry, KicManifest *refused, GError **error);
/* writer-links.c */
gboolean writer_remove_entry (Writer *w, const KicManifestEntry *entry, GError **error);
/* writer.c */
void writer_before_link (const Writer *w, const char *link);

#endif
