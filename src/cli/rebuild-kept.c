/* rebuild-kept.c - what the last rebuild left, for this one: the look
 * again under the lock, its state read beside the fingerprint's look, the
 * memo and the listings it seeds, its store copies' contents, and the
 * directories it settled (rebuild-kept.h)
 */
#include "rebuild-kept.h"

#include "fingerprint.h"
#include "hash.h"
#include "writer.h"

#include <string.h>

/* Whether the fingerprint still matches with the store's lock held: a
 * --clean or a rebuild that holds the lock may be changing the store
 * after an unlocked look found no change.  The lock is only held for the
 * look: a run that gets in after it changes the inputs, which the plan
 * then reads. */
gboolean
rebuild_unchanged_when_locked (const KicCommandOptions *options, const char *root, const char *setup,
                               gboolean *unchanged, GError **error)
{
  g_autoptr (KicFsIndex) bare_root = kic_fs_index_new (root);
  g_autoptr (KicWriter) writer = NULL;
  KicWriterOptions wopts = { 0 };

  wopts.index = bare_root;
  wopts.store = options->store;
  wopts.wait_seconds = options->wait_seconds;
  writer = kic_writer_open (&wopts, error);
  if (writer == NULL)
    return FALSE;
  *unchanged = kic_fingerprint_unchanged (root, options->store, setup);
  return TRUE;
}

/* KicWriterOptions.settled: DIR is as the fingerprint found it, which was
 * as the last rebuild left it (SETTLED_DATA: the MemoSource). */
gboolean
rebuild_dir_settled (const char *dir, gpointer data)
{
  const MemoSource *m = data;
  const KicFsStamp *stamp = m->stamps != NULL ? g_hash_table_lookup (m->stamps, dir) : NULL;

  return stamp != NULL && stamp->type == KIC_FS_DIR && stamp->exists && !g_hash_table_contains (m->changed, dir);
}

void
rebuild_state_read_start (const char *inputs, gpointer data)
{
  StateRead *sr = data;

  sr->load = kic_state_load_start (sr->root, sr->path, inputs);
}

/* Whether a run wants what the last rebuild learned: when an input changed
 * since (CHANGED, the fingerprint's look), or for --json, which plans with
 * no change too; not with --full, nor without a fingerprint. */
gboolean
rebuild_state_wanted (GHashTable *changed, const KicCommandOptions *options)
{
  return changed != NULL && !options->full && (g_hash_table_size (changed) > 0 || options->json);
}

/* The state bound to INPUTS (NULL: none is wanted), or NULL: what SR's
 * thread read, or read now when none was started (no input changed, and
 * a --json run plans all the same). */
KicState *
rebuild_state_read_join (StateRead *sr, const char *inputs)
{
  KicState *state = sr->load != NULL ? kic_state_load_finish (g_steal_pointer (&sr->load))
                                     : inputs != NULL ? kic_state_load (sr->root, sr->path, inputs) : NULL;

  if (inputs == NULL)
    g_clear_pointer (&state, kic_state_free);
  return state;
}

/* The sources of the store copies the manifest OLD records, whose stamp
 * did not change since (not in CHANGED; STAMPS has it): real path ->
 * SHA-256, from the manifest (a copy's content is its source's; a PNG
 * twin's is not, and is left out).  Each is an input of this run as it
 * was of the last, stamped in INDEX without a read.  transfer full */
GHashTable *
rebuild_known_contents (const KicManifest *old, KicFsIndex *index, const char *store, GHashTable *changed,
                        GHashTable *stamps)
{
  GHashTable *known = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autofree char *files = g_strconcat (store, "/files", NULL);
  GHashTableIter iter;
  gpointer value;

  if (old->damaged || old->journal || stamps == NULL)
    return known;
  g_hash_table_iter_init (&iter, old->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const KicManifestEntry *e = value;
      const KicFsStamp *stamp;

      if (e->kind != KIC_ENTRY_FILE || e->sha256 == NULL || e->target == NULL || !g_str_has_prefix (e->path, files)
          || strcmp (e->path + strlen (files), e->target) != 0 || g_hash_table_contains (changed, e->target)
          || (stamp = g_hash_table_lookup (stamps, e->target)) == NULL || stamp->type != KIC_FS_FILE)
        continue;
      kic_fs_index_seed_file (index, e->target, stamp);
      g_hash_table_insert (known, e->target, e->sha256);
    }
  return known;
}

/* KicSystemOptions.seed: the directories that did not change, from the state. */
void
rebuild_seed_index (KicFsIndex *index, gpointer data)
{
  MemoSource *m = data;

  kic_state_seed (m->state, index, m->changed, m->stamps);
}

/* KicPlanOptions.memo: the state's memo for a plan of KEY, or NULL. */
KicPlanMemo *
rebuild_load_memo (const char *key, gpointer data)
{
  MemoSource *m = data;

  return kic_state_memo (m->state, key, m->index, m->changed, m->owned);
}

void
rebuild_next_state (gpointer data)
{
  NextState *ns = data;

  ns->store_stamps = kic_writer_store_stamps (ns->writer);
  /* a link left out (its copy or itself could not be made) is not what
   * the plan said: the next run plans every name again */
  ns->state = ns->stats->left_out == 0 ? kic_state_make (ns->plan, ns->index, ns->store, ns->owned, ns->desktop_read,
                                                         ns->store_stamps, ns->floor, ns->inputs, ns->previous)
                                       : NULL;
  ns->fingerprint = kic_fingerprint_draft (ns->index, ns->store);
  ns->made = TRUE;
}
