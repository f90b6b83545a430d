/* test-writer.c - the KicWriter: lock, manifest, links and copies, and a
 * package racing it (the before_link hook acts where dpkg could) */
#include "diag.h"
#include "writer-log.h"
#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STORE "/var/lib/kic"
#define LINK "/usr/share/icons/t/apps/app.png"

typedef struct {
  char *root;
  GPtrArray *indexes; /* one per writer, as one per run */
  char **link_dirs;
  KicWriterOptions options;
} Fixture;

static char *
at (const Fixture *f, const char *path)
{
  return g_build_filename (f->root, path, NULL);
}

static void
write_at (const Fixture *f, const char *path, const char *text, gsize length)
{
  g_autofree char *host = at (f, path);
  g_autofree char *dir = g_path_get_dirname (host);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (host, text, length, NULL));
  g_assert_cmpint (chmod (host, 0644), ==, 0);
}

static char *
read_at (const Fixture *f, const char *path)
{
  g_autofree char *host = at (f, path);
  char *text = NULL;

  if (!g_file_get_contents (host, &text, NULL, NULL))
    return NULL;
  return text;
}

static char *
link_at (const Fixture *f, const char *path)
{
  g_autofree char *host = at (f, path);

  return g_file_read_link (host, NULL);
}

static void
setup (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->root = g_dir_make_tmp ("kic-writer-XXXXXX", &error);
  g_assert_no_error (error);
  write_at (f, "/usr/share/src/a.png", "\x89PNG\r\n\x1a\nA", 9);
  write_at (f, "/usr/share/src/b.png", "\x89PNG\r\n\x1a\nB", 9);
  write_at (f, "/usr/share/icons/t/apps/.keep", "", 0);
  f->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_fs_index_free);
  f->link_dirs = g_strsplit ("/usr/share/icons", ",", -1);
  f->options.store = STORE;
  f->options.link_dirs = f->link_dirs;
}

static void
teardown (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", f->root);

  g_ptr_array_unref (f->indexes);
  g_strfreev (f->link_dirs);
  g_assert_cmpint (system (cmd), ==, 0);
  g_free (f->root);
}

static KicWriter *
open_writer (Fixture *f, GError **error)
{
  KicFsIndex *index = kic_fs_index_new (f->root);

  g_ptr_array_add (f->indexes, index);
  f->options.index = index;
  return kic_writer_open (&f->options, error);
}

/* The links of one link at LINK for SOURCE's copy, its content from
 * TABLE; none when SOURCE is NULL.  The strings are freed with the array
 * (links_free). */
static GPtrArray *
links_of (KicContentTable *table, const char *source)
{
  GPtrArray *links = g_ptr_array_new ();

  if (source != NULL)
    {
      KicWriteLink *want = g_new0 (KicWriteLink, 1);

      want->link = g_strdup (LINK);
      want->source = g_strdup (source);
      want->store = g_strconcat (STORE, "/files", source, NULL);
      want->content = kic_content_of_path (table, source);
      g_ptr_array_add (links, want);
    }
  return links;
}

static void
links_free (GPtrArray *links)
{
  for (guint i = 0; i < links->len; i++)
    {
      KicWriteLink *want = g_ptr_array_index (links, i);

      g_free ((char *) want->link);
      g_free ((char *) want->source);
      g_free ((char *) want->store);
      g_free (want);
    }
  g_ptr_array_unref (links);
}

/* One run: open, apply the link of SOURCE, free. */
static void
run (Fixture *f, const char *source, KicWriteStats *stats)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (KicWriter) writer = open_writer (f, &error);
  g_autoptr (KicContentTable) table = kic_content_table_new (f->options.index);
  GPtrArray *links = links_of (table, source);

  g_assert_no_error (error);
  g_assert_true (kic_writer_apply (writer, links, "test", stats, &error));
  g_assert_no_error (error);
  links_free (links);
}

static void
test_apply_then_noop (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *target = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *manifest = at (f, STORE "/manifest");
  KicWriteStats stats;
  struct stat before, after;

  run (f, "/usr/share/src/a.png", &stats);
  g_assert_cmpuint (stats.added, ==, 1);
  g_assert_cmpuint (stats.files_written, ==, 1);
  target = link_at (f, LINK);
  g_assert_cmpstr (target, ==, "../../../../../var/lib/kic/files/usr/share/src/a.png");
  copy = read_at (f, STORE "/files/usr/share/src/a.png");
  g_assert_cmpstr (copy, ==, "\x89PNG\r\n\x1a\nA");
  g_assert_cmpint (stat (manifest, &before), ==, 0);
  run (f, "/usr/share/src/a.png", &stats);
  g_assert_cmpuint (stats.unchanged, ==, 1);
  g_assert_cmpuint (stats.added + stats.replaced + stats.removed + stats.files_written, ==, 0);
  g_assert_cmpint (stat (manifest, &after), ==, 0);
  g_assert_cmpuint (before.st_ino, ==, after.st_ino);
  g_assert_cmpint (before.st_mtim.tv_nsec, ==, after.st_mtim.tv_nsec);
  /* a different source: the link is replaced */
  run (f, "/usr/share/src/b.png", &stats);
  g_assert_cmpuint (stats.replaced, ==, 1);
  g_assert_cmpuint (stats.files_removed, ==, 1);
  g_free (target);
  target = link_at (f, LINK);
  g_assert_true (g_str_has_suffix (target, "/files/usr/share/src/b.png"));
}

/* The store's own files (the state, the fingerprint) are written unless
 * they hold exactly the text already: byte for byte, a file of another
 * length too (one that holds the text and more after a NUL byte is
 * rewritten). */
static void
test_store_file_as_given (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *host = at (f, STORE "/state");
  g_autofree char *text = NULL;
  KicWriteStats stats;
  struct stat before, after;
  gsize length;

  run (f, "/usr/share/src/a.png", &stats);
  {
    g_autoptr (KicWriter) writer = open_writer (f, &error);

    g_assert_true (kic_writer_put_state (writer, "state one\n", &error));
    g_assert_cmpint (stat (host, &before), ==, 0);
    g_assert_true (kic_writer_put_state (writer, "state one\n", &error));
    g_assert_cmpint (stat (host, &after), ==, 0);
    g_assert_cmpuint (before.st_ino, ==, after.st_ino);
    g_assert_true (kic_writer_put_state (writer, "state two\n", &error));
    g_assert_true (g_file_get_contents (host, &text, &length, NULL));
    g_assert_cmpstr (text, ==, "state two\n");
    g_clear_pointer (&text, g_free);
    /* the text, a NUL, and more */
    g_assert_true (g_file_set_contents (host, "state two\n\0more", 15, NULL));
    g_assert_true (kic_writer_put_state (writer, "state two\n", &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (host, &text, &length, NULL));
  g_assert_cmpuint (length, ==, 10);
}

/* A link directory below a directory its group may write (the theme's
 * top, or the link's directory itself) takes no link: every step of the
 * walk is checked, the steps the writer took once for other directories
 * too (a first run plants, so the parents are open when the check is
 * asked again). */
static void
test_untrusted_link_dir (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const char *const modes[] = { "/usr/share/icons/t", "/usr/share/icons/t/apps" };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *host = at (f, modes[i]);
      g_autofree char *target = NULL;
      KicWriteStats stats;

      g_assert_cmpint (chmod (host, 0775), ==, 0);
      run (f, "/usr/share/src/a.png", &stats);
      g_assert_cmpuint (stats.added, ==, 0);
      target = link_at (f, LINK);
      g_assert_null (target);
      g_assert_cmpint (chmod (host, 0755), ==, 0);
      run (f, "/usr/share/src/a.png", &stats);
      g_assert_cmpuint (stats.added, ==, 1);
      run (f, NULL, &stats);
      g_assert_cmpuint (stats.removed, ==, 1);
    }
}

/* before_link: a package puts its own file at the link's path */
static void
dpkg_writes (const char *link, gpointer data)
{
  Fixture *f = data;
  g_autofree char *host = at (f, link);

  unlink (host);
  write_at (f, link, "dpkg's file", strlen ("dpkg's file"));
}

static void
race (Fixture *f, const char *source, KicWriteStats *stats)
{
  f->options.before_link = dpkg_writes;
  f->options.before_link_data = f;
  run (f, source, stats);
  f->options.before_link = NULL;
}

static void
test_race_new_link (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *text = NULL;
  g_autofree char *manifest = NULL;
  KicWriteStats stats;

  race (f, "/usr/share/src/a.png", &stats);
  text = read_at (f, LINK);
  g_assert_cmpstr (text, ==, "dpkg's file");
  g_assert_cmpuint (stats.added, ==, 0);
  g_assert_cmpuint (stats.refused, ==, 1);
  manifest = read_at (f, STORE "/manifest");
  g_assert_null (strstr (manifest, "link\t"));
}

static void
test_race_replace (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *text = NULL;
  KicWriteStats stats;

  run (f, "/usr/share/src/a.png", &stats);
  race (f, "/usr/share/src/b.png", &stats);
  text = read_at (f, LINK);
  g_assert_cmpstr (text, ==, "dpkg's file");
  g_assert_cmpuint (stats.replaced, ==, 0);
  g_assert_cmpuint (stats.refused, ==, 1);
}

static void
test_race_remove (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *text = NULL;
  KicWriteStats stats;

  run (f, "/usr/share/src/a.png", &stats);
  race (f, NULL, &stats);
  text = read_at (f, LINK);
  g_assert_cmpstr (text, ==, "dpkg's file");
  g_assert_cmpuint (stats.removed, ==, 0);
}

/* before_link: a package adds its own icon beside the link, in the same
 * directory */
static void
dpkg_adds_beside (G_GNUC_UNUSED const char *link, gpointer data)
{
  write_at (data, "/usr/share/icons/t/apps/pkg.png", "\x89PNG\r\n\x1a\nP", 9);
}

/* The link directory's modification time (seconds) after one run that
 * plants the link: the directory's time set to an old one first, then
 * its listing read by the run's index (as the planner reads it); HOOK
 * acts before the link is made. */
static gint64
mtime_after_run (Fixture *f, void (*hook) (const char *, gpointer))
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = at (f, "/usr/share/icons/t/apps");
  const struct timespec old[2] = { { 0, UTIME_OMIT }, { 1000000000, 0 } };
  g_autoptr (KicWriter) writer = NULL;
  g_autoptr (KicContentTable) table = NULL;
  g_autoptr (GPtrArray) listed = NULL;
  KicWriteStats stats;
  GPtrArray *links;
  struct stat st;

  g_assert_cmpint (utimensat (AT_FDCWD, dir, old, 0), ==, 0);
  f->options.before_link = hook;
  f->options.before_link_data = f;
  writer = open_writer (f, &error);
  g_assert_no_error (error);
  listed = kic_fs_index_list (f->options.index, "/usr/share/icons/t/apps");
  g_assert_nonnull (listed);
  table = kic_content_table_new (f->options.index);
  links = links_of (table, "/usr/share/src/a.png");
  g_assert_true (kic_writer_apply (writer, links, "test", &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.added, ==, 1);
  links_free (links);
  f->options.before_link = NULL;
  g_assert_cmpint (stat (dir, &st), ==, 0);
  return st.st_mtim.tv_sec;
}

/* The run puts back the time of a directory it planted in: GTK's caches
 * compare it. */
static void
test_dir_time_put_back (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_assert_cmpint (mtime_after_run (f, NULL), ==, 1000000000);
}

/* But not over a change a package made there meanwhile: the time put back
 * would hide it from the next run's fingerprint (which stamps a directory
 * only root may write by that time) and GTK's. */
static void
test_dir_time_foreign_change (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_assert_cmpint (mtime_after_run (f, dpkg_adds_beside), >, 1000000000);
}

/* A manifest naming a file outside the store, a store path with other
 * content, and a link that does not point into the store: --clean
 * removes none of them, and everything of ours. */
static void
test_hostile_manifest (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (KicWriter) writer = NULL;
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "precious\n", -1);
  g_autofree char *lines = NULL;
  g_autofree char *manifest = at (f, STORE "/manifest");
  g_autofree char *pkg = at (f, "/usr/share/icons/t/apps/pkg.png");
  g_autofree char *etc = at (f, "/etc/precious.conf");
  g_autofree char *other = at (f, STORE "/files/other.png");
  g_autofree char *our_link = at (f, LINK);
  KicWriteStats stats;
  FILE *out;

  run (f, "/usr/share/src/a.png", &stats);
  write_at (f, "/etc/precious.conf", "precious\n", -1);
  write_at (f, STORE "/files/other.png", "someone's\n", -1);
  g_assert_cmpint (symlink ("../../../src/a.png", pkg), ==, 0);
  lines = g_strdup_printf ("file\t/etc/precious.conf\t/etc/precious.conf\t%s\n"
                           "file\t" STORE "/files/other.png\t/other.png\t%s\n"
                           "link\t/usr/share/icons/t/apps/pkg.png\t../../../src/a.png\n", sum, sum);
  out = fopen (manifest, "a");
  g_assert_nonnull (out);
  fputs (lines, out);
  fclose (out);
  writer = open_writer (f, &error);
  g_assert_no_error (error);
  g_assert_true (kic_writer_clean (writer, &stats, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (etc, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (other, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (pkg, G_FILE_TEST_IS_SYMLINK));
  g_assert_false (g_file_test (our_link, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpuint (stats.removed, ==, 1);
  g_assert_cmpuint (stats.files_removed, ==, 1);
}

static void
test_lock (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *shadow = at (f, "/etc/shadow");
  g_autofree char *lock = at (f, STORE "/lock");
  KicWriter *first = open_writer (f, &error);
  KicWriter *second;
  struct stat st;

  g_assert_no_error (error);
  /* only root may open it, so only root may hold it (issue 19, row 4) */
  g_assert_cmpint (stat (lock, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  second = open_writer (f, &error);
  g_assert_null (second);
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "another kde-icon-cache holds"));
  g_clear_error (&error);
  kic_writer_free (first);
  second = open_writer (f, &error);
  g_assert_no_error (error);
  kic_writer_free (second);
  /* a lock that is a hard link to another file: refused, mode kept */
  write_at (f, "/etc/shadow", "root:x\n", -1);
  g_assert_cmpint (chmod (shadow, 0600), ==, 0);
  g_assert_cmpint (unlink (lock), ==, 0);
  g_assert_cmpint (link (shadow, lock), ==, 0);
  g_assert_null (open_writer (f, &error));
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  g_assert_cmpint (stat (shadow, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  g_clear_error (&error);
  /* a FIFO: refused, named, without being opened (row 10) */
  g_assert_cmpint (unlink (lock), ==, 0);
  g_assert_cmpint (mkfifo (lock, 0600), ==, 0);
  g_assert_null (open_writer (f, &error));
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "is not a lock file of ours"));
}

static void
test_fifo_manifest (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *manifest = at (f, STORE "/manifest");
  KicWriteStats stats;

  run (f, "/usr/share/src/a.png", &stats);
  g_assert_cmpint (unlink (manifest), ==, 0);
  g_assert_cmpint (mkfifo (manifest, 0644), ==, 0);
  alarm (20); /* a hang fails the test */
  g_assert_null (open_writer (f, &error));
  alarm (0);
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "is not a regular file"));
}

/* A manifest cut short: the link on disk into the store is ours still. */
static void
test_damaged_manifest (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (KicWriter) writer = NULL;
  g_autoptr (GPtrArray) owned = NULL;
  g_autofree char *manifest = at (f, STORE "/manifest");
  g_autofree char *text = NULL;
  KicWriteStats stats;

  run (f, "/usr/share/src/a.png", &stats);
  text = read_at (f, STORE "/manifest");
  *strstr (text, "link\t") = '\0';
  g_assert_true (g_file_set_contents (manifest, text, -1, NULL));
  writer = open_writer (f, &error);
  g_assert_no_error (error);
  g_assert_true (kic_writer_manifest (writer)->damaged);
  owned = kic_writer_owned_links (writer);
  g_assert_cmpuint (owned->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (owned, 0), ==, LINK);
}

/* --clean removes the store and the parents a run made, no more. */
static void
test_clean_made_dirs (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (KicWriter) writer = NULL;
  g_autofree char *var = at (f, "/var");
  g_autofree char *usr = at (f, "/usr/share/icons/t/apps");
  KicWriteStats stats;

  run (f, "/usr/share/src/a.png", &stats);
  writer = open_writer (f, &error);
  g_assert_no_error (error);
  g_assert_true (kic_writer_clean (writer, &stats, &error));
  g_assert_false (g_file_test (var, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (usr, G_FILE_TEST_IS_DIR));
}

/* A tab or a newline in a path or a detail stays inside its field: every
 * line of the change log has its five fields, whatever the file names. */
static void
test_log_fields (Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
  g_autofree char *logdir = g_build_filename (f->root, "var/log", NULL);
  g_autofree char *path = g_build_filename (logdir, "kde-icon-cache.log", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  int rootfd = open (f->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
  KicChangeLog *log = kic_change_log_new (rootfd, "", "rebuild");

  g_assert_cmpint (g_mkdir_with_parents (logdir, 0755), ==, 0);
  kic_change_log_add (log, "added", "/usr/share/icons/t/apps/a\tb\nc.png", "to\t/x\r\ny");
  kic_change_log_free (log);
  close (rootfd);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 2);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], "\t", -1);

      g_assert_cmpuint (g_strv_length (fields), ==, 5);
    }
  g_assert_nonnull (strstr (text, "a b c.png\tto /x  y\n"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  kic_quiet = TRUE;
  g_test_add ("/writer/apply-then-noop", Fixture, NULL, setup, test_apply_then_noop, teardown);
  g_test_add ("/writer/store-file-as-given", Fixture, NULL, setup, test_store_file_as_given, teardown);
  g_test_add ("/writer/untrusted-link-dir", Fixture, NULL, setup, test_untrusted_link_dir, teardown);
  g_test_add ("/writer/race-new-link", Fixture, NULL, setup, test_race_new_link, teardown);
  g_test_add ("/writer/race-replace", Fixture, NULL, setup, test_race_replace, teardown);
  g_test_add ("/writer/race-remove", Fixture, NULL, setup, test_race_remove, teardown);
  g_test_add ("/writer/dir-time-put-back", Fixture, NULL, setup, test_dir_time_put_back, teardown);
  g_test_add ("/writer/dir-time-foreign-change", Fixture, NULL, setup, test_dir_time_foreign_change, teardown);
  g_test_add ("/writer/hostile-manifest", Fixture, NULL, setup, test_hostile_manifest, teardown);
  g_test_add ("/writer/lock", Fixture, NULL, setup, test_lock, teardown);
  g_test_add ("/writer/fifo-manifest", Fixture, NULL, setup, test_fifo_manifest, teardown);
  g_test_add ("/writer/damaged-manifest", Fixture, NULL, setup, test_damaged_manifest, teardown);
  g_test_add ("/writer/clean-made-dirs", Fixture, NULL, setup, test_clean_made_dirs, teardown);
  g_test_add ("/writer/log-fields", Fixture, NULL, setup, test_log_fields, teardown);
  return g_test_run ();
}
