/* fsindex.c - directory listings, read once, answering existence questions
 *
 * Ownership: the index owns every listing, entry and cached string; callers
 * get copies (transfer full) or borrowed pointers valid while the index lives.
 */
#include "fsindex.h"
#include "kic.h"
#include "safeopen.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The kernel gives up after 40 links in one lookup (ELOOP); so do we. */
#define KIC_MAX_LINKS 40

typedef struct {
  guint8 d_type;     /* DT_REG, DT_DIR, DT_LNK, DT_UNKNOWN... from readdir */
  gboolean resolved; /* type below is known */
  KicFsType type;    /* what the entry is after following links */
  char *target;      /* a link that was followed: its target, joined to its directory */
  char *real;        /* ... and the real path it led to (NULL: nowhere) */
  GBytes *contents;  /* a virtual file's bytes (kic_fs_index_add_contents()), or NULL */
} KicFsEntry;

/* One name of a listing in the form kic_fs_index_dir_stat_hashed() searches. */
typedef struct {
  guint hash;
  const char *name;   /* the key in entries */
  KicFsEntry *entry;
} KicFsSlot;

struct _KicFsDir {
  GHashTable *entries; /* name -> KicFsEntry* */
  char *real;          /* its real path */
  gboolean from_disk;  /* read by read_dir() (not made by kic_fs_index_add()) */
  GArray *by_hash;     /* KicFsSlot sorted by hash, built when first asked;
                        * NULL again whenever entries change */
};

struct _KicFsIndex {
  char *root;             /* host prefix, "" for "/" and for virtual */
  int rootfd;             /* every open is relative to it (safeopen.h) */
  gboolean is_virtual;
  GHashTable *dirs;       /* real path -> KicFsDir*, or NULL: not a readable directory */
  GHashTable *real_paths; /* path as asked -> real path, or NULL: missing */
  GHashTable *stamps;     /* real path -> KicFsStamp*: what was read, when asked */
  guint n_dirs_read;
  guint generation;       /* kic_fs_index_add() calls so far */
  GError *incomplete;     /* the first reason the picture is not the disk's:
                           * the root could not be opened, a listing failed
                           * part way (kic_fs_index_complete()) */
};

static void
fs_entry_free (gpointer data)
{
  KicFsEntry *entry = data;

  g_free (entry->target);
  g_free (entry->real);
  if (entry->contents != NULL)
    g_bytes_unref (entry->contents);
  g_free (entry);
}

static void
fs_dir_free (gpointer data)
{
  KicFsDir *dir = data;

  if (dir == NULL)
    return;
  g_hash_table_unref (dir->entries);
  if (dir->by_hash != NULL)
    g_array_unref (dir->by_hash);
  g_free (dir->real);
  g_free (dir);
}

static KicFsDir *
fs_dir_new (const char *real)
{
  KicFsDir *dir = g_new0 (KicFsDir, 1);

  dir->real = g_strdup (real);
  dir->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, fs_entry_free);
  return dir;
}

static KicFsIndex *
index_new (const char *root, gboolean is_virtual)
{
  KicFsIndex *index = g_new0 (KicFsIndex, 1);

  index->root = g_strdup (root);
  index->rootfd = is_virtual ? -1 : kic_root_open (root[0] ? root : "/");
  if (index->rootfd < 0 && !is_virtual)
    index->incomplete = g_error_new (G_FILE_ERROR, g_file_error_from_errno (errno), "cannot open the root '%s': %s",
                                     root[0] ? root : "/", g_strerror (errno));
  index->is_virtual = is_virtual;
  index->dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, fs_dir_free);
  index->real_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return index;
}

KicFsIndex *
kic_fs_index_new (const char *root)
{
  g_autofree char *clean = NULL;

  g_return_val_if_fail (root != NULL && g_path_is_absolute (root), NULL);
  clean = kic_path_clean (root);
  /* "/" becomes the empty prefix so host paths do not start with "//" */
  return index_new (strcmp (clean, "/") == 0 ? "" : clean, FALSE);
}

KicFsIndex *
kic_fs_index_new_virtual (void)
{
  return index_new ("", TRUE);
}

void
kic_fs_index_free (KicFsIndex *index)
{
  if (index == NULL)
    return;
  g_hash_table_unref (index->dirs);
  g_hash_table_unref (index->real_paths);
  if (index->stamps != NULL)
    g_hash_table_unref (index->stamps);
  if (index->rootfd >= 0)
    close (index->rootfd);
  g_clear_error (&index->incomplete);
  g_free (index->root);
  g_free (index);
}

gboolean
kic_fs_index_complete (const KicFsIndex *index, GError **error)
{
  if (index->incomplete == NULL)
    return TRUE;
  g_propagate_error (error, g_error_copy (index->incomplete));
  return FALSE;
}

/* A listing of HOST that cannot be trusted to be whole: remembered, so
 * that no result is taken from it as complete. */
static void
set_incomplete (KicFsIndex *index, const char *host, int errsv)
{
  kic_warning ("cannot read directory '%s': %s", host, g_strerror (errsv));
  if (index->incomplete == NULL)
    index->incomplete = g_error_new (G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot read directory '%s': %s",
                                     host, g_strerror (errsv));
}

const char *
kic_fs_index_root (const KicFsIndex *index)
{
  return index->is_virtual ? "" : (index->root[0] ? index->root : "/");
}

guint
kic_fs_index_generation (const KicFsIndex *index)
{
  return index->generation;
}

guint
kic_fs_index_n_dirs_read (const KicFsIndex *index)
{
  return index->n_dirs_read;
}

static char *
path_join (const char *dir, const char *name)
{
  if (strcmp (dir, "/") == 0)
    return g_strconcat ("/", name, NULL);
  return g_strconcat (dir, "/", name, NULL);
}

char *
kic_fs_index_host_path (const KicFsIndex *index, const char *path)
{
  return g_strconcat (index->root, path, NULL);
}

void
kic_fs_stamp_of_stat (KicFsStamp *stamp, KicFsType type, const struct stat *st)
{
  memset (stamp, 0, sizeof *stamp);
  stamp->type = type;
  if (st == NULL || (type == KIC_FS_DIR ? !S_ISDIR (st->st_mode) : !S_ISREG (st->st_mode)))
    return;
  stamp->exists = TRUE;
  stamp->dev = st->st_dev;
  stamp->ino = st->st_ino;
  stamp->size = st->st_size;
  stamp->mtime_ns = (gint64) st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
  stamp->ctime_ns = (gint64) st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
  stamp->uid = st->st_uid;
  stamp->mode = st->st_mode;
}

/* With stamps kept: what FD (-1: nothing there) at REAL is as it is read. */
static void
keep_stamp (KicFsIndex *index, KicFsType type, const char *real, int fd)
{
  KicFsStamp *stamp;
  struct stat st;
  struct timespec now;
  int errsv = errno;

  if (index->stamps == NULL)
    return;
  stamp = g_new0 (KicFsStamp, 1);
  /* before the fstat: a change after it gets a time no earlier than this
   * (fingerprint.c, the racy rule) */
  clock_gettime (CLOCK_REALTIME_COARSE, &now);
  kic_fs_stamp_of_stat (stamp, type, fd >= 0 && fstat (fd, &st) == 0 ? &st : NULL);
  stamp->read_ns = (gint64) now.tv_sec * 1000000000 + now.tv_nsec;
  g_hash_table_replace (index->stamps, g_strdup (real), stamp);
  errno = errsv;
}

void
kic_fs_index_keep_stamps (KicFsIndex *index)
{
  if (index->stamps == NULL)
    index->stamps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

GHashTable *
kic_fs_index_stamps (KicFsIndex *index)
{
  return index->stamps;
}

/* Read directory REAL (a path with no links in it) from disk, once. */
static KicFsDir *
read_dir (KicFsIndex *index, const char *real)
{
  g_autofree char *host = kic_fs_index_host_path (index, real[1] ? real : "/");
  KicFsDir *dir;
  struct dirent *de;
  DIR *d;
  int fd;

  index->n_dirs_read++;
  /* REAL has no links in it: refuse any that appeared since */
  fd = kic_open_in_root (index->rootfd, real, O_RDONLY | O_DIRECTORY, TRUE);
  keep_stamp (index, KIC_FS_DIR, real[1] ? real : "/", fd);
  if (fd < 0)
    {
      if (errno != ENOENT && errno != ENOTDIR)
        kic_warning ("cannot read directory '%s': %s", host, g_strerror (errno));
      return NULL;
    }
  d = fdopendir (fd);
  if (d == NULL)
    {
      set_incomplete (index, host, errno);
      close (fd);
      return NULL;
    }
  dir = fs_dir_new (real[1] ? real : "/");
  dir->from_disk = TRUE;
  /* readdir() returns NULL at the end and on an error, which only errno
   * tells apart: a listing cut short is not the directory */
  while ((errno = 0, de = readdir (d)) != NULL)
    {
      KicFsEntry *entry;

      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      entry = g_new0 (KicFsEntry, 1);
      entry->d_type = de->d_type;
      if (de->d_type == DT_UNKNOWN)
        {
          struct stat st;

          /* some file systems (old NFS, XFS v4) give no type in readdir */
          if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            entry->d_type = S_ISLNK (st.st_mode) ? DT_LNK : S_ISDIR (st.st_mode) ? DT_DIR
                            : S_ISREG (st.st_mode)                                ? DT_REG
                                                                                  : DT_FIFO;
        }
      if (entry->d_type != DT_LNK)
        {
          entry->resolved = TRUE;
          entry->type = entry->d_type == DT_REG ? KIC_FS_FILE : entry->d_type == DT_DIR ? KIC_FS_DIR
                                                                                       : KIC_FS_OTHER;
        }
      g_hash_table_insert (dir->entries, g_strdup (de->d_name), entry);
    }
  if (errno != 0)
    {
      set_incomplete (index, host, errno);
      fs_dir_free (dir);
      dir = NULL;
    }
  closedir (d);
  return dir;
}

/* The listing of REAL, a link-free directory path; NULL when it is not a
 * directory. */
static KicFsDir *
get_dir (KicFsIndex *index, const char *real)
{
  gpointer value;

  if (g_hash_table_lookup_extended (index->dirs, real, NULL, &value))
    return value;
  value = index->is_virtual ? NULL : read_dir (index, real);
  g_hash_table_insert (index->dirs, g_strdup (real), value);
  return value;
}

static char *resolve (KicFsIndex *index, const char *path, int *links);

/* Resolve symbolic link LINK (a real path of a link) to the real path of
 * its target, or NULL.  ENTRY (may be NULL), the link's entry, records
 * where it led (kic_fs_index_listings()). */
static char *
resolve_link (KicFsIndex *index, const char *link, KicFsEntry *entry, int *links)
{
  char *real;

  g_autofree char *parent = g_path_get_dirname (link);
  g_autofree char *joined = NULL;
  char buf[4096];
  ssize_t n;
  int fd;

  if (++*links > KIC_MAX_LINKS)
    return NULL;
  /* the link itself (O_PATH | O_NOFOLLOW), then read it through its fd */
  fd = kic_open_in_root (index->rootfd, link, O_PATH, TRUE);
  if (fd < 0)
    return NULL;
  n = readlinkat (fd, "", buf, sizeof buf - 1);
  close (fd);
  if (n < 0)
    return NULL;
  buf[n] = '\0';
  /* inside the root an absolute target starts at the root, as in a chroot */
  joined = buf[0] == '/' ? g_strdup (buf) : path_join (parent, buf);
  real = resolve (index, joined, links);
  if (entry != NULL)
    {
      g_free (entry->target);
      g_free (entry->real);
      entry->target = kic_path_clean (joined);
      entry->real = g_strdup (real);
    }
  return real;
}

/* Walk PATH component by component from "/", following links; returns the
 * real path (it may name a non-directory) or NULL when a component is
 * missing.  ".." after a link goes to the parent of the link's target, as
 * the kernel does, because CUR is always a real directory. */
static char *
resolve (KicFsIndex *index, const char *path, int *links)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  g_autofree char *cur = g_strdup ("/");

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *c = parts[i];
      KicFsDir *dir;
      KicFsEntry *entry;
      char *next;

      if (c[0] == '\0' || strcmp (c, ".") == 0)
        continue;
      if (strcmp (c, "..") == 0)
        {
          next = g_path_get_dirname (cur);
          g_free (cur);
          cur = next;
          continue;
        }
      dir = get_dir (index, cur);
      if (dir == NULL)
        return NULL;
      entry = g_hash_table_lookup (dir->entries, c);
      if (entry == NULL)
        return NULL;
      next = path_join (cur, c);
      if (entry->d_type == DT_LNK)
        {
          char *target = resolve_link (index, next, entry, links);

          g_free (next);
          if (target == NULL)
            return NULL;
          next = target;
        }
      g_free (cur);
      cur = next;
    }
  return g_steal_pointer (&cur);
}

/* The real path of PATH, cached: every theme directory is resolved once. */
static const char *
real_path_cached (KicFsIndex *index, const char *path)
{
  gpointer value;
  int links = 0;

  if (g_hash_table_lookup_extended (index->real_paths, path, NULL, &value))
    return value;
  value = resolve (index, path, &links);
  g_hash_table_insert (index->real_paths, g_strdup (path), value);
  return value;
}

/* The type of the object at REAL, a real path. */
static KicFsType
type_of_real (KicFsIndex *index, const char *real)
{
  g_autofree char *parent = NULL;
  g_autofree char *base = NULL;
  KicFsEntry *entry;
  KicFsDir *dir;

  if (strcmp (real, "/") == 0)
    return get_dir (index, "/") ? KIC_FS_DIR : KIC_FS_NONE;
  parent = g_path_get_dirname (real);
  base = g_path_get_basename (real);
  dir = get_dir (index, parent);
  entry = dir ? g_hash_table_lookup (dir->entries, base) : NULL;
  if (entry == NULL || entry->d_type == DT_LNK)
    return KIC_FS_NONE; /* resolve() never returns a link */
  return entry->type;
}

static KicFsType
entry_type (KicFsIndex *index, const char *dir_real, const char *name, KicFsEntry *entry)
{
  if (!entry->resolved)
    {
      g_autofree char *link = path_join (dir_real, name);
      g_autofree char *target = NULL;
      int links = 0;

      target = resolve_link (index, link, entry, &links);
      entry->type = target ? type_of_real (index, target) : KIC_FS_NONE;
      entry->resolved = TRUE;
    }
  return entry->type;
}

KicFsType
kic_fs_index_stat_at (KicFsIndex *index, const char *dir, const char *name)
{
  const char *real = real_path_cached (index, dir);
  KicFsDir *listing;
  KicFsEntry *entry;

  if (real == NULL)
    return KIC_FS_NONE;
  listing = get_dir (index, real);
  if (listing == NULL)
    return KIC_FS_NONE;
  entry = g_hash_table_lookup (listing->entries, name);
  if (entry == NULL)
    return KIC_FS_NONE;
  return entry_type (index, real, name, entry);
}

const KicFsDir *
kic_fs_index_dir (KicFsIndex *index, const char *path)
{
  const char *real = real_path_cached (index, path);

  return real ? get_dir (index, real) : NULL;
}

KicFsType
kic_fs_index_dir_stat (KicFsIndex *index, const KicFsDir *dir, const char *name)
{
  KicFsEntry *entry = g_hash_table_lookup (dir->entries, name);

  if (entry == NULL)
    return KIC_FS_NONE;
  return entry_type (index, dir->real, name, entry);
}

GPtrArray *
kic_fs_dir_names (const KicFsDir *dir)
{
  GPtrArray *names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, dir->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  return names;
}

const char *
kic_fs_dir_real (const KicFsDir *dir)
{
  return dir->real;
}

guint
kic_fs_name_hash (const char *name)
{
  return g_str_hash (name);
}

static int
compare_slots (gconstpointer a, gconstpointer b)
{
  guint ha = ((const KicFsSlot *) a)->hash;
  guint hb = ((const KicFsSlot *) b)->hash;

  return ha < hb ? -1 : ha > hb;
}

KicFsType
kic_fs_index_dir_stat_hashed (KicFsIndex *index, const KicFsDir *const_dir, const char *name, guint hash)
{
  /* the listing belongs to the index; only its lookup form is built here */
  KicFsDir *dir = (KicFsDir *) const_dir;
  const KicFsSlot *slots;
  guint lo = 0;
  guint hi;

  if (dir->by_hash == NULL)
    {
      GHashTableIter iter;
      gpointer key;
      gpointer value;

      dir->by_hash = g_array_sized_new (FALSE, FALSE, sizeof (KicFsSlot), g_hash_table_size (dir->entries));
      g_hash_table_iter_init (&iter, dir->entries);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          KicFsSlot slot = { g_str_hash (key), key, value };

          g_array_append_val (dir->by_hash, slot);
        }
      g_array_sort (dir->by_hash, compare_slots);
    }
  slots = (const KicFsSlot *) (gpointer) dir->by_hash->data;
  hi = dir->by_hash->len;
  /* the first slot with this hash, then each slot that shares it */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (slots[mid].hash < hash)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < dir->by_hash->len && slots[lo].hash == hash; lo++)
    if (strcmp (slots[lo].name, name) == 0)
      return entry_type (index, dir->real, name, slots[lo].entry);
  return KIC_FS_NONE;
}

KicFsType
kic_fs_index_stat (KicFsIndex *index, const char *path)
{
  const char *real = real_path_cached (index, path);

  if (real == NULL)
    return KIC_FS_NONE;
  return type_of_real (index, real);
}

char *
kic_fs_index_realpath (KicFsIndex *index, const char *path)
{
  return g_strdup (real_path_cached (index, path));
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
kic_fs_index_list (KicFsIndex *index, const char *path)
{
  const char *real = real_path_cached (index, path);
  KicFsDir *listing = real ? get_dir (index, real) : NULL;
  GPtrArray *names;
  GHashTableIter iter;
  gpointer key;

  if (listing == NULL)
    return NULL;
  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, listing->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* Make sure directory REAL exists in the index (virtual parents too). */
static KicFsDir *
ensure_dir (KicFsIndex *index, const char *real)
{
  KicFsDir *dir = get_dir (index, real);

  if (dir != NULL)
    return dir;
  if (strcmp (real, "/") != 0)
    {
      g_autofree char *parent = g_path_get_dirname (real);
      g_autofree char *base = g_path_get_basename (real);

      kic_fs_index_add (index, parent, base, KIC_FS_DIR);
    }
  dir = fs_dir_new (real);
  g_hash_table_replace (index->dirs, g_strdup (real), dir);
  return dir;
}

static gboolean
is_null_value (gpointer key, gpointer value, gpointer user_data)
{
  (void) key;
  (void) user_data;
  return value == NULL;
}

void
kic_fs_index_add (KicFsIndex *index, const char *dir, const char *name, KicFsType type)
{
  g_autofree char *clean = kic_path_clean (dir);
  /* a copy: the cache it comes from may be emptied below */
  g_autofree char *real = g_strdup (real_path_cached (index, clean));
  KicFsDir *listing;
  KicFsEntry *entry;

  index->generation++;
  if (real == NULL)
    {
      /* a virtual directory: its path is its real path */
      g_hash_table_replace (index->real_paths, g_strdup (clean), g_strdup (clean));
      real = g_strdup (clean);
    }
  listing = ensure_dir (index, real);
  /* a path that was missing may exist now; one below a removed or new
   * directory may have gone */
  if (type == KIC_FS_NONE || type == KIC_FS_DIR)
    g_hash_table_remove_all (index->real_paths);
  else
    g_hash_table_foreach_remove (index->real_paths, is_null_value, NULL);
  if (listing->by_hash != NULL)
    g_clear_pointer (&listing->by_hash, g_array_unref);
  entry = g_new0 (KicFsEntry, 1);
  entry->d_type = type == KIC_FS_DIR ? DT_DIR : DT_REG;
  entry->resolved = TRUE;
  entry->type = type;
  g_hash_table_replace (listing->entries, g_strdup (name), entry);
  if (type == KIC_FS_NONE)
    g_hash_table_remove (listing->entries, name);
  /* a directory of a virtual index exists, empty, once it is added: it
   * has a listing (the overlay's key, kic_fs_dir_real(), as on disk) */
  if (type == KIC_FS_DIR && index->is_virtual)
    {
      g_autofree char *child = g_build_filename (real, name, NULL);

      if (g_hash_table_lookup (index->dirs, child) == NULL)
        g_hash_table_replace (index->dirs, g_strdup (child), fs_dir_new (child));
    }
}

void
kic_fs_index_add_contents (KicFsIndex *index, const char *dir, const char *name, const void *data,
                           gsize length)
{
  g_autofree char *clean = kic_path_clean (dir);
  KicFsEntry *entry;

  g_return_if_fail (index->is_virtual);
  kic_fs_index_add (index, clean, name, KIC_FS_FILE);
  /* a virtual directory is its own real path */
  entry = g_hash_table_lookup (get_dir (index, clean)->entries, name);
  entry->contents = g_bytes_new (data, length);
}

/* kic_fs_index_read_file_max() of a virtual index: the bytes given to
 * kic_fs_index_add_contents(), under the same bound as a disk file. */
static gboolean
read_virtual_file (KicFsIndex *index, const char *path, gsize max, char **contents, gsize *length,
                   GError **error)
{
  g_autofree char *real = kic_fs_index_realpath (index, path);
  g_autofree char *parent = NULL;
  g_autofree char *base = NULL;
  KicFsDir *dir;
  KicFsEntry *entry = NULL;
  gsize size;
  const char *bytes;

  if (real != NULL && strcmp (real, "/") != 0)
    {
      parent = g_path_get_dirname (real);
      base = g_path_get_basename (real);
      dir = get_dir (index, parent);
      entry = dir != NULL ? g_hash_table_lookup (dir->entries, base) : NULL;
    }
  if (entry == NULL || entry->type != KIC_FS_FILE || entry->contents == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "'%s': no such file", path);
      return FALSE;
    }
  bytes = g_bytes_get_data (entry->contents, &size);
  if (size > max)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, "'%s' is larger than %" G_GSIZE_FORMAT " MiB",
                   path, max >> 20);
      return FALSE;
    }
  /* NUL-terminated, as a disk file's contents are */
  *contents = g_malloc (size + 1);
  memcpy (*contents, bytes, size);
  (*contents)[size] = '\0';
  if (length != NULL)
    *length = size;
  return TRUE;
}

void
kic_fs_listing_entry_free (gpointer data)
{
  KicFsListingEntry *e = data;

  g_free (e->name);
  g_free (e->target);
  g_free (e->real);
  g_free (e);
}

static int
compare_listing_entries (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(KicFsListingEntry *const *) a)->name, (*(KicFsListingEntry *const *) b)->name);
}

/* DIR's names as KicFsListingEntry*, sorted; with FOLLOW every link is
 * followed first.  transfer full */
static GPtrArray *
listing_of (KicFsIndex *index, KicFsDir *dir, gboolean follow)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (kic_fs_listing_entry_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, dir->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      KicFsEntry *entry = value;
      KicFsListingEntry *e = g_new0 (KicFsListingEntry, 1);

      if (follow && entry->d_type == DT_LNK)
        entry_type (index, dir->real, key, entry);
      e->name = g_strdup (key);
      e->kind = entry->d_type == DT_REG ? 'f' : entry->d_type == DT_DIR ? 'd' : entry->d_type == DT_LNK ? 'l' : 'o';
      e->target = g_strdup (entry->target);
      e->real = g_strdup (entry->real);
      g_ptr_array_add (list, e);
    }
  g_ptr_array_sort (list, compare_listing_entries);
  return list;
}

static void
listing_free (gpointer data)
{
  if (data != NULL)
    g_ptr_array_unref (data);
}

GHashTable *
kic_fs_index_listings (KicFsIndex *index)
{
  GHashTable *listings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, listing_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, index->dirs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      KicFsDir *dir = value;

      if (index->is_virtual || (dir != NULL && !dir->from_disk))
        continue;
      g_hash_table_insert (listings, g_strdup (key), dir ? listing_of (index, dir, FALSE) : NULL);
    }
  return listings;
}

GPtrArray *
kic_fs_index_listing (KicFsIndex *index, const char *real)
{
  KicFsDir *dir = get_dir (index, real);

  return dir != NULL ? listing_of (index, dir, TRUE) : NULL;
}

void
kic_fs_index_seed (KicFsIndex *index, const char *real, const KicFsStamp *stamp, const GPtrArray *entries)
{
  KicFsDir *dir = NULL;

  if (index->is_virtual || g_hash_table_contains (index->dirs, real))
    return;
  if (entries != NULL)
    {
      dir = fs_dir_new (real);
      dir->from_disk = TRUE;
      for (guint i = 0; i < entries->len; i++)
        {
          const KicFsListingEntry *e = g_ptr_array_index (entries, i);
          KicFsEntry *entry = g_new0 (KicFsEntry, 1);

          entry->d_type = e->kind == 'f' ? DT_REG : e->kind == 'd' ? DT_DIR : e->kind == 'l' ? DT_LNK : DT_FIFO;
          if (entry->d_type != DT_LNK)
            {
              entry->resolved = TRUE;
              entry->type = entry->d_type == DT_REG ? KIC_FS_FILE : entry->d_type == DT_DIR ? KIC_FS_DIR
                                                                                           : KIC_FS_OTHER;
            }
          entry->target = g_strdup (e->target);
          entry->real = g_strdup (e->real);
          g_hash_table_insert (dir->entries, g_strdup (e->name), entry);
        }
    }
  g_hash_table_insert (index->dirs, g_strdup (real), dir);
  if (index->stamps != NULL && stamp != NULL)
    g_hash_table_replace (index->stamps, g_strdup (real), g_memdup2 (stamp, sizeof *stamp));
}

void
kic_fs_index_seed_file (KicFsIndex *index, const char *real, const KicFsStamp *stamp)
{
  if (index->stamps != NULL && stamp->type == KIC_FS_FILE && !g_hash_table_contains (index->stamps, real))
    g_hash_table_insert (index->stamps, g_strdup (real), g_memdup2 (stamp, sizeof *stamp));
}

int
kic_fs_index_open_file (KicFsIndex *index, const char *real)
{
  int fd;

  if (index->is_virtual)
    {
      errno = ENOENT;
      return -1;
    }
  fd = kic_open_in_root (index->rootfd, real, O_RDONLY | O_NONBLOCK, TRUE);
  keep_stamp (index, KIC_FS_FILE, real, fd);
  return fd;
}

void
kic_fs_index_file_was_read (KicFsIndex *index, const char *real, const struct stat *st)
{
  KicFsStamp *stamp;

  if (index->stamps == NULL)
    return;
  stamp = g_new0 (KicFsStamp, 1);
  kic_fs_stamp_of_stat (stamp, KIC_FS_FILE, st);
  g_hash_table_replace (index->stamps, g_strdup (real), stamp);
}

int
kic_fs_index_rootfd (const KicFsIndex *index)
{
  return index->rootfd;
}

gboolean
kic_fs_index_read_file (KicFsIndex *index, const char *path,
                        char **contents, gsize *length, GError **error)
{
  return kic_fs_index_read_file_max (index, path, KIC_MAX_FILE, contents, length, error);
}

gboolean
kic_fs_index_read_file_max (KicFsIndex *index, const char *path, gsize max,
                            char **contents, gsize *length, GError **error)
{
  g_autofree char *real = NULL;
  g_autofree char *host = kic_fs_index_host_path (index, path);
  int fd;
  gboolean ok;

  if (index->is_virtual)
    return read_virtual_file (index, path, max, contents, length, error);
  if (kic_fs_index_stat (index, path) != KIC_FS_FILE)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "'%s': no such file", host);
      return FALSE;
    }
  real = kic_fs_index_realpath (index, path);
  /* O_NONBLOCK: a FIFO put there since the listing cannot hang the run */
  fd = kic_open_in_root (index->rootfd, real, O_RDONLY | O_NONBLOCK, TRUE);
  keep_stamp (index, KIC_FS_FILE, real, fd);
  if (fd < 0)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot open '%s': %s",
                   host, g_strerror (errsv));
      return FALSE;
    }
  ok = kic_read_fd_max (fd, host, max, contents, length, error);
  close (fd);
  return ok;
}
