/* rebuild-kept.h - what the last rebuild left, for this one
 * (commands-rebuild.c's; rebuild-kept.c)
 */
#ifndef KIC_REBUILD_KEPT_H
#define KIC_REBUILD_KEPT_H

#include "commands.h"
#include "fingerprint.h"
#include "fsindex.h"
#include "manifest.h"
#include "plan.h"
#include "state.h"
#include "writer.h"

/* What the last rebuild learned, for this one (state.h). */
typedef struct {
  KicState *state;
  GHashTable *changed;  /* what changed since (kic_fingerprint_changes()) */
  GHashTable *stamps;   /* ... and the stamps of what did not */
  KicFsIndex *index;
  const GPtrArray *owned;
} MemoSource;

/* The state read on the other core while the fingerprint looks at the
 * inputs after the first changed one (kic_fingerprint_what_changed()'s
 * ON_CHANGE): both the look's stats and the state's parse take a few
 * milliseconds on a large tree, and a run with no change needs no state. */
typedef struct {
  const char *root;
  const char *path; /* the store's state file */
  KicStateLoad *load;
} StateRead;

/* Whether the fingerprint still matches with the store's lock held: a
 * --clean or a rebuild that holds the lock may be changing the store
 * after an unlocked look found no change.  The lock is only held for the
 * look: a run that gets in after it changes the inputs, which the plan
 * then reads. */
gboolean rebuild_unchanged_when_locked (const KicCommandOptions *options, const char *root, const char *setup,
                                        gboolean *unchanged, GError **error);

/* KicWriterOptions.settled: DIR is as the fingerprint found it, which was
 * as the last rebuild left it (SETTLED_DATA: the MemoSource). */
gboolean rebuild_dir_settled (const char *dir, gpointer data);

void rebuild_state_read_start (const char *inputs, gpointer data);

/* Whether a run wants what the last rebuild learned: when an input changed
 * since (CHANGED, the fingerprint's look), or for --json, which plans with
 * no change too; not with --full, nor without a fingerprint. */
gboolean rebuild_state_wanted (GHashTable *changed, const KicCommandOptions *options);

/* The state bound to INPUTS (NULL: none is wanted), or NULL: what SR's
 * thread read, or read now when none was started (no input changed, and
 * a --json run plans all the same). */
KicState *rebuild_state_read_join (StateRead *sr, const char *inputs);

/* The sources of the store copies the manifest OLD records, whose stamp
 * did not change since (not in CHANGED; STAMPS has it): real path ->
 * SHA-256, from the manifest (a copy's content is its source's; a PNG
 * twin's is not, and is left out).  Each is an input of this run as it
 * was of the last, stamped in INDEX without a read.  transfer full */
GHashTable *rebuild_known_contents (const KicManifest *old, KicFsIndex *index, const char *store, GHashTable *changed,
                                    GHashTable *stamps);

/* KicSystemOptions.seed: the directories that did not change, from the state. */
void rebuild_seed_index (KicFsIndex *index, gpointer data);

/* KicPlanOptions.memo: the state's memo for a plan of KEY, or NULL. */
KicPlanMemo *rebuild_load_memo (const char *key, gpointer data);

/* What the next run starts from, made while the writer's manifest goes
 * to the disk (kic_writer_set_meanwhile()): the store's copies as the run
 * leaves them, the state (kic_state_make()'s arguments; none when the
 * writer left a link out) and the fingerprint's lines of the inputs. */
typedef struct {
  KicWriter *writer;
  const KicWriteStats *stats;
  const KicPlan *plan;
  KicFsIndex *index;
  const char *store;
  const GPtrArray *owned;
  GHashTable *desktop_read;
  gboolean floor;
  const char *inputs;
  const KicState *previous;
  gboolean made;            /* out: the two below are made */
  GHashTable *store_stamps; /* out: kic_writer_store_stamps() */
  char *state;              /* out: the state's text, or NULL */
  KicFingerprintDraft *fingerprint; /* out: kic_fingerprint_draft() */
} NextState;

/* kic_writer_set_meanwhile()'s work: DATA, a NextState, made. */
void rebuild_next_state (gpointer data);

#endif /* KIC_REBUILD_KEPT_H */
