/* test-profile.c - the generation table, KDE 4 versions, DT_NEEDED and
 * detection from the libraries in a (virtual) root */
#include "profile.h"

#include "diag.h"
#include "elfread.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

static void
test_tables (void)
{
  /* kde-lookup.md §2: each generation's default theme */
  g_assert_cmpstr (kic_profile_table ("kf5")->configured_default, ==, "breeze");
  g_assert_cmpstr (kic_profile_table ("kf6")->configured_default, ==, "breeze");
  g_assert_cmpstr (kic_profile_table ("kde4")->configured_default, ==, "oxygen");
  g_assert_cmpstr (kic_profile_table ("kde3")->configured_default, ==, "crystalsvg");
  g_assert_null (kic_profile_table ("kde5"));
  g_assert_null (kic_profile_table (""));
}

static void
test_versions (void)
{
  int v[3];

  g_assert_true (kic_profile_parse_version ("4.10.1", v));
  g_assert_cmpint (v[0], ==, 4);
  g_assert_cmpint (v[1], ==, 10);
  g_assert_cmpint (v[2], ==, 1);
  g_assert_true (kic_profile_parse_version ("4.8", v));
  g_assert_cmpint (v[2], ==, 0);
  g_assert_false (kic_profile_parse_version ("5.103.0", v));
  g_assert_false (kic_profile_parse_version ("4", v));
  g_assert_false (kic_profile_parse_version ("4.x", v));
  g_assert_false (kic_profile_parse_version ("4.1.2.3", v));
  g_assert_false (kic_profile_parse_version ("4.-1", v));
}

/* This test program is an ELF executable that needs GLib. */
static void
test_elf_needed (void)
{
  g_autofree char *data = NULL;
  g_auto (GStrv) needed = NULL;
  gsize length;

  g_assert_true (g_file_get_contents ("/proc/self/exe", &data, &length, NULL));
  needed = kic_elf_needed (data, length);
  g_assert_nonnull (needed);
  g_assert_true (g_strv_contains ((const char *const *) needed, "libglib-2.0.so.0"));
  /* cut anywhere, or not ELF at all: no crash, and never a made-up name */
  for (gsize cut = 0; cut < length; cut += length / 97 + 1)
    {
      g_auto (GStrv) part = kic_elf_needed (data, cut);

      for (guint i = 0; part != NULL && part[i] != NULL; i++)
        g_assert_true (g_strv_contains ((const char *const *) needed, part[i]));
    }
  /* bytes of the headers and the dynamic section changed: no crash
   * (under ASan: no read outside DATA) */
  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *copy = g_memdup2 (data, length);
      g_auto (GStrv) mangled = NULL;
      gsize at = g_test_rand_int_range (0, (gint32) MIN (length, 4096));

      copy[at] = (char) g_test_rand_int ();
      copy[g_test_rand_int_range (0, (gint32) MIN (length, G_MAXINT32))] = (char) g_test_rand_int ();
      mangled = kic_elf_needed (copy, length);
    }
  g_assert_null (kic_elf_needed ("#!/bin/sh\n", 10));
}

static KicProfile *
detect_with (const char *dir, const char *library)
{
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  KicProfile *profile;

  kic_fs_index_add (index, "/usr/lib", "x86_64-linux-gnu", KIC_FS_DIR);
  if (library != NULL)
    kic_fs_index_add (index, dir, library, KIC_FS_FILE);
  profile = kic_profile_new (index, "auto", NULL, NULL);
  g_free (profile->found);
  profile->found = NULL; /* the index goes away */
  return profile;
}

static void
test_detect (void)
{
  g_autoptr (KicProfile) kf6 = detect_with ("/usr/lib/x86_64-linux-gnu", "libKF6IconThemes.so.6");
  g_autoptr (KicProfile) kf5 = detect_with ("/usr/lib/x86_64-linux-gnu", "libKF5IconThemes.so.5");
  g_autoptr (KicProfile) kde4 = detect_with ("/usr/lib", "libkdeui.so.5");
  g_autoptr (KicProfile) kde3 = detect_with ("/usr/lib", "libkdecore.so.4");
  g_autoptr (KicProfile) none = detect_with ("/usr/lib", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  g_autoptr (KicProfile) bad = NULL;
  g_autoptr (KicProfile) old = NULL;

  g_assert_cmpint (kf6->table->generation, ==, KIC_KDE_KF6);
  /* a virtual file is empty, not ELF: no libKF6BreezeIcons dependency */
  g_assert_false (kf6->breeze_embedded);
  g_assert_cmpint (kf5->table->generation, ==, KIC_KDE_KF5);
  g_assert_cmpint (kde4->table->generation, ==, KIC_KDE_KDE4);
  /* no version in the file name: the last KDE 4, with the /apps/ pass */
  g_assert_cmpint (kde4->version[1], ==, 14);
  g_assert_true (kde4->apps_first_pass);
  g_assert_cmpint (kde3->table->generation, ==, KIC_KDE_KDE3);
  g_assert_cmpint (none->table->generation, ==, KIC_KDE_KF5);

  bad = kic_profile_new (index, "kde5", NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, KIC_ERROR, KIC_ERROR_USAGE);
  g_clear_error (&error);
  g_assert_null (kic_profile_new (index, "kf5", "4.8", &error));
  g_clear_error (&error);
  /* §3.2: 4.10.0 has no /apps/ pass, 4.10.1 has */
  old = kic_profile_new (index, "kde4", "4.10.0", &error);
  g_assert_no_error (error);
  g_assert_false (old->apps_first_pass);
  g_clear_pointer (&old, kic_profile_free);
  old = kic_profile_new (index, "kde4", "4.10.1", &error);
  g_assert_true (old->apps_first_pass);
}

/* KF6: one row per range of KIconThemes releases whose lookup changed
 * (profile.c cites each change) */
static void
test_kf6_rows (void)
{
  static const struct {
    const char *release;
    int since_minor;
    gboolean resources_last;
    const char *user;
    const char *theme;
  } cases[] = {
    { "6.0", 0, FALSE, ".png,.svgz,.svg,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.13.0", 0, FALSE, ".png,.svgz,.svg,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.14.0", 14, TRUE, ".png,.svgz,.svg,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.18.9", 14, TRUE, ".png,.svgz,.svg,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.19", 19, TRUE, ".svg,.svgz,.png,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.22.1", 19, TRUE, ".svg,.svgz,.png,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.23.0", 23, TRUE, ".svg,.svgz,.png,.xpm", ".svgz,.svg,.png,.xpm" },
    { "6.24.2", 23, TRUE, ".svg,.svgz,.png,.xpm", ".svgz,.svg,.png,.xpm" },
    { "6.25.0", 25, TRUE, ".svg,.svgz,.png,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.30.0", 25, TRUE, ".svg,.svgz,.png,.xpm", ".png,.svgz,.svg,.xpm" },
    { "6.130", 25, TRUE, ".svg,.svgz,.png,.xpm", ".png,.svgz,.svg,.xpm" },
  };
  g_autoptr (KicFsIndex) index = kic_fs_index_new_virtual ();
  int v[3];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const KicProfileTable *row;
      g_autoptr (KicProfile) forced = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_true (kic_profile_parse_version (cases[i].release, v));
      row = kic_profile_table_for ("kf6", v);
      g_assert_nonnull (row);
      g_assert_cmpint (row->generation, ==, KIC_KDE_KF6);
      g_assert_cmpint (row->since[1], ==, cases[i].since_minor);
      g_assert_cmpint (row->resources_last, ==, cases[i].resources_last);
      g_assert_cmpstr (row->user_extensions, ==, cases[i].user);
      g_assert_cmpstr (row->default_extensions, ==, cases[i].theme);
      /* --kde=kf6 --kde-version=RELEASE picks the same row */
      forced = kic_profile_new (index, "kf6", cases[i].release, &error);
      g_assert_no_error (error);
      g_assert_true (forced->table == row);
      g_assert_false (forced->version_detected);
    }
  /* rows that are not KF6 have one row for every release */
  g_assert_true (kic_profile_table_for ("kf5", (int[3]) { 6, 30, 0 }) == kic_profile_table ("kf5"));
  g_assert_null (kic_profile_table_for ("kf7", (int[3]) { 6, 30, 0 }));
  /* KF6 releases parse, others do not */
  g_assert_true (kic_profile_parse_version ("6.30.0", v));
  g_assert_cmpint (v[1], ==, 30);
  g_assert_false (kic_profile_parse_version ("7.0", v));
  g_assert_false (kic_profile_parse_version ("6", v));
  g_assert_false (kic_profile_parse_version ("6.x.0", v));
}

static void
test_kf6_options (void)
{
  static const struct {
    const char *kind, *version;
    gboolean valid;
  } cases[] = {
    { "kf6", "6.30", TRUE },  { "auto", "6.30.0", TRUE }, { NULL, "6.14", TRUE },
    { "kde4", "4.8", TRUE },  { "kf6", "4.8", FALSE },    { "kde4", "6.30", FALSE },
    { "kf5", "6.30", FALSE }, { "kde3", "6.30", FALSE },  { "kf6", "5.103.0", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      gboolean valid = kic_profile_check_options (cases[i].kind, cases[i].version, &error);

      g_assert_cmpint (valid, ==, cases[i].valid);
      if (!valid)
        g_assert_error (error, KIC_ERROR, KIC_ERROR_USAGE);
    }
}

/* The release comes from the file name the soname links to, or, for a
 * copy, from the highest release beside it; Debian 13's when neither. */
static void
test_kf6_detect (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("kic-profile-XXXXXX", NULL);
  g_autofree char *lib = g_build_filename (tmp, "usr/lib/x86_64-linux-gnu", NULL);
  g_autofree char *real = g_build_filename (lib, "libKF6IconThemes.so.6.30.0", NULL);
  g_autofree char *link = g_build_filename (lib, "libKF6IconThemes.so.6", NULL);
  g_autoptr (KicFsIndex) disk = NULL;
  g_autoptr (KicFsIndex) copy = kic_fs_index_new_virtual ();
  g_autoptr (KicFsIndex) bare = kic_fs_index_new_virtual ();
  g_autoptr (KicProfile) linked = NULL;
  g_autoptr (KicProfile) copied = NULL;
  g_autoptr (KicProfile) unknown = NULL;
  g_autoptr (KicProfile) forced = NULL;
  g_autofree char *id = NULL;
  g_autofree char *description = NULL;

  g_assert_cmpint (g_mkdir_with_parents (lib, 0755), ==, 0);
  g_assert_true (g_file_set_contents (real, "not ELF", -1, NULL));
  g_assert_cmpint (symlink ("libKF6IconThemes.so.6.30.0", link), ==, 0);
  disk = kic_fs_index_new (tmp);
  linked = kic_profile_new (disk, "auto", NULL, NULL);
  g_assert_cmpint (linked->table->generation, ==, KIC_KDE_KF6);
  g_assert_cmpint (linked->version[0], ==, 6);
  g_assert_cmpint (linked->version[1], ==, 30);
  g_assert_true (linked->version_detected);
  g_assert_cmpint (linked->table->since[1], ==, 25);
  id = kic_profile_id (linked);
  g_assert_cmpstr (id, ==, "kf6-6.30.0");
  description = kic_profile_describe (linked);
  g_assert_cmpstr (description, ==, "kf6 6.30.0 (6.25 and later)");
  /* --kde-version wins over the library */
  forced = kic_profile_new (disk, "auto", "6.13", NULL);
  g_assert_cmpint (forced->version[1], ==, 13);
  g_assert_cmpint (forced->table->since[1], ==, 0);
  g_assert_false (forced->version_detected);
  g_assert_cmpint (unlink (link), ==, 0);
  g_assert_cmpint (unlink (real), ==, 0);
  g_assert_cmpint (g_rmdir (lib), ==, 0);

  /* 6.9.0 sorts before 6.19.1 as numbers, not as text */
  kic_fs_index_add (copy, "/usr/lib/x86_64-linux-gnu", "libKF6IconThemes.so.6", KIC_FS_FILE);
  kic_fs_index_add (copy, "/usr/lib/x86_64-linux-gnu", "libKF6IconThemes.so.6.9.0", KIC_FS_FILE);
  kic_fs_index_add (copy, "/usr/lib/x86_64-linux-gnu", "libKF6IconThemes.so.6.19.1", KIC_FS_FILE);
  kic_fs_index_add (copy, "/usr/lib/x86_64-linux-gnu", "libKF6IconThemes.so.6.19.1.bak", KIC_FS_FILE);
  copied = kic_profile_new (copy, "auto", NULL, NULL);
  g_assert_cmpint (copied->version[1], ==, 19);
  g_assert_cmpint (copied->version[2], ==, 1);
  g_assert_cmpint (copied->table->since[1], ==, 19);

  kic_fs_index_add (bare, "/usr/lib/x86_64-linux-gnu", "libKF6IconThemes.so.6", KIC_FS_FILE);
  unknown = kic_profile_new (bare, "auto", NULL, NULL);
  g_assert_false (unknown->version_detected);
  g_assert_cmpint (unknown->version[1], ==, 13);
  g_assert_cmpint (unknown->table->since[1], ==, 0);
  for (int up = 0; up < 3; up++)
    {
      char *slash = strrchr (lib, '/');

      *slash = '\0';
      g_assert_cmpint (g_rmdir (lib), ==, 0);
    }
}

/* A tmp root with DATA as /usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.<RELEASE>
 * and the soname linked to it; the profile --kde=auto, --kde-version
 * VERSION (may be NULL) finds there.  transfer full */
static KicProfile *
kf6_profile_of (const char *data, gsize length, const char *release, const char *version)
{
  g_autofree char *tmp = g_dir_make_tmp ("kic-profile-XXXXXX", NULL);
  g_autofree char *lib = g_build_filename (tmp, "usr/lib/x86_64-linux-gnu", NULL);
  g_autofree char *name = g_strconcat ("libKF6IconThemes.so.", release, NULL);
  g_autofree char *real = g_build_filename (lib, name, NULL);
  g_autofree char *link = g_build_filename (lib, "libKF6IconThemes.so.6", NULL);
  g_autoptr (KicFsIndex) disk = NULL;
  g_autoptr (GError) error = NULL;
  KicProfile *profile;

  g_assert_cmpint (g_mkdir_with_parents (lib, 0755), ==, 0);
  g_assert_true (g_file_set_contents (real, data, (gssize) length, NULL));
  g_assert_cmpint (symlink (name, link), ==, 0);
  disk = kic_fs_index_new (tmp);
  profile = kic_profile_new (disk, "auto", version, &error);
  g_assert_no_error (error);
  g_free (profile->found);
  profile->found = NULL; /* the index goes away */
  g_assert_cmpint (unlink (link), ==, 0);
  g_assert_cmpint (unlink (real), ==, 0);
  for (int up = 0; up < 4; up++)
    {
      char *slash = strrchr (lib, '/');

      g_assert_cmpint (g_rmdir (lib), ==, 0);
      *slash = '\0';
    }
  return profile;
}

/* A KIconThemes that reads GTK's icon-theme.cache (a8749c1) is told by
 * the string its KIconCache opens, in the library's .rodata: this test
 * program holds that string there too (the assertion below), a library
 * that is not ELF or lacks it does not; --kde-version pins it either way,
 * and a release newer than the last checked is named in a warning. */
static void
test_kf6_icon_cache (void)
{
  g_autofree char *exe = NULL;
  g_autofree char *other = g_strdup ("icon-theme.cache");
  gsize length, offset, size;
  g_autoptr (KicProfile) reads = NULL;
  g_autoptr (KicProfile) plain = NULL;
  g_autoptr (KicProfile) pinned = NULL;
  g_autoptr (KicProfile) pinned_cache = NULL;
  g_autoptr (KicProfile) newer = NULL;
  g_autoptr (GPtrArray) said = NULL;
  g_autofree char *id = NULL;
  g_autofree char *description = NULL;
  gboolean warned = FALSE;

  g_assert_true (g_file_get_contents ("/proc/self/exe", &exe, &length, NULL));
  g_assert_true (kic_elf_section (exe, length, ".rodata", &offset, &size));
  g_assert_nonnull (memmem (exe + offset, size, "icon-theme.cache", sizeof "icon-theme.cache"));
  g_assert_false (kic_elf_section (exe, length, ".no-such-section", &offset, &size));
  /* cut anywhere: no read outside the bytes (ASan) */
  for (gsize cut = 0; cut < length; cut += length / 89 + 1)
    kic_elf_section (exe, cut, ".rodata", &offset, &size);

  reads = kf6_profile_of (exe, length, "6.30.0", NULL);
  g_assert_true (reads->gtk_icon_cache);
  id = kic_profile_id (reads);
  g_assert_cmpstr (id, ==, "kf6-6.30.0+iconcache");
  description = kic_profile_describe (reads);
  g_assert_cmpstr (description, ==, "kf6 6.30.0 (6.25 and later, reads icon-theme.cache)");
  /* the same bytes with the string changed by one letter */
  other[15] = 'f';
  {
    g_autofree char *copy = g_memdup2 (exe, length);
    char *at = memmem (copy, length, "icon-theme.cache", sizeof "icon-theme.cache");

    while (at != NULL)
      {
        memcpy (at, other, sizeof "icon-theme.cache");
        at = memmem (copy, length, "icon-theme.cache", sizeof "icon-theme.cache");
      }
    plain = kf6_profile_of (copy, length, "6.30.0", NULL);
    g_assert_false (plain->gtk_icon_cache);
  }
  pinned = kf6_profile_of (exe, length, "6.30.0", "6.30");
  g_assert_false (pinned->gtk_icon_cache);
  pinned_cache = kf6_profile_of ("not ELF", 7, "6.30.0", "6.30+iconcache");
  g_assert_true (pinned_cache->gtk_icon_cache);
  g_assert_false (kic_profile_check_options ("kde4", "4.14+iconcache", NULL));
  g_assert_false (kic_profile_check_options ("kf6", "+iconcache", NULL));

  g_ptr_array_unref (kic_diagnostics_take ());
  newer = kf6_profile_of ("not ELF", 7, "6.31.0", NULL);
  said = kic_diagnostics_take ();
  for (guint i = 0; i < said->len; i++)
    warned |= strstr (g_ptr_array_index (said, i), "6.31.0, newer than 6.30") != NULL;
  g_assert_true (warned);
  g_assert_cmpint (newer->table->since[1], ==, 25);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/tables", test_tables);
  g_test_add_func ("/profile/versions", test_versions);
  g_test_add_func ("/profile/elf-needed", test_elf_needed);
  g_test_add_func ("/profile/detect", test_detect);
  g_test_add_func ("/profile/kf6-rows", test_kf6_rows);
  g_test_add_func ("/profile/kf6-options", test_kf6_options);
  g_test_add_func ("/profile/kf6-detect", test_kf6_detect);
  g_test_add_func ("/profile/kf6-icon-cache", test_kf6_icon_cache);
  return g_test_run ();
}
