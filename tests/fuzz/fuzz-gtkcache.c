/* fuzz-gtkcache.c - kic_gtk_cache_parse() on any bytes
 *
 * GTK's icon-theme.cache is a file in a theme's directory: root reads the
 * one of any theme KDE searches, also one a user put under
 * /usr/local/share/icons or whose bytes a broken update left.  The reader
 * must stay inside the bytes, end every chain, and answer each question
 * the lookup asks without reading anything it did not check.
 *
 * Invariants: a cache exactly when there is no error; its directories
 * are named (no NULL) and fewer than a 16-bit index can exceed; asking
 * any directory about a few names (the empty one included) never lists
 * the empty name, and asking twice answers the same.
 */
#include "fuzz-common.h"
#include "gtkcache.h"

int
LLVMFuzzerInitialize (G_GNUC_UNUSED int *argc, G_GNUC_UNUSED char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const names[] = { "", "a", "doc", "folder", "org.kde.konsole", "\xc3\xa9" };
  g_autoptr (GError) error = NULL;
  g_autoptr (KicGtkCache) cache = kic_gtk_cache_parse (data, size, &error);

  FUZZ_CHECK ((cache == NULL) == (error != NULL));
  if (cache == NULL)
    return 0;
  FUZZ_CHECK (kic_gtk_cache_n_dirs (cache) <= G_MAXUINT16 + 1u);
  for (guint d = 0; d < kic_gtk_cache_n_dirs (cache); d++)
    {
      const char *dir = kic_gtk_cache_dir (cache, d);

      FUZZ_CHECK (dir != NULL);
      FUZZ_CHECK (!kic_gtk_cache_lists (cache, dir, ""));
      for (guint n = 0; n < G_N_ELEMENTS (names); n++)
        FUZZ_CHECK (kic_gtk_cache_lists (cache, dir, names[n]) == kic_gtk_cache_lists (cache, dir, names[n]));
    }
  return 0;
}
