/* fingerprint.h - what a rebuild read, so that the next one can stop early
 *
 * A rebuild's result depends only on what it read: directory listings
 * (every theme, base and applications directory, and the parents walked to
 * reach them), files (.desktop files, index.theme, kdeglobals, the
 * configuration, the KDE library, mime/generic-icons, the icons whose
 * content the proof compares), the manifest, and its settings (options and
 * environment).  All of it but the manifest goes through the run's
 * KicFsIndex.  The fingerprint lists each input with what stat(2) says of
 * it: a directory's identity (device, inode) and modification time, which
 * any file added, removed or renamed in it changes, and its change time
 * when others than root may write it (its owner can set the modification
 * time back, not the change time: issue 19, row 11); a file's identity,
 * size, modification and change times, which rewriting it changes.  A
 * stamp whose change time is not older than its read by a tick of the
 * file system's clock is "racy" and matches nothing: a change in that
 * tick would leave the same times (git's racy rule).
 *
 * Each stamp is taken as the input is read (kic_fs_index_keep_stamps()),
 * so an input that changes while the run goes on (a package unpacked in
 * the meantime) differs from its stamp at the next run, which then plans
 * in full.  The writer keeps the modification time of the directories it
 * plants in; the store is left out but for its manifest, stamped after
 * the writer.
 *
 * A fingerprint is only ever a reason to skip work.  Its inputs are bound
 * to the manifest: the run records a digest of them there ("# inputs:",
 * kic_fingerprint_inputs()), and a fingerprint matches only when the
 * inputs it lists digest to that value.  So a fingerprint edited by hand
 * or left by another run cannot drop an input from the comparison, nor
 * claim a state the run did not read (SECURITY.md).
 */
#ifndef KIC_FINGERPRINT_H
#define KIC_FINGERPRINT_H

#include "fsindex.h"

#include <glib.h>

/* The fingerprint's file in the store. */
#define KIC_FINGERPRINT_FILE "fingerprint"

/* The digest of the inputs INDEX (which kept stamps) read, paths under
 * STORE left out and those above it by path alone, for the manifest
 * (kic_writer_set_inputs()).  transfer full */
char *kic_fingerprint_inputs (KicFsIndex *index, const char *store);

/* The fingerprint of a run with SETTINGS: every input INDEX (which kept
 * stamps) read, paths under STORE left out (the run wrote there), those
 * above it and STORE's manifest as they are now, then the store's copies,
 * COPIES (path -> KicFsStamp*, may be NULL: kic_writer_store_stamps()),
 * so that a copy lost or damaged since is a change (issue 39, row 5).
 * transfer full */
char *kic_fingerprint_make (KicFsIndex *index, const char *store, const char *settings, GHashTable *copies);

/* kic_fingerprint_make() in two steps: the lines of the inputs as INDEX
 * stamped them, which nothing the writer does changes (made while it
 * commits, rebuild-kept.c), then the rest (the directories above STORE
 * and its manifest as they are now, the copies); the draft is freed
 * there.  transfer full */
typedef struct _KicFingerprintDraft KicFingerprintDraft;
KicFingerprintDraft *kic_fingerprint_draft (KicFsIndex *index, const char *store);
char *kic_fingerprint_finish (KicFingerprintDraft *draft, KicFsIndex *index, const char *store, const char *settings,
                              GHashTable *copies);
void kic_fingerprint_draft_free (KicFingerprintDraft *draft);

/* TRUE when the fingerprint TEXT was made with SETTINGS, lists STORE's
 * manifest and inputs whose digest is INPUTS (the manifest's "# inputs:";
 * NULL never matches), and every input it lists is as it was then; ROOTFD
 * is the root (safeopen.h). */
gboolean kic_fingerprint_matches (int rootfd, const char *text, const char *settings, const char *store,
                                  const char *inputs);

/* Called once, with the manifest's inputs digest the fingerprint is bound
 * to, when the first input is found changed and before the rest are
 * looked at: a caller starts beside the look what a change needs and
 * that needs only that digest (reading the state). */
typedef void (*KicFingerprintChangeFunc) (const char *inputs, gpointer data);

/* What changed since the fingerprint TEXT was made: the inputs it lists
 * (real paths) whose state is not what it was, in a new set (transfer
 * full), empty when none did; NULL when TEXT cannot be trusted (as for
 * kic_fingerprint_matches(): other settings, a bad line, inputs that do
 * not digest to INPUTS).  With STAMPS (may be NULL), *STAMPS (transfer
 * full, real path -> KicFsStamp*) gets the stamps of the inputs that did
 * not change, as they are now.  ON_CHANGE (may be NULL) is called as
 * KicFingerprintChangeFunc says. */
GHashTable *kic_fingerprint_changes (int rootfd, const char *text, const char *settings, const char *store,
                                     const char *inputs, GHashTable **stamps, KicFingerprintChangeFunc on_change,
                                     gpointer change_data);

/* kic_fingerprint_changes() on the fingerprint and the manifest recorded
 * in STORE under the host directory ROOT (NULL: "/"); NULL when either is
 * missing.  *INPUTS (may be NULL; transfer full) gets the manifest's
 * inputs digest that the fingerprint was found bound to. */
GHashTable *kic_fingerprint_what_changed (const char *root, const char *store, const char *settings, char **inputs,
                                          GHashTable **stamps, KicFingerprintChangeFunc on_change,
                                          gpointer change_data);

/* kic_fingerprint_matches() on the fingerprint and the manifest recorded
 * in STORE under the host directory ROOT (NULL: "/"); FALSE when either
 * is missing. */
gboolean kic_fingerprint_unchanged (const char *root, const char *store, const char *settings);

#endif /* KIC_FINGERPRINT_H */
