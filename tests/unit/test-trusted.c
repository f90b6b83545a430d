/* test-trusted.c - which directories root may plant in (trusted.h) */
#include "diag.h"
#include "trusted.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
  char *root;
  int rootfd;
} Fixture;

static char *
at (const Fixture *f, const char *rel)
{
  return g_build_filename (f->root, rel, NULL);
}

static void
mkdir_at (const Fixture *f, const char *rel, mode_t mode)
{
  g_autofree char *path = at (f, rel);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
  g_assert_cmpint (chmod (path, mode), ==, 0);
}

static void
setup (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->root = g_dir_make_tmp ("kic-trusted-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_cmpint (chmod (f->root, 0755), ==, 0);
  f->rootfd = open (f->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpint (f->rootfd, >=, 0);
  mkdir_at (f, "usr/share/icons/breeze/actions/22", 0755);
}

static void
teardown (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *cmd = g_strdup_printf ("chmod -R u+rwx '%s'; rm -rf '%s'", f->root, f->root);

  close (f->rootfd);
  g_assert_cmpint (system (cmd), ==, 0);
  g_free (f->root);
}

/* The refusal for PATH, which must name NEEDLE. */
static void
assert_refused (const Fixture *f, const char *path, const char *needle)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (kic_trusted_dir_check (f->rootfd, f->root, path, &error));
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  if (strstr (error->message, needle) == NULL)
    g_error ("'%s': expected a message with '%s', got '%s'", path, needle, error->message);
}

static void
test_real_directory (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = at (f, "usr/share/icons/breeze/actions/22");
  struct stat want, got;
  int fd = kic_trusted_dir_open (f->rootfd, f->root, "/usr/share/icons/breeze/actions/22", &error);

  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  /* the descriptor is the directory itself */
  g_assert_cmpint (stat (path, &want), ==, 0);
  g_assert_cmpint (fstat (fd, &got), ==, 0);
  g_assert_cmpuint (want.st_ino, ==, got.st_ino);
  g_assert_cmpint (fcntl (fd, F_GETFD) & FD_CLOEXEC, !=, 0);
  close (fd);
  /* "." and "//" are only spelling */
  g_assert_true (kic_trusted_dir_check (f->rootfd, "", "/usr/share//icons/./breeze/actions/22/", NULL));
}

static void
test_links_and_dotdot (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *link = at (f, "usr/share/icons/breeze/actions/24");
  g_autofree char *link2 = at (f, "usr/share/icons/linked");
  g_autofree char *file = at (f, "usr/share/icons/breeze/actions/32");

  mkdir_at (f, "etc/logrotate.d", 0755);
  /* a link to a real directory of the same tree is refused all the same */
  g_assert_cmpint (symlink ("22", link), ==, 0);
  assert_refused (f, "/usr/share/icons/breeze/actions/24", "actions/24' is a symbolic link");
  g_assert_cmpint (symlink ("breeze", link2), ==, 0);
  assert_refused (f, "/usr/share/icons/linked/actions/22", "icons/linked' is a symbolic link");
  /* issue 19 row 2: Directories=../../../../../etc/logrotate.d */
  assert_refused (f, "/usr/share/icons/breeze/../../../../../etc/logrotate.d", "through '..'");
  assert_refused (f, "/usr/share/icons/breeze/actions/22/..", "through '..'");
  g_assert_true (g_file_set_contents (file, "", 0, NULL));
  assert_refused (f, "/usr/share/icons/breeze/actions/32", "actions/32' is not a directory");
  assert_refused (f, "/usr/share/icons/breeze/actions/48", "No such file");
  g_assert_true (kic_path_has_dotdot ("/a/b/../c"));
  g_assert_true (kic_path_has_dotdot ("/a/.."));
  g_assert_false (kic_path_has_dotdot ("/a/..b/c../.x"));
  g_assert_true (kic_path_has_dotdot (".."));
  g_assert_true (kic_path_has_dotdot ("../a"));
  g_assert_true (kic_path_has_dotdot ("/a/.../.."));
  g_assert_false (kic_path_has_dotdot ("/a/.../b...."));
  g_assert_false (kic_path_has_dotdot (""));
}

static void
test_writable_by_others (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *icons = at (f, "usr/share/icons");
  g_autofree char *size = at (f, "usr/share/icons/breeze/actions/22");

  g_assert_cmpint (chmod (icons, 0775), ==, 0);
  assert_refused (f, "/usr/share/icons/breeze/actions/22", "share/icons' is writable by its group");
  g_assert_cmpint (chmod (icons, 01777), ==, 0);
  assert_refused (f, "/usr/share/icons/breeze/actions/22", "share/icons' is writable by others");
  g_assert_cmpint (chmod (icons, 0755), ==, 0);
  g_assert_cmpint (chmod (size, 0757), ==, 0);
  assert_refused (f, "/usr/share/icons/breeze/actions/22", "actions/22' is writable by others");
  g_assert_cmpint (chmod (size, 0755), ==, 0);
  /* the root directory itself counts */
  g_assert_cmpint (chmod (f->root, 0775), ==, 0);
  assert_refused (f, "/usr/share/icons/breeze/actions/22", "is writable by its group");
  g_assert_cmpint (chmod (f->root, 0755), ==, 0);
  g_assert_true (kic_trusted_dir_check (f->rootfd, f->root, "/usr/share/icons/breeze/actions/22", NULL));
}

static void
test_owner (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  int fd;

  if (geteuid () == 0)
    {
      /* as root: a directory owned by another user is refused */
      g_autofree char *theme = at (f, "usr/share/icons/breeze");

      g_assert_cmpint (chown (theme, 65534, 65534), ==, 0);
      assert_refused (f, "/usr/share/icons/breeze/actions/22", "icons/breeze' is owned by uid 65534, not root");
      g_assert_cmpint (chown (theme, 0, 0), ==, 0);
      g_assert_true (kic_trusted_dir_check (f->rootfd, f->root, "/usr/share/icons/breeze/actions/22", NULL));
    }
  /* any user: for another trusted owner than the tree's, the root
   * directory is already refused (as root: nothing but root owns it) */
  fd = kic_trusted_dir_open_for (f->rootfd, f->root, "/usr/share/icons/breeze/actions/22",
                                 geteuid () == 0 ? 65534 : geteuid () + 1, &error);
  if (geteuid () == 0)
    {
      g_assert_no_error (error);
      g_assert_cmpint (fd, >=, 0);
      close (fd);
    }
  else
    {
      g_assert_cmpint (fd, ==, -1);
      g_assert_nonnull (strstr (error->message, "not root"));
    }
}

/* kic_trusted_dir_stamp() on the stamp of NAME in PFD (a real path's
 * component, as the index stamps it) gives OK, kic_trusted_dir_check_at()'s
 * verdict, when it is a directory (KNOWN), and proves nothing otherwise. */
static void
check_stamp (int pfd, const char *name, gboolean ok, gboolean known)
{
  struct stat st;
  KicFsStamp stamp;
  gboolean stamp_known = TRUE;

  kic_fs_stamp_of_stat (&stamp, KIC_FS_DIR, fstatat (pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? &st : NULL);
  g_assert_cmpint (kic_trusted_dir_stamp (&stamp, &stamp_known), ==, known && ok);
  g_assert_cmpint (stamp_known, ==, known);
}

/* kic_trusted_dir_check_at() gives kic_trusted_dir_open_at()'s verdict
 * on one component, without a descriptor: a link, "..", a file, a
 * directory writable by others or owned by another user are refused. */
static void
test_check_at (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *size = at (f, "usr/share/icons/breeze/actions/22");
  g_autofree char *file = at (f, "usr/share/icons/breeze/actions/file");
  g_autofree char *link = at (f, "usr/share/icons/breeze/actions/link");
  int pfd = kic_trusted_dir_open (f->rootfd, f->root, "/usr/share/icons/breeze/actions", NULL);
  const char *names[] = { "22", "link", "file", "..", "22/x", "none" };

  g_assert_cmpint (pfd, >=, 0);
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  g_assert_cmpint (symlink ("22", link), ==, 0);
  for (int round = 0; round < 3; round++)
    {
      if (round == 1)
        g_assert_cmpint (chmod (size, 0757), ==, 0);
      if (round == 2)
        {
          g_assert_cmpint (chmod (size, 0755), ==, 0);
          if (geteuid () != 0)
            break;
          g_assert_cmpint (chown (size, 65534, 65534), ==, 0);
        }
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          g_autoptr (GError) e1 = NULL;
          g_autoptr (GError) e2 = NULL;
          int fd = kic_trusted_dir_open_at (pfd, names[i], names[i], &e1);
          gboolean ok = kic_trusted_dir_check_at (pfd, names[i], names[i], &e2);

          if (fd >= 0)
            close (fd);
          g_assert_cmpint (fd >= 0, ==, ok);
          g_assert_cmpint (ok, ==, round == 0 && i == 0);
          if (!ok)
            g_assert_nonnull (e2);
          if (i != 3 && i != 4)
            check_stamp (pfd, names[i], ok, i == 0);
        }
    }
  if (geteuid () == 0)
    g_assert_cmpint (chown (size, 0, 0), ==, 0);
  close (pfd);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/trusted/real-directory", Fixture, NULL, setup, test_real_directory, teardown);
  g_test_add ("/trusted/links-and-dotdot", Fixture, NULL, setup, test_links_and_dotdot, teardown);
  g_test_add ("/trusted/writable-by-others", Fixture, NULL, setup, test_writable_by_others, teardown);
  g_test_add ("/trusted/owner", Fixture, NULL, setup, test_owner, teardown);
  g_test_add ("/trusted/check-at", Fixture, NULL, setup, test_check_at, teardown);
  return g_test_run ();
}
