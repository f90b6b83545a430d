/* state.h - what a rebuild learned, for the next one to keep
 *
 * A rebuild whose inputs changed plans again only the names a change can
 * reach (plan-memo.c); the rest it takes from the state the last rebuild
 * left in the store: the listing of every directory it read (with where
 * each link it followed led), what each .desktop and .directory file it
 * read gave (desktop.h), every name's result (status, links, size
 * reports, the themes the proof took from it), the closure, and how many
 * lookups the proof checked per name.
 *
 * The state is a cache, never trusted: it is used only when it is whole
 * (a SHA-256 of its text ends it), of this version, made with the same
 * key (plan.c: the program, the options, every resolver) and bound to the
 * store's manifest and fingerprint (the manifest's "# inputs:" digest, as
 * the fingerprint is, fingerprint.h): a state that is damaged, foreign,
 * left by another run or edited by hand is ignored and the run plans in
 * full.  What changed since it was made comes from the fingerprint (the
 * directories and files whose stamps differ); each changed directory is
 * read again and compared name by name.  It is written after the manifest
 * commits, atomically, without fsync (a state lost to a power cut is a
 * full plan, nothing worse).
 */
#ifndef KIC_STATE_H
#define KIC_STATE_H

#include "fsindex.h"
#include "plan.h"

#include <glib.h>

/* A state read back: what kic_state_make() wrote. */
typedef struct _KicState KicState;

/* The text of the state of a run: PLAN, the directories INDEX read
 * outside STORE (without OWNED, the previous run's links: KDE's own files
 * are what count; the store is the run's own, like the fingerprint's),
 * the menu's files read (DESKTOP_READ, may be NULL: KicDesktopMemo.read),
 * the store copies' stamps (STORE_STAMPS, may be NULL:
 * kic_writer_store_stamps()),
 * made with the floor or not (FLOOR), bound to INPUTS (the manifest's
 * inputs digest, kic_fingerprint_inputs()).  A directory whose listing
 * is still the one PREVIOUS (the state the run read, or NULL) seeded has
 * its lines copied from PREVIOUS's text, as they would be written.  NULL
 * when PLAN leaves nothing to keep (no key).  transfer full */
char *kic_state_make (const KicPlan *plan, KicFsIndex *index, const char *store, const GPtrArray *owned,
                      GHashTable *desktop_read, GHashTable *store_stamps, gboolean floor,
                      const char *inputs, const KicState *previous);


/* The state TEXT (LENGTH bytes; transfer full: the state keeps it): NULL
 * (with a debug message saying why) unless TEXT is a whole state of this
 * version bound to INPUTS (the manifest's inputs digest).  transfer full */
KicState *kic_state_read (char *text, gsize length, const char *inputs);
void kic_state_free (KicState *state);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicState, kic_state_free)

/* kic_state_read() of the state file PATH (the store's, inside the host
 * directory ROOT: a regular file, no link in its path), or NULL. */
KicState *kic_state_load (const char *root, const char *path, const char *inputs);

/* The same on another thread, while the caller goes on (the fingerprint's
 * look at the rest of the inputs: commands-rebuild.c); finish waits for
 * it (transfer full: the load is freed).  Without a thread to be had,
 * finish loads it. */
typedef struct _KicStateLoad KicStateLoad;
KicStateLoad *kic_state_load_start (const char *root, const char *path, const char *inputs);
KicState *kic_state_load_finish (KicStateLoad *load);

/* Give INDEX the listing the state has of every directory that the
 * fingerprint found as it was (STAMPS, not in CHANGED:
 * kic_fingerprint_changes()), so that only those that changed are read
 * again.  Before anything reads INDEX. */
void kic_state_seed (KicState *state, KicFsIndex *index, GHashTable *changed, GHashTable *stamps);

/* The menu's files STATE says what reading gave (KicDesktopMemo.known:
 * real path -> KicDesktopRead*), those the fingerprint found as they were
 * (in STAMPS, not in CHANGED), each with its stamp of STAMPS (which must
 * outlive the table).  transfer full */
GHashTable *kic_state_desktop_known (KicState *state, GHashTable *changed, GHashTable *stamps);

/* The store copies' stamps STATE has (KicWriterOptions.store_stamps: path
 * -> KicFsStamp*).  transfer none */
GHashTable *kic_state_store_stamps (KicState *state);

/* The memo (plan.h) of STATE for a plan of KEY (transfer full; once): NULL
 * unless STATE was made with KEY.  Its changed stems are those of the
 * names that came, went or changed in the directories of CHANGED, read
 * again now through INDEX without OWNED, of the files of CHANGED, and of
 * every link the state says led through any of them. */
KicPlanMemo *kic_state_memo (KicState *state, const char *key, KicFsIndex *index, GHashTable *changed,
                             const GPtrArray *owned);

#endif /* KIC_STATE_H */
