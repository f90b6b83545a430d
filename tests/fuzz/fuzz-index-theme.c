/* fuzz-index-theme.c - kic_theme_desc_parse() on any bytes
 *
 * The input is parsed as index.theme ([Icon Theme], theme name "fuzz") and
 * as theme.desktop ([KDE Icon Theme], theme name "hicolor", which keeps
 * "default" in Inherits=).  Then every directory is asked for the MatchExact
 * and MatchBest answers at many sizes.  Any int is a size the resolver can
 * be asked for: --resolve and --explain use the theme's DesktopDefault= or
 * kdeglobals' [DesktopIcons] Size=, read as ints.
 *
 * Invariants: a description exactly when there is no error; Inherits=,
 * KDE-Extensions= and the directory list are never NULL; "default" is
 * gone from Inherits= unless the theme is hicolor; a directory without a
 * size is invalid; exact(s) holds exactly when distance(s) is 0, and
 * distance() has the sign that says which way KDE would scale.
 */
#include "fuzz-common.h"
#include "theme.h"

#include <limits.h>
#include <string.h>

static gboolean skip_huge_ints;

int
LLVMFuzzerInitialize (G_GNUC_UNUSED int *argc, G_GNUC_UNUSED char ***argv)
{
  fuzz_init ();
  skip_huge_ints = fuzz_skip_known ("huge-ints");
  return 0;
}

static void
check_size (const KicDirSpec *dir, int size)
{
  gboolean exact;
  int dw;

  if (skip_huge_ints && !fuzz_int_is_sane (size))
    return;
  exact = kic_dir_spec_exact (dir, size);
  dw = kic_dir_spec_distance (dir, size);
  FUZZ_CHECK (exact == (dw == 0));
  switch (dir->type)
    {
    case KIC_DIR_FIXED:
      FUZZ_CHECK ((dw > 0) == (dir->size > size));
      break;
    case KIC_DIR_SCALABLE:
      if (size < dir->min_size)
        FUZZ_CHECK (dw > 0);
      else if (size > dir->max_size)
        FUZZ_CHECK (dw < 0);
      break;
    case KIC_DIR_THRESHOLD:
      break;
    }
}

static void
check_dir (const KicThemeDesc *desc, const KicDirSpec *dir)
{
  static const int fixed_sizes[] = {
    INT_MIN, INT_MIN + 1, -4096, -1, 0, 1, 8, 16, 22, 24, 32, 48, 64, 96, 128, 256, 512, 4096,
    INT_MAX - 1, INT_MAX,
  };

  FUZZ_CHECK (dir->name != NULL);
  FUZZ_CHECK (dir->type == KIC_DIR_FIXED || dir->type == KIC_DIR_SCALABLE
              || dir->type == KIC_DIR_THRESHOLD);
  if (dir->size == 0)
    FUZZ_CHECK (!dir->valid);
  if (skip_huge_ints
      && !(fuzz_int_is_sane (dir->size) && fuzz_int_is_sane (dir->min_size)
           && fuzz_int_is_sane (dir->max_size) && fuzz_int_is_sane (dir->threshold)))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (fixed_sizes); i++)
    check_size (dir, fixed_sizes[i]);
  /* the sizes the menus and --resolve use for this theme */
  for (int g = 0; g < KIC_GROUP_LAST; g++)
    check_size (dir, desc->group_default[g]);
  /* the edges of the directory's own range */
  check_size (dir, dir->size);
  check_size (dir, dir->min_size);
  check_size (dir, dir->max_size);
  if (dir->threshold > -4096 && dir->threshold < 4096 && dir->size > INT_MIN + 4096
      && dir->size < INT_MAX - 4096)
    {
      check_size (dir, dir->size - dir->threshold);
      check_size (dir, dir->size + dir->threshold);
      check_size (dir, dir->size - dir->threshold - 1);
      check_size (dir, dir->size + dir->threshold + 1);
    }
}

static void
parse_one (const uint8_t *data, size_t size, const char *name, const char *section)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (KicThemeDesc) desc = NULL;
  KicTheme *nowhere;

  /* the other generations read the same text differently: no crash, and
   * the same answer on whether it parses at all */
  for (const char *const *g = (const char *const[]) { "kf6", "kde4", "kde3", NULL }; *g != NULL; g++)
    {
      g_autoptr (GError) other_error = NULL;
      g_autoptr (KicThemeDesc) other = kic_theme_desc_parse (kic_profile_table (*g), name, "fuzz/index.theme",
                                                              (const char *) data, size, section, &other_error);

      FUZZ_CHECK ((other == NULL) == (other_error != NULL));
    }
  desc = kic_theme_desc_parse (kic_profile_table ("kf5"), name, "fuzz/index.theme", (const char *) data, size,
                               section, &error);
  FUZZ_CHECK ((desc == NULL) == (error != NULL));
  if (desc == NULL)
    return;
  FUZZ_CHECK (strcmp (desc->name, name) == 0);
  FUZZ_CHECK (desc->inherits != NULL);
  FUZZ_CHECK (desc->extensions != NULL);
  FUZZ_CHECK (desc->dirs != NULL);
  if (strcmp (name, "hicolor") != 0)
    for (guint i = 0; desc->inherits[i] != NULL; i++)
      FUZZ_CHECK (strcmp (desc->inherits[i], "default") != 0);
  for (guint i = 0; i < desc->dirs->len; i++)
    check_dir (desc, g_ptr_array_index (desc->dirs, i));
  /* lay it nowhere, as iconloader.c does for the void theme */
  nowhere = kic_theme_new_nowhere (g_steal_pointer (&desc));
  FUZZ_CHECK (nowhere->dirs->len == nowhere->desc->dirs->len);
  FUZZ_CHECK (kic_theme_is_valid (nowhere) == (nowhere->dirs->len > 0));
  kic_theme_free (nowhere);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  parse_one (data, size, "fuzz", "Icon Theme");
  parse_one (data, size, "hicolor", "KDE Icon Theme");
  return 0;
}
