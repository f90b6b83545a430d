/* fuzz-desktop.c - kic_desktop_parse() on any bytes, as a .desktop file
 *
 * Invariants: an error exactly when FALSE is returned; no icon with an
 * error or when hidden; an icon is valid UTF-8 (KDE reads a QString) and
 * has no surrounding white space.
 */
#include "desktop.h"
#include "fuzz-common.h"

#include <string.h>

int
LLVMFuzzerInitialize (G_GNUC_UNUSED int *argc, G_GNUC_UNUSED char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *icon = NULL;
  gboolean hidden = TRUE;
  gboolean ok;

  ok = kic_desktop_parse ("fuzz.desktop", (const char *) data, size, &icon, &hidden, &error);
  if (!ok)
    {
      FUZZ_CHECK (error != NULL);
      FUZZ_CHECK (error->message != NULL);
      FUZZ_CHECK (icon == NULL);
      return 0;
    }
  FUZZ_CHECK (error == NULL);
  if (hidden)
    FUZZ_CHECK (icon == NULL);
  if (icon != NULL)
    {
      size_t len = strlen (icon);

      FUZZ_CHECK (g_utf8_validate (icon, -1, NULL));
      if (len > 0)
        {
          FUZZ_CHECK (!g_ascii_isspace (icon[0]));
          FUZZ_CHECK (!g_ascii_isspace (icon[len - 1]));
        }
    }
  return 0;
}
