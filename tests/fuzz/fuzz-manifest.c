/* fuzz-manifest.c - kic_manifest_parse() and kic_manifest_to_string()
 *
 * Parse any bytes, write the manifest out, parse that again and write it
 * again: the two texts must be the same, and so must the entries.  Every
 * entry kept has a path kic_manifest_path_ok() accepts, a file has a
 * source path it accepts too, and the text has one line per entry besides
 * its comments (the header, the settings, the journal mark, the made
 * directories and journaled times, the end mark).
 *
 * Damage (issue 13, row 10): input with a NUL byte on a line is marked
 * damaged; the text written is not; every shorter prefix of it (a
 * manifest cut short anywhere) is damaged and holds no entry the whole
 * text does not; the same text with a NUL byte put anywhere before its
 * end is damaged.  Hostile values (the seeds hold entries outside the
 * store, "..", huge times) must parse into well-formed fields: whether
 * they are obeyed is the writer's business (test-writer, hardening.sh).
 */
#include "fuzz-common.h"
#include "manifest.h"

#include <string.h>

int
LLVMFuzzerInitialize (G_GNUC_UNUSED int *argc, G_GNUC_UNUSED char ***argv)
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
  g_hash_table_iter_init (&iter, m->made);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    FUZZ_CHECK (kic_manifest_path_ok (key));
  g_hash_table_iter_init (&iter, m->mtimes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 sec = -1;
      glong nsec = -1;

      FUZZ_CHECK (kic_manifest_path_ok (key));
      FUZZ_CHECK (kic_manifest_get_mtime (m, key, &sec, &nsec));
      FUZZ_CHECK (sec >= 0 && nsec >= 0 && nsec < 1000000000);
    }
}

/* Every entry of PART is in WHOLE, the same. */
static void
check_subset (const KicManifest *part, const KicManifest *whole)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, part->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const KicManifestEntry *ep = value;
      const KicManifestEntry *ew = g_hash_table_lookup (whole->entries, key);

      FUZZ_CHECK (ew != NULL && ep->kind == ew->kind);
      FUZZ_CHECK (g_strcmp0 (ep->target, ew->target) == 0 && g_strcmp0 (ep->sha256, ew->sha256) == 0);
    }
}

/* TEXT cut at CUT bytes, and with a NUL byte at CUT: both damaged. */
static void
check_damage (const char *text, gsize length, gsize cut, const KicManifest *whole)
{
  g_autoptr (KicManifest) prefix = kic_manifest_parse (text, cut, "fuzz/manifest.cut");
  g_autofree char *with_nul = g_memdup2 (text, length);
  g_autoptr (KicManifest) nul = NULL;

  FUZZ_CHECK (prefix->damaged);
  check_entries (prefix);
  check_subset (prefix, whole);
  with_nul[cut] = '\0';
  nul = kic_manifest_parse (with_nul, length, "fuzz/manifest.nul");
  FUZZ_CHECK (nul->damaged);
  check_entries (nul);
  check_subset (nul, whole);
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
  FUZZ_CHECK (g_hash_table_size (a->made) == g_hash_table_size (b->made));
  FUZZ_CHECK (g_hash_table_size (a->mtimes) == g_hash_table_size (b->mtimes));
  g_hash_table_iter_init (&iter, a->mtimes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    FUZZ_CHECK (g_strcmp0 (value, g_hash_table_lookup (b->mtimes, key)) == 0);
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
  gsize length;

  /* a NUL byte anywhere is on a line that is not empty: damaged */
  if (memchr (data, '\0', size) != NULL)
    FUZZ_CHECK (first->damaged);
  check_entries (first);
  text1 = kic_manifest_to_string (first);
  FUZZ_CHECK (g_str_has_prefix (text1, "# kde-icon-cache manifest 1\n"));
  FUZZ_CHECK (g_str_has_suffix (text1, "\n"));
  FUZZ_CHECK (count_entry_lines (text1) == g_hash_table_size (first->entries));
  second = kic_manifest_parse (text1, strlen (text1), "fuzz/manifest.again");
  check_entries (second);
  check_same (first, second);
  FUZZ_CHECK (!second->damaged);
  text2 = kic_manifest_to_string (second);
  FUZZ_CHECK (strcmp (text1, text2) == 0);
  /* cut short, or a NUL byte: at a point the input chooses, and just
   * before the end mark */
  length = strlen (text1);
  check_damage (text1, length, size % length, second);
  check_damage (text1, length, length - 2, second);
  return 0;
}
