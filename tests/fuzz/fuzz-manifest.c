/* fuzz-manifest.c - kic_manifest_parse() and kic_manifest_to_string()
 *
 * Parse any bytes, write the manifest out, parse that again and write it
 * again: the two texts must be the same, and so must the entries.  Every
 * entry kept has a path kic_manifest_path_ok() accepts, a file has a
 * source path it accepts too, and the text has one line per entry besides
 * its comments (the header, the settings, the journal mark).
 */
#include "fuzz-common.h"
#include "manifest.h"

#include <string.h>

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init ();
  return 0;
}

static void
check_entries (const KicManifest *m)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, m->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicManifestEntry *e = value;

      FUZZ_CHECK (key == e->path);
      FUZZ_CHECK (kic_manifest_path_ok (e->path));
      FUZZ_CHECK (e->target != NULL);
      if (e->kind == KIC_ENTRY_FILE)
        FUZZ_CHECK (kic_manifest_path_ok (e->target) && e->sha256 != NULL);
      else
        FUZZ_CHECK (e->kind == KIC_ENTRY_LINK && e->target[0] != '\0' && e->sha256 == NULL);
      FUZZ_CHECK (strpbrk (e->target, "\t\n") == NULL);
      if (e->sha256 != NULL)
        FUZZ_CHECK (strpbrk (e->sha256, "\t\n") == NULL);
    }
  if (m->settings != NULL)
    FUZZ_CHECK (strchr (m->settings, '\n') == NULL);
}

static void
check_same (const KicManifest *a, const KicManifest *b)
{
  GHashTableIter iter;
  gpointer key, value;

  FUZZ_CHECK (g_hash_table_size (a->entries) == g_hash_table_size (b->entries));
  FUZZ_CHECK (g_strcmp0 (a->settings, b->settings) == 0);
  g_hash_table_iter_init (&iter, a->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicManifestEntry *ea = value;
      const KicManifestEntry *eb = g_hash_table_lookup (b->entries, key);

      FUZZ_CHECK (eb != NULL);
      FUZZ_CHECK (ea->kind == eb->kind);
      FUZZ_CHECK (strcmp (ea->path, eb->path) == 0);
      FUZZ_CHECK (g_strcmp0 (ea->target, eb->target) == 0);
      FUZZ_CHECK (g_strcmp0 (ea->sha256, eb->sha256) == 0);
    }
}

/* the lines that are not comments: one per entry */
static guint
count_entry_lines (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += lines[i][0] != '\0' && lines[i][0] != '#';
  return n;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (KicManifest) first = kic_manifest_parse ((const char *) data, size, "fuzz/manifest");
  g_autofree char *text1 = NULL;
  g_autofree char *text2 = NULL;
  g_autoptr (KicManifest) second = NULL;

  check_entries (first);
  text1 = kic_manifest_to_string (first);
  FUZZ_CHECK (g_str_has_prefix (text1, "# kde-icon-cache manifest 1\n"));
  FUZZ_CHECK (g_str_has_suffix (text1, "\n"));
  FUZZ_CHECK (count_entry_lines (text1) == g_hash_table_size (first->entries));
  second = kic_manifest_parse (text1, strlen (text1), "fuzz/manifest.again");
  check_entries (second);
  check_same (first, second);
  text2 = kic_manifest_to_string (second);
  FUZZ_CHECK (strcmp (text1, text2) == 0);
  return 0;
}
