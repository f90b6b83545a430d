/* test-profile.c - the generation table, KDE 4 versions, DT_NEEDED and
 * detection from the libraries in a (virtual) root */
#include "detect.h"
#include "profile.h"

#include "kic.h"

#include <string.h>

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/tables", test_tables);
  g_test_add_func ("/profile/versions", test_versions);
  g_test_add_func ("/profile/elf-needed", test_elf_needed);
  g_test_add_func ("/profile/detect", test_detect);
  return g_test_run ();
}
