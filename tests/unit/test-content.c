/* test-content.c - content identities: one per real path, a file read at
 * most once, equal by bytes across paths, and the bytes kept for copies */
#include "content.h"
#include "diag.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

typedef struct {
  char *root;
  KicFsIndex *index;
  KicContentTable *table;
} Fixture;

static void
write_at (const Fixture *f, const char *path, const char *text, gsize length, int mode)
{
  g_autofree char *host = g_build_filename (f->root, path, NULL);
  g_autofree char *dir = g_path_get_dirname (host);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (host, text, length, NULL));
  g_assert_cmpint (chmod (host, mode), ==, 0);
}

static void
setup (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *link = NULL;

  f->root = g_dir_make_tmp ("kic-content-XXXXXX", &error);
  g_assert_no_error (error);
  write_at (f, "/icons/a.png", "\x89PNG\r\n\x1a\nA", 9, 0644);
  write_at (f, "/icons/same-as-a.png", "\x89PNG\r\n\x1a\nA", 9, 0644);
  write_at (f, "/icons/b.png", "\x89PNG\r\n\x1a\nB", 9, 0644);
  write_at (f, "/icons/private.png", "\x89PNG\r\n\x1a\nP", 9, 0600);
  write_at (f, "/icons/fake.png", "<svg/>", 6, 0644);
  write_at (f, "/icons/dir/.keep", "", 0, 0644);
  link = g_build_filename (f->root, "/icons/link-to-a.png", NULL);
  g_assert_cmpint (symlink ("a.png", link), ==, 0);
  f->index = kic_fs_index_new (f->root);
  f->table = kic_content_table_new (f->index);
}

static void
teardown (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", f->root);

  kic_content_table_unref (f->table);
  kic_fs_index_free (f->index);
  g_assert_cmpint (system (cmd), ==, 0);
  g_free (f->root);
}

/* One object per real path, and no read to tell that they are equal. */
static void
test_one_per_real_path (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const KicContent *a = kic_content_of_path (f->table, "/icons/a.png");
  const KicContent *via_link = kic_content_of_path (f->table, "/icons/link-to-a.png");

  g_assert_true (a == via_link);
  g_assert_cmpint (a->kind, ==, KIC_CONTENT_FILE);
  g_assert_true (kic_content_equal (a, via_link));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 0);
  g_assert_false (a->hashed);
}

/* Different real paths compare by their bytes, each file read once. */
static void
test_equal_by_bytes (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const KicContent *a = kic_content_of_path (f->table, "/icons/a.png");
  const KicContent *same = kic_content_of_path (f->table, "/icons/same-as-a.png");
  const KicContent *b = kic_content_of_path (f->table, "/icons/b.png");

  g_assert_true (kic_content_equal (a, same));
  g_assert_false (kic_content_equal (a, b));
  g_assert_false (kic_content_equal (b, same));
  g_assert_true (kic_content_equal (same, a));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 3);
  g_assert_true (a->hashed && b->hashed);
  g_assert_cmpstr (kic_content_sha256 (a), ==, kic_content_sha256 (same));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 3);
}

/* Files of different lengths differ without a read: each is stamped
 * (one fstatat) as a read would stamp it.  When a later read finds the
 * file changed since, the run keeps the stamp the comparison was made on,
 * so that the next run sees the change. */
/* a.png (9 bytes) and a new longer.png (14), stamps kept: they differ,
 * neither read */
static void
compared_by_length (Fixture *f, const KicContent **a, const KicContent **longer)
{
  write_at (f, "/icons/longer.png", "\x89PNG\r\n\x1a\nLONGER", 14, 0644);
  kic_fs_index_keep_stamps (f->index);
  *a = kic_content_of_path (f->table, "/icons/a.png");
  *longer = kic_content_of_path (f->table, "/icons/longer.png");
  g_assert_false (kic_content_equal (*a, *longer));
  g_assert_false (kic_content_equal (*longer, *a));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 0);
  g_assert_false ((*a)->hashed || (*longer)->hashed);
}

static void
test_lengths_first (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const KicContent *a, *longer;
  const KicFsStamp *stamp;
  g_autoptr (GError) error = NULL;

  compared_by_length (f, &a, &longer);
  stamp = g_hash_table_lookup (kic_fs_index_stamps (f->index), "/icons/longer.png");
  g_assert_nonnull (stamp);
  g_assert_cmpint (stamp->size, ==, 14);
  g_assert_cmpint (stamp->read_ns, >, 0);
  /* the same length: the bytes decide */
  g_assert_false (kic_content_equal (a, kic_content_of_path (f->table, "/icons/b.png")));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 2);
  /* longer.png made a's twin: its read finds another file than the
   * comparison's, whose answer stays the run's (hashed by nothing, it
   * equals no other content, and it is not copied), and whose stamp the
   * run keeps */
  write_at (f, "/icons/longer.png", "\x89PNG\r\n\x1a\nA", 9, 0644);
  g_assert_null (kic_content_sha256 (longer));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 3);
  g_assert_false (kic_content_equal (a, longer));
  g_assert_true (kic_content_equal (longer, longer));
  g_assert_null (kic_content_bytes (longer, NULL, &error));
  g_assert_nonnull (strstr (error->message, "changed while"));
  stamp = g_hash_table_lookup (kic_fs_index_stamps (f->index), "/icons/longer.png");
  g_assert_cmpint (stamp->size, ==, 14);
  /* nor is it read again for a PNG twin (which would stamp it again) */
  g_assert_false (kic_content_has_png (longer, NULL));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 3);
  stamp = g_hash_table_lookup (kic_fs_index_stamps (f->index), "/icons/longer.png");
  g_assert_cmpint (stamp->size, ==, 14);
}

/* The same when the file, compared by its length, is made one that may
 * not be copied before its read (mode 0600): not every user may read it,
 * so it is not read at all (issue 39, row 2), and it equals nothing else;
 * the stamp the comparison was made on stays the run's. */
static void
test_lengths_first_private (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const KicContent *a, *longer;
  const KicFsStamp *stamp;
  g_autoptr (GError) error = NULL;

  compared_by_length (f, &a, &longer);
  g_usleep (20000);
  write_at (f, "/icons/longer.png", "\x89PNG\r\n\x1a\nA", 9, 0600);
  g_assert_null (kic_content_bytes (longer, NULL, &error));
  g_assert_nonnull (strstr (error->message, "not readable by every user"));
  g_assert_false (kic_content_equal (a, longer));
  stamp = g_hash_table_lookup (kic_fs_index_stamps (f->index), "/icons/longer.png");
  g_assert_cmpint (stamp->size, ==, 14);
}

/* a.png as a content known from the last run: its hash, and its stamp
 * as it is now (*STAMP), seeded as the rebuild seeds a store copy's
 * source (commands-rebuild.c, known_contents()) */
static const KicContent *
known_a (Fixture *f, KicFsStamp *stamp)
{
  static const char bytes[] = "\x89PNG\r\n\x1a\nA";
  g_autofree char *host = g_build_filename (f->root, "/icons/a.png", NULL);
  g_autofree char *sha = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) bytes, 9);
  struct stat st;

  g_assert_cmpint (stat (host, &st), ==, 0);
  kic_fs_stamp_of_stat (stamp, KIC_FS_FILE, &st);
  kic_fs_index_keep_stamps (f->index);
  kic_fs_index_seed_file (f->index, "/icons/a.png", stamp);
  kic_content_table_know (f->table, "/icons/a.png", sha);
  return kic_content_of_path (f->table, "/icons/a.png");
}

/* A content known from the last run (its hash and stamp seeded) whose
 * read finds other bytes: not copied, and the run keeps the seeded
 * stamp, the one its comparisons (by that hash) were made on. */
static void
test_known_changed (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  const KicFsStamp *kept;
  KicFsStamp stamp;
  const KicContent *a = known_a (f, &stamp);

  g_usleep (20000);
  write_at (f, "/icons/a.png", "\x89PNG\r\n\x1a\nZ", 9, 0644);
  g_assert_null (kic_content_bytes (a, NULL, &error));
  g_assert_nonnull (strstr (error->message, "changed while"));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 1);
  kept = g_hash_table_lookup (kic_fs_index_stamps (f->index), "/icons/a.png");
  g_assert_cmpuint (kept->ino, ==, stamp.ino);
  g_assert_cmpint (kept->ctime_ns, ==, stamp.ctime_ns);
}

/* An access ACL that denies the user UID everything on the file at HOST
 * (as hardening-writer.sh's acl_deny): FALSE where the file system has
 * none. */
static gboolean
acl_deny (const char *host, guint32 uid)
{
  static const guint16 tags[][2] = { { 0x01, 7 }, { 0x02, 0 }, { 0x04, 5 }, { 0x10, 5 }, { 0x20, 5 } };
  guint8 value[4 + 8 * G_N_ELEMENTS (tags)];
  guint32 version = GUINT32_TO_LE (2);

  memcpy (value, &version, 4);
  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    {
      guint16 tag = GUINT16_TO_LE (tags[i][0]), perm = GUINT16_TO_LE (tags[i][1]);
      guint32 id = GUINT32_TO_LE (tags[i][0] == 0x02 ? uid : 0xffffffff);

      memcpy (value + 4 + 8 * i, &tag, 2);
      memcpy (value + 6 + 8 * i, &perm, 2);
      memcpy (value + 8 + 8 * i, &id, 4);
    }
  return setxattr (host, "system.posix_acl_access", value, sizeof value, 0) == 0;
}

/* A content known from the last run (its hash, and the stamp that run
 * took, seeded as the rebuild seeds a store copy's source) is copyable
 * without being opened while it is the file the stamp says: its ACL,
 * asked when the stamp was taken, is not asked again (so one set before
 * the stamp passes: a file no run would have copied).  Setting an ACL
 * since moves its change time: then it is asked again, and refused. */
static void
test_known_as_stamped (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *host = g_build_filename (f->root, "/icons/a.png", NULL);
  g_autoptr (GError) error = NULL;
  const KicContent *a;
  KicFsStamp stamp;

  if (!acl_deny (host, 65534))
    {
      g_test_skip ("no access ACLs on this file system");
      return;
    }
  a = known_a (f, &stamp);
  g_assert_true (kic_content_copyable (a, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 0);
  /* another ACL, a clock tick later: another change time */
  g_usleep (50000);
  g_assert_true (acl_deny (host, 65533));
  g_assert_false (kic_content_copyable (a, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "has an access ACL"));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 0);
}

/* What is no readable file equals only itself. */
static void
test_special_kinds (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const KicContent *dir = kic_content_of_path (f->table, "/icons/dir");
  const KicContent *missing = kic_content_of_path (f->table, "/icons/nosuch.png");
  const KicContent *missing2 = kic_content_of_path (f->table, "/icons/nosuch2.png");
  const KicContent *res = kic_content_special (f->table, KIC_CONTENT_RESOURCE, ":/icons/breeze/x.svg");
  const KicContent *nothing = kic_content_special (f->table, KIC_CONTENT_NOTHING, NULL);

  g_assert_cmpint (dir->kind, ==, KIC_CONTENT_DIRECTORY);
  g_assert_cmpint (missing->kind, ==, KIC_CONTENT_MISSING);
  g_assert_true (kic_content_equal (missing, kic_content_of_path (f->table, "/icons/nosuch.png")));
  g_assert_false (kic_content_equal (missing, missing2));
  g_assert_true (res == kic_content_special (f->table, KIC_CONTENT_RESOURCE, ":/icons/breeze/x.svg"));
  g_assert_false (kic_content_equal (res, kic_content_special (f->table, KIC_CONTENT_RESOURCE, ":/other.svg")));
  g_assert_true (nothing == kic_content_special (f->table, KIC_CONTENT_NOTHING, NULL));
  g_assert_false (kic_content_equal (nothing, dir));
  g_assert_null (kic_content_sha256 (dir));
}

/* The writer gets the bytes the comparison read, without a second read;
 * a file not everyone may read, or not the image its name says, none. */
static void
test_bytes_for_the_writer (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const KicContent *a = kic_content_of_path (f->table, "/icons/a.png");
  const KicContent *b = kic_content_of_path (f->table, "/icons/b.png");
  const KicContent *private = kic_content_of_path (f->table, "/icons/private.png");
  const KicContent *fake = kic_content_of_path (f->table, "/icons/fake.png");
  g_autoptr (GError) error = NULL;
  struct timespec mtime = { 0, 0 };
  GBytes *bytes;

  g_assert_false (kic_content_equal (a, b));
  bytes = kic_content_bytes (a, &mtime, &error);
  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 9);
  g_assert_cmpint (memcmp (g_bytes_get_data (bytes, NULL), "\x89PNG\r\n\x1a\nA", 9), ==, 0);
  g_assert_cmpint (mtime.tv_sec, >, 0);
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 2);
  g_assert_null (kic_content_bytes (private, NULL, &error));
  g_assert_nonnull (strstr (error->message, "readable by every user"));
  g_clear_error (&error);
  g_assert_null (kic_content_bytes (fake, NULL, &error));
  g_assert_nonnull (strstr (error->message, "not the image its name says"));
  g_clear_error (&error);
  /* and not hashed: not every user may read it, so what KDE shows from
   * it is not one answer, and root's would tell its bytes (issue 39,
   * row 2); it equals nothing but itself */
  g_assert_null (kic_content_sha256 (private));
  g_assert_true (kic_content_equal (private, private));
  g_assert_false (kic_content_equal (private, a));
}

/* The copyable check is source.h's: a directory on the way others may
 * search but not list, a sparse file -- no bytes for the writer; the
 * sparse file has a content identity all the same (the planner compares
 * what KDE shows), the file in the private directory none (issue 39, row
 * 2).  (One others may not search at all the index hides already: a run
 * by root asks nothing of what is in it, issue 39, row 1.) */
static void
test_copyable_is_kic_source_open (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  g_autofree char *secret = g_build_filename (f->root, "/secret", NULL);
  g_autofree char *closed = g_build_filename (f->root, "/closed", NULL);
  g_autofree char *sparse = g_build_filename (f->root, "/icons/sparse.png", NULL);
  const KicContent *hidden, *holes, *behind;
  g_autoptr (GError) error = NULL;
  int fd;

  write_at (f, "/secret/s.png", "\x89PNG\r\n\x1a\nS", 9, 0644);
  write_at (f, "/secret/t.png", "\x89PNG\r\n\x1a\nT", 9, 0644);
  g_assert_cmpint (chmod (secret, 0711), ==, 0);
  write_at (f, "/closed/c.png", "\x89PNG\r\n\x1a\nC", 9, 0644);
  g_assert_cmpint (chmod (closed, 0750), ==, 0);
  behind = kic_content_of_path (f->table, "/closed/c.png");
  if (geteuid () == 0)
    g_assert_cmpint (behind->kind, ==, KIC_CONTENT_UNREADABLE);
  g_assert_null (kic_content_bytes (behind, NULL, &error));
  g_clear_error (&error);
  g_assert_null (kic_content_sha256 (behind));
  write_at (f, "/icons/sparse.png", "\x89PNG\r\n\x1a\nH", 9, 0644);
  fd = open (sparse, O_WRONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, 1 << 20), ==, 0);
  g_assert_cmpint (pwrite (fd, "x", 1, (1 << 20) - 1), ==, 1);
  close (fd);
  hidden = kic_content_of_path (f->table, "/secret/s.png");
  holes = kic_content_of_path (f->table, "/icons/sparse.png");
  g_assert_null (kic_content_bytes (hidden, NULL, &error));
  g_assert_nonnull (strstr (error->message, "searchable by every user"));
  g_clear_error (&error);
  g_assert_null (kic_content_sha256 (hidden));
  /* a second file there is refused too: a directory that fails the check
   * is not kept as checked (source.h, KicSourceDirs) */
  g_assert_null (kic_content_bytes (kic_content_of_path (f->table, "/secret/t.png"), NULL, &error));
  g_assert_nonnull (strstr (error->message, "searchable by every user"));
  g_clear_error (&error);
  fd = open (sparse, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  /* (a file system that knows no holes says the file has none) */
  if (lseek (fd, 0, SEEK_HOLE) < (1 << 20) - 1)
    {
      g_assert_null (kic_content_bytes (holes, NULL, &error));
      g_assert_nonnull (strstr (error->message, "sparse"));
      g_clear_error (&error);
    }
  close (fd);
  g_assert_nonnull (kic_content_sha256 (holes));
}

/* Bytes let go after the plan are read again for the writer only when
 * they still hash the same. */
static void
test_keep_only (Fixture *f, G_GNUC_UNUSED gconstpointer data)
{
  const KicContent *a = kic_content_of_path (f->table, "/icons/a.png");
  const KicContent *b = kic_content_of_path (f->table, "/icons/b.png");
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GError) error = NULL;

  g_assert_false (kic_content_equal (a, b));
  g_hash_table_add (wanted, (gpointer) a);
  kic_content_table_keep_only (f->table, wanted);
  g_assert_nonnull (kic_content_bytes (a, NULL, &error));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 2);
  /* b was let go; it changed since */
  write_at (f, "/icons/b.png", "\x89PNG\r\n\x1a\nC", 9, 0644);
  g_assert_null (kic_content_bytes (b, NULL, &error));
  g_assert_nonnull (strstr (error->message, "changed while"));
  g_assert_cmpuint (kic_content_table_n_read (f->table), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  kic_quiet = TRUE;
#define ADD(path, fn) g_test_add (path, Fixture, NULL, setup, fn, teardown)
  ADD ("/content/one-per-real-path", test_one_per_real_path);
  ADD ("/content/equal-by-bytes", test_equal_by_bytes);
  ADD ("/content/lengths-first", test_lengths_first);
  ADD ("/content/lengths-first-private", test_lengths_first_private);
  ADD ("/content/known-changed", test_known_changed);
  ADD ("/content/known-as-stamped", test_known_as_stamped);
  ADD ("/content/special-kinds", test_special_kinds);
  ADD ("/content/bytes-for-the-writer", test_bytes_for_the_writer);
  ADD ("/content/keep-only", test_keep_only);
  ADD ("/content/copyable-is-kic-source-open", test_copyable_is_kic_source_open);
  return g_test_run ();
}
