/* stamp.c - what a directory or file was when a run read it: the stamp
 * made of its fstat(2), its text in the fingerprint, and whether it can
 * tell a change apart (stamp.h)
 */
#include "stamp.h"
#include "safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

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

gint64
kic_fs_stamp_clock (void)
{
  struct timespec now;

  clock_gettime (CLOCK_REALTIME_COARSE, &now);
  return (gint64) now.tv_sec * 1000000000 + now.tv_nsec;
}

/* May someone other than root (and the user running the tool, who trusts
 * their own tree as trusted.h does) change the directory stamped as
 * STAMP?  Its owner, or its group or everyone when it is writable by
 * them (an ACL that lets a user write shows in the group bits). */
static gboolean
others_may_write (const KicFsStamp *stamp)
{
  return kic_others_may_write (stamp->uid, stamp->mode);
}

gboolean
kic_fs_stamp_others_may_write (const KicFsStamp *stamp)
{
  /* an access ACL may let a user write whatever the group bits say */
  return others_may_write (stamp) || stamp->acl;
}

/* The time a change of what STAMP stamps sets, and the stamp records:
 * the change time of a file and of a directory others may write, the
 * modification time of a directory only root may (kic_fs_stamp_format()). */
static gint64
change_time (const KicFsStamp *stamp)
{
  if (stamp->type == KIC_FS_DIR && !others_may_write (stamp))
    return stamp->mtime_ns;
  return stamp->ctime_ns;
}

/* The granularity of the times of STAMP's file system: a file system
 * that keeps whole seconds (ext3 with small inodes, FAT's 2 s, some NFS
 * servers) when neither time has a fraction, else the tick of the coarse
 * clock file times are taken from (4 ms with HZ=250). */
static gint64
granularity_ns (const KicFsStamp *stamp)
{
  struct timespec res;

  if (stamp->mtime_ns % 1000000000 == 0 && stamp->ctime_ns % 1000000000 == 0)
    return 2 * (gint64) 1000000000;
  if (clock_getres (CLOCK_REALTIME_COARSE, &res) != 0)
    return 10 * (gint64) 1000000;
  return MAX ((gint64) res.tv_sec * 1000000000 + res.tv_nsec, 1);
}

/* The answer of a getxattr(2) of the access ACL that returned R: TRUE
 * when there is one, FALSE when there is none, *KNOWN FALSE when it
 * failed otherwise */
static gboolean
acl_answer (ssize_t r, gboolean *known)
{
  *known = r >= 0 || errno == ENODATA || errno == ENOTSUP || errno == EOPNOTSUPP;
  return r >= 0;
}

gboolean
kic_fs_dir_has_acl (int dirfd, const char *name)
{
  char proc[64];
  gboolean known, acl;
  int fd, errsv = errno;

  /* through the descriptor's magic link (no open; the link followed, a
   * link at NAME not) */
  if (name != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/fd/%d/%s", dirfd, name);

      acl = acl_answer (lgetxattr (path, "system.posix_acl_access", NULL, 0), &known);
    }
  else
    {
      g_snprintf (proc, sizeof proc, "/proc/self/fd/%d", dirfd);
      acl = acl_answer (getxattr (proc, "system.posix_acl_access", NULL, 0), &known);
    }
  /* without /proc (a chroot that has none mounted, as a package's
   * scripts may run in), the directory itself, opened for reading */
  if (!known)
    {
      fd = openat (dirfd, name != NULL ? name : ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
      acl = fd < 0 || acl_answer (fgetxattr (fd, "system.posix_acl_access", NULL, 0), &known) || !known;
      if (fd >= 0)
        close (fd);
    }
  errno = errsv;
  return acl;
}

void
kic_fs_stamp_ask_acl (KicFsStamp *stamp, int dirfd, const char *name, gint64 read_ns)
{
  int errsv = errno;

  if (stamp->type != KIC_FS_DIR || !stamp->exists)
    return;
  stamp->acl = kic_fs_dir_has_acl (dirfd, name);
  /* A setfacl, chmod or chown sets the change time to the clock's tick:
   * one made after the read gets a change time of the read's tick or
   * later.  A change time older than the read by a whole tick is then one
   * no such change since can leave as it is, and while it stays, so does
   * the answer (kic_fs_stamp_acl_from()); a younger one vouches for
   * nothing (the racy rule below). */
  stamp->acl_ctime_ns = 0;
  if (!others_may_write (stamp) && read_ns != 0 && stamp->ctime_ns > 0
      && stamp->ctime_ns <= read_ns - granularity_ns (stamp))
    stamp->acl_ctime_ns = stamp->ctime_ns;
  errno = errsv;
}

/* The number that field I (from 0) of the state STATE begins with, into
 * *V; FALSE when it has no such field or it is no number */
static gboolean
state_field (const char *state, guint i, gint64 *v)
{
  const char *p = state;
  char *end;

  for (; i > 0; i--)
    if ((p = strchr (p, ' ')) == NULL)
      return FALSE;
    else
      p++;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  *v = g_ascii_strtoll (p, &end, 10);
  return *end == ' ' || *end == '\0';
}

gboolean
kic_fs_stamp_acl_from (KicFsStamp *stamp, const char *was)
{
  gint64 mode, ctime_ns;

  /* "DEV INO MTIME MODE UID CTIME" (kic_fs_stamp_format()) */
  if (stamp->type != KIC_FS_DIR || !stamp->exists || was == NULL || others_may_write (stamp)
      || !state_field (was, 5, &ctime_ns) || ctime_ns != stamp->ctime_ns || !state_field (was, 3, &mode))
    return FALSE;
  stamp->acl = (mode & 010000000) != 0;
  stamp->acl_ctime_ns = ctime_ns;
  return TRUE;
}

/* The length of what STATE says of its object: all of it, but for the
 * sixth of six numbers, the change time a directory's ACL was known at */
static gsize
identity_length (const char *state)
{
  const char *p = state;
  guint spaces = 0;

  for (; *p != '\0'; p++)
    if (*p == ' ' && ++spaces == 5)
      break;
  return (gsize) (p - state);
}

gboolean
kic_fs_stamp_dir_states_equal (const char *now, const char *was)
{
  gsize n = identity_length (now);

  return n == identity_length (was) && memcmp (now, was, n) == 0;
}

/* git's "racy git" rule: a change made after the stamp was read, but in
 * the same tick of the clock the file system takes its times from, leaves
 * the times the stamp has (Debian 12's kernel takes them from the coarse
 * clock: a tick is 4 ms).  A stamp whose change time is not older than
 * its read by a whole tick cannot tell such a change apart: it is written
 * "racy", which matches nothing, so the next run plans in full and takes
 * a stamp that proves something.  (With multigrain times, Linux 6.13 on
 * ext4, a change after a stat gets a later time anyway.) */
static gboolean
stamp_is_racy (const KicFsStamp *stamp)
{
  return stamp->exists && stamp->read_ns != 0 && change_time (stamp) > stamp->read_ns - granularity_ns (stamp);
}

/* a device or inode number (G_GUINT64_FORMAT) */
static void
stamp_text_add_id (KicFsStampText *t, guint64 v)
{
  if (t->len > 0)
    t->text[t->len++] = ' ';
  t->len += kic_format_uint64 (t->text + t->len, v);
}

/* a size or a time (G_GINT64_FORMAT) */
static void
stamp_text_add (KicFsStampText *t, gint64 v)
{
  if (t->len > 0)
    t->text[t->len++] = ' ';
  t->len += kic_format_int64 (t->text + t->len, v);
}

/* A stamp as the fingerprint writes it.  A directory: its identity and
 * modification time, and its change time when others may write it: its
 * owner can add an icon and set the modification time back, not the
 * change time (issue 19, row 11).  Not the change time of a directory
 * only root may write: the writer plants there and keeps its
 * modification time, but a link changes the change time. */
const char *
kic_fs_stamp_format (const KicFsStamp *stamp, KicFsStampText *t)
{
  t->len = 0;
  if (!stamp->exists)
    return "none";
  if (stamp_is_racy (stamp))
    return "racy";
  /* "DEV INO MTIME CTIME" for a directory others may write, "DEV INO
   * MTIME MODE UID [CTIME]" for one only root may, "DEV INO SIZE MTIME
   * CTIME" for a file (printf's G_GUINT64_FORMAT and G_GINT64_FORMAT before).  A
   * chmod, chown or setfacl moves the change time alone: where the stamp
   * holds none, the mode (with 010000000 for an access ACL) and the owner
   * tell them (a directory made private keeps no copy made from it,
   * issue 39, row 3). */
  stamp_text_add_id (t, stamp->dev);
  stamp_text_add_id (t, stamp->ino);
  if (stamp->type == KIC_FS_DIR)
    {
      stamp_text_add (t, stamp->mtime_ns);
      if (others_may_write (stamp))
        stamp_text_add (t, stamp->ctime_ns);
      else
        {
          stamp_text_add_id (t, (stamp->mode & 07777) | (stamp->acl ? 010000000 : 0));
          stamp_text_add_id (t, stamp->uid);
          /* and the change time the ACL was known at, when one vouches
           * for it: no ACL is asked again while it stays
           * (kic_fs_stamp_acl_from()), and it is no part of what the
           * directory is (kic_fs_stamp_dir_states_equal()) */
          if (stamp->acl_ctime_ns != 0)
            stamp_text_add (t, stamp->acl_ctime_ns);
        }
    }
  else
    {
      /* dpkg gives an unpacked file its package's modification time: the
       * change time says when it came */
      stamp_text_add (t, stamp->size);
      stamp_text_add (t, stamp->mtime_ns);
      stamp_text_add (t, stamp->ctime_ns);
    }
  t->text[t->len] = '\0';
  return t->text;
}

/* A store copy's stamp as a 'c' line holds it: "DEV INO SIZE MTIME
 * CTIME", or "none".  Not racy: the copies are root's, and what the line
 * is for is a copy removed or rewritten since (by a disk error, a restore
 * of /var/lib), which moves its identity, size or times. */
const char *
kic_fs_stamp_format_copy (const KicFsStamp *stamp, KicFsStampText *t)
{
  t->len = 0;
  if (!stamp->exists)
    return "none";
  stamp_text_add_id (t, stamp->dev);
  stamp_text_add_id (t, stamp->ino);
  stamp_text_add (t, stamp->size);
  stamp_text_add (t, stamp->mtime_ns);
  stamp_text_add (t, stamp->ctime_ns);
  t->text[t->len] = '\0';
  return t->text;
}

gboolean
kic_fs_stamp_unchanged (const KicFsStamp *was, const KicFsStamp *now)
{
  KicFsStampText a, b;

  if (!was->exists || !now->exists || was->type != now->type || stamp_is_racy (was))
    return FALSE;
  return strcmp (kic_fs_stamp_format (was, &a), kic_fs_stamp_format (now, &b)) == 0;
}

void
kic_fs_stamp_of_path (int rootfd, KicFsType type, const char *path, KicFsStamp *stamp)
{
  const char *relative = path[1] ? path + 1 : ".";
  gint64 read_ns = kic_fs_stamp_clock ();
  struct stat st;

  /* the path is a real path: all its components are directories whose
   * listings are inputs too, so a link put in place of one shows there */
  kic_fs_stamp_of_stat (stamp, type, fstatat (rootfd, relative, &st, AT_SYMLINK_NOFOLLOW) == 0 ? &st : NULL);
  kic_fs_stamp_ask_acl (stamp, rootfd, path[1] ? relative : NULL, read_ns);
}
