/* slowfs.c - a read-only FUSE passthrough that behaves like a slow NFS
 *
 *   slowfs [-o delay_us=2000] SOURCE MOUNTPOINT [FUSE options]
 *
 * Every LOOKUP/GETATTR and ACCESS waits delay_us microseconds (2 ms, the
 * low end of the 2-20 ms round trips seen on LTSP networks); the kernel
 * caches no negative entry and no attribute, so every access(2) of a file
 * that is not there costs a round trip, as a miss on NFS does.  Writes are
 * passed through (for timing a rebuild on the mount).  On SIGUSR1, and at
 * exit, it writes the number of delayed operations served to the file
 * given with -o stats=FILE.
 *
 * -o negative_timeout=S,attr_timeout=S (default 0) let the kernel keep
 * missing names and attributes S seconds, as an NFS client with its
 * negative-lookup cache does (make bench-nfs checks its model of that
 * client against the kernel's own caching this way); -o readlog=FILE
 * appends "OFFSET SIZE" for every read served (the blocks of a squashfs
 * image looped from this mount); -o direct_io passes every read through
 * as it was asked, no page cache and no readahead of its own between.
 *
 * A benchmark tool (make bench-nfs): not part of kde-icon-cache.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct {
  char *source;
  unsigned delay_us;
  char *stats;
  unsigned entry_timeout;
  unsigned negative_timeout;
  unsigned attr_timeout;
  char *readlog;
  int direct_io;
} options = { NULL, 2000, NULL, 60, 0, 0, NULL, 0 };

static FILE *readlog;

static volatile unsigned long served;

static const struct fuse_opt option_spec[] = {
  { "delay_us=%u", offsetof (typeof (options), delay_us), 0 },
  { "stats=%s", offsetof (typeof (options), stats), 0 },
  { "entry_timeout=%u", offsetof (typeof (options), entry_timeout), 0 },
  { "negative_timeout=%u", offsetof (typeof (options), negative_timeout), 0 },
  { "attr_timeout=%u", offsetof (typeof (options), attr_timeout), 0 },
  { "readlog=%s", offsetof (typeof (options), readlog), 0 },
  { "direct_io", offsetof (typeof (options), direct_io), 1 },
  FUSE_OPT_END,
};

static void
round_trip (void)
{
  struct timespec ts = { options.delay_us / 1000000, (long) (options.delay_us % 1000000) * 1000 };

  __atomic_add_fetch (&served, 1, __ATOMIC_RELAXED);
  nanosleep (&ts, NULL);
}

static void
real_path (char *out, const char *path)
{
  snprintf (out, PATH_MAX, "%s%s", options.source, path);
}

static void *
slow_init (struct fuse_conn_info *conn, struct fuse_config *cfg)
{
  (void) conn;
  /* what exists may be remembered (an NFS client keeps the dentries of
   * the directories it walks, entry_timeout=0 forbids that too), what
   * does not exist never is, nor any attribute: each failed access(2)
   * costs a round trip, as LOOKUP -> NFS3ERR_NOENT does */
  cfg->entry_timeout = options.entry_timeout;
  cfg->negative_timeout = options.negative_timeout;
  cfg->attr_timeout = options.attr_timeout;
  cfg->use_ino = 1;
  cfg->direct_io = options.direct_io;
  return NULL;
}

static int
slow_getattr (const char *path, struct stat *st, struct fuse_file_info *fi)
{
  char p[PATH_MAX];

  (void) fi;
  round_trip ();
  real_path (p, path);
  return lstat (p, st) < 0 ? -errno : 0;
}

static int
slow_access (const char *path, int mask)
{
  char p[PATH_MAX];

  round_trip ();
  real_path (p, path);
  return access (p, mask) < 0 ? -errno : 0;
}

static int
slow_readlink (const char *path, char *buf, size_t size)
{
  char p[PATH_MAX];
  ssize_t n;

  real_path (p, path);
  n = readlink (p, buf, size - 1);
  if (n < 0)
    return -errno;
  buf[n] = '\0';
  return 0;
}

static int
slow_readdir (const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
              struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
  char p[PATH_MAX];
  struct dirent *de;
  DIR *d;

  (void) offset;
  (void) fi;
  (void) flags;
  real_path (p, path);
  d = opendir (p);
  if (d == NULL)
    return -errno;
  while ((de = readdir (d)) != NULL)
    {
      struct stat st;

      memset (&st, 0, sizeof st);
      st.st_ino = de->d_ino;
      st.st_mode = (mode_t) de->d_type << 12;
      if (fill (buf, de->d_name, &st, 0, 0))
        break;
    }
  closedir (d);
  return 0;
}

static int
slow_open (const char *path, struct fuse_file_info *fi)
{
  char p[PATH_MAX];
  int fd;

  real_path (p, path);
  fd = open (p, fi->flags);
  if (fd < 0)
    return -errno;
  fi->fh = (uint64_t) fd;
  return 0;
}

static int
slow_read (const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
  ssize_t n = pread ((int) fi->fh, buf, size, offset);

  (void) path;
  if (readlog != NULL && n > 0)
    {
      flockfile (readlog);
      fprintf (readlog, "%lld %zd\n", (long long) offset, n);
      fflush (readlog);
      funlockfile (readlog);
    }
  return n < 0 ? -errno : (int) n;
}

static int
slow_release (const char *path, struct fuse_file_info *fi)
{
  (void) path;
  close ((int) fi->fh);
  return 0;
}

static int
slow_create (const char *path, mode_t mode, struct fuse_file_info *fi)
{
  char p[PATH_MAX];
  int fd;

  real_path (p, path);
  fd = open (p, fi->flags, mode);
  if (fd < 0)
    return -errno;
  fi->fh = (uint64_t) fd;
  return 0;
}

static int
slow_write (const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
  ssize_t n = pwrite ((int) fi->fh, buf, size, offset);

  (void) path;
  return n < 0 ? -errno : (int) n;
}

static int
slow_fsync (const char *path, int datasync, struct fuse_file_info *fi)
{
  (void) path;
  (void) datasync;
  return fsync ((int) fi->fh) < 0 ? -errno : 0;
}

#define PASS1(name, call)                                                                  \
  static int name (const char *path)                                                       \
  {                                                                                        \
    char p[PATH_MAX];                                                                      \
    real_path (p, path);                                                                   \
    return call < 0 ? -errno : 0;                                                          \
  }
PASS1 (slow_unlink, unlink (p))
PASS1 (slow_rmdir, rmdir (p))

static int
slow_mkdir (const char *path, mode_t mode)
{
  char p[PATH_MAX];

  real_path (p, path);
  return mkdir (p, mode) < 0 ? -errno : 0;
}

static int
slow_symlink (const char *target, const char *path)
{
  char p[PATH_MAX];

  real_path (p, path);
  return symlink (target, p) < 0 ? -errno : 0;
}

static int
slow_rename (const char *from, const char *to, unsigned int flags)
{
  char a[PATH_MAX], b[PATH_MAX];

  if (flags != 0)
    return -EINVAL;
  real_path (a, from);
  real_path (b, to);
  return rename (a, b) < 0 ? -errno : 0;
}

static int
slow_chmod (const char *path, mode_t mode, struct fuse_file_info *fi)
{
  char p[PATH_MAX];

  (void) fi;
  real_path (p, path);
  return chmod (p, mode) < 0 ? -errno : 0;
}

static int
slow_utimens (const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
  char p[PATH_MAX];

  (void) fi;
  real_path (p, path);
  return utimensat (AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static void
write_stats (int sig)
{
  FILE *f;

  (void) sig;
  if (options.stats == NULL || (f = fopen (options.stats, "w")) == NULL)
    return;
  fprintf (f, "%lu\n", __atomic_load_n (&served, __ATOMIC_RELAXED));
  fclose (f);
}

static const struct fuse_operations operations = {
  .init = slow_init,
  .getattr = slow_getattr,
  .access = slow_access,
  .readlink = slow_readlink,
  .readdir = slow_readdir,
  .open = slow_open,
  .read = slow_read,
  .release = slow_release,
  .create = slow_create,
  .write = slow_write,
  .fsync = slow_fsync,
  .unlink = slow_unlink,
  .rmdir = slow_rmdir,
  .mkdir = slow_mkdir,
  .symlink = slow_symlink,
  .rename = slow_rename,
  .chmod = slow_chmod,
  .utimens = slow_utimens,
};

/* The first argument that is no option is the source; the rest go to FUSE. */
static int
take_source (void *data, const char *arg, int key, struct fuse_args *outargs)
{
  (void) data;
  (void) outargs;
  if (key == FUSE_OPT_KEY_NONOPT && options.source == NULL)
    {
      options.source = realpath (arg, NULL);
      if (options.source == NULL)
        {
          perror (arg);
          exit (2);
        }
      return 0;
    }
  return 1;
}

int
main (int argc, char **argv)
{
  struct fuse_args args = FUSE_ARGS_INIT (argc, argv);
  int rc;

  if (fuse_opt_parse (&args, &options, option_spec, take_source) < 0 || options.source == NULL)
    {
      fprintf (stderr, "usage: slowfs [-o delay_us=N,stats=FILE,negative_timeout=S,attr_timeout=S,readlog=FILE] SOURCE MOUNTPOINT [options]\n");
      return 2;
    }
  if (options.readlog != NULL && (readlog = fopen (options.readlog, "a")) == NULL)
    {
      perror (options.readlog);
      return 2;
    }
  signal (SIGUSR1, write_stats);
  rc = fuse_main (args.argc, args.argv, &operations, NULL);
  write_stats (0);
  return rc;
}
