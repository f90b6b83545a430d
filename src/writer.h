/* writer.h - the only module that changes the disk
 *
 * Applies a plan against the previous manifest, in an order that keeps
 * every intermediate state readable by KDE and repairable by the next run:
 *
 *   1. the manifest is rewritten listing old and new entries together
 *      (a journal: whatever this run may create is recorded first);
 *   2. store copies are written (temporary file, fsync, rename);
 *   3. links are created or replaced (temporary link, rename) -- only over
 *      a link the manifest says is ours and that still points where we
 *      put it; anything else at a planned path is left alone and reported;
 *   4. links no longer wanted are removed, then their store copies;
 *   5. the manifest is written as it now is (the commit point).
 *
 * A run with nothing to change writes nothing.  Directories that get a
 * link keep their modification time, so GTK's icon-theme.cache files stay
 * valid and nothing else notices (README, "Other consumers").
 */
#ifndef KIC_WRITER_H
#define KIC_WRITER_H

#include "fsindex.h"
#include "manifest.h"
#include "plan.h"

#include <glib.h>

typedef struct {
  KicFsIndex *index; /* the root, and the real paths of theme directories */
  const char *store; /* the store directory, inside the root */
  gboolean dry_run;  /* write nothing */
  gboolean print_changes; /* print each change on standard output */
} KicWriterOptions;

typedef struct {
  guint added, replaced, removed, unchanged, refused;
  guint files_written, files_removed;
} KicWriteStats;

/* The store's lock (flock on "<store>/lock"): waits up to WAIT_SECONDS for
 * another run to finish.  Returns the file descriptor to close, or -1. */
int kic_writer_lock (const KicWriterOptions *options, int wait_seconds, GError **error);

/* The manifest of the store (empty when there is none).  transfer full */
KicManifest *kic_writer_read_manifest (const KicWriterOptions *options, GError **error);

/* The links of MANIFEST that are still our links on disk. transfer full */
GPtrArray *kic_writer_owned_links (const KicWriterOptions *options, const KicManifest *manifest);

/* Make the disk match PLAN.  SETTINGS is recorded in the manifest (a
 * change of settings alone is a change). */
gboolean kic_writer_apply (const KicWriterOptions *options, const KicPlan *plan,
                           const KicManifest *old, const char *settings,
                           KicWriteStats *stats, GError **error);

/* Record TEXT as the store's fingerprint (fingerprint.h): atomically, and
 * only when it differs from the one there; nothing when there is no store. */
gboolean kic_writer_put_fingerprint (const KicWriterOptions *options, const char *text, GError **error);

/* Remove everything MANIFEST lists that is still ours, then the store. */
gboolean kic_writer_clean (const KicWriterOptions *options, const KicManifest *old,
                           KicWriteStats *stats, GError **error);

#endif /* KIC_WRITER_H */
