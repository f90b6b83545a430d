/* source.c - an icon file opened for a copy every user could make */
#include "source.h"

#include "diag.h"
#include "hash.h"
#include "safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

/* The bits that let every user read a file (the group's too: a group
 * denied what others get is a way to keep a file from some users), and
 * list and search a directory. */
#define READ_BITS (S_IRGRP | S_IROTH)
#define SEARCH_BITS (S_IRGRP | S_IXGRP | S_IROTH | S_IXOTH)

/* Why a directory in state ST (its host path HOST) does not let every
 * user read what is in it, or NULL. */
static char *
stat_not_public (const struct stat *st, const char *host)
{
  if (!S_ISDIR (st->st_mode))
    return g_strdup_printf ("'%s' is not a directory", host);
  if ((st->st_mode & SEARCH_BITS) != SEARCH_BITS)
    return g_strdup_printf ("'%s' is not readable and searchable by every user (mode %04o)", host,
                            (unsigned) (st->st_mode & 07777));
  return NULL;
}

typedef enum {
  ACL_OF_READ_FD, /* a file open for reading */
  ACL_OF_DIR,     /* a directory, O_PATH */
  ACL_OF_PATH_FD, /* a file, O_PATH (kic_source_stat_in()) */
} AclOf;

/* Does the object open as FD have an access ACL?  Its mode bits then do
 * not say who may read it (an entry may deny one user what others get),
 * so it counts as not every user's, as does an answer that is not known.
 * An O_PATH descriptor is asked through /proc/self/fd; without /proc a
 * directory is opened for reading (root may), and a file opened O_PATH
 * is taken as it is: kic_source_stat_in()'s callers compare its state
 * with that of a read whose descriptor was asked (a setfacl since moves
 * its change time). */
static gboolean
has_access_acl (int fd, AclOf of)
{
  static const char acl[] = "system.posix_acl_access";
  char proc[64];
  ssize_t n;

  if (of == ACL_OF_READ_FD)
    n = fgetxattr (fd, acl, NULL, 0);
  else
    {
      g_snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
      n = getxattr (proc, acl, NULL, 0);
      if (n < 0 && errno == ENOENT && of == ACL_OF_PATH_FD)
        return FALSE;
      if (n < 0 && errno == ENOENT)
        {
          int dirfd = openat (fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
          int errsv;

          if (dirfd < 0)
            return TRUE;
          n = fgetxattr (dirfd, acl, NULL, 0);
          errsv = errno;
          close (dirfd);
          errno = errsv;
        }
    }
  return n >= 0 || (errno != ENODATA && errno != ENOTSUP && errno != EOPNOTSUPP);
}

/* A directory's state, and whether it is refused because not every user
 * may list and search it (not for another reason). */
typedef struct {
  struct stat st;
  gboolean private;
} DirCheck;

/* The same for the directory open as FD (a KicDirRule), whose state goes
 * to the DirCheck DATA points to. */
static char *
dir_not_public (int fd, const char *host, gpointer data)
{
  DirCheck *check = data;
  char *why;

  if (fstat (fd, &check->st) < 0)
    return g_strdup_printf ("cannot stat '%s': %s", host, g_strerror (errno));
  if ((why = stat_not_public (&check->st, host)) == NULL && has_access_acl (fd, ACL_OF_DIR))
    why = g_strdup_printf ("'%s' has an access ACL: not every user may read it", host);
  check->private = why != NULL && S_ISDIR (check->st.st_mode);
  return why;
}

/* (source.h) Debian's default: then a file's other names expose nothing
 * its linker could not read already.  Unknown is not protected. */
gboolean
kic_source_hardlinks_protected (void)
{
  static int answer = -1;

  if (answer < 0)
    {
      g_autofree char *text = NULL;

      answer = g_file_get_contents ("/proc/sys/fs/protected_hardlinks", &text, NULL, NULL) && text[0] == '1';
    }
  return answer;
}

/* At most this many directories are kept open by a KicSourceDirs. */
#define KIC_SOURCE_DIRS_MAX 48

/* A directory kept open: its descriptor and what it was when checked. */
typedef struct {
  int fd;
  dev_t dev;
  ino_t ino;
  struct timespec ctime; /* a chmod, chown or setfacl since moves it */
} KeptDir;

struct _KicSourceDirs {
  int rootfd;
  char *host_root;
  gboolean recheck;  /* every use of a kept directory asks its name again */
  GHashTable *kept; /* directory path (from the root, "/a/b") -> KeptDir* */
};

static void
kept_dir_free (gpointer data)
{
  KeptDir *kept = data;

  close (kept->fd);
  g_free (kept);
}

KicSourceDirs *
kic_source_dirs_new (int rootfd, const char *host_root, gboolean recheck)
{
  KicSourceDirs *dirs = g_new0 (KicSourceDirs, 1);

  dirs->rootfd = rootfd;
  dirs->host_root = g_strdup (host_root ? host_root : "");
  dirs->recheck = recheck;
  dirs->kept = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, kept_dir_free);
  return dirs;
}

void
kic_source_dirs_free (KicSourceDirs *dirs)
{
  if (dirs == NULL)
    return;
  g_hash_table_unref (dirs->kept);
  g_free (dirs->host_root);
  g_free (dirs);
}

/* The directory of the file PARTS[LAST] as checked before, in the moment
 * of the plan (DIRS kept it), with HOST and KEY set to it and *FIRST to
 * LAST; else -1. */
static int
source_kept_parent (KicSourceDirs *dirs, char **parts, guint last, GString *host, GString *key, guint *first)
{
  g_autoptr (GString) parent = g_string_new (NULL);
  KeptDir *kept;

  for (guint i = 0; i < last; i++)
    if (parts[i][0] != '\0' && strcmp (parts[i], ".") != 0)
      {
        g_string_append_c (parent, '/');
        g_string_append (parent, parts[i]);
      }
  if (parent->len == 0 || (kept = g_hash_table_lookup (dirs->kept, parent->str)) == NULL)
    return -1;
  g_string_append (host, parent->str);
  g_string_assign (key, parent->str);
  *first = last;
  return kept->fd;
}

/* DIRFD's directory C, checked (KEY and HOST name it), kept in DIRS when
 * it was opened here; its descriptor (borrowed from DIRS), or -1 with
 * *WHY (*PRIVATE when not every user may search it). */
static int
source_step (KicSourceDirs *dirs, int dirfd, const char *c, GString *host, GString *key, char **why,
             gboolean *private)
{
  /* (a key never holds "..": only a step's directories are kept) */
  KeptDir *kept = g_hash_table_lookup (dirs->kept, key->str);
  struct stat now;
  int next;

  /* In the writer's pass a kept directory is asked again by its name in
   * its (so checked) parent at every use: a directory made private, or
   * moved into a private one, after the first copy from it lets no later
   * copy through (one fstatat a step, not a walk's open, fstat and
   * close).  Another directory at its name now, or the same changed since
   * (its ctime: an ACL too), is opened and checked as any; the mode is
   * asked again in any case (a change in the clock's tick after the check
   * keeps the ctime). */
  if (kept != NULL && dirs->recheck
      && (fstatat (dirfd, c, &now, AT_SYMLINK_NOFOLLOW) < 0 || now.st_dev != kept->dev || now.st_ino != kept->ino
          || now.st_ctim.tv_sec != kept->ctime.tv_sec || now.st_ctim.tv_nsec != kept->ctime.tv_nsec))
    kept = NULL;
  if (kept != NULL)
    {
      g_string_append_c (host, '/');
      g_string_append (host, c);
      if (dirs->recheck && (*why = stat_not_public (&now, host->str)) != NULL)
        {
          *private = S_ISDIR (now.st_mode);
          return -1;
        }
      return kept->fd;
    }
  /* O_PATH: nothing is opened for reading before its type is known */
  DirCheck check = { .private = FALSE };

  next = kic_walk_step (dirfd, c, host, O_PATH, dir_not_public, &check, why);
  *private = check.private;
  if (next < 0)
    return -1;
  KeptDir *keep = g_new (KeptDir, 1);

  keep->fd = next;
  keep->dev = check.st.st_dev; /* (dir_not_public() filled it) */
  keep->ino = check.st.st_ino;
  keep->ctime = check.st.st_ctim;
  if (g_hash_table_size (dirs->kept) >= KIC_SOURCE_DIRS_MAX)
    g_hash_table_remove_all (dirs->kept);
  /* (replaces, and closes, a directory that was at this name) */
  g_hash_table_insert (dirs->kept, g_strdup (key->str), keep);
  return next;
}

/* The file NAME in DIRFD (HOST names it): a descriptor to read it
 * (FOR_READING), or one O_PATH, or none when it is as SEEN says (*ACL_ASKED:
 * its ACL was asked when it was seen); ST its stat.  -1 with *WHY. */
static int
source_open_file (int dirfd, const char *name, struct stat *st, gboolean for_reading, const KicSourceSeen *seen,
                  const char *host, gboolean *acl_asked, char **why, gboolean *private)
{
  int fd = -1;

  /* the file a run checked, with the identity and change time it had
   * then: its ACL was asked then, and setting one since would have moved
   * the change time (a stamp is taken a clock tick after its change time
   * at the earliest: stamp.c, the racy rule); one fstatat, no
   * descriptor.  Its mode, owner and links are asked again after. */
  if (!for_reading && seen != NULL && fstatat (dirfd, name, st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG (st->st_mode)
      && st->st_dev == seen->dev && st->st_ino == seen->ino
      && (gint64) st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec == seen->ctime_ns)
    {
      *acl_asked = TRUE;
      return -1;
    }
  /* a regular file not every user may read is not opened for reading at
   * all (the bits asked first: an ACL is asked of the descriptor after,
   * before any read) */
  if (for_reading && fstatat (dirfd, name, st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG (st->st_mode)
      && (st->st_mode & READ_BITS) != READ_BITS)
    {
      *why = g_strdup_printf ("'%s' is not readable by every user", host);
      *private = TRUE;
      return -1;
    }
  if (for_reading)
    fd = kic_open_regular_at (dirfd, name, st);
  else if ((fd = openat (dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC)) >= 0
           && (fstat (fd, st) < 0 || !S_ISREG (st->st_mode)))
    {
      close (fd);
      fd = -1;
      errno = EINVAL;
    }
  if (fd < 0)
    *why = errno == EINVAL ? g_strdup_printf ("'%s' is not a regular file", host)
                           : g_strdup_printf ("cannot open '%s': %s", host, g_strerror (errno));
  return fd;
}

/* Why the file FD (ST; HOST names it) may not be copied, or NULL:
 * readable by every user, no other name a user could have given it, the
 * size of an icon, no hole. */
static char *
source_refusal (int fd, const struct stat *st, gboolean for_reading, gboolean acl_asked, const char *host,
                gboolean *private)
{
  off_t hole;

  if ((st->st_mode & READ_BITS) != READ_BITS)
    {
      *private = TRUE;
      return g_strdup_printf ("'%s' is not readable by every user", host);
    }
  if (!acl_asked && has_access_acl (fd, for_reading ? ACL_OF_READ_FD : ACL_OF_PATH_FD))
    {
      *private = TRUE;
      return g_strdup_printf ("'%s' has an access ACL: not every user may read it", host);
    }
  /* another name of the file may be in a directory others cannot search,
   * put there by anyone while the kernel does not protect hard links */
  if (st->st_nlink > 1 && !kic_source_hardlinks_protected ())
    return g_strdup_printf ("'%s' has %ju names (hard links) and fs.protected_hardlinks is off", host,
                            (uintmax_t) st->st_nlink);
  /* ... and even protected, a user may link a file of their own (or one
   * they may write) under many names, each a copy in the store for one
   * file's cost: only a file no one but root can link has other names */
  if (st->st_nlink > 1 && (st->st_uid != 0 || (st->st_mode & (S_IWGRP | S_IWOTH)) != 0))
    return g_strdup_printf ("'%s' has %ju names (hard links) and others than root may link it", host,
                            (uintmax_t) st->st_nlink);
  if (st->st_size > KIC_MAX_ICON_BYTES)
    return g_strdup_printf ("'%s' is larger than an icon may be (%jd bytes, at most %d)", host,
                            (intmax_t) st->st_size, KIC_MAX_ICON_BYTES);
  if (!for_reading)
    return NULL;
  /* a hole before the end: a sparse file, which would cost the store its
   * full size (SEEK_HOLE answers the size where holes are not known) */
  hole = lseek (fd, 0, SEEK_HOLE);
  if (hole >= 0 && hole < st->st_size)
    return g_strdup_printf ("'%s' is a sparse file (a hole at byte %jd)", host, (intmax_t) hole);
  if (lseek (fd, 0, SEEK_SET) < 0)
    return g_strdup_printf ("cannot read '%s': %s", host, g_strerror (errno));
  return NULL;
}

/* kic_source_open_in() (a descriptor to read), or with FOR_READING false
 * kic_source_stat_in() (0): the file is then opened O_PATH only, or not
 * at all when it is as SEEN says, and its holes are not asked (that needs
 * a descriptor open for reading).  The directories already checked
 * (in this phase of the run) are taken from DIRS, and those checked now
 * are kept there. */
static int
source_open (KicSourceDirs *dirs, const char *path, struct stat *st, gboolean for_reading, const KicSourceSeen *seen,
             GError **error)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr (GString) host = g_string_new (dirs->host_root);
  g_autoptr (GString) key = g_string_new (NULL);
  g_autofree char *why = NULL;
  guint n = g_strv_length (parts), last = 0, first = 0;
  int fd = -1, dirfd = -1;
  gboolean acl_asked = FALSE;
  gboolean private = FALSE; /* refused because not every user may read it */

  for (guint i = 0; i < n; i++)
    if (parts[i][0] != '\0' && strcmp (parts[i], ".") != 0)
      last = i;
  /* (the root itself is not asked: the store is inside it too, so a copy
   * is no more readable from the host than its source was) */
  if (parts[last][0] == '\0' || strcmp (parts[last], ".") == 0)
    {
      why = g_strdup_printf ("'%s' is not a file", path);
      goto refused;
    }
  if (!dirs->recheck)
    dirfd = source_kept_parent (dirs, parts, last, host, key, &first);
  if (dirfd < 0)
    dirfd = dirs->rootfd; /* (DIRFD is always borrowed: the root's or DIRS's) */
  for (guint i = first; i < last; i++)
    {
      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      g_string_append_c (key, '/');
      g_string_append (key, parts[i]);
      if ((dirfd = source_step (dirs, dirfd, parts[i], host, key, &why, &private)) < 0)
        goto refused;
    }
  g_string_append_c (host, '/');
  g_string_append (host, parts[last]);
  if (strcmp (parts[last], "..") == 0)
    {
      why = g_strdup_printf ("'%s' is reached through '..'", host->str);
      goto refused;
    }
  fd = source_open_file (dirfd, parts[last], st, for_reading, seen, host->str, &acl_asked, &why, &private);
  if (fd < 0 && !acl_asked)
    goto refused;
  why = source_refusal (fd, st, for_reading, acl_asked, host->str, &private);
  if (why == NULL && for_reading)
    return fd;
  if (why == NULL)
    {
      if (fd >= 0)
        close (fd);
      return 0;
    }

refused:
  if (fd >= 0)
    close (fd);
  g_set_error (error, KIC_ERROR, private ? KIC_ERROR_PRIVATE : KIC_ERROR_IO, "%s: not copied", why);
  return -1;
}

int
kic_source_open_in (KicSourceDirs *dirs, const char *path, struct stat *st, GError **error)
{
  return source_open (dirs, path, st, TRUE, NULL, error);
}

gboolean
kic_source_stat_in (KicSourceDirs *dirs, const char *path, const KicSourceSeen *seen, struct stat *st,
                    GError **error)
{
  return source_open (dirs, path, st, FALSE, seen, error) == 0;
}

