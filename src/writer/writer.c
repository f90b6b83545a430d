/* writer.c - apply a plan: journaled manifest, atomic files and links
 *
 * The public face of the writer (writer.h) and its two jobs, apply and
 * clean; the parts: writer-fs.c (descriptor file operations),
 * writer-lock.c, writer-store.c, writer-recovery.c, over writer-private.h.
 */
#include "writer-private.h"

#include "diag.h"
#include "fingerprint.h"
#include "hash.h"
#include "path.h"
#include "raster.h"
#include "safeopen.h"
#include "sorted.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void
writer_say (const Writer *w, const char *action, const char *path, const char *detail)
{
  if (w->options.on_change != NULL)
    w->options.on_change (action, path, detail, w->options.on_change_data);
  else
    kic_debug ("%s %s%s%s", action, path, detail ? " -> " : "", detail ? detail : "");
}

void
writer_before_link (const Writer *w, const char *link)
{
  if (w->options.before_link != NULL)
    w->options.before_link (link, w->options.before_link_data);
}

KicWriter *
kic_writer_open (const KicWriterOptions *options, GError **error)
{
  g_autoptr (KicWriter) w = g_new0 (KicWriter, 1);
  const char *root = kic_fs_index_root (options->index);

  w->options = *options;
  w->prefix = strcmp (root, "/") == 0 ? "" : root;
  w->files = g_strconcat (options->store, "/files/", NULL);
  w->rootfd = kic_fs_index_rootfd (options->index);
  w->lock = -1;
  w->dirs = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, writer_dir_handle_free);
  w->made = g_ptr_array_new_with_free_func (g_free);
  w->in_place = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  w->too_long = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  w->contents = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  w->untrusted = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  w->lost = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  w->stuck = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  g_queue_init (&w->open);
  w->token = writer_new_temp_token ();
  w->stats = &w->no_stats;
  if (!options->dry_run && !writer_take_lock (w, error))
    return NULL;
  if (!writer_read_manifest (w, error))
    return NULL;
  return g_steal_pointer (&w);
}

void
kic_writer_free (KicWriter *w)
{
  if (w == NULL)
    return;
  /* the directory times first, then the lock */
  writer_close_all_dirs (w);
  if (w->deferred != NULL)
    kic_warning ("%s", w->deferred->message);
  g_clear_error (&w->deferred);
  g_hash_table_unref (w->dirs);
  if (w->lock >= 0)
    close (w->lock);
  kic_manifest_free (w->old);
  kic_manifest_free (w->committed);
  g_ptr_array_unref (w->made);
  g_hash_table_unref (w->in_place);
  g_hash_table_unref (w->too_long);
  g_hash_table_unref (w->contents);
  g_hash_table_unref (w->untrusted);
  g_hash_table_unref (w->lost);
  g_hash_table_unref (w->stuck);
  g_free (w->token);
  g_free (w->files);
  g_free (w->inputs);
  g_free (w);
}

const KicManifest *
kic_writer_manifest (const KicWriter *w)
{
  return w->old;
}

/* Is WAS, a link entry of the manifest as read, on disk as it says, with
 * TARGET, without a look: the manifest is whole and committed (no journal:
 * a killed run's links are read), and the caller says that nothing in its
 * directory changed since (KicWriterOptions.settled)?  A symlink's target
 * cannot be rewritten in place: a link replaced or removed is a name that
 * went or came, which changes its directory's modification time (and the
 * change time, which the fingerprint takes where others than root may
 * write).  So this is the no-op run's trust, for one directory. */
gboolean
writer_link_settled (const Writer *w, const KicManifestEntry *was, const char *target)
{
  g_autofree char *dir = NULL;

  if (w->options.settled == NULL || was == NULL || was->kind != KIC_ENTRY_LINK || w->old->journal
      || w->old->damaged || was->target == NULL || strcmp (was->target, target) != 0)
    return FALSE;
  dir = g_path_get_dirname (was->path);
  return w->options.settled (dir, w->options.settled_data);
}

/* Is the link entry ENTRY still ours: a link with the target we gave it,
 * into the store? */
static gboolean
link_is_ours (Writer *w, const KicManifestEntry *entry)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *target = NULL;
  g_autofree char *copy = writer_store_copy_of_link (w, entry->path, entry->target);
  DirHandle *handle;

  if (copy == NULL)
    return FALSE;
  if (writer_link_settled (w, entry, entry->target))
    return TRUE;
  handle = writer_open_dir (w, dir, 0, NULL);
  if (handle == NULL)
    return FALSE;
  target = writer_read_link (handle->fd, name);
  return target != NULL && strcmp (target, entry->target) == 0;
}

GPtrArray *
kic_writer_owned_links (KicWriter *w)
{
  GPtrArray *links = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, w->old->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const KicManifestEntry *entry = value;

      if (entry->kind == KIC_ENTRY_LINK && link_is_ours (w, entry))
        g_ptr_array_add (links, g_strdup (entry->path));
    }
  return links;
}

/* May links be planted in DIR?  Only in a directory root may plant in,
 * checked on the disk as it is (kic_trusted_dir_open(): reached from the
 * root with no link and no "..", every component owned by root and
 * writable by nobody else).  Refused: one warning, and no link there. */
static gboolean
link_dir_ok (Writer *w, const char *dir)
{
  g_autoptr (GError) local = NULL;

  if (g_hash_table_contains (w->untrusted, dir))
    return FALSE;
  if (writer_open_dir (w, dir, OPEN_TRUSTED, &local) != NULL)
    return TRUE;
  kic_warning ("%s: no link is planted in '%s%s'", local->message, w->prefix, dir);
  g_hash_table_add (w->untrusted, g_strdup (dir));
  return FALSE;
}

static int
compare_write_links (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(const KicWriteLink *const *) a)->link, (*(const KicWriteLink *const *) b)->link);
}

/* The manifest WANTED asks for: store copies (with the content of their
 * source) and the links, at the paths the plan names them by (real
 * directories of their themes). */
static KicManifest *
desired_manifest (Writer *w, const GPtrArray *wanted, const char *settings, GError **error)
{
  KicManifest *manifest = kic_manifest_new ();
  g_autoptr (GHashTable) sums = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) files = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) shared = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) store_dirs = kic_kept_dirs_new ();
  /* the links by path, the copies by path: what is warned about, and the
   * first error, come in the same order whatever the caller's order or
   * a hash table's */
  g_autoptr (GPtrArray) links = g_ptr_array_sized_new (wanted->len);
  g_autoptr (GPtrArray) stores = NULL;
  GHashTableIter iter;
  gpointer key;

  /* (the pointers alone: g_ptr_array_copy() would take WANTED's free function) */
  for (guint i = 0; i < wanted->len; i++)
    g_ptr_array_add (links, g_ptr_array_index (wanted, i));
  g_ptr_array_sort (links, compare_write_links);

  /* store path -> its link: one copy for all the links to it; a store
   * path two sources would share is neither's (one of them would show
   * the other's content) */
  for (guint i = 0; i < links->len; i++)
    {
      const KicWriteLink *want = g_ptr_array_index (links, i);
      const KicWriteLink *had = g_hash_table_lookup (files, want->store);

      if (had != NULL && strcmp (had->source, want->source) != 0 && !g_hash_table_contains (shared, want->store))
        {
          kic_warning ("'%s%s' would be the copy of both '%s%s' and '%s%s': neither is cached", w->prefix,
                       want->store, w->prefix, had->source, w->prefix, want->source);
          g_hash_table_add (shared, (char *) want->store);
        }
      g_hash_table_insert (files, (char *) want->store, (gpointer) want);
    }

  manifest->settings = g_strdup (settings);
  manifest->inputs = g_strdup (w->inputs);
  stores = kic_sorted_keys (files);
  for (guint i = 0; i < stores->len; i++)
    {
      const char *store = g_ptr_array_index (stores, i);
      const KicWriteLink *want = g_hash_table_lookup (files, store);
      const char *source = want->source;
      g_autoptr (GError) local = NULL;
      const char *sum = NULL;

      if (g_hash_table_contains (shared, store) || !kic_manifest_path_ok (store) || !kic_manifest_path_ok (source)
          || !writer_name_fits (w, store))
        continue;
      if (kic_raster_is_png_of_xpm (store, source) ? writer_store_content (w, store, source, want->content, &sum, NULL, &local) == NULL
                                                   : (sum = kic_content_copy_sha256 (want->content, &local)) == NULL)
        {
          if (writer_error_is_global (local))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              kic_manifest_free (manifest);
              return NULL;
            }
          kic_warning ("%s; its links are left out", local->message);
          continue;
        }
      if (!writer_store_slot_ok (w, store_dirs, store, sum))
        continue;
      kic_manifest_add (manifest, KIC_ENTRY_FILE, store, source, sum);
      g_hash_table_insert (sums, (char *) store, (char *) sum);
      g_hash_table_insert (w->contents, g_strdup (store), (gpointer) want->content);
    }
  for (guint i = 0; i < links->len; i++)
    {
      const KicWriteLink *want = g_ptr_array_index (links, i);
      g_autofree char *dir = g_path_get_dirname (want->link);
      g_autofree char *target = NULL;

      /* the plan names a link by its real path: one that is not clean is
       * not one the writer can check */
      if (!g_hash_table_contains (sums, want->store) || !kic_path_is_clean (want->link)
          || !kic_manifest_path_ok (want->link) || !writer_name_fits (w, want->link) || !link_dir_ok (w, dir))
        continue;
      target = kic_relative_link (want->link, want->store);
      kic_manifest_add (manifest, KIC_ENTRY_LINK, want->link, target, NULL);
    }
  /* the parents of the store that some run created, for --clean */
  g_hash_table_iter_init (&iter, w->old->made);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (manifest->made, g_strdup (key));
  for (guint i = 0; i < w->made->len; i++)
    if (strcmp (g_ptr_array_index (w->made, i), w->options.store) != 0)
      g_hash_table_add (manifest->made, g_strdup (g_ptr_array_index (w->made, i)));
  return manifest;
}

static KicManifest *
manifest_union (const KicManifest *a, const KicManifest *b)
{
  KicManifest *u = kic_manifest_new ();
  const KicManifest *both[] = { a, b };

  u->settings = g_strdup (b->settings);
  u->inputs = g_strdup (b->inputs);
  for (guint m = 0; m < 2; m++)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, both[m]->entries);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          const KicManifestEntry *e = value;

          if (!g_hash_table_contains (u->entries, e->path))
            kic_manifest_add (u, e->kind, e->path, e->target, e->sha256);
        }
      g_hash_table_iter_init (&iter, both[m]->made);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (u->made, g_strdup (key));
    }
  return u;
}

static int
compare_entry_paths (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(const KicManifestEntry *const *) a)->path, (*(const KicManifestEntry *const *) b)->path);
}

/* The entries of MANIFEST of KIND, by path: a run makes its changes, and
 * a dry run reports them, in the same order whatever the hash tables'. */
static GPtrArray *
entries_of_kind (const KicManifest *manifest, KicEntryKind kind)
{
  GPtrArray *list = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, manifest->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((KicManifestEntry *) value)->kind == kind)
      g_ptr_array_add (list, value);
  g_ptr_array_sort (list, compare_entry_paths);
  return list;
}

/* The links of ours that could not be removed or replaced, their
 * directory not one the run may write (writer-links.c, dir_unwritable()),
 * stay in KEEP: they are on disk, and the manifest keeps them for the run
 * that can.  Their copies do not stay for them: one the plan no longer
 * wants goes, and the link then dangles, which KDE skips, so that what it
 * loads is what it would without the link, not yesterday's icon (a copy
 * another link still wants stays, with its source's content).  KEEP NULL
 * (--clean, which must leave no link): an error. */
static gboolean
keep_stuck (Writer *w, KicManifest *keep, GError **error)
{
  g_autoptr (GPtrArray) paths = kic_sorted_keys (w->stuck);

  if (paths->len == 0)
    return TRUE;
  if (keep == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ROFS, "cannot remove %u links of ours, the first %s: the store stays",
                   paths->len, (const char *) g_hash_table_lookup (w->stuck, g_ptr_array_index (paths, 0)));
      return FALSE;
    }
  for (guint i = 0; i < paths->len; i++)
    {
      const KicManifestEntry *link = g_hash_table_lookup (w->old->entries, g_ptr_array_index (paths, i));

      kic_manifest_add (keep, KIC_ENTRY_LINK, link->path, link->target, NULL);
    }
  return TRUE;
}

static gboolean
remove_stale (Writer *w, KicManifest *keep, GError **error)
{
  const KicEntryKind order[] = { KIC_ENTRY_LINK, KIC_ENTRY_FILE };

  /* links first, so that no link of ours ever dangles */
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      g_autoptr (GPtrArray) list = NULL;

      if (order[k] == KIC_ENTRY_FILE && !keep_stuck (w, keep, error))
        return FALSE;
      list = entries_of_kind (w->old, order[k]);

      for (guint i = 0; i < list->len; i++)
        {
          const KicManifestEntry *e = g_ptr_array_index (list, i);

          if (keep != NULL && g_hash_table_contains (keep->entries, e->path))
            continue;
          if (!writer_remove_entry (w, e, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* The copies of DESIRED that are not on disk with their content yet. */
static gboolean
copies_to_write (Writer *w, const KicManifest *desired)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, desired->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((KicManifestEntry *) value)->kind == KIC_ENTRY_FILE && !g_hash_table_contains (w->in_place, key))
      return TRUE;
  return FALSE;
}

static gpointer
meanwhile_thread (gpointer data)
{
  Writer *w = data;

  w->meanwhile (w->meanwhile_data);
  return NULL;
}

/* The commit point, and then what went wrong on the way that did not stop
 * the run: a directory's time not put back.  The caller's work for after
 * the run (kic_writer_set_meanwhile()) is done while the manifest's fsync
 * waits for the disk: the times are put back, the last reading of the
 * index (dir_as_read()). */
static gboolean
commit (Writer *w, const KicManifest *desired, GError **error)
{
  g_autoptr (GError) times = NULL;
  g_autofree char *final_text = NULL;
  gboolean restored = writer_restore_dir_times (w, &times);
  GThread *meanwhile = NULL;
  gboolean put;

  final_text = kic_manifest_to_string (desired);
  if (w->meanwhile != NULL && !w->options.dry_run)
    {
      w->committing = desired;
      if ((meanwhile = g_thread_try_new ("kic-keep", meanwhile_thread, w, NULL)) == NULL)
        w->meanwhile (w->meanwhile_data);
    }
  put = writer_put_manifest (w, final_text, error);
  if (meanwhile != NULL)
    g_thread_join (meanwhile);
  w->committing = NULL;
  if (!put)
    return FALSE;
  if (!restored)
    {
      g_propagate_error (error, g_steal_pointer (&times));
      return FALSE;
    }
  if (w->deferred != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&w->deferred));
      return FALSE;
    }
  return TRUE;
}

gboolean
kic_writer_apply (KicWriter *w, const GPtrArray *wanted, const char *settings, KicWriteStats *stats,
                  GError **error)
{
  g_autoptr (KicManifest) desired = NULL;
  g_autoptr (KicManifest) journal = NULL;
  g_autoptr (KicManifest) refused = kic_manifest_new ();
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GPtrArray) links = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *desired_text = NULL;
  GHashTableIter iter;
  gpointer key;

  memset (stats, 0, sizeof *stats);
  w->stats = stats;
  /* 0. what a killed run may have left */
  if (w->old->journal && !w->options.dry_run && !writer_recover_killed_run (w, error))
    return FALSE;
  desired = desired_manifest (w, wanted, settings, error);
  if (desired == NULL)
    return FALSE;
  /* 1. the journal: everything this run may leave behind is listed first,
   * with the times of the directories it may change and the token of its
   * temporary names */
  old_text = kic_manifest_to_string (w->old);
  {
    /* (a run whose manifest differs only in its header lines -- the
     * digest of the inputs, the settings -- changes no link and no copy:
     * killed, it leaves the old manifest, which is whole; no journal,
     * and one fsync'ed write of the manifest fewer) */
    char *settings_now = desired->settings, *inputs_now = desired->inputs;

    desired->settings = w->old->settings;
    desired->inputs = w->old->inputs;
    desired_text = kic_manifest_to_string (desired);
    desired->settings = settings_now;
    desired->inputs = inputs_now;
  }
  if ((strcmp (old_text, desired_text) != 0 || copies_to_write (w, desired)) && !w->options.dry_run)
    {
      g_autofree char *journal_text = NULL;

      journal = manifest_union (w->old, desired);
      journal->journal = TRUE;
      journal->temp_token = g_strdup (w->token);
      writer_journal_dir_times (w, journal);
      journal_text = kic_manifest_to_string (journal);
      if (!writer_put_manifest (w, journal_text, error))
        return FALSE;
    }
  /* 2. store copies: one that cannot be written is left out, with its
   * links (w->lost); 3. links */
  files = entries_of_kind (desired, KIC_ENTRY_FILE);
  for (guint i = 0; i < files->len; i++)
    if (!writer_put_file (w, g_ptr_array_index (files, i), error))
      return FALSE;
  /* the copies made durable at once, before the first link to them */
  if (stats->files_written > 0 && !w->options.dry_run && !writer_sync_store (w, error))
    return FALSE;
  g_hash_table_iter_init (&iter, w->lost);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_remove (desired->entries, key);
  links = entries_of_kind (desired, KIC_ENTRY_LINK);
  for (guint i = 0; i < links->len; i++)
    if (!writer_put_link (w, g_ptr_array_index (links, i), refused, error))
      return FALSE;
  g_hash_table_iter_init (&iter, refused->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_remove (desired->entries, key);
  {
    g_autoptr (GPtrArray) placed = entries_of_kind (desired, KIC_ENTRY_LINK);

    stats->left_out = wanted->len > placed->len ? wanted->len - placed->len : 0;
  }
  /* 4. what is no longer wanted */
  if (!remove_stale (w, desired, error))
    return FALSE;
  if (stats->files_removed > 0 && !w->options.dry_run && !writer_prune_store (w, error))
    return FALSE;
  /* 5. the directories' times back, then the commit point */
  if (!commit (w, desired, error))
    return FALSE;
  if (!w->options.dry_run)
    w->committed = g_steal_pointer (&desired);
  return TRUE;
}

GHashTable *
kic_writer_store_stamps (KicWriter *w)
{
  GHashTable *stamps = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GPtrArray) files = NULL;
  g_autofree char *open_dir_path = NULL;
  int fd = -1;

  if (w->committed == NULL && w->committing == NULL)
    return stamps;
  files = entries_of_kind (w->committed != NULL ? w->committed : w->committing, KIC_ENTRY_FILE);
  for (guint i = 0; i < files->len; i++)
    {
      const KicManifestEntry *e = g_ptr_array_index (files, i);
      const KicFsStamp *found = g_hash_table_lookup (w->in_place, e->path);
      g_autofree char *dir = NULL;
      g_autofree char *name = NULL;
      KicFsStamp *stamp;
      struct timespec now;
      struct stat st;

      /* a copy in place, which the run left as it found it: its stamp
       * then (writer_store_slot_ok()) */
      if (found != NULL)
        {
          g_hash_table_insert (stamps, g_strdup (e->path), g_memdup2 (found, sizeof *found));
          continue;
        }
      dir = g_path_get_dirname (e->path);
      name = g_path_get_basename (e->path);
      /* (sorted by path: a directory's copies come together) */
      if (g_strcmp0 (dir, open_dir_path) != 0)
        {
          if (fd >= 0)
            close (fd);
          fd = kic_open_in_root (w->rootfd, dir, O_RDONLY | O_DIRECTORY, TRUE);
          g_free (open_dir_path);
          open_dir_path = g_strdup (dir);
        }
      /* the clock before the fstat, as the fingerprint's stamps (racy rule) */
      clock_gettime (CLOCK_REALTIME_COARSE, &now);
      if (fd < 0 || fstatat (fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG (st.st_mode))
        continue;
      stamp = g_new0 (KicFsStamp, 1);
      kic_fs_stamp_of_stat (stamp, KIC_FS_FILE, &st);
      stamp->read_ns = (gint64) now.tv_sec * 1000000000 + now.tv_nsec;
      g_hash_table_insert (stamps, g_strdup (e->path), stamp);
    }
  if (fd >= 0)
    close (fd);
  return stamps;
}

static int
compare_longest_first (gconstpointer a, gconstpointer b)
{
  return (int) strlen (*(const char *const *) b) - (int) strlen (*(const char *const *) a);
}

/* The parents of the store a run created (the manifest says which; only
 * parents of the store count, whatever it says), when empty. */
static void
remove_made_dirs (Writer *w)
{
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, w->old->made);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (dirs, g_strdup (key));
  for (guint i = 0; i < w->made->len; i++)
    g_ptr_array_add (dirs, g_strdup (g_ptr_array_index (w->made, i)));
  g_ptr_array_sort (dirs, compare_longest_first);
  for (guint i = 0; i < dirs->len; i++)
    {
      const char *dir = g_ptr_array_index (dirs, i);
      g_autofree char *below = g_strconcat (dir, "/", NULL);
      g_autofree char *parent = g_path_get_dirname (dir);
      g_autofree char *name = g_path_get_basename (dir);
      int pfd;

      if (!kic_path_is_clean (dir) || strcmp (dir, "/") == 0 || !g_str_has_prefix (w->options.store, below))
        continue;
      pfd = kic_open_in_root (w->rootfd, parent, O_RDONLY | O_DIRECTORY, TRUE);
      if (pfd < 0)
        continue;
      unlinkat (pfd, name, AT_REMOVEDIR); /* fails when not empty: then it stays */
      close (pfd);
    }
}

gboolean
kic_writer_clean (KicWriter *w, KicWriteStats *stats, GError **error)
{
  memset (stats, 0, sizeof *stats);
  w->stats = stats;
  if (w->old->journal && !w->options.dry_run && !writer_recover_killed_run (w, error))
    return FALSE;
  if (!remove_stale (w, NULL, error))
    return FALSE;
  if (!w->options.dry_run)
    {
      if (!writer_prune_store (w, error) || !writer_restore_dir_times (w, error))
        return FALSE;
      if (w->deferred != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&w->deferred));
          return FALSE;
        }
      writer_remove_store (w);
      remove_made_dirs (w);
    }
  return TRUE;
}

void
kic_writer_set_inputs (KicWriter *w, const char *inputs)
{
  g_free (w->inputs);
  w->inputs = g_strdup (inputs);
}

void
kic_writer_set_meanwhile (KicWriter *w, void (*func) (gpointer data), gpointer data)
{
  w->meanwhile = func;
  w->meanwhile_data = data;
}

/* Write TEXT as the store's file NAME, unless it is already that; with
 * DURABLE, fsync'ed. */
static gboolean
put_store_file (KicWriter *w, const char *name, const char *text, gboolean durable, GError **error)
{
  g_autofree char *path = g_build_filename (w->options.store, name, NULL);
  DirHandle *store;
  int fd;

  if (w->options.dry_run)
    return TRUE;
  /* a store only exists once something was planted; without one the next
   * run simply plans in full */
  fd = kic_open_in_root (w->rootfd, w->options.store, O_PATH | O_DIRECTORY, TRUE);
  if (fd < 0)
    return TRUE;
  close (fd);
  if (writer_file_holds (w, path, text, strlen (text)))
    return TRUE;
  store = writer_open_dir (w, w->options.store, 0, error);
  /* 0600: it names every input the run read, and some may be in
   * directories other users cannot list (issue 19, row 3) */
  return store != NULL && writer_write_file_at (w, store, name, text, strlen (text), NULL, 0600, durable, path, error);
}

gboolean
kic_writer_put_fingerprint (KicWriter *w, const char *text, GError **error)
{
  /* a reason to skip work, no more: one lost to a power cut (or cut
   * short: it then matches nothing) makes the next run plan */
  return put_store_file (w, KIC_FINGERPRINT_FILE, text, FALSE, error);
}

gboolean
kic_writer_put_state (KicWriter *w, const char *text, GError **error)
{
  /* a cache: lost to a power cut, it is a full plan (state.h) */
  return put_store_file (w, KIC_STATE_FILE, text, FALSE, error);
}
