/* fsindex.c - directory listings, read once, answering existence questions
 *
 * Ownership: the index owns every listing, entry and cached string; callers
 * get copies (transfer full) or borrowed pointers valid while the index lives.
 */
#include "fsindex.h"
#include "diag.h"
#include "hash.h"
#include "path.h"
#include "safeopen.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fsindex-private.h"

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

static GHashTable *
entries_new (void)
{
  return g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, fs_entry_free);
}

static void
fs_dir_free (gpointer data)
{
  KicFsDir *dir = data;

  if (dir == NULL)
    return;
  if (dir->entries != NULL)
    g_hash_table_unref (dir->entries);
  if (dir->by_hash != NULL)
    g_array_unref (dir->by_hash);
  if (dir->seeded != NULL)
    g_ptr_array_unref (dir->seeded);
  g_free (dir->real);
  g_free (dir);
}

KicFsDir *
fsindex_fs_dir_new (const char *real)
{
  KicFsDir *dir = g_new0 (KicFsDir, 1);

  dir->real = g_strdup (real);
  dir->entries = entries_new ();
  return dir;
}

/* DIR's entries a table of its own, to be changed: an empty directory
 * read from disk shares one (an index.theme can list 100 000 of them). */
void
kic_fs_dir_own_entries (KicFsIndex *index, KicFsDir *dir)
{
  if (fsindex_dir_entries (dir) != index->no_entries)
    return;
  g_hash_table_unref (dir->entries);
  dir->entries = entries_new ();
}

/* A seeded directory's table is made when a name is first looked up in it
 * (or it is changed): most seeded directories of an incremental rebuild
 * are only listed, asked whether they hold a name (fsindex_seeded_find()),
 * and written back to the state as they were seeded. */
GHashTable *
fsindex_dir_entries (KicFsDir *dir)
{
  if (dir->entries == NULL)
    {
      dir->entries = entries_new ();
      for (guint i = 0; i < dir->seeded->len; i++)
        {
          const KicFsListingEntry *e = g_ptr_array_index (dir->seeded, i);

          g_hash_table_insert (dir->entries, g_strdup (e->name), fsindex_entry_of_listing (e));
        }
    }
  return dir->entries;
}

/* What every name of an unlisted directory is (never changed: no link) */
static KicFsEntry unknown_entry = { DT_FIFO, TRUE, KIC_FS_OTHER, NULL, NULL, NULL };

KicFsEntry *
fsindex_dir_find (KicFsDir *dir, const char *name)
{
  return dir->unlisted ? &unknown_entry : g_hash_table_lookup (fsindex_dir_entries (dir), name);
}

KicFsIndex *
fsindex_index_new (const char *root, gboolean is_virtual)
{
  KicFsIndex *index = g_new0 (KicFsIndex, 1);

  index->root = g_strdup (root);
  index->rootfd = is_virtual ? -1 : kic_root_open (root[0] ? root : "/");
  index->link_parent_fd = -1;
  if (index->rootfd < 0 && !is_virtual)
    index->incomplete = g_error_new (G_FILE_ERROR, g_file_error_from_errno (errno), "cannot open the root '%s': %s",
                                     root[0] ? root : "/", g_strerror (errno));
  index->is_virtual = is_virtual;
  index->dirs = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, fs_dir_free);
  index->no_entries = entries_new ();
  index->real_paths = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  return index;
}

KicFsIndex *
kic_fs_index_new (const char *root)
{
  g_autofree char *clean = NULL;

  g_return_val_if_fail (root != NULL && g_path_is_absolute (root), NULL);
  clean = kic_path_clean (root);
  /* "/" becomes the empty prefix so host paths do not start with "//" */
  return fsindex_index_new (strcmp (clean, "/") == 0 ? "" : clean, FALSE);
}

void
kic_fs_index_free (KicFsIndex *index)
{
  if (index == NULL)
    return;
  g_hash_table_unref (index->dirs);
  g_hash_table_unref (index->no_entries);
  g_hash_table_unref (index->real_paths);
  if (index->searchable != NULL)
    g_hash_table_unref (index->searchable);
  if (index->budget_counted != NULL)
    g_hash_table_unref (index->budget_counted);
  if (index->budget_seeds != NULL)
    g_hash_table_unref (index->budget_seeds);
  if (index->hidden_paths != NULL)
    g_hash_table_unref (index->hidden_paths);
  if (index->placeholders != NULL)
    g_hash_table_unref (index->placeholders);
  if (index->fs_magics != NULL)
    g_hash_table_unref (index->fs_magics);
  if (index->stamps != NULL)
    g_hash_table_unref (index->stamps);
  if (index->mtimes != NULL)
    g_hash_table_unref (index->mtimes);
  if (index->rootfd >= 0)
    close (index->rootfd);
  if (index->link_parent_fd >= 0)
    close (index->link_parent_fd);
  g_free (index->link_parent);
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
kic_fs_link_target (const char *dir, const char *text)
{
  g_autofree char *joined = text[0] == '/' ? g_strdup (text) : path_join (dir, text);

  return kic_path_clean (joined);
}

unsigned char
kic_fs_entry_type (int dirfd, const struct dirent *de)
{
  struct stat st;

  if (de->d_type != DT_UNKNOWN)
    return de->d_type;
  if (fstatat (dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return DT_UNKNOWN;
  return S_ISLNK (st.st_mode) ? DT_LNK : S_ISDIR (st.st_mode) ? DT_DIR : S_ISREG (st.st_mode) ? DT_REG : DT_FIFO;
}

char
kic_fs_kind_letter (unsigned char d_type)
{
  return d_type == DT_REG ? 'f' : d_type == DT_DIR ? 'd' : d_type == DT_LNK ? 'l' : 'o';
}

char *
kic_fs_index_host_path (const KicFsIndex *index, const char *path)
{
  return g_strconcat (index->root, path, NULL);
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
  guint n = 0;
  KicFsStamp own = { 0 };
  const KicFsStamp *stamp;

  index->n_dirs_read++;
  /* REAL has no links in it: refuse any that appeared since */
  fd = kic_open_in_root (index->rootfd, real, O_RDONLY | O_DIRECTORY, TRUE);
  fsindex_keep_stamp (index, KIC_FS_DIR, real[1] ? real : "/", fd);
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
  dir = g_new0 (KicFsDir, 1);
  dir->real = g_strdup (real[1] ? real : "/");
  dir->from_disk = TRUE;
  /* a directory not every user may search is not listed: what it holds
   * is there for some users and not for others (fsindex_dir_hides()) */
  stamp = fsindex_dir_stamp (index, dir->real, fd, &own);
  if ((dir->hidden = fsindex_dir_hides (index, dir->real, fd, stamp)))
    {
      dir->entries = g_hash_table_ref (index->no_entries);
      closedir (d);
      return dir;
    }
  /* the run's budget on users' names spent: none of theirs read */
  dir->users_write = stamp == NULL || kic_fs_stamp_others_may_write (stamp);
  if (dir->users_write && index->budget_spent)
    {
      fsindex_user_dir_unknown (index, dir);
      closedir (d);
      return dir;
    }
  /* readdir() returns NULL at the end and on an error, which only errno
   * tells apart: a listing cut short is not the directory */
  while ((errno = 0, de = readdir (d)) != NULL)
    {
      KicFsEntry *entry;

      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      if (++n == KIC_USER_ENTRIES + 1 && dir->users_write)
        {
          fsindex_user_dir_full (index, dir, host);
          break;
        }
      entry = g_new0 (KicFsEntry, 1);
      entry->d_type = kic_fs_entry_type (dirfd (d), de);
      if (entry->d_type != DT_LNK)
        {
          entry->resolved = TRUE;
          entry->type = entry->d_type == DT_REG ? KIC_FS_FILE : entry->d_type == DT_DIR ? KIC_FS_DIR
                                                                                       : KIC_FS_OTHER;
        }
      if (dir->entries == NULL)
        dir->entries = entries_new ();
      g_hash_table_insert (dir->entries, g_strdup (de->d_name), entry);
    }
  if (dir->entries == NULL)
    dir->entries = g_hash_table_ref (index->no_entries);
  if (errno != 0 && !dir->unlisted)
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
KicFsDir *
fsindex_get_dir (KicFsIndex *index, const char *real)
{
  g_autofree char *parent = NULL;
  gpointer value;
  KicFsDir *up;

  if (g_hash_table_lookup_extended (index->dirs, real, NULL, &value))
    return value;
  /* below an unlisted directory (resolve() walks into it): not read */
  if (index->n_unlisted > 0 && strcmp (real, "/") != 0 && (parent = g_path_get_dirname (real)) != NULL
      && (up = g_hash_table_lookup (index->dirs, parent)) != NULL && up->unlisted)
    {
      /* (not from disk: the state keeps nothing of it, its top's stamp
       * stands for it) */
      value = fsindex_fs_dir_new (real);
      ((KicFsDir *) value)->unlisted = TRUE;
      index->n_unlisted++;
    }
  else
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
  /* its directory (O_PATH: opened to reach the link, not read; no link
   * on the way), then the link in it: readlinkat() never follows the
   * name it reads, and fails on anything but a directory */
  if (index->link_parent == NULL || strcmp (index->link_parent, parent) != 0)
    {
      if (index->link_parent_fd >= 0)
        close (index->link_parent_fd);
      g_free (index->link_parent);
      index->link_parent = NULL;
      index->link_parent_fd = fd = kic_open_in_root (index->rootfd, parent, O_PATH, TRUE);
      if (fd < 0)
        return NULL;
      index->link_parent = g_strdup (parent);
    }
  n = readlinkat (index->link_parent_fd, strrchr (link, '/') + 1, buf, sizeof buf - 1);
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
      entry->target = kic_fs_link_target (parent, buf);
      entry->real = g_strdup (real);
    }
  return real;
}

/* Walk PATH component by component from "/", following links; returns the
 * real path (it may name a non-directory) or NULL when a component is
 * missing.  ".." after a link goes to the parent of the link's target, as
 * the kernel does, because CUR is always a real directory.  The walk
 * enters only directories every user may search: at another it stops,
 * NULL, with walk_hidden set, whatever lies beyond; past a link (a link's
 * target is anyone's choice) that is asked before the directory is read
 * (fsindex_dir_searchable()), elsewhere as it is (fsindex_dir_hides()). */
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
          /* below an unlisted directory a name may be a link to anywhere:
           * the walk stays there, where everything is unknown */
          if (index->n_unlisted > 0 && (dir = g_hash_table_lookup (index->dirs, cur)) != NULL && dir->unlisted
              && !dir->from_disk)
            continue;
          next = g_path_get_dirname (cur);
          g_free (cur);
          cur = next;
          continue;
        }
      if (*links > 0 && !fsindex_dir_searchable (index, cur))
        {
          index->walk_hidden = TRUE;
          return NULL;
        }
      dir = fsindex_get_dir (index, cur);
      if (dir == NULL)
        return NULL;
      if (dir->hidden)
        {
          index->walk_hidden = TRUE;
          return NULL;
        }
      entry = fsindex_dir_find (dir, c);
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

/* The real path of a clean PATH whose parent resolves to itself (no link
 * on the way there): PATH itself when its last component is there and no
 * link, NULL when it is not there; *DONE FALSE for a link, which only the
 * walk from the root follows (so that its links count as there).  That is
 * the walk's last step, the steps before it taken when the parent was
 * resolved. */
static char *
resolve_below_parent (KicFsIndex *index, const char *path, gboolean *done)
{
  const char *slash = strrchr (path, '/');
  g_autofree char *parent = slash == path ? g_strdup ("/") : g_strndup (path, (gsize) (slash - path));
  const char *parent_real = fsindex_real_path_cached (index, parent);
  KicFsDir *dir;
  unsigned char d_type;
  KicFsType type;

  *done = FALSE;
  if (parent_real == NULL || strcmp (parent_real, parent) != 0)
    return NULL;
  *done = TRUE;
  dir = fsindex_get_dir (index, parent);
  if (dir != NULL && dir->hidden)
    {
      index->walk_hidden = TRUE;
      return NULL;
    }
  if (dir == NULL || !fsindex_dir_entry_kind (dir, slash + 1, &d_type, &type))
    return NULL;
  if (d_type == DT_LNK)
    {
      *done = FALSE;
      return NULL;
    }
  return g_strdup (path);
}

/* The real path of PATH, cached: every theme directory is resolved once,
 * and a clean path one step below its parent's (resolve_below_parent()).
 * NULL, with *HIDDEN (may be NULL) set, when the walk stopped at a
 * directory not every user may search: what PATH is has no one answer. */
static const char *
real_path_or_hidden (KicFsIndex *index, const char *path, gboolean *hidden)
{
  gpointer value;
  gboolean done = FALSE;
  int links = 0;

  if (g_hash_table_lookup_extended (index->real_paths, path, NULL, &value))
    {
      if (hidden != NULL)
        *hidden = value == NULL && index->hidden_paths != NULL && g_hash_table_contains (index->hidden_paths, path);
      return value;
    }
  value = NULL;
  index->walk_hidden = FALSE;
  if (strcmp (path, "/") != 0 && kic_path_is_clean (path))
    value = resolve_below_parent (index, path, &done);
  if (!done)
    value = resolve (index, path, &links);
  g_hash_table_insert (index->real_paths, g_strdup (path), value);
  if (value == NULL && index->walk_hidden)
    {
      if (index->hidden_paths == NULL)
        index->hidden_paths = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_add (index->hidden_paths, g_strdup (path));
    }
  if (hidden != NULL)
    *hidden = value == NULL && index->walk_hidden;
  return value;
}

const char *
fsindex_real_path_cached (KicFsIndex *index, const char *path)
{
  return real_path_or_hidden (index, path, NULL);
}

/* The type of the object at REAL, a real path. */
static KicFsType
type_of_real (KicFsIndex *index, const char *real)
{
  g_autofree char *parent = NULL;
  g_autofree char *base = NULL;
  unsigned char d_type;
  KicFsType type;
  KicFsDir *dir;

  if (strcmp (real, "/") == 0)
    return fsindex_get_dir (index, "/") ? KIC_FS_DIR : KIC_FS_NONE;
  parent = g_path_get_dirname (real);
  base = g_path_get_basename (real);
  dir = fsindex_get_dir (index, parent);
  if (dir == NULL || !fsindex_dir_entry_kind (dir, base, &d_type, &type) || d_type == DT_LNK)
    return KIC_FS_NONE; /* resolve() never returns a link */
  return type;
}

KicFsType
fsindex_entry_type (KicFsIndex *index, const char *dir_real, const char *name, KicFsEntry *entry)
{
  if (!entry->resolved)
    {
      g_autofree char *link = path_join (dir_real, name);
      g_autofree char *target = NULL;
      int links = 0;

      index->walk_hidden = FALSE;
      target = resolve_link (index, link, entry, &links);
      /* a link that leads through a directory not every user may search
       * is there for some users and not for others, whatever its target:
       * something that is neither file nor directory, whose content is
       * only itself (issue 39, row 1) */
      entry->type = target ? type_of_real (index, target) : index->walk_hidden ? KIC_FS_OTHER : KIC_FS_NONE;
      entry->resolved = TRUE;
    }
  return entry->type;
}

KicFsType
kic_fs_index_stat_at (KicFsIndex *index, const char *dir, const char *name)
{
  gboolean hidden;
  const char *real = real_path_or_hidden (index, dir, &hidden);
  KicFsDir *listing;
  KicFsEntry *entry;

  if (real == NULL)
    return hidden ? KIC_FS_OTHER : KIC_FS_NONE;
  listing = fsindex_get_dir (index, real);
  if (listing == NULL)
    return KIC_FS_NONE;
  if (listing->hidden)
    return KIC_FS_OTHER;
  entry = fsindex_dir_find (listing, name);
  if (entry == NULL)
    return KIC_FS_NONE;
  return fsindex_entry_type (index, real, name, entry);
}

/* The listing of PATH, whose walk stopped at a directory not every user
 * may search: one that lists nothing and answers every name unknown,
 * made once for the path as asked (kept apart from the listings read,
 * which the state keeps: it is no directory read). */
static KicFsDir *
hidden_placeholder (KicFsIndex *index, const char *path)
{
  KicFsDir *dir;

  if (index->placeholders == NULL)
    index->placeholders = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, fs_dir_free);
  if ((dir = g_hash_table_lookup (index->placeholders, path)) == NULL)
    {
      dir = fsindex_fs_dir_new (path);
      dir->hidden = TRUE;
      g_hash_table_insert (index->placeholders, g_strdup (path), dir);
    }
  return dir;
}

const KicFsDir *
kic_fs_index_dir (KicFsIndex *index, const char *path)
{
  gboolean hidden;
  const char *real = real_path_or_hidden (index, path, &hidden);

  if (real == NULL)
    return hidden ? hidden_placeholder (index, path) : NULL;
  return fsindex_get_dir (index, real);
}

gboolean
kic_fs_index_hidden (KicFsIndex *index, const char *path)
{
  gboolean hidden;

  return real_path_or_hidden (index, path, &hidden) == NULL && hidden;
}

KicFsType
kic_fs_index_stat (KicFsIndex *index, const char *path)
{
  gboolean hidden;
  const char *real = real_path_or_hidden (index, path, &hidden);

  if (real == NULL)
    return hidden ? KIC_FS_OTHER : KIC_FS_NONE;
  return type_of_real (index, real);
}

char *
kic_fs_index_realpath (KicFsIndex *index, const char *path)
{
  return g_strdup (fsindex_real_path_cached (index, path));
}

GPtrArray *
kic_fs_index_list (KicFsIndex *index, const char *path)
{
  const char *real = fsindex_real_path_cached (index, path);
  KicFsDir *listing = real ? fsindex_get_dir (index, real) : NULL;

  return listing != NULL && !listing->unlisted ? kic_fs_dir_sorted_names (listing) : NULL;
}

int
kic_fs_index_rootfd (const KicFsIndex *index)
{
  return index->rootfd;
}

