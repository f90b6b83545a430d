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

/* ".NAME.kic-tmp", the temporary name beside NAME */
#define TEMP_PREFIX "."
#define TEMP_SUFFIX ".kic-tmp"
/* how deep the search for our links goes below a theme base */
#define MAX_LINK_DEPTH 16

typedef struct {
  int fd;
  struct timespec times[2]; /* atime, mtime to restore */
  gboolean changed;
} DirHandle;

struct _KicWriter {
  KicWriterOptions options;
  const char *prefix;   /* host prefix of the root, "" for "/" (messages) */
  char *files;          /* "<store>/files/": every copy of ours lies below */
  int rootfd;           /* every path is opened from it (safeopen.h) */
  int lock;             /* the flock'ed lock file, -1 for a dry run */
  GHashTable *dirs;     /* real dir path -> DirHandle* */
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
DIR *dir_stream (int fd);
char *host_path (const Writer *w, const char *path);
gboolean make_dirs (Writer *w, const char *dir, GPtrArray *made, GError **error);
gboolean name_fits (Writer *w, const char *path);
DirHandle *open_dir (Writer *w, const char *dir, gboolean create, GError **error);
gboolean read_in_root (Writer *w, const char *path, char **data, gsize *length, GError **error);
char *read_link (int dirfd, const char *name);
void restore_time (DirHandle *handle);
gboolean set_errno_error (GError **error, int errsv, const char *what, const char *path);
char *sha256_at (int dirfd, const char *name);
char *sha256_of_fd (int fd);
char *temp_name (const char *name);
gboolean write_file_at (DirHandle *dir, const char *name, const char *data, gsize length, const struct timespec *mtime, gboolean durable, const char *what, GError **error);

/* writer-lock.c */
gboolean take_lock (Writer *w, GError **error);

/* writer-store.c */
gboolean in_store (const Writer *w, const char *path);
char *manifest_path (const Writer *w);
void prune_store (Writer *w);
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
void recover_killed_run (Writer *w);
void restore_dir_times (Writer *w);

/* writer.c */
void say (const Writer *w, const char *action, const char *path, const char *detail);

#endif /* KIC_WRITER_PRIVATE_H */
