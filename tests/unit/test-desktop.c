/* test-desktop.c - the .desktop reader */
#include "desktop.h"

#include <string.h>

static gboolean
parse (const char *text, char **icon, gboolean *hidden, GError **error)
{
  return kic_desktop_parse ("test.desktop", text, strlen (text), icon, hidden, error);
}

static void
test_icon (void)
{
  g_autofree char *icon = NULL;
  gboolean hidden;

  g_assert_true (parse ("[Desktop Entry]\nType=Application\nName=A\nIcon= foo \n", &icon, &hidden, NULL));
  g_assert_cmpstr (icon, ==, "foo");
  g_assert_false (hidden);
}

static void
test_no_icon_and_hidden (void)
{
  g_autofree char *icon = NULL;
  gboolean hidden;

  g_assert_true (parse ("[Desktop Entry]\nName=A\n", &icon, &hidden, NULL));
  g_assert_null (icon);
  g_assert_true (parse ("[Desktop Entry]\nName=A\nIcon=x\nHidden=true\n", &icon, &hidden, NULL));
  g_assert_true (hidden);
  g_assert_null (icon);
}

static void
test_broken (void)
{
  g_autoptr (GError) e1 = NULL;
  g_autoptr (GError) e2 = NULL;
  char *icon = NULL;
  gboolean hidden;

  g_assert_false (parse ("this is not a desktop file\n", &icon, &hidden, &e1));
  g_assert_nonnull (e1);
  g_assert_false (parse ("[Other Group]\nIcon=x\n", &icon, &hidden, &e2));
  g_assert_error (e2, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND);
}

static void
test_not_utf8 (void)
{
  g_autofree char *icon = NULL;
  gboolean hidden;

  /* KDE reads bad bytes as U+FFFD and looks that name up */
  g_assert_true (parse ("[Desktop Entry]\nIcon=caf\xe9\n", &icon, &hidden, NULL));
  g_assert_cmpstr (icon, ==, "caf\xef\xbf\xbd");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/desktop/icon", test_icon);
  g_test_add_func ("/desktop/no-icon-and-hidden", test_no_icon_and_hidden);
  g_test_add_func ("/desktop/broken", test_broken);
  g_test_add_func ("/desktop/not-utf8", test_not_utf8);
  return g_test_run ();
}
