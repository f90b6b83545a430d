/* fsindex-read.c - the files a run reads through the index, each opened
 * only once it is known to be a regular file */
#include "fsindex-private.h"
#include "diag.h"
#include "hash.h"
#include "readfd.h"

#include "safeopen.h"

#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int
kic_fs_index_open_file (KicFsIndex *index, const char *real)
{
  struct stat st;
  gint64 read_ns;
  int fd, errsv;

  if (index->is_virtual)
    {
      errno = ENOENT;
      return -1;
    }
  /* its type known before it is opened: never a device node (safeopen.h) */
  read_ns = kic_fs_stamp_clock ();
  fd = kic_open_regular_in_root (index->rootfd, real, &st);
  errsv = errno;
  fsindex_keep_stat (index, KIC_FS_FILE, real, fd >= 0 ? &st : NULL, read_ns);
  errno = errsv;
  return fd;
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
  struct stat st;
  gint64 read_ns;
  int fd, errsv;
  gboolean ok;

  if (index->is_virtual)
    return fsindex_read_virtual_file (index, path, max, contents, length, error);
  if (kic_fs_index_stat (index, path) != KIC_FS_FILE)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "'%s': no such file", host);
      return FALSE;
    }
  real = kic_fs_index_realpath (index, path);
  /* its type known before it is opened: a device node or a FIFO put
   * there since the listing is neither opened nor waited on (safeopen.h) */
  read_ns = kic_fs_stamp_clock ();
  fd = kic_open_regular_in_root (index->rootfd, real, &st);
  errsv = errno;
  fsindex_keep_stat (index, KIC_FS_FILE, real, fd >= 0 ? &st : NULL, read_ns);
  if (fd < 0)
    {
      if (errsv == EINVAL)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "'%s' is not a regular file", host);
      else
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot open '%s': %s",
                     host, g_strerror (errsv));
      return FALSE;
    }
  ok = kic_read_fd_max (fd, host, max, st.st_size, contents, length, error);
  close (fd);
  return ok;
}

/* A lookup by a user passes a directory only when that user may search it
 * (x): by its owner's, group's or others' bits, whichever class the user
 * is in, unless an access ACL says otherwise (then it counts as not every
 * user's, as does an answer that is not known).  Search is what KDE needs:
 * it probes each candidate path with access(2), which asks x of every
 * directory on the way and nothing of their r; so a directory every user
 * may search but not list (0711) answers a probe alike for all, and its
 * listing, read as root, answers only what a probe would.  The mode of a
 * directory in state MODE, owned by UID, with an access ACL or not. */
static gboolean
mode_searchable (guint32 mode, guint32 uid, gboolean acl)
{
  const mode_t search = S_IXGRP | S_IXOTH;

  return S_ISDIR (mode) && (mode & search) == search && (uid == 0 || (mode & S_IXUSR)) && !acl;
}

/* The warning for the directory REAL in state MODE (ACL: it has an access
 * ACL), not every user's to search. */
static void
warn_hidden (KicFsIndex *index, const char *real, guint32 mode, gboolean acl)
{
  g_autofree char *host = kic_fs_index_host_path (index, real);

  if (acl)
    kic_warning ("'%s' has an access ACL: not every user may search it, and what is in it is taken as unknown",
                 host);
  else
    kic_warning ("'%s' is not searchable by every user (mode %04o): what is in it is taken as unknown", host,
                 (unsigned) (mode & 07777));
}

/* Does DIR's entry in the table of answers say (KNOWN: whether it does)? */
static gboolean
searchable_known (KicFsIndex *index, const char *real, gboolean *known)
{
  gpointer value;

  if (index->searchable == NULL)
    index->searchable = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  value = g_hash_table_lookup (index->searchable, real);
  *known = value != NULL;
  return GPOINTER_TO_INT (value) > 0;
}

/* Root decides nothing on what lies beyond a directory not every user may
 * search (issue 39, row 1): resolve() stops there.  The root itself is the
 * caller's choice, and a virtual index (the planner's tests) has no
 * modes. */
gboolean
fsindex_dir_searchable (KicFsIndex *index, const char *real)
{
  struct stat st = { 0 };
  gboolean yes = FALSE, acl = FALSE, known;
  int fd;

  if (index->rootfd < 0 || strcmp (real, "/") == 0)
    return TRUE;
  yes = searchable_known (index, real, &known);
  if (known)
    return yes;
  fd = kic_open_in_root (index->rootfd, real, O_PATH, TRUE);
  if (fd >= 0 && fstat (fd, &st) == 0 && mode_searchable (st.st_mode, st.st_uid, FALSE))
    {
      acl = kic_fs_dir_has_acl (fd, NULL);
      yes = !acl;
    }
  if (fd >= 0)
    close (fd);
  g_hash_table_insert (index->searchable, g_strdup (real), GINT_TO_POINTER (yes ? 1 : -1));
  if (!yes && fd >= 0)
    warn_hidden (index, real, st.st_mode, acl);
  return yes;
}

/* A directory read from disk, reached with or without a link, hides what
 * is in it when not every user may search it: KDE runs as each user, and
 * there some find a name and others do not (issue 39, row 1).  Asked of
 * what the read already has: the stamp it kept (the fstat(2) and ACL of
 * its descriptor) or was seeded with, else the descriptor's own.  Only a
 * run by root answers for every user: a user's own run (--shadowed) sees
 * what that user may search, which the kernel enforces. */
gboolean
fsindex_dir_hides (KicFsIndex *index, const char *real, int fd, const KicFsStamp *stamp)
{
  struct stat st;
  guint32 mode = 0, uid = 0;
  gboolean acl = FALSE, known, yes;

  if (index->rootfd < 0 || strcmp (real, "/") == 0 || kic_run_euid () != 0)
    return FALSE;
  yes = searchable_known (index, real, &known);
  if (known)
    return !yes;
  if (stamp == NULL && index->stamps != NULL)
    stamp = g_hash_table_lookup (index->stamps, real);
  if (stamp != NULL && stamp->type == KIC_FS_DIR && stamp->exists)
    {
      mode = stamp->mode;
      uid = stamp->uid;
      acl = stamp->acl;
    }
  else if (fd >= 0 && fstat (fd, &st) == 0)
    {
      mode = st.st_mode;
      uid = st.st_uid;
      acl = kic_fs_dir_has_acl (fd, NULL);
    }
  else
    return FALSE; /* (nothing there to read) */
  yes = mode_searchable (mode, uid, acl);
  g_hash_table_insert (index->searchable, g_strdup (real), GINT_TO_POINTER (yes ? 1 : -1));
  /* (warned at the read, not again at every seeding) */
  if (!yes && fd >= 0)
    warn_hidden (index, real, mode, acl);
  return !yes;
}

const KicFsStamp *
fsindex_dir_stamp (KicFsIndex *index, const char *real, int fd, KicFsStamp *own)
{
  const KicFsStamp *kept = index->stamps != NULL ? g_hash_table_lookup (index->stamps, real) : NULL;
  struct stat st;

  if (kept != NULL && kept->type == KIC_FS_DIR && kept->exists)
    return kept;
  if (fstat (fd, &st) != 0)
    return NULL;
  kic_fs_stamp_of_stat (own, KIC_FS_DIR, &st);
  kic_fs_stamp_ask_acl (own, fd, NULL, 0);
  return own;
}

/* A user who may write a directory sets how many names it holds, and so
 * what reading it costs (issue 39, row 4): past KIC_USER_ENTRIES names
 * the index keeps none of them, nor does the state.  What it holds is
 * then not known: every name in it (and below it) is something whose
 * content is only itself (KIC_FS_OTHER), so a lookup that reaches it
 * ends there as far as the plan knows, and nothing is planted that its
 * names could meet (plan-candidates.c, plan_theme_forbids(), case 4). */
void
fsindex_user_dir_full (KicFsIndex *index, KicFsDir *dir, const char *host)
{
  if (dir->entries != NULL && dir->entries != index->no_entries)
    g_hash_table_remove_all (dir->entries);
  dir->unlisted = TRUE;
  dir->n_was = KIC_USER_ENTRIES + 1;
  index->n_unlisted++;
  kic_warning ("'%s' holds more than %u names and users may write it: its names are not read, and no link is "
               "planted that a lookup passing it could meet",
               host, KIC_USER_ENTRIES);
}
