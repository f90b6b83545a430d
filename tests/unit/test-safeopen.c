/* test-safeopen.c - opening inside a root, creating directories safely */
#include "safeopen.h"

#include <errno.h>
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
setup (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->root = g_dir_make_tmp ("kic-safeopen-XXXXXX", &error);
  g_assert_no_error (error);
  f->rootfd = kic_root_open (f->root);
  g_assert_cmpint (f->rootfd, >=, 0);
}

static void
teardown (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", f->root);

  close (f->rootfd);
  g_assert_cmpint (system (cmd), ==, 0);
  g_free (f->root);
}

static void
write_at (const Fixture *f, const char *rel, const char *text)
{
  g_autofree char *path = at (f, rel);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static char *
read_fd (int fd)
{
  char buf[256];
  ssize_t n = read (fd, buf, sizeof buf - 1);

  g_assert_cmpint (n, >=, 0);
  buf[n] = '\0';
  return g_strdup (buf);
}

/* An absolute link and a climbing one resolve inside the root; with
 * NO_LINKS a link anywhere is refused. */
static void
test_open_in_root (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *abs_link = at (f, "usr/abs");
  g_autofree char *up_link = at (f, "usr/up");
  g_autofree char *text = NULL;
  int fd;

  write_at (f, "etc/name", "inside");
  write_at (f, "usr/.keep", "");
  g_assert_cmpint (symlink ("/etc/name", abs_link), ==, 0);
  g_assert_cmpint (symlink ("../../../../../../etc/name", up_link), ==, 0);
  fd = kic_open_in_root (f->rootfd, "/usr/abs", O_RDONLY, FALSE);
  g_assert_cmpint (fd, >=, 0);
  text = read_fd (fd);
  g_assert_cmpstr (text, ==, "inside");
  close (fd);
  fd = kic_open_in_root (f->rootfd, "/usr/up", O_RDONLY, FALSE);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  errno = 0;
  g_assert_cmpint (kic_open_in_root (f->rootfd, "/usr/abs", O_RDONLY, TRUE), ==, -1);
  g_assert_cmpint (errno, ==, ELOOP);
}

/* New directories are 0755 under umask 077 and reported, parents first;
 * existing ones are neither changed nor reported. */
static void
test_mkdirs_modes_and_made (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *var = at (f, "var");
  g_autofree char *store = at (f, "var/lib/store");
  struct stat st;
  mode_t old;

  g_assert_cmpint (mkdir (var, 0700), ==, 0);
  old = umask (077);
  g_assert_cmpint (kic_mkdirs_in_root (f->rootfd, "/var/lib/store", made), ==, 0);
  umask (old);
  g_assert_cmpuint (made->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (made, 0), ==, "/var/lib");
  g_assert_cmpstr (g_ptr_array_index (made, 1), ==, "/var/lib/store");
  g_assert_cmpint (stat (store, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0755);
  g_assert_cmpint (stat (var, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0700);
  /* again: nothing new */
  g_ptr_array_set_size (made, 0);
  g_assert_cmpint (kic_mkdirs_in_root (f->rootfd, "/var/lib/store", made), ==, 0);
  g_assert_cmpuint (made->len, ==, 0);
}

/* A link or a file in the way is refused, never followed, and
 * kic_mkdirs_obstacle() names it; ".." is refused. */
static void
test_mkdirs_obstacles (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *outside = g_dir_make_tmp ("kic-safeopen-out-XXXXXX", NULL);
  g_autofree char *link = at (f, "var/lib/store");
  g_autofree char *victim = g_build_filename (outside, "victim", NULL);
  g_autofree char *below = g_build_filename (outside, "victim", "files", NULL);
  g_autofree char *why = NULL;
  struct stat st;

  write_at (f, "var/lib/.keep", "");
  g_assert_cmpint (mkdir (victim, 0700), ==, 0);
  g_assert_cmpint (symlink (victim, link), ==, 0);
  g_assert_cmpint (kic_mkdirs_in_root (f->rootfd, "/var/lib/store/files", NULL), ==, -1);
  g_assert_false (g_file_test (below, G_FILE_TEST_EXISTS));
  g_assert_cmpint (stat (victim, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0700);
  why = kic_mkdirs_obstacle (f->rootfd, "/var/lib/store/files");
  g_assert_cmpstr (why, ==, "'/var/lib/store' is a symbolic link");
  g_free (why);
  write_at (f, "srv/file", "x");
  g_assert_cmpint (kic_mkdirs_in_root (f->rootfd, "/srv/file/sub", NULL), ==, -1);
  why = kic_mkdirs_obstacle (f->rootfd, "/srv/file/sub");
  g_assert_cmpstr (why, ==, "'/srv/file' is not a directory");
  g_free (why);
  why = kic_mkdirs_obstacle (f->rootfd, "/srv/new/dir");
  g_assert_null (why);
  errno = 0;
  g_assert_cmpint (kic_mkdirs_in_root (f->rootfd, "/srv/../x", NULL), ==, -1);
  g_assert_cmpint (errno, ==, EACCES);
  g_assert_cmpint (unlink (victim) == 0 || rmdir (victim) == 0, ==, TRUE);
  g_assert_cmpint (rmdir (outside), ==, 0);
}

/* A rule as trusted.c's and source.c's: anything but a directory is
 * refused (safeopen.h), and here a directory named "private" too. */
static char *
refuse_private (int fd, const char *host, gpointer data)
{
  struct stat st;

  (*(guint *) data)++;
  if (fstat (fd, &st) < 0 || !S_ISDIR (st.st_mode))
    return g_strdup_printf ("'%s' is not a directory", host);
  return g_str_has_suffix (host, "/private") ? g_strdup_printf ("'%s' is private", host) : NULL;
}

/* kic_walk_step(): "" and "." are no step; "..", a link (with either kind
 * of open), a file and what the rule refuses are refused naming the
 * component; a directory is opened, checked by the rule, and named. */
static void
test_walk_step (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  static const int kinds[] = { O_PATH, O_RDONLY | O_DIRECTORY };
  g_autofree char *dir = at (f, "dir");
  g_autofree char *private = at (f, "private");
  g_autofree char *file = at (f, "file");
  g_autofree char *link = at (f, "link");

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (private, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  g_assert_cmpint (symlink ("dir", link), ==, 0);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      static const struct { const char *component, *why; } refused[] = {
        { "..", "'/h/..' is reached through '..'" },
        { "link", "'/h/link' is a symbolic link" },
        { "file", "'/h/file' is not a directory" },
        { "private", "'/h/private' is private" },
        { "absent", "cannot open '/h/absent': No such file or directory" },
      };
      guint checked = 0;

      for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
        {
          g_autoptr (GString) host = g_string_new ("/h");
          g_autofree char *why = NULL;

          g_test_message ("%s with flags %#x", refused[i].component, (unsigned) kinds[k]);
          g_assert_cmpint (kic_walk_step (f->rootfd, refused[i].component, host, kinds[k], refuse_private, &checked,
                                          &why), ==, -1);
          g_assert_cmpstr (why, ==, refused[i].why);
        }
      for (guint i = 0; i < 2; i++)
        {
          g_autoptr (GString) host = g_string_new ("/h");
          g_autofree char *why = NULL;

          g_assert_cmpint (kic_walk_step (f->rootfd, i ? "." : "", host, kinds[k], refuse_private, &checked, &why), ==,
                           KIC_WALK_SKIP);
          g_assert_cmpstr (host->str, ==, "/h");
          g_assert_null (why);
        }
      {
        g_autoptr (GString) host = g_string_new ("/h");
        g_autofree char *why = NULL;
        guint before = checked;
        int fd = kic_walk_step (f->rootfd, "dir", host, kinds[k], refuse_private, &checked, &why);
        struct stat st;

        g_assert_cmpint (fd, >=, 0);
        g_assert_null (why);
        g_assert_cmpstr (host->str, ==, "/h/dir");
        g_assert_cmpuint (checked, ==, before + 1);
        g_assert_cmpint (fstat (fd, &st), ==, 0);
        g_assert_true (S_ISDIR (st.st_mode));
        close (fd);
      }
    }
}

/* Kept directories: at most KIC_KEPT_DIRS descriptors, the one past it
 * left to the caller; "does not open" kept whatever the count; each
 * descriptor closed with the table. */
static void
test_kept_dirs (void)
{
  GHashTable *dirs = kic_kept_dirs_new ();
  int fds[KIC_KEPT_DIRS + 1];
  int fd = 0;

  for (int i = 0; i <= KIC_KEPT_DIRS; i++)
    {
      g_autofree char *path = g_strdup_printf ("/d%d", i);

      fds[i] = open ("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      g_assert_cmpint (fds[i], >=, 0);
      g_assert_true (kic_kept_dirs_keep (dirs, path, fds[i]) == (i < KIC_KEPT_DIRS));
    }
  close (fds[KIC_KEPT_DIRS]);
  g_assert_true (kic_kept_dirs_keep (dirs, "/missing", -1));
  g_assert_true (kic_kept_dirs_lookup (dirs, "/d0", &fd));
  g_assert_cmpint (fd, ==, fds[0]);
  g_assert_true (kic_kept_dirs_lookup (dirs, "/missing", &fd));
  g_assert_cmpint (fd, ==, -1);
  g_assert_false (kic_kept_dirs_lookup (dirs, "/d64", &fd));
  g_hash_table_unref (dirs);
  /* closed with the table */
  g_assert_cmpint (fcntl (fds[0], F_GETFD), ==, -1);
  g_assert_cmpint (fcntl (fds[KIC_KEPT_DIRS - 1], F_GETFD), ==, -1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/safeopen/open-in-root", Fixture, NULL, setup, test_open_in_root, teardown);
  g_test_add ("/safeopen/mkdirs-modes-and-made", Fixture, NULL, setup, test_mkdirs_modes_and_made, teardown);
  g_test_add ("/safeopen/mkdirs-obstacles", Fixture, NULL, setup, test_mkdirs_obstacles, teardown);
  g_test_add ("/safeopen/walk-step", Fixture, NULL, setup, test_walk_step, teardown);
  g_test_add_func ("/safeopen/kept-dirs", test_kept_dirs);
  return g_test_run ();
}
