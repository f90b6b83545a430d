/* test-fsindex.c - listings, links inside a root, virtual entries */
#include "fsindex.h"
#include "path.h"
#include "sorted.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

static void
mk (const char *root, const char *rel)
{
  g_autofree char *p = g_build_filename (root, rel, NULL);
  g_assert_cmpint (g_mkdir_with_parents (p, 0755), ==, 0);
}

static void
mkfile (const char *root, const char *rel)
{
  g_autofree char *p = g_build_filename (root, rel, NULL);
  g_assert_true (g_file_set_contents (p, rel, -1, NULL));
}

static void
mklink (const char *root, const char *target, const char *rel)
{
  g_autofree char *p = g_build_filename (root, rel, NULL);
  g_assert_cmpint (symlink (target, p), ==, 0);
}

#define MK(rel) mk (root, rel)
#define FILE_(rel) mkfile (root, rel)
#define LINK(target, rel) mklink (root, target, rel)

static char *
make_tree (void)
{
  g_autoptr (GError) error = NULL;
  char *root = g_dir_make_tmp ("kic-fsindex-XXXXXX", &error);

  g_assert_no_error (error);
  MK ("usr/share/icons/theme/apps");
  MK ("opt/real");
  FILE_ ("usr/share/icons/theme/apps/a.svg");
  FILE_ ("opt/real/b.svg");
  MK ("etc");
  FILE_ ("etc/passwd-in-root");
  /* an absolute link: inside the root it must resolve to <root>/opt/real */
  LINK ("/opt/real/b.svg", "usr/share/icons/theme/apps/abs.svg");
  /* relative, through ".." */
  LINK ("../apps/a.svg", "usr/share/icons/theme/apps/rel.svg");
  LINK ("nowhere.svg", "usr/share/icons/theme/apps/dangling.svg");
  LINK ("loop2.svg", "usr/share/icons/theme/apps/loop1.svg");
  LINK ("loop1.svg", "usr/share/icons/theme/apps/loop2.svg");
  /* a directory link whose ".." must go to the target's parent */
  LINK ("/opt/real", "usr/share/icons/theme/linked");
  /* escaping upwards stops at the root */
  LINK ("../../../../../../../etc/passwd-in-root", "usr/share/icons/theme/apps/escape.svg");
  return root;
}

static void
remove_tree (const char *root)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", root);
  g_assert_cmpint (system (cmd), ==, 0);
}

static void
test_links_in_root (void)
{
  g_autofree char *root = make_tree ();
  g_autoptr (KicFsIndex) index = kic_fs_index_new (root);
  g_autofree char *real = NULL;
  g_autofree char *escaped = NULL;
  const char *apps = "/usr/share/icons/theme/apps";

  g_assert_cmpint (kic_fs_index_stat_at (index, apps, "a.svg"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat_at (index, apps, "abs.svg"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat_at (index, apps, "rel.svg"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat_at (index, apps, "dangling.svg"), ==, KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_stat_at (index, apps, "loop1.svg"), ==, KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_stat_at (index, apps, "escape.svg"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat_at (index, apps, "missing.svg"), ==, KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_stat (index, "/usr/share/icons/theme/linked"), ==, KIC_FS_DIR);
  g_assert_cmpint (kic_fs_index_stat (index, "/usr/share/icons/theme/linked/b.svg"), ==, KIC_FS_FILE);
  /* ".." after a directory link is the parent of its target (/opt) */
  g_assert_cmpint (kic_fs_index_stat (index, "/usr/share/icons/theme/linked/../real/b.svg"), ==, KIC_FS_FILE);
  real = kic_fs_index_realpath (index, "/usr/share/icons/theme/apps/abs.svg");
  g_assert_cmpstr (real, ==, "/opt/real/b.svg");
  escaped = kic_fs_index_realpath (index, "/usr/share/icons/theme/apps/escape.svg");
  g_assert_cmpstr (escaped, ==, "/etc/passwd-in-root");
  remove_tree (root);
}

static void
test_reads_each_dir_once (void)
{
  g_autofree char *root = make_tree ();
  g_autoptr (KicFsIndex) index = kic_fs_index_new (root);
  guint before;

  kic_fs_index_stat_at (index, "/usr/share/icons/theme/apps", "a.svg");
  before = kic_fs_index_n_dirs_read (index);
  for (int i = 0; i < 100; i++)
    {
      kic_fs_index_stat_at (index, "/usr/share/icons/theme/apps", "a.svg");
      kic_fs_index_stat_at (index, "/usr/share/icons/theme/apps", "x.svg");
    }
  g_assert_cmpuint (kic_fs_index_n_dirs_read (index), ==, before);
  remove_tree (root);
}

static void
test_virtual (void)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  g_autoptr (GPtrArray) names = NULL;

  g_assert_cmpint (kic_fs_index_stat (index, "/usr/share"), ==, KIC_FS_NONE);
  kic_fs_index_add (index, "/usr/share/icons/t/apps", "b.svg", KIC_FS_FILE);
  kic_fs_index_add (index, "/usr/share/icons/t/apps", "a.svg", KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat (index, "/usr/share"), ==, KIC_FS_DIR);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/usr/share/icons/t/apps", "a.svg"), ==, KIC_FS_FILE);
  names = kic_fs_index_list (index, "/usr/share/icons/t/apps");
  g_assert_cmpuint (names->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "a.svg");
  kic_fs_index_add (index, "/usr/share/icons/t/apps", "a.svg", KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/usr/share/icons/t/apps", "a.svg"), ==, KIC_FS_NONE);
  g_assert_cmpuint (kic_fs_index_n_dirs_read (index), ==, 0);
}

/* A virtual file's bytes: read back as given (NUL-terminated), under the
 * same bound as a disk file; a file told of without bytes, a directory
 * and a missing path cannot be read. */
static void
test_virtual_contents (void)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gsize length = 0;

  kic_fs_index_add_contents (index, "/etc/xdg/", "kdeglobals", "[Icons]\nTheme=x\n", 17);
  kic_fs_index_add (index, "/etc/xdg", "empty", KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat (index, "/etc/xdg/kdeglobals"), ==, KIC_FS_FILE);
  g_assert_true (kic_fs_index_read_file (index, "/etc/xdg/kdeglobals", &data, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, 17);
  g_assert_cmpstr (data, ==, "[Icons]\nTheme=x\n");
  g_clear_pointer (&data, g_free);
  g_assert_false (kic_fs_index_read_file_max (index, "/etc/xdg/kdeglobals", 16, &data, &length, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM);
  g_clear_error (&error);
  g_assert_false (kic_fs_index_read_file (index, "/etc/xdg/empty", &data, &length, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_clear_error (&error);
  g_assert_false (kic_fs_index_read_file (index, "/etc/xdg", &data, &length, &error));
  g_clear_error (&error);
  g_assert_false (kic_fs_index_read_file (index, "/etc/nosuch", &data, &length, &error));
  g_clear_error (&error);
  /* told again: the new bytes */
  kic_fs_index_add_contents (index, "/etc/xdg", "kdeglobals", "x", 1);
  g_assert_true (kic_fs_index_read_file (index, "/etc/xdg/kdeglobals", &data, &length, NULL));
  g_assert_cmpstr (data, ==, "x");
  g_free (data);
  g_assert_cmpuint (kic_fs_index_n_dirs_read (index), ==, 0);
}

/* The hashed form answers as the hash table does, for every name of a
 * listing and for names it lacks, and sees a listing change after it was
 * first asked. */
static void
test_dir_stat_hashed (void)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  const char *dir = "/usr/share/icons/t/apps";
  const KicFsDir *listing;
  char name[32];

  for (int i = 0; i < 300; i++)
    {
      g_snprintf (name, sizeof name, "icon-%d.svg", i);
      kic_fs_index_add (index, dir, name, i % 7 ? KIC_FS_FILE : KIC_FS_DIR);
    }
  listing = kic_fs_index_dir (index, dir);
  g_assert_nonnull (listing);
  for (int i = 0; i < 320; i++)
    {
      g_snprintf (name, sizeof name, "icon-%d.svg", i);
      g_assert_cmpint (kic_fs_index_dir_stat_hashed (index, listing, name, kic_fs_name_hash (name)), ==,
                       kic_fs_index_dir_stat (index, listing, name));
      g_assert_cmpint (kic_fs_index_dir_stat (index, listing, name), ==,
                       i >= 300 ? KIC_FS_NONE : i % 7 ? KIC_FS_FILE : KIC_FS_DIR);
    }
  kic_fs_index_add (index, dir, "late.svg", KIC_FS_FILE);
  kic_fs_index_add (index, dir, "icon-1.svg", KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_dir_stat_hashed (index, listing, "late.svg", kic_fs_name_hash ("late.svg")), ==,
                   KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_dir_stat_hashed (index, listing, "icon-1.svg", kic_fs_name_hash ("icon-1.svg")), ==,
                   KIC_FS_NONE);
}

/* found by fuzzing: removing a directory must forget what was below it */
static void
test_virtual_remove_dir (void)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();

  kic_fs_index_add (index, "/a/b/c", "f.svg", KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat (index, "/a/b/c/f.svg"), ==, KIC_FS_FILE);
  kic_fs_index_add (index, "/a", "b", KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_stat (index, "/a/b"), ==, KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_stat (index, "/a/b/c/f.svg"), ==, KIC_FS_NONE);
}

static void
test_clean (void)
{
  g_autofree char *a = kic_path_clean ("//usr/./share/../share/icons/");
  g_autofree char *b = kic_path_clean ("/../..");

  g_assert_cmpstr (a, ==, "/usr/share/icons");
  g_assert_cmpstr (b, ==, "/");
}

/* A path is resolved one step below its parent's real path when that is
 * the parent itself; links still count as in a walk from the root: a
 * chain of 40 resolves, one of 41 does not (ELOOP), whatever was resolved
 * before. */
static void
test_resolve_below_parent (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kic-fsindex-XXXXXX", &error);
  g_autoptr (KicFsIndex) index = NULL;
  const char *const want[][2] = {
    { "/a/b/c", "/a/b/c" },        /* no link on the way */
    { "/a/b/missing", NULL },
    { "/l/b/c", "/a/b/c" },        /* its parent reached through a link */
    { "/a/b/up", "/a" },           /* the last component a link */
    { "/a/b/x1", "/a/b/c" },       /* 40 links */
    { "/a/b/x0", NULL },           /* 41 */
    { "/a/b/c/d", "/a/b/c/d" },
  };

  g_assert_no_error (error);
  MK ("a/b/c/d");
  LINK ("a", "l");
  LINK ("..", "a/b/up");
  for (int i = 0; i <= 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("a/b/x%d", i);
      g_autofree char *next = i < 40 ? g_strdup_printf ("x%d", i + 1) : g_strdup ("c");

      LINK (next, name);
    }
  index = kic_fs_index_new (root);
  /* every parent resolved first */
  g_assert_cmpint (kic_fs_index_stat (index, "/a/b"), ==, KIC_FS_DIR);
  g_assert_cmpint (kic_fs_index_stat (index, "/l/b"), ==, KIC_FS_DIR);
  g_assert_cmpint (kic_fs_index_stat (index, "/a/b/c"), ==, KIC_FS_DIR);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autofree char *real = kic_fs_index_realpath (index, want[i][0]);

      g_assert_cmpstr (real, ==, want[i][1]);
    }
  remove_tree (root);
}

static GPtrArray *
listing (const char *const *names, const char *kinds)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func (kic_fs_listing_entry_free);

  for (guint i = 0; names[i] != NULL; i++)
    {
      KicFsListingEntry *e = g_new0 (KicFsListingEntry, 1);

      e->name = g_strdup (names[i]);
      e->kind = kinds[i];
      g_ptr_array_add (entries, e);
    }
  return entries;
}

/* A directory seeded from a listing answers as one read from disk would,
 * whether the listing is sorted (searched as it is, its table made when a
 * name is looked up) or not (its table made at once); a sorted one that
 * nothing changed is given back as the state's listing. */
static void
test_seeded (void)
{
  static const char *const sorted[] = { "a.png", "b", "c.svg", NULL };
  static const char *const unsorted[] = { "c.svg", "a.png", "b", NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kic-fsindex-XXXXXX", &error);
  g_autoptr (GPtrArray) in_order = listing (sorted, "fdf");
  g_autoptr (GPtrArray) out_of_order = listing (unsorted, "ffd");
  KicFsIndex *index;
  const char *const dirs[] = { "/x", "/y" };

  g_assert_no_error (error);
  MK ("x");
  MK ("y");
  index = kic_fs_index_new (root);
  kic_fs_index_seed (index, "/x", NULL, in_order);
  kic_fs_index_seed (index, "/y", NULL, out_of_order);
  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      const KicFsDir *dir = kic_fs_index_dir (index, dirs[d]);
      g_autoptr (GPtrArray) names = NULL;

      g_assert_nonnull (dir);
      g_assert_true (kic_fs_dir_has (dir, "a.png"));
      g_assert_true (kic_fs_dir_has (dir, "b"));
      g_assert_true (kic_fs_dir_has (dir, "c.svg"));
      g_assert_false (kic_fs_dir_has (dir, "a"));
      g_assert_false (kic_fs_dir_has (dir, "d"));
      g_assert_cmpuint (kic_fs_dir_size (dir), ==, 3);
      names = kic_fs_dir_names (dir);
      g_ptr_array_sort (names, kic_compare_strings);
      g_assert_cmpuint (names->len, ==, 3);
      g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "a.png");
      g_assert_cmpstr (g_ptr_array_index (names, 2), ==, "c.svg");
    }
  {
    g_autoptr (GHashTable) listings = kic_fs_index_listings (index);

    g_assert_true (g_hash_table_lookup (listings, "/x") == in_order);
    g_assert_true (g_hash_table_lookup (listings, "/y") != out_of_order);
    g_assert_cmpuint (((GPtrArray *) g_hash_table_lookup (listings, "/y"))->len, ==, 3);
  }
  /* a path resolved and stat'ed through the sorted listing, before its
   * table is made: what each name is, and a name not there */
  g_assert_cmpint (kic_fs_index_stat (index, "/x/a.png"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat (index, "/x/b"), ==, KIC_FS_DIR);
  g_assert_cmpint (kic_fs_index_stat (index, "/x/c.svg"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat (index, "/x/d"), ==, KIC_FS_NONE);
  {
    g_autofree char *real = kic_fs_index_realpath (index, "/x/b");
    g_autofree char *none = kic_fs_index_realpath (index, "/x/d");

    g_assert_cmpstr (real, ==, "/x/b");
    g_assert_null (none);
  }
  /* a name looked up: the table is made, and answers the same */
  g_assert_cmpint (kic_fs_index_stat_at (index, "/x", "a.png"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/x", "b"), ==, KIC_FS_DIR);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/x", "d"), ==, KIC_FS_NONE);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/y", "b"), ==, KIC_FS_DIR);
  g_assert_true (kic_fs_dir_has (kic_fs_index_dir (index, "/x"), "c.svg"));
  g_assert_false (kic_fs_dir_has (kic_fs_index_dir (index, "/x"), "d"));
  {
    g_autoptr (GHashTable) listings = kic_fs_index_listings (index);

    g_assert_true (g_hash_table_lookup (listings, "/x") == in_order);
  }
  kic_fs_index_free (index);
  remove_tree (root);
}

/* A directory not every user may search (issue 39, row 1), in a run by
 * root: not listed, every name asked of it and every path through it
 * unknown (KIC_FS_OTHER), a listing of no name for a directory behind it,
 * its kept listing the one mark; and the same when seeded with a stamp
 * that says so.  A directory others may search but not list (0711) is
 * read as any. */
static void
test_hidden_dirs (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kic-fsindex-XXXXXX", &error);
  g_autofree char *closed = NULL;
  g_autofree char *probed = NULL;
  KicFsIndex *index;
  const KicFsDir *dir;
  KicFsStamp stamp = { .type = KIC_FS_DIR, .exists = TRUE, .mode = S_IFDIR | 0750 };

  g_assert_no_error (error);
  if (geteuid () != 0)
    {
      g_test_skip ("a run by root only hides directories");
      remove_tree (root);
      return;
    }
  MK ("closed/apps");
  FILE_ ("closed/a.svg");
  FILE_ ("closed/apps/b.svg");
  MK ("probed");
  FILE_ ("probed/c.svg");
  closed = g_build_filename (root, "closed", NULL);
  probed = g_build_filename (root, "probed", NULL);
  g_assert_cmpint (chmod (closed, 0750), ==, 0);
  g_assert_cmpint (chmod (probed, 0711), ==, 0);
  index = kic_fs_index_new (root);
  g_assert_cmpint (kic_fs_index_stat (index, "/closed"), ==, KIC_FS_DIR);
  g_assert_false (kic_fs_index_hidden (index, "/closed"));
  g_assert_cmpint (kic_fs_index_stat_at (index, "/closed", "a.svg"), ==, KIC_FS_OTHER);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/closed", "nothing.svg"), ==, KIC_FS_OTHER);
  g_assert_cmpint (kic_fs_index_stat (index, "/closed/apps/b.svg"), ==, KIC_FS_OTHER);
  g_assert_true (kic_fs_index_hidden (index, "/closed/apps"));
  g_assert_null (kic_fs_index_realpath (index, "/closed/a.svg"));
  dir = kic_fs_index_dir (index, "/closed/apps");
  g_assert_nonnull (dir);
  g_assert_true (kic_fs_dir_hidden (dir));
  g_assert_cmpuint (kic_fs_dir_size (dir), ==, 0);
  g_assert_cmpint (kic_fs_index_dir_stat_hashed (index, dir, "b.svg", kic_fs_name_hash ("b.svg")), ==, KIC_FS_OTHER);
  g_assert_cmpuint (kic_fs_dir_size (kic_fs_index_dir (index, "/closed")), ==, 0);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/probed", "c.svg"), ==, KIC_FS_FILE);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/probed", "d.svg"), ==, KIC_FS_NONE);
  {
    g_autoptr (GHashTable) listings = kic_fs_index_listings (index);
    GPtrArray *kept = g_hash_table_lookup (listings, "/closed");

    g_assert_nonnull (kept);
    g_assert_cmpuint (kept->len, ==, 1);
    g_assert_cmpstr (((KicFsListingEntry *) g_ptr_array_index (kept, 0))->name, ==, KIC_FS_HIDDEN_MARK);
    g_assert_false (g_hash_table_contains (listings, "/closed/apps"));
  }
  kic_fs_index_free (index);
  /* seeded: the stamp, not the listing kept, says so */
  {
    static const char *const names[] = { "a.svg", NULL };
    g_autoptr (GPtrArray) was = listing (names, "f");

    index = kic_fs_index_new (root);
    kic_fs_index_seed (index, "/closed", &stamp, was);
    g_assert_cmpint (kic_fs_index_stat_at (index, "/closed", "a.svg"), ==, KIC_FS_OTHER);
    g_assert_cmpint (kic_fs_index_stat_at (index, "/closed", "z.svg"), ==, KIC_FS_OTHER);
    kic_fs_index_free (index);
  }
  g_assert_cmpint (chmod (closed, 0755), ==, 0);
  remove_tree (root);
}

/* A file is opened only once it is known to be a regular file: a FIFO
 * (or a device node, which may act on open) put at a file's path since
 * the listing is not opened (kic_fs_index_open_file(), the fallback read
 * of a file not copied; kic_fs_index_read_file_max() opens the same way). */
static void
test_opens_only_regular (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kic-fsindex-XXXXXX", &error);
  g_autofree char *fifo = NULL;
  KicFsIndex *index;
  int fd;

  g_assert_no_error (error);
  MK ("usr/share/icons");
  FILE_ ("usr/share/icons/a.png");
  fifo = g_build_filename (root, "usr/share/icons/b.png", NULL);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  index = kic_fs_index_new (root);
  fd = kic_fs_index_open_file (index, "/usr/share/icons/a.png");
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  errno = 0;
  fd = kic_fs_index_open_file (index, "/usr/share/icons/b.png");
  g_assert_cmpint (fd, ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);
  kic_fs_index_free (index);
  remove_tree (root);
}

/* A directory others may write (o+w here) that holds more names than
 * the index reads of one (16 384): none of its names
 * is known, every name in it or below it is KIC_FS_OTHER, it is listed
 * as nothing and kept as unlisted; one only root may write, of as many
 * names, is read as ever (issue 39, row 4). */
static void
test_user_dir_past_bound (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kic-fsindex-XXXXXX", &error);
  g_autofree char *user = NULL;
  g_autoptr (GHashTable) listings = NULL;
  g_autoptr (GPtrArray) unlisted = NULL;
  g_autoptr (GPtrArray) names = NULL;
  const KicFsDir *dir;
  KicFsIndex *index;

  g_assert_no_error (error);
  MK ("icons/user/sub");
  MK ("icons/root");
  for (int i = 0; i < 8; i++)
    {
      g_autofree char *u = g_strdup_printf ("icons/user/f%d.png", i);
      g_autofree char *r = g_strdup_printf ("icons/root/f%d.png", i);

      FILE_ (u);
      FILE_ (r);
    }
  user = g_build_filename (root, "icons/user", NULL);
  g_assert_cmpint (chmod (user, 0777), ==, 0);
  for (int i = 0; i < 16400; i++)
    {
      g_autofree char *u = g_strdup_printf ("%s/icons/user/g%d.png", root, i);

      g_assert_true (g_file_set_contents (u, "", 0, NULL));
    }
  index = kic_fs_index_new (root);
  g_assert_null (kic_fs_index_list (index, "/icons/user"));
  g_assert_cmpint (kic_fs_index_stat_at (index, "/icons/user", "f1.png"), ==, KIC_FS_OTHER);
  g_assert_cmpint (kic_fs_index_stat_at (index, "/icons/user", "none.png"), ==, KIC_FS_OTHER);
  g_assert_cmpint (kic_fs_index_stat (index, "/icons/user/sub/x.png"), ==, KIC_FS_OTHER);
  g_assert_cmpint (kic_fs_index_stat (index, "/icons/user/sub/y/../../../root/f1.png"), ==, KIC_FS_OTHER);
  dir = kic_fs_index_dir (index, "/icons/user");
  g_assert_nonnull (dir);
  g_assert_false (kic_fs_dir_listed (dir));
  g_assert_true (kic_fs_dir_has (dir, "anything.svg"));
  g_assert_cmpint (kic_fs_index_dir_stat_hashed (index, dir, "x", kic_fs_name_hash ("x")), ==, KIC_FS_OTHER);
  names = kic_fs_index_list (index, "/icons/root");
  g_assert_nonnull (names);
  g_assert_cmpuint (names->len, ==, 8); /* (only root may write it) */
  g_assert_cmpint (kic_fs_index_stat_at (index, "/icons/root", "none.png"), ==, KIC_FS_NONE);
  listings = kic_fs_index_listings (index);
  g_assert_false (g_hash_table_contains (listings, "/icons/user"));
  g_assert_true (g_hash_table_contains (listings, "/icons/root"));
  unlisted = kic_fs_index_unlisted (index);
  g_assert_cmpuint (unlisted->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (unlisted, 0), ==, "/icons/user");
  g_assert_true (kic_fs_index_is_unlisted (index, "/icons/user/sub"));
  kic_fs_index_free (index);
  remove_tree (root);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fsindex/links-in-root", test_links_in_root);
  g_test_add_func ("/fsindex/reads-each-dir-once", test_reads_each_dir_once);
  g_test_add_func ("/fsindex/virtual", test_virtual);
  g_test_add_func ("/fsindex/virtual-contents", test_virtual_contents);
  g_test_add_func ("/fsindex/clean", test_clean);
  g_test_add_func ("/fsindex/virtual-remove-dir", test_virtual_remove_dir);
  g_test_add_func ("/fsindex/dir-stat-hashed", test_dir_stat_hashed);
  g_test_add_func ("/fsindex/seeded", test_seeded);
  g_test_add_func ("/fsindex/resolve-below-parent", test_resolve_below_parent);
  g_test_add_func ("/fsindex/opens-only-regular", test_opens_only_regular);
  g_test_add_func ("/fsindex/hidden-dirs", test_hidden_dirs);
  g_test_add_func ("/fsindex/user-dir-past-bound", test_user_dir_past_bound);
  return g_test_run ();
}
