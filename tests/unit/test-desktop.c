/* test-desktop.c - the .desktop reader */
#include "desktop.h"
#include "diag.h"

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

/* KConfig's reading, as KF5's KDesktopFile gave it for each of these
 * (tests/oracle/kic-desktop; tests/integration/desktop-kconfig.sh runs
 * the same comparison over whole trees) */
static void
test_kconfig_lines (void)
{
  static const struct { const char *text; const char *icon; gboolean hidden; } cases[] = {
    { "[Desktop Entry]\nName=S\nthis line has no equals sign\nIcon=stray\n", "stray", FALSE },
    { "junk first\n[Desktop Entry]\nIcon=first\n", "first", FALSE },
    { "[Desktop Entry]\nIcon=badgroup\n[Desktop Action new\nExec=x\n", "badgroup", FALSE },
    { "[Desktop Entry]  trailing\nIcon=trailing\n", "trailing", FALSE },
    { "[Desktop Entry]\r\nIcon=crlf\r\n", "crlf", FALSE },
    { "[Desktop Entry]\n=value\nIcon=eqfirst\n", "eqfirst", FALSE },
    { "[Desktop Entry]\nName=x\n[Desktop Entry][x]\nIcon=nested\n", NULL, FALSE },
    { "[Desktop Entry]\nstray\nIcon=caf\xe9\n", "caf\xef\xbf\xbd", FALSE },
    { "[Desktop Entry]\nIcon=x\nHidden=yes\n", NULL, TRUE },
    { "[Desktop Entry]\nIcon=x\nHidden=\n", NULL, TRUE },
    { "[Desktop Entry]\nIcon=x\nHidden=maybe\n", NULL, TRUE },
    { "[Desktop Entry]\nIcon=shown\nHidden=No\n", "shown", FALSE },
    { "[Desktop Entry]\nIcon=shown\nHidden=0\n", "shown", FALSE },
  };
  gboolean quiet = kic_quiet;

  kic_quiet = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *icon = NULL;
      g_autoptr (GError) error = NULL;
      gboolean hidden = !cases[i].hidden;

      g_test_message ("case %u: %s", i, cases[i].text);
      g_assert_true (parse (cases[i].text, &icon, &hidden, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (icon, ==, cases[i].icon);
      g_assert_cmpint (hidden, ==, cases[i].hidden);
    }
  kic_quiet = quiet;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/desktop/icon", test_icon);
  g_test_add_func ("/desktop/no-icon-and-hidden", test_no_icon_and_hidden);
  g_test_add_func ("/desktop/broken", test_broken);
  g_test_add_func ("/desktop/not-utf8", test_not_utf8);
  g_test_add_func ("/desktop/kconfig-lines", test_kconfig_lines);
  return g_test_run ();
}
