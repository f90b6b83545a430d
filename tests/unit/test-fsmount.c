/* test-fsmount.c - how a directory is mounted: f_type, an overlay's layers
 *
 * This machine has no NFS client: an NFS directory is a statfs answer
 * injected through kic_mount_fstatfs.  tests/integration/mount-hint.sh
 * mounts real squashfs, overlay and local trees. */
#include "fsmount.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
test_magic (void)
{
  const char *fs = NULL;

  g_assert_cmpint (kic_mount_kind_of_magic (0x6969, &fs), ==, KIC_MOUNT_NFS);
  g_assert_cmpstr (fs, ==, "nfs");
  g_assert_cmpint (kic_mount_kind_of_magic (0x73717368, &fs), ==, KIC_MOUNT_IMAGE);
  g_assert_cmpstr (fs, ==, "squashfs");
  g_assert_cmpint (kic_mount_kind_of_magic (0x794C7630, &fs), ==, KIC_MOUNT_OVERLAY);
  g_assert_cmpint (kic_mount_kind_of_magic (0xEF53, &fs), ==, KIC_MOUNT_LOCAL);
  g_assert_cmpstr (fs, ==, "ext4");
  g_assert_cmpint (kic_mount_kind_of_magic (0xFF534D42, &fs), ==, KIC_MOUNT_NETWORK);
  g_assert_cmpint (kic_mount_kind_of_magic (0x65735546, &fs), ==, KIC_MOUNT_FUSE);
  /* a type no table names is this machine's own */
  g_assert_cmpint (kic_mount_kind_of_magic (0x12345678, &fs), ==, KIC_MOUNT_LOCAL);
  /* f_type is a signed long: a magic past 2^31 read back negative */
  g_assert_cmpint (kic_mount_kind_of_magic ((unsigned long) (long) (int) 0xFF534D42, &fs), ==, KIC_MOUNT_NETWORK);
}

static const char *mountinfo =
    "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
    "40 22 0:40 / /srv/view rw,relatime - overlay overlay rw,lowerdir=/a\\040b\\134:c:/run/img,upperdir=/u,workdir=/w\n"
    "41 22 0:41 / /srv/new rw - overlay overlay rw,lowerdir+=/x,lowerdir+=/y,upperdir=/u2,workdir=/w2\n"
    "42 22 7:0 / /run/img ro - squashfs /dev/loop0 ro\n";

static void
test_overlay_lowers (void)
{
  g_auto (GStrv) lowers = kic_mount_overlay_lowers (mountinfo, 40);
  g_auto (GStrv) plus = kic_mount_overlay_lowers (mountinfo, 41);

  g_assert_nonnull (lowers);
  g_assert_cmpuint (g_strv_length (lowers), ==, 2);
  /* \040 a space, \134: ("\:") a colon inside a layer's path */
  g_assert_cmpstr (lowers[0], ==, "/a b:c");
  g_assert_cmpstr (lowers[1], ==, "/run/img");
  g_assert_nonnull (plus);
  g_assert_cmpuint (g_strv_length (plus), ==, 2);
  g_assert_cmpstr (plus[1], ==, "/y");
  /* no overlay, or no such mount */
  g_assert_null (kic_mount_overlay_lowers (mountinfo, 42));
  g_assert_null (kic_mount_overlay_lowers (mountinfo, 4));
}

/* the injected fstatfs: the first call says FIRST, the later ones LATER */
static unsigned long first, later;
static int calls;

static int
fake_fstatfs (int fd, struct statfs *buf)
{
  (void) fd;
  memset (buf, 0, sizeof *buf);
  buf->f_type = (__fsword_t) (calls++ == 0 ? first : later);
  return 0;
}

static void
test_nfs (void)
{
  int fd = open ("/", O_PATH | O_DIRECTORY);
  KicMount m;

  first = 0x6969;
  calls = 0;
  kic_mount_fstatfs = fake_fstatfs;
  m = kic_mount_of_fd (fd);
  g_assert_cmpint (m.kind, ==, KIC_MOUNT_NFS);
  g_assert_cmpstr (m.fs, ==, "nfs");
  g_assert_cmpint (m.lower_kind, ==, KIC_MOUNT_UNKNOWN);
  kic_mount_fstatfs = fstatfs;
  close (fd);
}

/* an overlay whose lower layer is a squashfs image (an LTSP client's
 * root): found through mountinfo's line for the directory's own mount */
static void
test_overlay_over_image (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kic-fsmount-XXXXXX", &error);
  g_autofree char *info = g_build_filename (dir, "mountinfo", NULL);
  g_autofree char *text = NULL;
  int fd = open (dir, O_PATH | O_DIRECTORY);
  struct statx sx;
  KicMount m;

  g_assert_no_error (error);
  g_assert_cmpint (statx (fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx), ==, 0);
  text = g_strdup_printf ("%llu 1 0:40 / %s rw - overlay overlay rw,lowerdir=%s:/,upperdir=/u,workdir=/w\n",
                          (unsigned long long) sx.stx_mnt_id, dir, dir);
  g_assert_true (g_file_set_contents (info, text, -1, NULL));
  kic_mount_mountinfo_path = info;
  kic_mount_fstatfs = fake_fstatfs;
  first = 0x794C7630;
  later = 0x73717368;
  calls = 0;
  m = kic_mount_of_fd (fd);
  g_assert_cmpint (m.kind, ==, KIC_MOUNT_OVERLAY);
  g_assert_cmpint (m.lower_kind, ==, KIC_MOUNT_IMAGE);
  g_assert_cmpstr (m.lower_fs, ==, "squashfs");
  g_assert_cmpint (calls, ==, 3);
  kic_mount_fstatfs = fstatfs;
  kic_mount_mountinfo_path = "/proc/self/mountinfo";
  close (fd);
  g_unlink (info);
  g_rmdir (dir);
}

/* a squashfs image read from /dev/nbd0 (LTSP can serve its image so):
 * told apart from one looped from a file, by mountinfo's source */
static void
test_image_on_nbd (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kic-fsmount-XXXXXX", &error);
  g_autofree char *info = g_build_filename (dir, "mountinfo", NULL);
  const char *sources[] = { "/dev/nbd0", "/dev/loop3" };
  int fd = open (dir, O_PATH | O_DIRECTORY);
  struct statx sx;

  g_assert_no_error (error);
  g_assert_cmpint (statx (fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx), ==, 0);
  kic_mount_mountinfo_path = info;
  kic_mount_fstatfs = fake_fstatfs;
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autofree char *text = g_strdup_printf ("%llu 1 43:0 / %s ro - squashfs %s ro\n",
                                               (unsigned long long) sx.stx_mnt_id, dir, sources[i]);
      g_autofree char *source = NULL;
      KicMount m;

      g_assert_true (g_file_set_contents (info, text, -1, NULL));
      source = kic_mount_source (text, sx.stx_mnt_id);
      g_assert_cmpstr (source, ==, sources[i]);
      first = later = 0x73717368;
      calls = 0;
      m = kic_mount_of_fd (fd);
      g_assert_cmpint (m.kind, ==, KIC_MOUNT_IMAGE);
      g_assert_cmpint (m.nbd, ==, i == 0);
    }
  g_assert_null (kic_mount_source (mountinfo, 7));
  kic_mount_fstatfs = fstatfs;
  kic_mount_mountinfo_path = "/proc/self/mountinfo";
  close (fd);
  g_unlink (info);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fsmount/magic", test_magic);
  g_test_add_func ("/fsmount/overlay-lowers", test_overlay_lowers);
  g_test_add_func ("/fsmount/nfs", test_nfs);
  g_test_add_func ("/fsmount/overlay-over-image", test_overlay_over_image);
  g_test_add_func ("/fsmount/image-on-nbd", test_image_on_nbd);
  return g_test_run ();
}
