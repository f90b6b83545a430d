/* fuzz-keyfile.c - kic_keyfile_load() and the getters, as kdeglobals and
 * /etc/kde-icon-cache.conf are read; and kic_config_parse_size() on the
 * raw input as a string (as --size gives it)
 *
 * The configuration is read the way kic_config_load() (src/plan/config.c) does
 * it: that function wants a file on disk, which a fuzz target should not
 * write for every input.  kdeglobals is read as iconloader.c does: [Icons]
 * Theme= and [<Group>Icons] Size= through atoi().
 *
 * Invariants: a key file exactly when there is no error; the list getter
 * never returns NULL; the string getter returns the default (a copy) when
 * the key is missing; a bool is TRUE or FALSE; every size parsed is 1-4096
 * with a weight in (0, 1e6], one target per size; a failed parse leaves
 * the targets alone.
 */
#include "config.h"
#include "fuzz-common.h"
#include "keyfile.h"
#include "plan.h"

#include <string.h>

int
LLVMFuzzerInitialize (G_GNUC_UNUSED int *argc, G_GNUC_UNUSED char ***argv)
{
  fuzz_init ();
  return 0;
}

static void
check_targets (GArray *targets)
{
  for (guint i = 0; i < targets->len; i++)
    {
      const KicTarget *t = &g_array_index (targets, KicTarget, i);

      FUZZ_CHECK (t->size >= 1 && t->size <= 4096);
      FUZZ_CHECK (t->weight > 0 && t->weight <= 1e6);
      for (guint j = 0; j < i; j++)
        FUZZ_CHECK (g_array_index (targets, KicTarget, j).size != t->size);
    }
}

/* kic_config_parse_size() on TEXT: TRUE adds or updates one target */
static void
parse_size (const char *text, GArray *targets)
{
  g_autoptr (GError) error = NULL;
  guint before = targets->len;
  gboolean ok = kic_config_parse_size (text, targets, &error);

  FUZZ_CHECK (ok == (error == NULL));
  if (ok)
    FUZZ_CHECK (targets->len == before || targets->len == before + 1);
  else
    FUZZ_CHECK (targets->len == before && error->message != NULL);
  check_targets (targets);
}

/* src/plan/config.c kic_config_load() after reading the file */
static void
read_as_config (GKeyFile *kf)
{
  g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (KicTarget));
  g_auto (GStrv) sizes = kic_keyfile_get_list (kf, KIC_CONFIG_GROUP, "Sizes", NULL);
  g_auto (GStrv) themes = kic_keyfile_get_list (kf, KIC_CONFIG_GROUP, "Themes", NULL);

  FUZZ_CHECK (sizes != NULL && themes != NULL);
  for (guint i = 0; sizes[i] != NULL; i++)
    {
      g_strstrip (sizes[i]);
      if (sizes[i][0] != '\0')
        parse_size (sizes[i], targets);
    }
  for (guint i = 0; themes[i] != NULL; i++)
    g_strstrip (themes[i]);
}

/* src/kde/iconloader.c: the current theme and the group sizes */
static void
read_as_kdeglobals (GKeyFile *kf)
{
  static const char *const groups[] = {
    "DesktopIcons", "ToolbarIcons", "MainToolbarIcons", "SmallIcons", "PanelIcons", "DialogIcons",
  };
  g_autofree char *theme = kic_keyfile_get_string (kf, "Icons", "Theme", "breeze");

  FUZZ_CHECK (theme != NULL);
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      g_autofree char *value = g_key_file_get_string (kf, groups[g], "Size", NULL);

      if (value != NULL)
        (void) atoi (value);
    }
}

/* every getter on every key of every group */
static void
read_everything (GKeyFile *kf)
{
  g_auto (GStrv) groups = g_key_file_get_groups (kf, NULL);

  for (guint g = 0; groups[g] != NULL && g < 64; g++)
    {
      g_auto (GStrv) keys = g_key_file_get_keys (kf, groups[g], NULL, NULL);

      for (guint k = 0; keys != NULL && keys[k] != NULL && k < 64; k++)
        {
          g_autofree char *s = kic_keyfile_get_string (kf, groups[g], keys[k], "def");
          g_auto (GStrv) list = kic_keyfile_get_list (kf, groups[g], keys[k], "a,b");
          gboolean b = kic_keyfile_get_bool (kf, groups[g], keys[k], FALSE);

          FUZZ_CHECK (s != NULL && list != NULL);
          FUZZ_CHECK (b == TRUE || b == FALSE);
          (void) kic_keyfile_get_int (kf, groups[g], keys[k], -7);
        }
    }
  /* a missing key gives the default */
  {
    g_autofree char *s = kic_keyfile_get_string (kf, "no such group \x01", "k", "def");
    g_auto (GStrv) empty = kic_keyfile_get_list (kf, "no such group \x01", "k", NULL);

    FUZZ_CHECK (strcmp (s, "def") == 0);
    FUZZ_CHECK (empty != NULL && empty[0] == NULL);
    FUZZ_CHECK (kic_keyfile_get_int (kf, "no such group \x01", "k", 42) == 42);
    FUZZ_CHECK (kic_keyfile_get_bool (kf, "no such group \x01", "k", TRUE) == TRUE);
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GKeyFile) kf = kic_keyfile_load ((const char *) data, size, "fuzz/kdeglobals", &error);

  FUZZ_CHECK ((kf == NULL) == (error != NULL));
  if (kf != NULL)
    {
      read_as_config (kf);
      read_as_kdeglobals (kf);
      read_everything (kf);
    }
  /* the raw input as one --size argument, and as a Sizes= item */
  if (size < 4096)
    {
      g_autofree char *text = g_strndup ((const char *) data, size);
      g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (KicTarget));

      guint len;

      parse_size (text, targets);
      len = targets->len;
      parse_size (text, targets); /* the same size again updates, never adds */
      FUZZ_CHECK (targets->len == len);
      g_strstrip (text);
      parse_size (text, targets);
    }
  return 0;
}
