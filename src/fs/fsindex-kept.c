/* fsindex-kept.c - what a run keeps of the index for the next: the stamp
 * of each input as it was read (the fingerprint), and the listings the
 * incremental state stores and seeds back (state.c)
 */
#include "fsindex-private.h"

#include "hash.h"
#include "safeopen.h"
#include "sorted.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

/* With stamps kept: what FD (-1: nothing there) at REAL is as it is read. */
void
fsindex_keep_stamp (KicFsIndex *index, KicFsType type, const char *real, int fd)
{
  struct stat st;
  int errsv = errno;
  gint64 read_ns;

  if (index->stamps == NULL)
    return;
  read_ns = kic_fs_stamp_clock ();
  fsindex_keep_stat (index, type, real, fd >= 0 && fstat (fd, &st) == 0 ? &st : NULL, read_ns);
  if (fd >= 0)
    kic_fs_stamp_ask_acl (g_hash_table_lookup (index->stamps, real), fd, NULL, read_ns);
  errno = errsv;
}

/* Does a file system of type MAGIC (statfs f_type) leave a directory's
 * times as they were when its names change?  The kernel's own: /proc's
 * listing changes with every process, and its "self" link with every
 * reader, while /proc keeps the time it was mounted at; sysfs, cgroups
 * and the like the same.  A user's link into one (a theme directory made
 * a link to /proc/self/fd) is what KDE follows too. */
static gboolean
untimed_magic (unsigned long magic)
{
  static const unsigned long untimed[] = {
    PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC,
    SECURITYFS_MAGIC, BPF_FS_MAGIC, PSTOREFS_MAGIC, EFIVARFS_MAGIC, DEVPTS_SUPER_MAGIC, SELINUX_MAGIC,
    SMACK_MAGIC, BINFMTFS_MAGIC, NSFS_MAGIC, 0x62656570 /* configfs */, 0x65735543 /* fusectl */,
  };

  for (gsize i = 0; i < G_N_ELEMENTS (untimed); i++)
    if ((magic & 0xFFFFFFFFUL) == untimed[i])
      return TRUE;
  return FALSE;
}

/* Does a file system of type MAGIC keep a page written through a shared
 * mapping dirty for good (no write-back ever write-protects it again, so
 * no later write through the mapping moves the file's times)?  tmpfs and
 * ramfs; and an overlay, whose upper layer may be one (a live system's). */
static gboolean
unsynced_magic (unsigned long magic)
{
  static const unsigned long unsynced[] = { TMPFS_MAGIC, RAMFS_MAGIC, HUGETLBFS_MAGIC, OVERLAYFS_SUPER_MAGIC };

  for (gsize i = 0; i < G_N_ELEMENTS (unsynced); i++)
    if ((magic & 0xFFFFFFFFUL) == unsynced[i])
      return TRUE;
  return FALSE;
}

/* The type (statfs f_type) of the file system REAL, stated as ST, is on,
 * into *MAGIC; FALSE when it cannot be had.  Asked once per device (a
 * statfs on NFS is a round trip). */
static gboolean
fs_magic (KicFsIndex *index, const char *real, const struct stat *st, unsigned long *magic)
{
  guint64 dev = st->st_dev;
  gpointer known;
  struct statfs fs;
  int fd;

  if (index->fs_magics == NULL)
    index->fs_magics = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  if (g_hash_table_lookup_extended (index->fs_magics, &dev, NULL, &known))
    {
      *magic = GPOINTER_TO_SIZE (known);
      return TRUE;
    }
  fd = kic_open_in_root (index->rootfd, real, O_PATH, TRUE);
  if (fd < 0 || fstatfs (fd, &fs) != 0)
    {
      if (fd >= 0)
        close (fd);
      return FALSE;
    }
  close (fd);
  *magic = (unsigned long) fs.f_type & 0xFFFFFFFFUL;
  g_hash_table_insert (index->fs_magics, g_memdup2 (&dev, sizeof dev), GSIZE_TO_POINTER (*magic));
  return TRUE;
}

/* Can a stamp of REAL, an object of TYPE stated as ST, tell a change?  Not
 * on a file system whose directories keep no time (untimed_magic()), nor,
 * for a file others than root may write, on one where a write through a
 * mapping moves no time (unsynced_magic(); elsewhere the read wrote the
 * file back first, safeopen.h).  An answer that cannot be had is no. */
static gboolean
stamp_can_tell (KicFsIndex *index, KicFsType type, const char *real, const struct stat *st)
{
  unsigned long magic;

  if (!fs_magic (index, real, st, &magic))
    return FALSE;
  if (untimed_magic (magic))
    return FALSE;
  return !(type == KIC_FS_FILE && kic_others_may_write (st->st_uid, st->st_mode) && unsynced_magic (magic));
}

void
fsindex_keep_stat (KicFsIndex *index, KicFsType type, const char *real, const struct stat *st, gint64 read_ns)
{
  KicFsStamp *stamp;

  if (index->stamps == NULL)
    return;
  stamp = g_new0 (KicFsStamp, 1);
  kic_fs_stamp_of_stat (stamp, type, st);
  stamp->read_ns = read_ns;
  /* a stamp that cannot tell a change proves nothing, and the next run
   * reads it again (a kept listing of /proc would name the processes of
   * the last run; a user's file on tmpfs, the bytes they had then) */
  if (stamp->exists && !stamp_can_tell (index, type, real, st))
    stamp->read_ns = KIC_FS_STAMP_PROVES_NOTHING;
  g_hash_table_replace (index->stamps, g_strdup (real), stamp);
}

void
kic_fs_index_keep_stamps (KicFsIndex *index)
{
  if (index->stamps == NULL)
    index->stamps = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
}

GHashTable *
kic_fs_index_stamps (KicFsIndex *index)
{
  return index->stamps;
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

/* DIR's names as KicFsListingEntry*, sorted; each link whose name is in
 * FOLLOW (NULL: none) is followed first; with BORROW the strings are the
 * index's (each entry freed with g_free()).  transfer full */
static GPtrArray *
listing_of (KicFsIndex *index, KicFsDir *dir, GHashTable *follow, gboolean borrow)
{
  GPtrArray *list = g_ptr_array_new_full (kic_fs_dir_size (dir), borrow ? g_free : kic_fs_listing_entry_free);
  GHashTableIter iter;
  gpointer key, value;

  /* a directory not every user may search: its one mark, so that it
   * becoming one or ceasing to be is a change of its listing */
  if (dir->hidden)
    {
      KicFsListingEntry *e = g_new0 (KicFsListingEntry, 1);

      e->kind = 'o';
      e->name = borrow ? (char *) KIC_FS_HIDDEN_MARK : g_strdup (KIC_FS_HIDDEN_MARK);
      g_ptr_array_add (list, e);
      return list;
    }

  g_hash_table_iter_init (&iter, fsindex_dir_entries (dir));
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      KicFsEntry *entry = value;
      KicFsListingEntry *e = g_new0 (KicFsListingEntry, 1);

      if (follow != NULL && entry->d_type == DT_LNK && g_hash_table_contains (follow, key))
        fsindex_entry_type (index, dir->real, key, entry);
      e->kind = kic_fs_kind_letter (entry->d_type);
      e->name = borrow ? key : g_strdup (key);
      e->target = borrow ? entry->target : g_strdup (entry->target);
      e->real = borrow ? entry->real : g_strdup (entry->real);
      g_ptr_array_add (list, e);
    }
  g_ptr_array_sort (list, compare_listing_entries);
  return list;
}

/* The listing DIR was seeded from, when it is still what listing_of()
 * would make of DIR (a reference), or NULL: as many names (a seeded
 * listing is sorted, kic_fs_index_seed()), and each link with the target it had (a link followed again since may lead
 * elsewhere now).  Only seeding fills a seeded directory's names, so the
 * same count is the same names.  A rebuild after one package has most of
 * its directories seeded: their listings are not made and sorted again. */
static GPtrArray *
seeded_listing (KicFsDir *dir)
{
  GPtrArray *seeded = dir->seeded;

  if (seeded == NULL)
    return NULL;
  /* no name of it asked nor changed since (sorted when seeded) */
  if (dir->entries == NULL)
    return g_ptr_array_ref (seeded);
  if (seeded->len != g_hash_table_size (dir->entries))
    return NULL;
  for (guint i = 0; i < seeded->len; i++)
    {
      const KicFsListingEntry *e = g_ptr_array_index (seeded, i);
      const KicFsEntry *entry;

      if (e->kind != 'l')
        continue;
      entry = g_hash_table_lookup (dir->entries, e->name);
      if (entry == NULL || g_strcmp0 (entry->target, e->target) != 0 || g_strcmp0 (entry->real, e->real) != 0)
        return NULL;
    }
  return g_ptr_array_ref (seeded);
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
  GHashTable *listings = g_hash_table_new_full (kic_str_hash, g_str_equal, NULL, listing_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, index->dirs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      KicFsDir *dir = value;

      if (index->is_virtual || (dir != NULL && (!dir->from_disk || dir->unlisted)))
        continue;
      GPtrArray *listing = dir != NULL ? seeded_listing (dir) : NULL;

      if (dir != NULL && listing == NULL)
        listing = listing_of (index, dir, NULL, TRUE);
      g_hash_table_insert (listings, (gpointer) key, listing);
    }
  return listings;
}

GPtrArray *
kic_fs_index_unlisted (KicFsIndex *index)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, index->dirs);
  while (index->n_unlisted > 0 && g_hash_table_iter_next (&iter, &key, &value))
    if (value != NULL && ((KicFsDir *) value)->unlisted && ((KicFsDir *) value)->from_disk)
      g_ptr_array_add (out, key);
  g_ptr_array_sort (out, kic_compare_strings);
  return out;
}

gboolean
kic_fs_index_is_unlisted (KicFsIndex *index, const char *real)
{
  KicFsDir *dir = index->is_virtual ? NULL : fsindex_get_dir (index, real);

  return dir != NULL && dir->unlisted;
}

GPtrArray *
kic_fs_index_listing_read (KicFsIndex *index, const char *real)
{
  KicFsDir *dir = index->is_virtual ? NULL : g_hash_table_lookup (index->dirs, real);

  return dir != NULL ? listing_of (index, dir, NULL, TRUE) : NULL;
}

GPtrArray *
kic_fs_index_listing (KicFsIndex *index, const char *real, GHashTable *follow)
{
  KicFsDir *dir = fsindex_get_dir (index, real);

  return dir != NULL ? listing_of (index, dir, follow, FALSE) : NULL;
}

void
kic_fs_index_seed (KicFsIndex *index, const char *real, const KicFsStamp *stamp, GPtrArray *entries)
{
  KicFsDir *dir = NULL;

  if (index->is_virtual || g_hash_table_contains (index->dirs, real))
    return;
  if (entries != NULL)
    {
      gboolean sorted = TRUE;

      for (guint i = 1; sorted && i < entries->len; i++)
        sorted = strcmp (((const KicFsListingEntry *) g_ptr_array_index (entries, i - 1))->name,
                         ((const KicFsListingEntry *) g_ptr_array_index (entries, i))->name) < 0;
      dir = g_new0 (KicFsDir, 1);
      dir->real = g_strdup (real);
      dir->from_disk = TRUE;
      dir->seeded = g_ptr_array_ref (entries);
      /* a listing as the state keeps it (sorted, each name once) is
       * searched as it is, its table made when first needed
       * (fsindex_dir_entries()); any other gets its table at once and is
       * not kept (so a seeded listing is always a sorted one) */
      if (!sorted)
        {
          fsindex_dir_entries (dir);
          g_clear_pointer (&dir->seeded, g_ptr_array_unref);
        }
      /* not every user may search it (as its stamp says now): no name of
       * it counts, whatever the state kept (fsindex_dir_hides()) */
      if ((dir->hidden = fsindex_dir_hides (index, real, -1, stamp)))
        {
          g_clear_pointer (&dir->seeded, g_ptr_array_unref);
          if (dir->entries != NULL)
            g_hash_table_unref (dir->entries);
          dir->entries = g_hash_table_ref (index->no_entries);
        }
      /* as read_dir() has it: none of the users' once the budget is spent */
      else if ((dir->users_write = stamp == NULL || kic_fs_stamp_others_may_write (stamp)) && index->budget_spent)
        fsindex_user_dir_unknown (index, dir);
    }
  g_hash_table_insert (index->dirs, g_strdup (real), dir);
  if (index->stamps != NULL && stamp != NULL)
    g_hash_table_replace (index->stamps, g_strdup (real), g_memdup2 (stamp, sizeof *stamp));
}

void
kic_fs_index_seed_unlisted (KicFsIndex *index, const char *real, const KicFsStamp *stamp)
{
  KicFsDir *dir;
  g_autofree char *host = kic_fs_index_host_path (index, real);

  if (index->is_virtual || g_hash_table_contains (index->dirs, real))
    return;
  dir = fsindex_fs_dir_new (real);
  dir->from_disk = TRUE;
  dir->users_write = TRUE;
  /* (warned of as when it is read: a kept run says what a full one says) */
  fsindex_user_dir_full (index, dir, host);
  g_hash_table_insert (index->dirs, g_strdup (real), dir);
  if (index->stamps != NULL)
    g_hash_table_replace (index->stamps, g_strdup (real), g_memdup2 (stamp, sizeof *stamp));
}

/* The entry of the index for the listing entry E (a link: not followed
 * yet, with the target and real path the listing gives). */
/* The entry type of E's kind, and the type it is unless a link. */
static unsigned char
listing_d_type (const KicFsListingEntry *e, KicFsType *type)
{
  unsigned char d_type = e->kind == 'f' ? DT_REG : e->kind == 'd' ? DT_DIR : e->kind == 'l' ? DT_LNK : DT_FIFO;

  *type = d_type == DT_LNK ? KIC_FS_NONE : d_type == DT_REG ? KIC_FS_FILE : d_type == DT_DIR ? KIC_FS_DIR : KIC_FS_OTHER;
  return d_type;
}

KicFsEntry *
fsindex_entry_of_listing (const KicFsListingEntry *e)
{
  KicFsEntry *entry = g_new0 (KicFsEntry, 1);
  KicFsType type;

  entry->d_type = listing_d_type (e, &type);
  if (entry->d_type != DT_LNK)
    {
      entry->resolved = TRUE;
      entry->type = type;
    }
  entry->target = g_strdup (e->target);
  entry->real = g_strdup (e->real);
  return entry;
}

gboolean
fsindex_dir_entry_kind (KicFsDir *dir, const char *name, unsigned char *d_type, KicFsType *type)
{
  const KicFsListingEntry *e;
  const KicFsEntry *entry;

  /* (every name of a directory whose names are not known: fsindex_dir_find()) */
  if (dir->unlisted)
    {
      *d_type = DT_FIFO;
      *type = KIC_FS_OTHER;
      return TRUE;
    }
  /* (a seeded listing has no table until one is needed: fsindex_dir_entries()) */
  if (dir->entries == NULL)
    {
      if ((e = fsindex_seeded_find (dir, name)) == NULL)
        return FALSE;
      *d_type = listing_d_type (e, type);
      return TRUE;
    }
  if ((entry = g_hash_table_lookup (dir->entries, name)) == NULL)
    return FALSE;
  *d_type = entry->d_type;
  *type = entry->type;
  return TRUE;
}

/* NAME's entry in the sorted listing DIR was seeded from, or NULL. */
const KicFsListingEntry *
fsindex_seeded_find (const KicFsDir *dir, const char *name)
{
  guint lo = 0, hi = dir->seeded->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const KicFsListingEntry *e = g_ptr_array_index (dir->seeded, mid);
      int c = strcmp (e->name, name);

      if (c == 0)
        return e;
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

void
kic_fs_index_seed_file (KicFsIndex *index, const char *real, const KicFsStamp *stamp)
{
  if (index->stamps != NULL && stamp->type == KIC_FS_FILE && !g_hash_table_contains (index->stamps, real))
    g_hash_table_insert (index->stamps, g_strdup (real), g_memdup2 (stamp, sizeof *stamp));
}

void
kic_fs_index_seed_files (KicFsIndex *index, GHashTable *stamps)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, stamps);
  while (g_hash_table_iter_next (&iter, &key, &value))
    kic_fs_index_seed_file (index, key, value);
}

gboolean
kic_fs_index_kept_stamp (KicFsIndex *index, const char *real, KicFsStamp *stamp)
{
  const KicFsStamp *kept = index->stamps != NULL ? g_hash_table_lookup (index->stamps, real) : NULL;

  if (kept == NULL)
    return FALSE;
  *stamp = *kept;
  return TRUE;
}

gboolean
kic_fs_index_file_stamp (KicFsIndex *index, const char *real, KicFsStamp *stamp)
{
  struct stat st;
  gint64 read_ns;
  gboolean ok;
  int fd;

  if (kic_fs_index_kept_stamp (index, real, stamp))
    return stamp->type == KIC_FS_FILE && stamp->exists;
  if (index->rootfd < 0)
    {
      g_autofree char *data = NULL;
      gsize length;

      if (!kic_fs_index_read_file (index, real, &data, &length, NULL))
        return FALSE;
      memset (stamp, 0, sizeof *stamp);
      stamp->type = KIC_FS_FILE;
      stamp->exists = TRUE;
      stamp->size = (gint64) length;
      return TRUE;
    }
  /* (the clock before the stat: the racy rule) */
  read_ns = kic_fs_stamp_clock ();
  /* O_PATH, and through no link: the real path has none, and a link put
   * in place of a directory since is not followed (the read that follows
   * walks it as kic_source_open_in() does) */
  if ((fd = kic_open_in_root (index->rootfd, real, O_PATH, TRUE)) < 0)
    return FALSE;
  ok = fstat (fd, &st) == 0;
  close (fd);
  if (!ok)
    return FALSE;
  fsindex_keep_stat (index, KIC_FS_FILE, real, &st, read_ns);
  kic_fs_stamp_of_stat (stamp, KIC_FS_FILE, &st);
  stamp->read_ns = read_ns;
  return stamp->exists;
}

void
kic_fs_index_keep_file_stamp (KicFsIndex *index, const char *real, const KicFsStamp *stamp)
{
  if (index->stamps != NULL)
    g_hash_table_replace (index->stamps, g_strdup (real), g_memdup2 (stamp, sizeof *stamp));
}

void
kic_fs_index_file_was_read (KicFsIndex *index, const char *real, const struct stat *st, gint64 read_ns)
{
  fsindex_keep_stat (index, KIC_FS_FILE, real, st, read_ns);
}
