/* writer.c - apply a plan: journaled manifest, atomic files and links
 *
 * Every change is made relative to a directory file descriptor opened with
 * O_NOFOLLOW on the real path (links resolved inside the root by the
 * index), so nothing is written through a link.  Files and links get fixed
 * modes whatever the caller's umask.  Everything read from the store is
 * opened O_NONBLOCK and checked to be a regular file, so a FIFO put there
 * cannot hang a run that holds the lock.
 */
#include "writer.h"

#include "fingerprint.h"
#include "kic.h"
#include "raster.h"
#include "safeopen.h"

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
};

typedef KicWriter Writer;
static void prune_store (Writer *w);

static void
restore_time (DirHandle *handle)
{
  /* keep the directory's time: GTK caches and KDE 4 compare it */
  if (handle->changed)
    futimens (handle->fd, handle->times);
  handle->changed = FALSE;
}

static void
dir_handle_free (gpointer data)
{
  DirHandle *handle = data;

  restore_time (handle);
  close (handle->fd);
  g_free (handle);
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

/* mkdir -p of DIR inside the root, each new directory mode 0755; the
 * directories created are added to MADE (may be NULL). */
static gboolean
make_dirs (Writer *w, const char *dir, GPtrArray *made, GError **error)
{
  if (kic_mkdirs_in_root (w->rootfd, dir, made) < 0)
    {
      int errsv = errno;
      g_autofree char *host = host_path (w, dir);
      g_autofree char *obstacle = kic_mkdirs_obstacle (w->rootfd, dir);

      if (obstacle != NULL)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "cannot use directory '%s': %s inside the root (it must be a real directory)",
                       host, obstacle);
          return FALSE;
        }
      return set_errno_error (error, errsv, "create directory", host);
    }
  return TRUE;
}

/* The directory DIR (a real path inside the root), opened once.  A
 * directory a killed run changed gets the time its journal recorded. */
static DirHandle *
open_dir (Writer *w, const char *dir, gboolean create, GError **error)
{
  DirHandle *handle = g_hash_table_lookup (w->dirs, dir);
  g_autofree char *host = NULL;
  gint64 sec;
  glong nsec;
  struct stat st;
  int fd;

  if (handle != NULL)
    return handle;
  if (create && !make_dirs (w, dir, NULL, error))
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
  if (!w->options.dry_run && w->old->journal && kic_manifest_get_mtime (w->old, dir, &sec, &nsec))
    {
      handle->times[1].tv_sec = (time_t) sec;
      handle->times[1].tv_nsec = nsec;
      handle->changed = TRUE;
    }
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

/* Does a link at LINK with target TARGET point at a copy in our store?
 * Then it is ours whatever the manifest says; nothing else is.  The
 * store copy's path, or NULL.  transfer full */
static char *
store_copy_of_link (const Writer *w, const char *link, const char *target)
{
  g_autofree char *dir = g_path_get_dirname (link);
  g_autofree char *joined = target[0] == '/' ? g_strdup (target) : g_strconcat (dir, "/", target, NULL);
  char *clean = kic_path_clean (joined);

  if (g_str_has_prefix (clean, w->files) && clean[strlen (w->files)] != '\0')
    return clean;
  g_free (clean);
  return NULL;
}

/* Is PATH a store copy path (clean, below "<store>/files/")? */
static gboolean
in_store (const Writer *w, const char *path)
{
  g_autofree char *clean = kic_path_clean (path);

  return strcmp (clean, path) == 0 && g_str_has_prefix (path, w->files) && path[strlen (w->files)] != '\0';
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

/* Open NAME in DIRFD for reading when it is a regular file (not through a
 * link, without waiting on a FIFO); -1 otherwise. */
static int
open_regular_at (int dirfd, const char *name)
{
  int fd = openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;

  if (fd >= 0 && (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode)))
    {
      close (fd);
      errno = EINVAL;
      return -1;
    }
  return fd;
}

/* The SHA-256 of the regular file NAME in DIRFD; NULL when it is not one. */
static char *
sha256_at (int dirfd, const char *name)
{
  int fd = open_regular_at (dirfd, name);
  char *sum;

  if (fd < 0)
    return NULL;
  sum = sha256_of_fd (fd);
  close (fd);
  return sum;
}

/* The temporary name of NAME: fixed, so that what a killed run left is
 * known (the lock keeps two runs from sharing it). */
static char *
temp_name (const char *name)
{
  return g_strconcat (TEMP_PREFIX, name, TEMP_SUFFIX, NULL);
}

/* Can PATH get a temporary name beside it?  A name that cannot is left
 * out, with one warning (a real run would fail on it every time). */
static gboolean
name_fits (Writer *w, const char *path)
{
  g_autofree char *name = g_path_get_basename (path);

  if (strlen (TEMP_PREFIX) + strlen (name) + strlen (TEMP_SUFFIX) <= NAME_MAX)
    return TRUE;
  if (!g_hash_table_contains (w->too_long, name))
    {
      kic_warning ("'%s': the name is too long to be written safely (%zu bytes): not cached",
                   path, strlen (name));
      g_hash_table_add (w->too_long, g_strdup (name));
    }
  return FALSE;
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

static void
say (const Writer *w, const char *action, const char *path, const char *detail)
{
  if (w->options.print_changes)
    printf ("%s\t%s%s%s\n", action, path, detail ? "\t" : "", detail ? detail : "");
  else
    kic_debug ("%s %s%s%s", action, path, detail ? " -> " : "", detail ? detail : "");
}

static void
before_link (const Writer *w, const char *link)
{
  if (w->options.before_link != NULL)
    w->options.before_link (link, w->options.before_link_data);
}

static char *
manifest_path (const Writer *w)
{
  return g_build_filename (w->options.store, "manifest", NULL);
}

/* Open PATH (inside the root, no links) for reading: a regular file, or
 * an error that says what it is instead. */
static int
open_regular (Writer *w, const char *path, GError **error)
{
  g_autofree char *host = host_path (w, path);
  int fd = kic_open_in_root (w->rootfd, path, O_RDONLY | O_NONBLOCK, TRUE);
  struct stat st;

  if (fd < 0)
    {
      set_errno_error (error, errno, "open", host);
      return -1;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' is not a regular file", host);
      return -1;
    }
  return fd;
}

/* Read PATH (inside the root, no links, a regular file) into *DATA. */
static gboolean
read_in_root (Writer *w, const char *path, char **data, gsize *length, GError **error)
{
  g_autofree char *host = host_path (w, path);
  int fd = open_regular (w, path, error);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = kic_read_fd (fd, host, data, length, error);
  close (fd);
  return ok;
}

/* Open the lock file LOCK: an existing one as it is, a new one created
 * (only then is its mode set: a lock that is a hard link to another file
 * must not change that file).  It must be a regular file with one name. */
static int
open_lock (Writer *w, const char *lock, GError **error)
{
  g_autofree char *host = host_path (w, lock);
  struct stat st;
  int fd;

  for (int tries = 0; tries < 10; tries++)
    {
      fd = kic_open_in_root (w->rootfd, lock, O_RDWR | O_NONBLOCK, TRUE);
      if (fd >= 0 || errno != ENOENT)
        break;
      fd = kic_open_in_root (w->rootfd, lock, O_RDWR | O_NONBLOCK | O_CREAT | O_EXCL, TRUE);
      if (fd >= 0)
        {
          if (fchmod (fd, 0644) < 0)
            kic_debug ("cannot set the mode of '%s': %s", host, g_strerror (errno));
          break;
        }
      if (errno != EEXIST)
        break;
    }
  if (fd < 0)
    {
      set_errno_error (error, errno, "open lock", host);
      return -1;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || st.st_nlink != 1)
    {
      close (fd);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
                   "'%s' is not a lock file of ours (a regular file with one name): left alone", host);
      return -1;
    }
  return fd;
}

/* Is FD still the file at LOCK?  A --clean that held the lock before us
 * may have removed it with the store. */
static gboolean
lock_is_current (Writer *w, const char *lock, int fd)
{
  int now = kic_open_in_root (w->rootfd, lock, O_PATH, TRUE);
  struct stat a, b;
  gboolean same;

  if (now < 0)
    return FALSE;
  same = fstat (fd, &a) == 0 && fstat (now, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
         && a.st_nlink > 0;
  close (now);
  return same;
}

/* flock on "<store>/lock", waiting up to wait_seconds for another run. */
static gboolean
take_lock (Writer *w, GError **error)
{
  g_autofree char *lock = g_build_filename (w->options.store, "lock", NULL);
  g_autofree char *host = host_path (w, lock);
  gint64 deadline = g_get_monotonic_time () + (gint64) w->options.wait_seconds * G_USEC_PER_SEC;

  for (guint attempt = 0;; attempt++)
    {
      int fd;

      if (attempt == 100)
        {
          g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' keeps being removed: cannot lock the store", host);
          return FALSE;
        }

      if (!make_dirs (w, w->options.store, w->made, error))
        return FALSE;
      fd = open_lock (w, lock, error);
      if (fd < 0)
        return FALSE;
      while (flock (fd, LOCK_EX | LOCK_NB) < 0)
        {
          int errsv = errno;

          if (errsv != EWOULDBLOCK && errsv != EINTR)
            {
              close (fd);
              return set_errno_error (error, errsv, "lock", host);
            }
          if (g_get_monotonic_time () >= deadline)
            {
              close (fd);
              g_set_error (error, KIC_ERROR, KIC_ERROR_IO,
                           "another kde-icon-cache holds '%s'; try again, or give --wait SECONDS", host);
              return FALSE;
            }
          g_usleep (100 * 1000);
        }
      if (lock_is_current (w, lock, fd))
        {
          w->lock = fd;
          return TRUE;
        }
      close (fd); /* the lock we waited for went with its store: again */
    }
}

/* A stream over the directory FD, which it takes over (closing it when
 * that fails); NULL when FD is -1 or not a directory. */
static DIR *
dir_stream (int fd)
{
  DIR *d = fd >= 0 ? fdopendir (fd) : NULL;

  if (d == NULL && fd >= 0)
    close (fd);
  return d;
}

/* Links into the store below the directory FD (the real path PATH), and
 * the copies they point to, added to MANIFEST: what a damaged manifest
 * lost is found on disk. */
static void
find_links_into_store (Writer *w, int fd, const char *path, KicManifest *manifest, GHashTable *visited,
                       guint depth)
{
  DIR *d = dir_stream (dup (fd));
  struct dirent *de;

  if (d == NULL)
    return;
  while ((de = readdir (d)) != NULL)
    {
      g_autofree char *child = NULL;
      struct stat st;

      /* icon files are most of a theme: no stat for what readdir says is one */
      if (de->d_type == DT_REG || strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0
          || fstatat (fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        continue;
      child = g_strconcat (strcmp (path, "/") == 0 ? "" : path, "/", de->d_name, NULL);
      if (S_ISDIR (st.st_mode) && depth < MAX_LINK_DEPTH)
        {
          g_autofree char *key = g_strdup_printf ("%ju:%ju", (uintmax_t) st.st_dev, (uintmax_t) st.st_ino);
          int sub;

          if (g_hash_table_contains (visited, key) || strcmp (child, w->options.store) == 0)
            continue;
          g_hash_table_add (visited, g_steal_pointer (&key));
          sub = openat (fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (sub >= 0)
            {
              find_links_into_store (w, sub, child, manifest, visited, depth + 1);
              close (sub);
            }
        }
      else if (S_ISLNK (st.st_mode) && kic_manifest_path_ok (child))
        {
          g_autofree char *target = read_link (fd, de->d_name);
          g_autofree char *copy = target != NULL ? store_copy_of_link (w, child, target) : NULL;
          g_autofree char *sum = NULL;
          int copy_fd;

          if (copy == NULL)
            continue;
          if (!g_hash_table_contains (manifest->entries, child))
            kic_manifest_add (manifest, KIC_ENTRY_LINK, child, target, NULL);
          if (g_hash_table_contains (manifest->entries, copy) || !kic_manifest_path_ok (copy))
            continue;
          copy_fd = kic_open_in_root (w->rootfd, copy, O_RDONLY | O_NONBLOCK, TRUE);
          if (copy_fd < 0)
            continue;
          if (fstat (copy_fd, &st) == 0 && S_ISREG (st.st_mode))
            sum = sha256_of_fd (copy_fd);
          close (copy_fd);
          /* the copy of SOURCE is <store>/files/SOURCE */
          if (sum != NULL)
            kic_manifest_add (manifest, KIC_ENTRY_FILE, copy, copy + strlen (w->files) - 1, sum);
        }
    }
  closedir (d);
}

/* The manifest is damaged, or missing beside a store: take the links into
 * the store under the theme bases as ours (no one else links there). */
static void
recover_from_disk (Writer *w)
{
  g_autoptr (GHashTable) visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint before = g_hash_table_size (w->old->entries);

  for (guint i = 0; w->options.link_dirs != NULL && w->options.link_dirs[i] != NULL; i++)
    {
      g_autofree char *real = kic_fs_index_realpath (w->options.index, w->options.link_dirs[i]);
      int fd;

      if (real == NULL)
        continue;
      fd = kic_open_in_root (w->rootfd, real, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd < 0)
        continue;
      find_links_into_store (w, fd, real, w->old, visited, 0);
      close (fd);
    }
  kic_debug ("the manifest was damaged or missing: %u entries found on disk",
             g_hash_table_size (w->old->entries) - before);
}

/* Read the manifest; a damaged one is completed from the disk. */
static gboolean
read_manifest (Writer *w, GError **error)
{
  g_autofree char *path = manifest_path (w);
  g_autofree char *host = host_path (w, path);
  g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize length;
  int fd;

  if (!read_in_root (w, path, &data, &length, &local))
    {
      if (!g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      w->old = kic_manifest_new ();
      /* no manifest, but copies: a manifest lost */
      fd = kic_open_in_root (w->rootfd, files, O_RDONLY | O_DIRECTORY, TRUE);
      if (fd >= 0)
        {
          close (fd);
          w->old->damaged = TRUE;
        }
    }
  else
    w->old = kic_manifest_parse (data, length, host);
  if (w->old->damaged)
    recover_from_disk (w);
  return TRUE;
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
  w->dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, dir_handle_free);
  w->made = g_ptr_array_new_with_free_func (g_free);
  w->in_place = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->too_long = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->stats = &w->no_stats;
  if (!options->dry_run && !take_lock (w, error))
    return NULL;
  if (!read_manifest (w, error))
    return NULL;
  return g_steal_pointer (&w);
}

void
kic_writer_free (KicWriter *w)
{
  if (w == NULL)
    return;
  /* the directory times first, then the lock */
  g_hash_table_unref (w->dirs);
  if (w->lock >= 0)
    close (w->lock);
  kic_manifest_free (w->old);
  g_ptr_array_unref (w->made);
  g_hash_table_unref (w->in_place);
  g_hash_table_unref (w->too_long);
  g_free (w->files);
  g_free (w->inputs);
  g_free (w);
}

const KicManifest *
kic_writer_manifest (const KicWriter *w)
{
  return w->old;
}

/* Is the link entry ENTRY still ours: a link with the target we gave it,
 * into the store? */
static gboolean
link_is_ours (Writer *w, const KicManifestEntry *entry)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *target = NULL;
  g_autofree char *copy = store_copy_of_link (w, entry->path, entry->target);
  DirHandle *handle;

  if (copy == NULL)
    return FALSE;
  handle = open_dir (w, dir, FALSE, NULL);
  if (handle == NULL)
    return FALSE;
  target = read_link (handle->fd, name);
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
  int fd = kic_open_in_root (w->rootfd, source, O_RDONLY | O_NONBLOCK, TRUE);
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

/* May the copy with content SUM go to STORE?  Yes when nothing is there,
 * when the same content is (then it is in place), or a copy of ours the
 * old manifest records with the content it has now.  Anything else there
 * (a file not ours, a link, a FIFO, a socket, a directory, a parent that
 * is not a directory) is left alone, and so are the links to it. */
static gboolean
store_slot_ok (Writer *w, const char *store, const char *sum)
{
  g_autofree char *dir = g_path_get_dirname (store);
  g_autofree char *name = g_path_get_basename (store);
  g_autofree char *have = NULL;
  const KicManifestEntry *was = g_hash_table_lookup (w->old->entries, store);
  struct stat st;
  gboolean ok = FALSE;
  int fd = kic_open_in_root (w->rootfd, dir, O_RDONLY | O_DIRECTORY, TRUE);

  if (fd < 0)
    ok = errno == ENOENT;
  else if (fstatat (fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    ok = errno == ENOENT;
  else if (S_ISREG (st.st_mode) && (have = sha256_at (fd, name)) != NULL)
    {
      if (strcmp (have, sum) == 0)
        {
          g_hash_table_add (w->in_place, g_strdup (store));
          ok = TRUE;
        }
      else
        ok = was != NULL && was->kind == KIC_ENTRY_FILE && strcmp (have, was->sha256) == 0;
    }
  if (fd >= 0)
    close (fd);
  if (!ok)
    kic_warning ("'%s%s' is in the way and is no copy of ours: left alone, and the icon is not cached",
                 w->prefix, store);
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
  manifest->inputs = g_strdup (w->inputs);
  g_hash_table_iter_init (&iter, plan->files);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *store = key, *source = value;
      g_autoptr (GError) local = NULL;
      g_autofree char *data = NULL;
      char *sum = NULL;
      struct stat st;
      gsize length;

      if (!kic_manifest_path_ok (store) || !kic_manifest_path_ok (source) || !name_fits (w, store))
        continue;
      if (!store_content (w, store, source, &data, &length, &st, &local))
        {
          kic_warning ("%s; its links are left out", local->message);
          continue;
        }
      sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
      if (!store_slot_ok (w, store, sum))
        {
          g_free (sum);
          continue;
        }
      kic_manifest_add (manifest, KIC_ENTRY_FILE, store, source, sum);
      g_hash_table_insert (sums, (char *) store, sum);
    }
  g_hash_table_iter_init (&iter, plan->links);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicPlant *plant = value;
      g_autofree char *dir = g_path_get_dirname (plant->link);
      g_autofree char *name = g_path_get_basename (plant->link);
      g_autofree char *real_dir = kic_fs_index_realpath (w->options.index, dir);
      g_autofree char *link = NULL;
      g_autofree char *target = NULL;

      if (real_dir == NULL || !g_hash_table_contains (sums, plant->store))
        continue;
      link = g_build_filename (real_dir, name, NULL);
      if (!kic_manifest_path_ok (link) || !name_fits (w, link))
        continue;
      target = kic_relative_link (link, plant->store);
      kic_manifest_add (manifest, KIC_ENTRY_LINK, link, target, NULL);
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

/* Step 2: a store copy whose content is not there yet. */
static gboolean
put_file (Writer *w, const KicManifestEntry *entry, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *data = NULL;
  g_autofree char *sum = NULL;
  DirHandle *handle;
  struct stat st;
  gsize length;

  if (g_hash_table_contains (w->in_place, entry->path))
    return TRUE;
  say (w, "copy", entry->path, entry->target);
  w->stats->files_written++;
  if (w->options.dry_run)
    return TRUE;
  handle = open_dir (w, dir, TRUE, error);
  if (handle == NULL || !store_content (w, entry->path, entry->target, &data, &length, &st, error))
    return FALSE;
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
  if (strcmp (sum, entry->sha256) != 0)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s%s' changed while kde-icon-cache ran", w->prefix, entry->target);
      return FALSE;
    }
  return write_file_at (handle, name, data, length, &st.st_mtim, entry->path, error);
}

/* Is HAVE, at the path of the old entry WAS, a link of ours? */
static gboolean
was_ours (const Writer *w, const KicManifestEntry *was, const char *have)
{
  g_autofree char *copy = NULL;

  if (was == NULL || was->kind != KIC_ENTRY_LINK || have == NULL || strcmp (have, was->target) != 0)
    return FALSE;
  copy = store_copy_of_link (w, was->path, have);
  return copy != NULL;
}

/* Replace our link NAME (target OLD_TARGET) by one to TARGET: the new link
 * is exchanged with whatever is at NAME now, which must then be our old
 * link; if a package put something there meanwhile, it is exchanged back.
 * FALSE with *REFUSED when something not ours was there. */
static gboolean
replace_link (DirHandle *dir, const char *name, const char *target, const char *old_target,
              const char *what, gboolean *refused, GError **error)
{
  g_autofree char *tmp = temp_name (name);
  g_autofree char *got = NULL;

  unlinkat (dir->fd, tmp, 0);
  if (symlinkat (target, dir->fd, tmp) < 0)
    return set_errno_error (error, errno, "create link", what);
  dir->changed = TRUE;
  if (renameat2 (dir->fd, tmp, dir->fd, name, RENAME_EXCHANGE) < 0)
    {
      int errsv = errno;

      /* gone meanwhile: a new link, which replaces nothing */
      if (errsv == ENOENT && renameat2 (dir->fd, tmp, dir->fd, name, RENAME_NOREPLACE) == 0)
        return TRUE;
      /* a file system without exchange (NFS before 4.2): a plain rename,
       * with the window between the check and it (SECURITY.md) */
      if ((errsv == EINVAL || errsv == ENOSYS) && renameat (dir->fd, tmp, dir->fd, name) == 0)
        return TRUE;
      errsv = errno;
      unlinkat (dir->fd, tmp, 0);
      if (errsv == EEXIST)
        {
          *refused = TRUE;
          return FALSE;
        }
      return set_errno_error (error, errsv, "rename link into place", what);
    }
  got = read_link (dir->fd, tmp);
  if (got != NULL && strcmp (got, old_target) == 0)
    {
      unlinkat (dir->fd, tmp, 0);
      return TRUE;
    }
  /* not our old link: give it its name back */
  renameat2 (dir->fd, tmp, dir->fd, name, RENAME_EXCHANGE);
  g_free (got);
  got = read_link (dir->fd, tmp);
  if (got != NULL && strcmp (got, target) == 0)
    unlinkat (dir->fd, tmp, 0);
  *refused = TRUE;
  return FALSE;
}

static void
refuse_link (Writer *w, const KicManifestEntry *entry, KicManifest *refused, const char *why)
{
  kic_warning ("'%s%s' %s: left alone", w->prefix, entry->path, why);
  kic_manifest_add (refused, KIC_ENTRY_LINK, entry->path, entry->target, NULL);
  w->stats->refused++;
}

/* Step 3: a link, unless something not ours is in the way. */
static gboolean
put_link (Writer *w, const KicManifestEntry *entry, KicManifest *refused, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *have = NULL;
  const KicManifestEntry *was = g_hash_table_lookup (w->old->entries, entry->path);
  DirHandle *handle = open_dir (w, dir, FALSE, error);
  gboolean lost = FALSE;

  if (handle == NULL)
    return FALSE;
  have = read_link (handle->fd, name);
  if (have != NULL && strcmp (have, entry->target) == 0)
    {
      w->stats->unchanged++;
      return TRUE;
    }
  if (have != NULL && !was_ours (w, was, have))
    {
      refuse_link (w, entry, refused, "exists and is not a link of ours");
      return TRUE;
    }
  say (w, have ? "replace" : "link", entry->path, entry->target);
  if (w->options.dry_run)
    {
      if (have)
        w->stats->replaced++;
      else
        w->stats->added++;
      return TRUE;
    }
  before_link (w, entry->path);
  if (have == NULL)
    {
      /* symlinkat never replaces: a file a package put there since the
       * check stays */
      if (symlinkat (entry->target, handle->fd, name) == 0)
        {
          handle->changed = TRUE;
          w->stats->added++;
          return TRUE;
        }
      if (errno != EEXIST)
        return set_errno_error (error, errno, "create link", entry->path);
      lost = TRUE;
    }
  else if (replace_link (handle, name, entry->target, have, entry->path, &lost, error))
    {
      w->stats->replaced++;
      return TRUE;
    }
  if (!lost)
    return FALSE;
  refuse_link (w, entry, refused, "appeared while kde-icon-cache ran");
  return TRUE;
}

/* Remove our link NAME (target TARGET): moved aside to its temporary
 * name, checked there, then removed; whatever else was moved goes back. */
static gboolean
remove_link (Writer *w, DirHandle *dir, const char *name, const char *target, const char *what,
             GError **error)
{
  g_autofree char *tmp = temp_name (name);
  g_autofree char *got = NULL;

  unlinkat (dir->fd, tmp, 0);
  before_link (w, what);
  if (renameat2 (dir->fd, name, dir->fd, tmp, RENAME_NOREPLACE) < 0)
    {
      if (errno == ENOENT)
        return TRUE;
      if (errno != EINVAL && errno != ENOSYS)
        return set_errno_error (error, errno, "remove", what);
      /* no RENAME_NOREPLACE (NFS before 4.2): the temporary name was
       * just cleared, and the lock keeps other runs away */
      if (renameat (dir->fd, name, dir->fd, tmp) < 0)
        return errno == ENOENT ? TRUE : set_errno_error (error, errno, "remove", what);
    }
  dir->changed = TRUE;
  got = read_link (dir->fd, tmp);
  if (got == NULL || strcmp (got, target) != 0)
    {
      if (renameat2 (dir->fd, tmp, dir->fd, name, RENAME_NOREPLACE) < 0)
        kic_warning ("'%s%s' appeared while kde-icon-cache ran; it is now '%s': %s", w->prefix, what, tmp,
                     g_strerror (errno));
      else
        kic_warning ("'%s%s' appeared while kde-icon-cache ran: left alone", w->prefix, what);
      return TRUE;
    }
  if (unlinkat (dir->fd, tmp, 0) < 0 && errno != ENOENT)
    return set_errno_error (error, errno, "remove", what);
  w->stats->removed++;
  return TRUE;
}

/* Step 4: an entry of the old manifest that is no longer wanted: a link
 * that still points where we put it, into the store; a store copy that
 * still has the content we gave it.  Nothing else, whatever the manifest
 * says. */
static gboolean
remove_entry (Writer *w, const KicManifestEntry *entry, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  DirHandle *handle;

  if (entry->kind == KIC_ENTRY_LINK)
    {
      g_autofree char *copy = store_copy_of_link (w, entry->path, entry->target);
      g_autofree char *have = NULL;

      if (copy == NULL)
        {
          kic_warning ("'%s%s' does not point into the store: not a link of ours, left alone", w->prefix,
                       entry->path);
          return TRUE;
        }
      handle = open_dir (w, dir, FALSE, NULL);
      if (handle == NULL || (have = read_link (handle->fd, name)) == NULL)
        return TRUE; /* already gone */
      if (strcmp (have, entry->target) != 0)
        {
          kic_warning ("'%s%s' is no longer a link of ours: left alone", w->prefix, entry->path);
          return TRUE;
        }
      say (w, "remove", entry->path, NULL);
      if (w->options.dry_run)
        {
          w->stats->removed++;
          return TRUE;
        }
      return remove_link (w, handle, name, entry->target, entry->path, error);
    }
  else
    {
      g_autofree char *have = NULL;
      struct stat st;

      if (!in_store (w, entry->path))
        {
          kic_warning ("'%s%s' is not in the store: not a copy of ours, left alone", w->prefix, entry->path);
          return TRUE;
        }
      handle = open_dir (w, dir, FALSE, NULL);
      if (handle == NULL || fstatat (handle->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return TRUE; /* already gone */
      have = sha256_at (handle->fd, name);
      if (have == NULL || entry->sha256 == NULL || strcmp (have, entry->sha256) != 0)
        {
          kic_warning ("'%s%s' is no longer the copy we made: left alone", w->prefix, entry->path);
          return TRUE;
        }
      w->stats->files_removed++;
    }
  say (w, "remove", entry->path, NULL);
  if (w->options.dry_run)
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
  g_autofree char *path = manifest_path (w);
  g_autofree char *have = NULL;
  DirHandle *handle;

  if (read_in_root (w, path, &have, NULL, NULL) && strcmp (have, text) == 0)
    return TRUE;
  if (w->options.dry_run)
    return TRUE;
  handle = open_dir (w, w->options.store, TRUE, error);
  if (handle == NULL || !write_file_at (handle, "manifest", text, strlen (text), NULL, path, error))
    return FALSE;
  handle->changed = FALSE; /* the store's own time may move */
  return TRUE;
}

/* What a killed run left: its temporary names beside every entry of its
 * journal that can be ours, and the times of the directories it changed
 * (open_dir() takes them from the journal). */
static void
recover_killed_run (Writer *w)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, w->old->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicManifestEntry *entry = value;
      g_autofree char *dir = g_path_get_dirname (key);
      g_autofree char *name = g_path_get_basename (key);
      g_autofree char *tmp = temp_name (name);
      g_autofree char *copy = entry->kind == KIC_ENTRY_LINK ? store_copy_of_link (w, key, entry->target) : NULL;
      DirHandle *handle;

      if (copy == NULL && !in_store (w, key))
        continue;
      handle = open_dir (w, dir, FALSE, NULL);
      if (handle != NULL && unlinkat (handle->fd, tmp, 0) == 0)
        handle->changed = TRUE;
    }
  g_hash_table_iter_init (&iter, w->old->mtimes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    open_dir (w, key, FALSE, NULL);
}

/* Record in JOURNAL the times of the directories its links are in, before
 * anything in them changes. */
static void
journal_dir_times (Writer *w, KicManifest *journal)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, journal->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *dir = NULL;
      DirHandle *handle;

      if (((KicManifestEntry *) value)->kind != KIC_ENTRY_LINK)
        continue;
      dir = g_path_get_dirname (key);
      handle = open_dir (w, dir, FALSE, NULL);
      if (handle != NULL)
        kic_manifest_set_mtime (journal, dir, handle->times[1].tv_sec, handle->times[1].tv_nsec);
    }
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
remove_stale (Writer *w, const KicManifest *keep, GError **error)
{
  const KicEntryKind order[] = { KIC_ENTRY_LINK, KIC_ENTRY_FILE };

  /* links first, so that no link of ours ever dangles */
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      g_autoptr (GPtrArray) list = entries_of_kind (w->old, order[k]);

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

static void
restore_dir_times (Writer *w)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, w->dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    restore_time (value);
}

gboolean
kic_writer_apply (KicWriter *w, const KicPlan *plan, const char *settings, KicWriteStats *stats,
                  GError **error)
{
  g_autoptr (KicManifest) desired = NULL;
  g_autoptr (KicManifest) journal = NULL;
  g_autoptr (KicManifest) refused = kic_manifest_new ();
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GPtrArray) links = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *desired_text = NULL;
  g_autofree char *final_text = NULL;
  GHashTableIter iter;
  gpointer key;

  memset (stats, 0, sizeof *stats);
  w->stats = stats;
  /* 0. what a killed run may have left */
  if (w->old->journal && !w->options.dry_run)
    recover_killed_run (w);
  desired = desired_manifest (w, plan, settings);
  /* 1. the journal: everything this run may leave behind is listed first,
   * with the times of the directories it may change */
  old_text = kic_manifest_to_string (w->old);
  desired_text = kic_manifest_to_string (desired);
  if (strcmp (old_text, desired_text) != 0 && !w->options.dry_run)
    {
      g_autofree char *journal_text = NULL;

      journal = manifest_union (w->old, desired);
      journal->journal = TRUE;
      journal_dir_times (w, journal);
      journal_text = kic_manifest_to_string (journal);
      if (!put_manifest (w, journal_text, error))
        return FALSE;
    }
  /* 2. store copies, 3. links */
  files = entries_of_kind (desired, KIC_ENTRY_FILE);
  for (guint i = 0; i < files->len; i++)
    if (!put_file (w, g_ptr_array_index (files, i), error))
      return FALSE;
  links = entries_of_kind (desired, KIC_ENTRY_LINK);
  for (guint i = 0; i < links->len; i++)
    if (!put_link (w, g_ptr_array_index (links, i), refused, error))
      return FALSE;
  g_hash_table_iter_init (&iter, refused->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_remove (desired->entries, key);
  /* 4. what is no longer wanted */
  if (!remove_stale (w, desired, error))
    return FALSE;
  if (stats->files_removed > 0 && !w->options.dry_run)
    prune_store (w);
  /* 5. the directories' times back, then the commit point */
  restore_dir_times (w);
  final_text = kic_manifest_to_string (desired);
  return put_manifest (w, final_text, error);
}

/* Remove the empty directories below DIRFD; the store's tree of copies
 * shrinks as copies go.  Nothing but empty directories is removed. */
static void
remove_empty_below (int dirfd)
{
  DIR *d = dir_stream (dup (dirfd));
  struct dirent *de;

  if (d == NULL)
    return;
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
  g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
  int fd = kic_open_in_root (w->rootfd, files, O_RDONLY | O_DIRECTORY, TRUE);

  if (fd < 0)
    return;
  remove_empty_below (fd);
  close (fd);
}

/* Does the directory NAME in PARENTFD hold nothing but "lock"? */
static gboolean
holds_only_lock (int parentfd, const char *name)
{
  DIR *d = dir_stream (openat (parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct dirent *de;
  gboolean only = TRUE;

  if (d == NULL)
    return FALSE;
  while ((de = readdir (d)) != NULL)
    if (strcmp (de->d_name, ".") != 0 && strcmp (de->d_name, "..") != 0 && strcmp (de->d_name, "lock") != 0)
      only = FALSE;
  closedir (d);
  return only;
}

/* Remove the directory NAME in PARENTFD, which holds only its lock. */
static gboolean
remove_locked_dir (int parentfd, const char *name)
{
  int fd = openat (parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  unlinkat (fd, "lock", 0);
  close (fd);
  return unlinkat (parentfd, name, AT_REMOVEDIR) == 0;
}

/* The store, with the lock held: our copies and manifest are gone; it is
 * renamed away first, so that the lock is never removed from a store
 * that exists (a run that waited on it sees that it went, and starts
 * over), then removed when nothing but the lock is left. */
static void
remove_store (Writer *w)
{
  g_autofree char *parent = g_path_get_dirname (w->options.store);
  g_autofree char *base = g_path_get_basename (w->options.store);
  g_autofree char *away = g_strconcat (".", base, ".kic-clean", NULL);
  int pfd = kic_open_in_root (w->rootfd, parent, O_RDONLY | O_DIRECTORY, TRUE);
  int fd = kic_open_in_root (w->rootfd, w->options.store, O_RDONLY | O_DIRECTORY, TRUE);

  if (fd >= 0)
    {
      g_autofree char *files = g_strndup (w->files, strlen (w->files) - 1);
      g_autofree char *files_name = g_path_get_basename (files);

      unlinkat (fd, files_name, AT_REMOVEDIR);
      unlinkat (fd, "manifest", 0);
      unlinkat (fd, TEMP_PREFIX "manifest" TEMP_SUFFIX, 0); /* a killed run's */
      unlinkat (fd, KIC_FINGERPRINT_FILE, 0);
      unlinkat (fd, TEMP_PREFIX KIC_FINGERPRINT_FILE TEMP_SUFFIX, 0);
      close (fd);
    }
  if (pfd < 0)
    return;
  /* what a killed --clean left */
  if (holds_only_lock (pfd, away))
    remove_locked_dir (pfd, away);
  if (!holds_only_lock (pfd, base) || renameat2 (pfd, base, pfd, away, RENAME_NOREPLACE) < 0)
    kic_warning ("'%s%s' is not empty: left in place", w->prefix, w->options.store);
  else if (!remove_locked_dir (pfd, away))
    kic_warning ("cannot remove '%s%s/%s': %s", w->prefix, parent, away, g_strerror (errno));
  close (pfd);
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
      g_autofree char *clean = kic_path_clean (dir);
      g_autofree char *below = g_strconcat (dir, "/", NULL);
      g_autofree char *parent = g_path_get_dirname (dir);
      g_autofree char *name = g_path_get_basename (dir);
      int pfd;

      if (strcmp (clean, dir) != 0 || strcmp (dir, "/") == 0 || !g_str_has_prefix (w->options.store, below))
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
  if (w->old->journal && !w->options.dry_run)
    recover_killed_run (w);
  if (!remove_stale (w, NULL, error))
    return FALSE;
  if (!w->options.dry_run)
    {
      prune_store (w);
      restore_dir_times (w);
      remove_store (w);
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

gboolean
kic_writer_put_fingerprint (KicWriter *w, const char *text, GError **error)
{
  g_autofree char *path = g_build_filename (w->options.store, KIC_FINGERPRINT_FILE, NULL);
  g_autofree char *old = NULL;
  gsize length;
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
  if (read_in_root (w, path, &old, &length, NULL) && strcmp (old, text) == 0)
    return TRUE;
  store = open_dir (w, w->options.store, FALSE, error);
  return store != NULL && write_file_at (store, KIC_FINGERPRINT_FILE, text, strlen (text), NULL, path, error);
}
