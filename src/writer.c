/* writer.c - apply a plan: journaled manifest, atomic files and links
 *
 * Every change is made relative to a directory file descriptor opened with
 * O_NOFOLLOW on the real path (links resolved inside the root by the
 * index), so nothing is written through a link.  Files and links get fixed
 * modes whatever the caller's umask.
 */
#include "writer.h"

#include "kic.h"
#include "raster.h"
#include "safeopen.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int fd;
  struct timespec times[2]; /* atime, mtime when first opened */
  gboolean changed;
} DirHandle;

struct _Writer {
  const KicWriterOptions *options;
  const char *prefix;   /* host prefix of the root, "" for "/" (messages) */
  int rootfd;           /* every path is opened from it (safeopen.h) */
  GHashTable *dirs;     /* real dir path -> DirHandle* */
  KicWriteStats *stats;
};

typedef struct _Writer Writer;
static void prune_store (Writer *w);

static void
dir_handle_free (gpointer data)
{
  DirHandle *handle = data;

  /* keep the directory's time: GTK caches and KDE 4 compare it */
  if (handle->changed)
    futimens (handle->fd, handle->times);
  close (handle->fd);
  g_free (handle);
}

static void
writer_init (Writer *w, const KicWriterOptions *options, KicWriteStats *stats)
{
  const char *root = kic_fs_index_root (options->index);

  w->options = options;
  w->prefix = strcmp (root, "/") == 0 ? "" : root;
  w->rootfd = kic_fs_index_rootfd (options->index);
  w->dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, dir_handle_free);
  w->stats = stats;
  memset (stats, 0, sizeof *stats);
}

static void
writer_clear (Writer *w)
{
  g_hash_table_unref (w->dirs);
}

static gboolean
set_errno_error (GError **error, int errsv, const char *what, const char *path)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot %s '%s': %s",
               what, path, g_strerror (errsv));
  return FALSE;
}

static char *
host_path (const Writer *w, const char *path)
{
  return g_strconcat (w->prefix, path, NULL);
}

/* mkdir -p of DIR inside the root, each new directory mode 0755. */
static gboolean
make_dirs (Writer *w, const char *dir, GError **error)
{
  if (kic_mkdirs_in_root (w->rootfd, dir) < 0)
    {
      g_autofree char *host = host_path (w, dir);

      return set_errno_error (error, errno, "create directory", host);
    }
  return TRUE;
}

/* The directory DIR (a real path inside the root), opened once. */
static DirHandle *
open_dir (Writer *w, const char *dir, gboolean create, GError **error)
{
  DirHandle *handle = g_hash_table_lookup (w->dirs, dir);
  g_autofree char *host = NULL;
  struct stat st;
  int fd;

  if (handle != NULL)
    return handle;
  if (create && !make_dirs (w, dir, error))
    return NULL;
  host = host_path (w, dir);
  /* DIR is a real path: a link anywhere in it now is refused */
  fd = kic_open_in_root (w->rootfd, dir, O_RDONLY | O_DIRECTORY, TRUE);
  if (fd < 0 || fstat (fd, &st) < 0)
    {
      set_errno_error (error, errno, "open directory", host);
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  handle = g_new0 (DirHandle, 1);
  handle->fd = fd;
  handle->times[0] = st.st_atim;
  handle->times[1] = st.st_mtim;
  g_hash_table_insert (w->dirs, g_strdup (dir), handle);
  return handle;
}

/* The target of the link NAME in DIR; NULL when there is nothing there,
 * "" when there is something that is not a link. */
static char *
read_link (int dirfd, const char *name)
{
  char buf[4096];
  struct stat st;
  ssize_t n;

  if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return NULL;
  if (!S_ISLNK (st.st_mode))
    return g_strdup ("");
  n = readlinkat (dirfd, name, buf, sizeof buf - 1);
  if (n < 0)
    return g_strdup ("");
  buf[n] = '\0';
  return g_strdup (buf);
}

static char *
sha256_of_fd (int fd)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  char buf[65536];
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_checksum_update (sum, (const guchar *) buf, n);
  if (n < 0)
    return NULL;
  return g_strdup (g_checksum_get_string (sum));
}

/* The SHA-256 of the regular file NAME in DIRFD; NULL when it is not one. */
static char *
sha256_at (int dirfd, const char *name)
{
  int fd = openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  char *sum = NULL;

  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
    sum = sha256_of_fd (fd);
  close (fd);
  return sum;
}

/* The temporary name of NAME: fixed, so that what a killed run left is
 * known (the lock keeps two runs from sharing it). */
static char *
temp_name (const char *name)
{
  return g_strdup_printf (".%s.kic-tmp", name);
}

/* Write DATA as NAME in DIR: a temporary file, mode 0644, fsync, rename.
 * With MTIME the file gets that modification time (a copy keeps its
 * source's, so that gtk-update-icon-cache, which follows links, does not
 * see a newer file in a theme). */
static gboolean
write_file_at (DirHandle *dir, const char *name, const char *data, gsize length,
               const struct timespec *mtime, const char *what, GError **error)
{
  g_autofree char *tmp = temp_name (name);
  gsize done = 0;
  int fd;

  unlinkat (dir->fd, tmp, 0);
  fd = openat (dir->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return set_errno_error (error, errno, "create", what);
  while (done < length)
    {
      ssize_t n = write (fd, data + done, length - done);

      if (n < 0)
        {
          int errsv = errno;

          close (fd);
          unlinkat (dir->fd, tmp, 0);
          return set_errno_error (error, errsv, "write", what);
        }
      done += n;
    }
  if (mtime != NULL)
    {
      struct timespec times[2] = { { 0, UTIME_OMIT }, *mtime };

      futimens (fd, times);
    }
  if (fchmod (fd, 0644) < 0 || fsync (fd) < 0 || close (fd) < 0)
    {
      int errsv = errno;

      unlinkat (dir->fd, tmp, 0);
      return set_errno_error (error, errsv, "write", what);
    }
  if (renameat (dir->fd, tmp, dir->fd, name) < 0)
    {
      int errsv = errno;

      unlinkat (dir->fd, tmp, 0);
      return set_errno_error (error, errsv, "rename into place", what);
    }
  fsync (dir->fd);
  dir->changed = TRUE;
  return TRUE;
}

/* Make NAME in DIR a link to TARGET: a temporary link, then rename. */
static gboolean
symlink_at (DirHandle *dir, const char *name, const char *target, const char *what, GError **error)
{
  g_autofree char *tmp = temp_name (name);

  unlinkat (dir->fd, tmp, 0);
  if (symlinkat (target, dir->fd, tmp) < 0)
    return set_errno_error (error, errno, "create link", what);
  if (renameat (dir->fd, tmp, dir->fd, name) < 0)
    {
      int errsv = errno;

      unlinkat (dir->fd, tmp, 0);
      return set_errno_error (error, errsv, "rename link into place", what);
    }
  dir->changed = TRUE;
  return TRUE;
}

static void
say (const Writer *w, const char *action, const char *path, const char *detail)
{
  if (w->options->print_changes)
    printf ("%s\t%s%s%s\n", action, path, detail ? "\t" : "", detail ? detail : "");
  else
    kic_debug ("%s %s%s%s", action, path, detail ? " -> " : "", detail ? detail : "");
}

static char *
manifest_path (const KicWriterOptions *options)
{
  return g_build_filename (options->store, "manifest", NULL);
}

int
kic_writer_lock (const KicWriterOptions *options, int wait_seconds, GError **error)
{
  Writer w;
  KicWriteStats stats;
  g_autofree char *lock = g_build_filename (options->store, "lock", NULL);
  g_autofree char *host = NULL;
  gint64 deadline = g_get_monotonic_time () + (gint64) wait_seconds * G_USEC_PER_SEC;
  int fd;

  writer_init (&w, options, &stats);
  host = host_path (&w, lock);
  if (!make_dirs (&w, options->store, error))
    {
      writer_clear (&w);
      return -1;
    }
  fd = kic_open_in_root (w.rootfd, lock, O_RDWR | O_CREAT, TRUE);
  writer_clear (&w);
  if (fd < 0)
    {
      set_errno_error (error, errno, "open lock", host);
      return -1;
    }
  if (fchmod (fd, 0644) < 0)
    kic_debug ("cannot set the mode of '%s': %s", host, g_strerror (errno));
  while (flock (fd, LOCK_EX | LOCK_NB) < 0)
    {
      if (errno != EWOULDBLOCK || g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
                       "another kde-icon-cache holds '%s'; try again, or give --wait SECONDS", host);
          close (fd);
          return -1;
        }
      g_usleep (100 * 1000);
    }
  return fd;
}

/* Read PATH (inside the root, no links) into *DATA; FALSE with errno
 * when it cannot be opened. */
static gboolean
read_in_root (Writer *w, const char *path, char **data, gsize *length, GError **error)
{
  g_autofree char *host = host_path (w, path);
  int fd = kic_open_in_root (w->rootfd, path, O_RDONLY, TRUE);
  gboolean ok;

  if (fd < 0)
    return set_errno_error (error, errno, "open", host);
  ok = kic_read_fd (fd, host, data, length, error);
  close (fd);
  return ok;
}

KicManifest *
kic_writer_read_manifest (const KicWriterOptions *options, GError **error)
{
  g_autofree char *path = manifest_path (options);
  g_autofree char *host = NULL;
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  KicWriteStats stats;
  KicManifest *manifest;
  gsize length;
  Writer w;

  writer_init (&w, options, &stats);
  host = host_path (&w, path);
  if (!read_in_root (&w, path, &data, &length, &local))
    {
      writer_clear (&w);
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return kic_manifest_new ();
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  writer_clear (&w);
  manifest = kic_manifest_parse (data, length, host);
  return manifest;
}

/* Is the link entry ENTRY still ours: a link with the target we gave it? */
static gboolean
link_is_ours (Writer *w, const KicManifestEntry *entry)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *target = NULL;
  DirHandle *handle = open_dir (w, dir, FALSE, NULL);

  if (handle == NULL)
    return FALSE;
  target = read_link (handle->fd, name);
  return target != NULL && strcmp (target, entry->target) == 0;
}

GPtrArray *
kic_writer_owned_links (const KicWriterOptions *options, const KicManifest *manifest)
{
  GPtrArray *links = g_ptr_array_new_with_free_func (g_free);
  KicWriteStats stats;
  GHashTableIter iter;
  gpointer value;
  Writer w;

  writer_init (&w, options, &stats);
  g_hash_table_iter_init (&iter, manifest->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const KicManifestEntry *entry = value;

      if (entry->kind == KIC_ENTRY_LINK && link_is_ours (&w, entry))
        g_ptr_array_add (links, g_strdup (entry->path));
    }
  writer_clear (&w);
  return links;
}

/* Does DATA look like what its name says?  Only icon files are ever copied
 * into the store: whatever a hostile Icon= or tree points at, nothing else
 * can be made world-readable there. */
static gboolean
content_matches_name (const char *name, const char *data, gsize length)
{
  gsize head = MIN (length, (gsize) 65536);

  if (g_str_has_suffix (name, ".png"))
    return length >= 8 && memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0;
  if (g_str_has_suffix (name, ".svgz"))
    return length >= 2 && (guchar) data[0] == 0x1f && (guchar) data[1] == 0x8b;
  if (g_str_has_suffix (name, ".xpm"))
    return g_strstr_len (data, MIN (head, (gsize) 256), "XPM") != NULL;
  if (g_str_has_suffix (name, ".svg"))
    return g_strstr_len (data, head, "<svg") != NULL;
  return FALSE;
}

/* Read SOURCE, an icon file inside the root: a regular file that anyone
 * may read (the copy will be mode 0644) and whose content is an image of
 * the type its name says. */
static gboolean
read_source (Writer *w, const char *source, char **data, gsize *length, struct stat *st,
             GError **error)
{
  g_autofree char *host = host_path (w, source);
  int fd = kic_open_in_root (w->rootfd, source, O_RDONLY, TRUE);
  gboolean ok;

  if (fd < 0)
    return set_errno_error (error, errno, "open", host);
  if (fstat (fd, st) < 0 || !S_ISREG (st->st_mode) || !(st->st_mode & S_IROTH))
    {
      close (fd);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' is not a regular file anyone may read: not copied", host);
      return FALSE;
    }
  ok = kic_read_fd (fd, host, data, length, error);
  close (fd);
  if (ok && !content_matches_name (source, *data, *length))
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' is not the image its name says: not copied", host);
      g_clear_pointer (data, g_free);
      return FALSE;
    }
  return ok;
}

/* The content of the store file STORE: a copy of SOURCE, or the PNG made
 * from SOURCE, an XPM (raster.h), as the plan asked by its name. */
static gboolean
store_content (Writer *w, const char *store, const char *source, char **data, gsize *length,
               struct stat *st, GError **error)
{
  g_autoptr (GBytes) png = NULL;
  g_autofree char *why = NULL;

  if (!read_source (w, source, data, length, st, error))
    return FALSE;
  if (!kic_raster_is_png_of_xpm (store, source))
    return TRUE;
  png = kic_raster_xpm_to_png (*data, *length, &why);
  g_clear_pointer (data, g_free);
  if (png == NULL)
    {
      g_autofree char *host = host_path (w, source);

      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' cannot be made a PNG: %s", host, why);
      return FALSE;
    }
  *data = g_bytes_unref_to_data (g_steal_pointer (&png), length);
  return TRUE;
}

/* The manifest the plan asks for: store copies (with the content of their
 * source) and links at their real paths. */
static KicManifest *
desired_manifest (Writer *w, const KicPlan *plan, const char *settings)
{
  KicManifest *manifest = kic_manifest_new ();
  g_autoptr (GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  GHashTableIter iter;
  gpointer key, value;

  manifest->settings = g_strdup (settings);
  g_hash_table_iter_init (&iter, plan->files);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *store = key, *source = value;
      g_autoptr (GError) local = NULL;
      g_autofree char *data = NULL;
      char *sum = NULL;
      struct stat st;
      gsize length;

      if (!kic_manifest_path_ok (store) || !kic_manifest_path_ok (source))
        continue;
      if (!store_content (w, store, source, &data, &length, &st, &local))
        {
          kic_warning ("%s; its links are left out", local->message);
          continue;
        }
      sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
      kic_manifest_add (manifest, KIC_ENTRY_FILE, store, source, sum);
      g_hash_table_insert (sums, (char *) store, sum);
    }
  g_hash_table_iter_init (&iter, plan->links);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicPlant *plant = value;
      g_autofree char *dir = g_path_get_dirname (plant->link);
      g_autofree char *name = g_path_get_basename (plant->link);
      g_autofree char *real_dir = kic_fs_index_realpath (w->options->index, dir);
      g_autofree char *link = NULL;
      g_autofree char *target = NULL;

      if (real_dir == NULL || !g_hash_table_contains (sums, plant->store))
        continue;
      link = g_build_filename (real_dir, name, NULL);
      if (!kic_manifest_path_ok (link))
        continue;
      target = kic_relative_link (link, plant->store);
      kic_manifest_add (manifest, KIC_ENTRY_LINK, link, target, NULL);
    }
  return manifest;
}

/* Step 2: a store copy whose content is not there yet. */
static gboolean
put_file (Writer *w, const KicManifestEntry *entry, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *have = NULL;
  g_autofree char *data = NULL;
  g_autofree char *sum = NULL;
  DirHandle *handle;
  struct stat st;
  gsize length;

  handle = w->options->dry_run ? NULL : open_dir (w, dir, TRUE, error);
  if (handle == NULL && !w->options->dry_run)
    return FALSE;
  if (handle != NULL)
    have = sha256_at (handle->fd, name);
  else
    {
      int fd = kic_open_in_root (w->rootfd, entry->path, O_RDONLY, TRUE);

      if (fd >= 0)
        {
          have = sha256_of_fd (fd);
          close (fd);
        }
    }
  if (have != NULL && strcmp (have, entry->sha256) == 0)
    return TRUE;
  say (w, "copy", entry->path, entry->target);
  w->stats->files_written++;
  if (w->options->dry_run)
    return TRUE;
  if (!store_content (w, entry->path, entry->target, &data, &length, &st, error))
    return FALSE;
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
  if (strcmp (sum, entry->sha256) != 0)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' changed while kde-icon-cache ran", entry->target);
      return FALSE;
    }
  return write_file_at (handle, name, data, length, &st.st_mtim, entry->path, error);
}

/* Step 3: a link, unless something not ours is in the way. */
static gboolean
put_link (Writer *w, const KicManifestEntry *entry, const KicManifest *old, KicManifest *refused,
          GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *have = NULL;
  const KicManifestEntry *was = g_hash_table_lookup (old->entries, entry->path);
  DirHandle *handle = open_dir (w, dir, FALSE, error);

  if (handle == NULL)
    return FALSE;
  have = read_link (handle->fd, name);
  if (have != NULL && strcmp (have, entry->target) == 0)
    {
      w->stats->unchanged++;
      return TRUE;
    }
  if (have != NULL && (was == NULL || was->kind != KIC_ENTRY_LINK || strcmp (have, was->target) != 0))
    {
      kic_warning ("'%s' exists and is not a link of ours: left alone", entry->path);
      kic_manifest_add (refused, KIC_ENTRY_LINK, entry->path, entry->target, NULL);
      w->stats->refused++;
      return TRUE;
    }
  say (w, have ? "replace" : "link", entry->path, entry->target);
  if (have)
    w->stats->replaced++;
  else
    w->stats->added++;
  if (w->options->dry_run)
    return TRUE;
  return symlink_at (handle, name, entry->target, entry->path, error);
}

/* Step 4: an entry of the old manifest that is no longer wanted. */
static gboolean
remove_entry (Writer *w, const KicManifestEntry *entry, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  DirHandle *handle = open_dir (w, dir, FALSE, NULL);

  if (handle == NULL)
    return TRUE; /* already gone */
  if (entry->kind == KIC_ENTRY_LINK)
    {
      g_autofree char *have = read_link (handle->fd, name);

      if (have == NULL)
        return TRUE;
      if (strcmp (have, entry->target) != 0)
        {
          kic_warning ("'%s' is no longer a link of ours: left alone", entry->path);
          return TRUE;
        }
      w->stats->removed++;
    }
  else
    {
      struct stat st;

      if (fstatat (handle->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return TRUE;
      if (!S_ISREG (st.st_mode))
        {
          kic_warning ("'%s' is no longer a file of ours: left alone", entry->path);
          return TRUE;
        }
      w->stats->files_removed++;
    }
  say (w, "remove", entry->path, NULL);
  if (w->options->dry_run)
    return TRUE;
  if (unlinkat (handle->fd, name, 0) < 0 && errno != ENOENT)
    return set_errno_error (error, errno, "remove", entry->path);
  handle->changed = TRUE;
  return TRUE;
}

/* Write the manifest text, unless it is already exactly that. */
static gboolean
put_manifest (Writer *w, const char *text, GError **error)
{
  g_autofree char *path = manifest_path (w->options);
  g_autofree char *have = NULL;
  DirHandle *handle;

  if (read_in_root (w, path, &have, NULL, NULL) && strcmp (have, text) == 0)
    return TRUE;
  if (w->options->dry_run)
    return TRUE;
  handle = open_dir (w, w->options->store, TRUE, error);
  if (handle == NULL || !write_file_at (handle, "manifest", text, strlen (text), NULL, path, error))
    return FALSE;
  handle->changed = FALSE; /* the store's own time may move */
  return TRUE;
}

/* The temporary names next to every entry of a journal. */
static void
remove_temporaries (Writer *w, const KicManifest *journal)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, journal->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *dir = g_path_get_dirname (key);
      g_autofree char *name = g_path_get_basename (key);
      g_autofree char *tmp = temp_name (name);
      DirHandle *handle = open_dir (w, dir, FALSE, NULL);

      if (handle != NULL && unlinkat (handle->fd, tmp, 0) == 0)
        handle->changed = TRUE;
    }
}

static KicManifest *
manifest_union (const KicManifest *a, const KicManifest *b)
{
  KicManifest *u = kic_manifest_new ();
  const KicManifest *both[] = { a, b };

  u->settings = g_strdup (b->settings);
  for (guint m = 0; m < 2; m++)
    {
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, both[m]->entries);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          const KicManifestEntry *e = value;

          if (!g_hash_table_contains (u->entries, e->path))
            kic_manifest_add (u, e->kind, e->path, e->target, e->sha256);
        }
    }
  return u;
}

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
  return list;
}

static gboolean
remove_stale (Writer *w, const KicManifest *old, const KicManifest *keep, GError **error)
{
  const KicEntryKind order[] = { KIC_ENTRY_LINK, KIC_ENTRY_FILE };

  /* links first, so that no link of ours ever dangles */
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      g_autoptr (GPtrArray) list = entries_of_kind (old, order[k]);

      for (guint i = 0; i < list->len; i++)
        {
          const KicManifestEntry *e = g_ptr_array_index (list, i);

          if (keep != NULL && g_hash_table_contains (keep->entries, e->path))
            continue;
          if (!remove_entry (w, e, error))
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
kic_writer_apply (const KicWriterOptions *options, const KicPlan *plan, const KicManifest *old,
                  const char *settings, KicWriteStats *stats, GError **error)
{
  Writer w;
  g_autoptr (KicManifest) desired = NULL;
  g_autoptr (KicManifest) journal = NULL;
  g_autoptr (KicManifest) refused = kic_manifest_new ();
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GPtrArray) links = NULL;
  g_autofree char *journal_text = NULL;
  g_autofree char *final_text = NULL;
  gboolean ok = FALSE;

  writer_init (&w, options, stats);
  desired = desired_manifest (&w, plan, settings);
  /* 0. what a killed run may have left: its temporary files */
  if (old->journal && !options->dry_run)
    remove_temporaries (&w, old);
  /* 1. the journal: everything this run may leave behind is listed first */
  journal = manifest_union (old, desired);
  journal->journal = TRUE;
  journal_text = kic_manifest_to_string (journal);
  {
    g_autofree char *old_text = kic_manifest_to_string (old);
    g_autofree char *desired_text = kic_manifest_to_string (desired);

    /* nothing new to record when the manifest already is what we want */
    if (strcmp (old_text, desired_text) != 0 && !put_manifest (&w, journal_text, error))
      goto out;
  }
  /* 2. store copies, 3. links */
  files = entries_of_kind (desired, KIC_ENTRY_FILE);
  for (guint i = 0; i < files->len; i++)
    if (!put_file (&w, g_ptr_array_index (files, i), error))
      goto out;
  links = entries_of_kind (desired, KIC_ENTRY_LINK);
  for (guint i = 0; i < links->len; i++)
    if (!put_link (&w, g_ptr_array_index (links, i), old, refused, error))
      goto out;
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, refused->entries);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_hash_table_remove (desired->entries, key);
  }
  /* 4. what is no longer wanted */
  if (!remove_stale (&w, old, desired, error))
    goto out;
  if (stats->files_removed > 0 && !options->dry_run)
    prune_store (&w);
  /* 5. the commit point */
  final_text = kic_manifest_to_string (desired);
  ok = put_manifest (&w, final_text, error);
out:
  writer_clear (&w);
  return ok;
}

/* Remove the empty directories below DIRFD; the store's tree of copies
 * shrinks as copies go.  Nothing but empty directories is removed. */
static void
remove_empty_below (int dirfd)
{
  int fd = dup (dirfd);
  DIR *d = fd >= 0 ? fdopendir (fd) : NULL;
  struct dirent *de;

  if (d == NULL)
    {
      if (fd >= 0)
        close (fd);
      return;
    }
  while ((de = readdir (d)) != NULL)
    {
      int sub;

      if (de->d_type != DT_DIR || strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      sub = openat (dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0)
        continue;
      remove_empty_below (sub);
      close (sub);
      unlinkat (dirfd, de->d_name, AT_REMOVEDIR);
    }
  closedir (d);
}

/* The store's "files" directory: empty directories go. */
static void
prune_store (Writer *w)
{
  g_autofree char *files = g_strconcat (w->options->store, "/files", NULL);
  int fd = kic_open_in_root (w->rootfd, files, O_RDONLY | O_DIRECTORY, TRUE);

  if (fd < 0)
    return;
  remove_empty_below (fd);
  close (fd);
}

gboolean
kic_writer_clean (const KicWriterOptions *options, const KicManifest *old, KicWriteStats *stats,
                  GError **error)
{
  g_autofree char *parent = g_path_get_dirname (options->store);
  g_autofree char *base = g_path_get_basename (options->store);
  Writer w;
  gboolean ok;
  int fd;

  writer_init (&w, options, stats);
  ok = remove_stale (&w, old, NULL, error);
  if (ok && !options->dry_run)
    {
      /* then the store itself: our copies are gone, the rest is ours too */
      prune_store (&w);
      fd = kic_open_in_root (w.rootfd, options->store, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd >= 0)
        {
          unlinkat (fd, "files", AT_REMOVEDIR);
          unlinkat (fd, "manifest", 0);
          unlinkat (fd, "lock", 0);
          close (fd);
        }
      fd = kic_open_in_root (w.rootfd, parent, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd >= 0)
        {
          if (unlinkat (fd, base, AT_REMOVEDIR) < 0 && errno != ENOENT)
            kic_warning ("'%s%s' is not empty: left in place", w.prefix, options->store);
          close (fd);
        }
    }
  writer_clear (&w);
  return ok;
}
