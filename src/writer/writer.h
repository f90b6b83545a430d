/* writer.h - the only module that changes the disk
 *
 * A KicWriter is one run's hold on the store: kic_writer_open() takes the
 * store's lock and reads its manifest; kic_writer_free() puts back the
 * times of the directories it changed and releases the lock.  Between the
 * two, one kic_writer_apply() or kic_writer_clean() changes the disk, in
 * an order that keeps every intermediate state readable by KDE and
 * repairable by the next run:
 *
 *   1. the manifest is rewritten listing old and new entries together,
 *      with the times of the directories about to change (a journal:
 *      whatever this run may create is recorded first);
 *   2. store copies are written (temporary file, rename), then made
 *      durable all at once (one syncfs(2) of the store's file system);
 *   3. links are created (symlinkat, which never replaces anything) or
 *      replaced (exchanged with a new one, then the old one checked) --
 *      only over a link the manifest says is ours and that still points
 *      into the store where we put it; anything else at a planned path is
 *      left alone and reported;
 *   4. links no longer wanted are moved aside, checked and removed, then
 *      their store copies, when they still have the recorded content;
 *   5. the manifest is written as it now is (the commit point).
 *
 * A run with nothing to change writes nothing.  Directories that get a
 * link keep their modification time, so GTK's icon-theme.cache files stay
 * valid and nothing else notices (README, "Other consumers"); a killed run
 * left the times in its journal, and the next run puts them back.
 *
 * The manifest is not trusted: a link is ours only while it points into
 * the store, a store copy only while it has the recorded content.  When
 * the manifest is damaged (cut short, a NUL byte, a bad line) or missing
 * beside a store, the links into the store found under LINK_DIRS are taken
 * as ours, with the copies they point to.
 */
#ifndef KIC_WRITER_H
#define KIC_WRITER_H

#include "content.h"
#include "fsindex.h"
#include "manifest.h"

#include <glib.h>

typedef struct {
  KicFsIndex *index; /* the root, and the real paths of theme directories */
  const char *store; /* the store directory, inside the root */
  char **link_dirs;  /* where links may have been planted (the icon theme bases) */
  gboolean dry_run;  /* write nothing, take no lock */
  /* called with each change the run makes (or, for a dry run, would
   * make): ACTION "copy", "link", "replace" or "remove", the path inside
   * the root, and DETAIL (a link's target, a copy's source) or NULL */
  void (*on_change) (const char *action, const char *path, const char *detail, gpointer data);
  gpointer on_change_data;
  int wait_seconds;  /* how long to wait for another run's lock */
  /* May be NULL.  TRUE when no name in DIR (a real directory inside the
   * root) came, went or was replaced since the manifest was committed:
   * the caller's fingerprint (fingerprint.h) found DIR as it was then.
   * A link the committed manifest lists there is then taken as it is
   * (what the no-op run trusts, for one directory) instead of read again:
   * still ours (kic_writer_owned_links()), and in place when it is wanted
   * with the same target.  Anything the run changes, replaces or removes
   * is read first as ever. */
  gboolean (*settled) (const char *dir, gpointer data);
  gpointer settled_data;
  /* May be NULL.  Store path -> KicFsStamp*: the copies as the last run
   * left them (kic_writer_store_stamps(), kept by the caller).  A copy
   * the whole manifest records with the content wanted, whose stamp is
   * unchanged by the fingerprint's rules (kic_fs_stamp_unchanged(): an
   * in-place write moves the change time, a replacement the inode), is
   * in place without being read and hashed again. */
  GHashTable *store_stamps;
  /* for the tests: called with a link's path just before it is created,
   * replaced or moved aside, where a racing package install could be */
  void (*before_link) (const char *link, gpointer data);
  gpointer before_link_data;
} KicWriterOptions;

/* One link the caller wants: LINK (a path inside the root, as KDE
 * names it) to the store copy STORE of SOURCE (the real path of an icon
 * file; an XPM's STORE ending in ".png" is its PNG twin, raster.h), whose
 * CONTENT is what the caller compared (content.h): the copy is made of
 * the bytes that content was read and hashed from, not of a second read
 * of SOURCE, so that what is written is what was proved. */
typedef struct {
  const char *link;
  const char *store;
  const char *source;
  const KicContent *content;
} KicWriteLink;

typedef struct {
  guint added, replaced, removed, unchanged, refused;
  guint files_written, files_removed;
  guint left_out; /* links asked for that are not in place after the run
                   * (a copy or a link that could not be made: one
                   * warning each; the run goes on) */
} KicWriteStats;

typedef struct _KicWriter KicWriter;

/* Take the lock of OPTIONS->store (creating the store; not for a dry run),
 * waiting up to OPTIONS->wait_seconds for another run, and read the
 * manifest.  OPTIONS and the strings it points to must outlive the
 * writer.  transfer full */
KicWriter *kic_writer_open (const KicWriterOptions *options, GError **error);
/* Restore directory times, release the lock. */
void kic_writer_free (KicWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicWriter, kic_writer_free)

/* The manifest as read (with what a damaged one lost, found on disk).
 * transfer none */
const KicManifest *kic_writer_manifest (const KicWriter *writer);

/* The links of the manifest that are still our links on disk.
 * transfer full */
GPtrArray *kic_writer_owned_links (KicWriter *writer);

/* Make the disk match LINKS (KicWriteLink*).  SETTINGS is recorded in the
 * manifest (a change of settings alone is a change).  Once per writer. */
gboolean kic_writer_apply (KicWriter *writer, const GPtrArray *links, const char *settings,
                           KicWriteStats *stats, GError **error);

/* Record INPUTS (kic_fingerprint_inputs()) in the manifest that
 * kic_writer_apply() writes, so that only the fingerprint made from the
 * same inputs can match it.  Before kic_writer_apply(). */
void kic_writer_set_inputs (KicWriter *writer, const char *inputs);

/* Have FUNC (DATA) run on a thread of its own while kic_writer_apply()
 * waits for its manifest to reach the disk (the fsync of its commit
 * point), or in turn when no thread can be had; not for a dry run.  By
 * then every copy and link is in place and the writer reads neither the
 * index nor its copies again: FUNC may read both, and call
 * kic_writer_store_stamps(), nothing else of the writer's.  Before
 * kic_writer_apply(). */
void kic_writer_set_meanwhile (KicWriter *writer, void (*func) (gpointer data), gpointer data);

/* Record TEXT as the store's fingerprint (fingerprint.h): atomically, and
 * only when it differs from the one there; nothing for a dry run or when
 * there is no store. */
gboolean kic_writer_put_fingerprint (KicWriter *writer, const char *text, GError **error);

/* The stamps of the store copies the manifest now lists, as they are
 * (for KicWriterOptions.store_stamps of the next run); empty for a dry
 * run.  After kic_writer_apply().  transfer full: path -> KicFsStamp* */
GHashTable *kic_writer_store_stamps (KicWriter *writer);

/* The state's file in the store (state.h). */
#define KIC_STATE_FILE "state"

/* Record TEXT as the store's state (state.h, what the next run may keep
 * of this one's plan), atomically, only when it differs; nothing for a dry
 * run or when there is no store.  After kic_writer_apply(). */
gboolean kic_writer_put_state (KicWriter *writer, const char *text, GError **error);

/* Remove everything of ours the manifest lists, then the store and the
 * parents of it that a run created. */
gboolean kic_writer_clean (KicWriter *writer, KicWriteStats *stats, GError **error);

#endif /* KIC_WRITER_H */
