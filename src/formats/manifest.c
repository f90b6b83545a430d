/* manifest.c - read and write the manifest */
#include "manifest.h"

#include "diag.h"
#include "hash.h"
#include "path.h"
#include "sorted.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define KIC_MANIFEST_HEADER "# kde-icon-cache manifest 1"
#define KIC_MANIFEST_END "# end"

static void
entry_free (gpointer data)
{
  KicManifestEntry *entry = data;

  g_free (entry->path);
  g_free (entry->target);
  g_free (entry->sha256);
  g_free (entry);
}

KicManifest *
kic_manifest_new (void)
{
  KicManifest *manifest = g_new0 (KicManifest, 1);

  manifest->entries = g_hash_table_new_full (kic_str_hash, g_str_equal, NULL, entry_free);
  manifest->made = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  manifest->mtimes = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  return manifest;
}

void
kic_manifest_free (KicManifest *manifest)
{
  if (manifest == NULL)
    return;
  g_hash_table_unref (manifest->entries);
  g_hash_table_unref (manifest->made);
  g_hash_table_unref (manifest->mtimes);
  g_free (manifest->settings);
  g_free (manifest->inputs);
  g_free (manifest->temp_token);
  g_free (manifest);
}

gboolean
kic_manifest_path_ok (const char *path)
{
  const char *p;
  gboolean ascii = TRUE;
  gsize length, i = 0;

  if (path == NULL || path[0] != '/')
    return FALSE;
  /* eight bytes a step while none is a control character, DEL or
   * beyond ASCII (the bits of each test: Anderson's "Bit Twiddling
   * Hacks", a byte less than n, a byte equal to zero), every path the
   * state and the writer check; past such a step, the byte loop below
   * decides */
  length = strlen (path);
  for (; i + 8 <= length; i += 8)
    {
      const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101), highs = ones * 0x80;
      guint64 w, del;

      memcpy (&w, path + i, 8);
      del = w ^ (ones * 0x7f);
      if (((w | ((w - ones * 0x20) & ~w)) & highs) != 0 || ((del - ones) & ~del & highs) != 0)
        break;
    }
  /* one pass; UTF-8 asked of the rare path that is not ASCII */
  for (p = path + i; *p; p++)
    {
      guchar c = (guchar) *p;

      if (c < 0x20 || c == 0x7f)
        return FALSE;
      if (c >= 0x80)
        ascii = FALSE;
    }
  return ascii || g_utf8_validate (path, p - path, NULL);
}

void
kic_manifest_add (KicManifest *manifest, KicEntryKind kind, const char *path,
                  const char *target, const char *sha256)
{
  KicManifestEntry *entry = g_new0 (KicManifestEntry, 1);

  entry->kind = kind;
  entry->path = g_strdup (path);
  entry->target = g_strdup (target);
  entry->sha256 = g_strdup (sha256);
  g_hash_table_replace (manifest->entries, entry->path, entry);
}

gboolean
kic_manifest_name_fits (const char *name)
{
  return strlen (KIC_TEMP_PREFIX) + strlen (name) + strlen (KIC_TEMP_INFIX) + KIC_TEMP_TOKEN_LEN <= NAME_MAX;
}

gboolean
kic_manifest_path_writable (const char *path)
{
  const char *slash;

  if (!kic_manifest_path_ok (path) || !kic_path_is_clean (path))
    return FALSE;
  slash = strrchr (path, '/');
  return kic_manifest_name_fits (slash + 1);
}

void
kic_manifest_set_mtime (KicManifest *manifest, const char *dir, gint64 sec, glong nsec)
{
  g_hash_table_replace (manifest->mtimes, g_strdup (dir),
                        g_strdup_printf ("%" G_GINT64_FORMAT ".%09ld", sec, nsec));
}

/* "<seconds>.<nine digits>", both parts plain decimal digits */
static gboolean
parse_mtime (const char *text, gint64 *sec, glong *nsec)
{
  const char *dot = strchr (text, '.');
  guint64 s, ns;

  if (dot == NULL || dot == text || strlen (dot + 1) != 9 || dot - text > 18)
    return FALSE;
  for (const char *p = text; *p; p++)
    if (p != dot && !g_ascii_isdigit (*p))
      return FALSE;
  s = g_ascii_strtoull (text, NULL, 10);
  ns = g_ascii_strtoull (dot + 1, NULL, 10);
  if (sec != NULL)
    *sec = (gint64) s;
  if (nsec != NULL)
    *nsec = (glong) ns;
  return TRUE;
}

gboolean
kic_manifest_get_mtime (const KicManifest *manifest, const char *dir, gint64 *sec, glong *nsec)
{
  const char *text = g_hash_table_lookup (manifest->mtimes, dir);

  return text != NULL && parse_mtime (text, sec, nsec);
}

/* One line, without its newline (cut into fields in place); FALSE when
 * it is not one of ours. */
static gboolean
parse_line (KicManifest *manifest, char *line)
{
  g_auto (GStrv) fields = NULL;
  guint n;

  if (line[0] == '#')
    {
      if (g_str_has_prefix (line, "# journal"))
        manifest->journal = TRUE;
      else if (g_str_has_prefix (line, "# settings: "))
        {
          g_free (manifest->settings);
          manifest->settings = g_strdup (line + strlen ("# settings: "));
        }
      else if (g_str_has_prefix (line, "# inputs: "))
        {
          g_free (manifest->inputs);
          manifest->inputs = g_strdup (line + strlen ("# inputs: "));
        }
      else if (g_str_has_prefix (line, "# temporary: "))
        {
          const char *token = line + strlen ("# temporary: ");

          /* letters and digits only: it becomes part of file names */
          for (const char *c = token; *c != '\0'; c++)
            if (!g_ascii_isalnum (*c))
              return FALSE;
          g_free (manifest->temp_token);
          manifest->temp_token = g_strdup (token);
        }
      else if (g_str_has_prefix (line, "# made\t") || g_str_has_prefix (line, "# mtime\t"))
        {
          fields = g_strsplit (line, "\t", -1);
          n = g_strv_length (fields);
          if (n == 2 && strcmp (fields[0], "# made") == 0 && kic_manifest_path_ok (fields[1]))
            g_hash_table_add (manifest->made, g_strdup (fields[1]));
          else if (n == 3 && strcmp (fields[0], "# mtime") == 0 && kic_manifest_path_ok (fields[1])
                   && parse_mtime (fields[2], NULL, NULL))
            g_hash_table_replace (manifest->mtimes, g_strdup (fields[1]), g_strdup (fields[2]));
          else
            return FALSE;
        }
      return TRUE;
    }
  {
    /* the fields as g_strsplit() would cut them, up to one too many */
    char *field[5];
    char *tab = line;

    n = 0;
    field[n++] = line;
    while (n < G_N_ELEMENTS (field) && (tab = strchr (tab, '\t')) != NULL)
      {
        *tab++ = '\0';
        field[n++] = tab;
      }
    if (n == 4 && strcmp (field[0], "file") == 0 && kic_manifest_path_ok (field[1])
        && kic_manifest_path_ok (field[2]))
      kic_manifest_add (manifest, KIC_ENTRY_FILE, field[1], field[2], field[3]);
    else if (n == 3 && strcmp (field[0], "link") == 0 && kic_manifest_path_ok (field[1]) && field[2][0] != '\0')
      kic_manifest_add (manifest, KIC_ENTRY_LINK, field[1], field[2], NULL);
    else
      return FALSE;
  }
  return TRUE;
}

KicManifest *
kic_manifest_parse (const char *data, gsize length, const char *origin)
{
  KicManifest *manifest = kic_manifest_new ();
  const char *p = data, *end = data + length;
  /* one copy, cut into lines in place */
  g_autofree char *copy = g_malloc (length + 1);
  gboolean ended = FALSE;
  guint number = 0;

  memcpy (copy, data, length);
  copy[length] = '\0';
  /* line by line over all LENGTH bytes: a NUL byte ends no line early */
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *stop = nl != NULL ? nl : end;
      char *line = NULL;

      number++;
      if (stop == p)
        {
          p = stop + 1;
          continue;
        }
      ended = FALSE;
      if (memchr (p, '\0', stop - p) != NULL)
        {
          kic_warning ("%s:%u: ignoring a line with a NUL byte", origin, number);
          manifest->damaged = TRUE;
        }
      else if (nl == NULL)
        {
          kic_warning ("%s:%u: ignoring a line cut short", origin, number);
          manifest->damaged = TRUE;
        }
      else
        {
          line = copy + (p - data);
          line[stop - p] = '\0';
          if (strcmp (line, KIC_MANIFEST_END) == 0)
            ended = TRUE;
          else if (!parse_line (manifest, line))
            {
              kic_warning ("%s:%u: ignoring a line that is not a manifest entry", origin, number);
              manifest->damaged = TRUE;
            }
        }
      p = stop + 1;
    }
  if (!ended)
    manifest->damaged = TRUE;
  return manifest;
}

char *
kic_manifest_inputs (const char *data, gsize length)
{
  static const char prefix[] = "# inputs: ";
  const gsize n = sizeof prefix - 1;
  const char *p = data, *end = data + length, *value = NULL, *value_end = NULL;

  /* the lines kic_manifest_parse() reads: ended by a newline, no NUL */
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);

      if (nl == NULL)
        break;
      if ((gsize) (nl - p) >= n && memcmp (p, prefix, n) == 0 && memchr (p, '\0', nl - p) == NULL)
        {
          value = p + n;
          value_end = nl;
        }
      p = nl + 1;
    }
  return value != NULL ? g_strndup (value, value_end - value) : NULL;
}

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  const KicManifestEntry *ea = *(KicManifestEntry *const *) a;
  const KicManifestEntry *eb = *(KicManifestEntry *const *) b;

  if (ea->kind != eb->kind)
    return ea->kind == KIC_ENTRY_FILE ? -1 : 1;
  return strcmp (ea->path, eb->path);
}

/* One "PREFIX<key>" line per key of TABLE, sorted; WITH_VALUE adds
 * "<TAB><value>". */
static void
append_sorted_keys (GString *out, GHashTable *table, const char *prefix, gboolean with_value)
{
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (table, NULL);
  guint n = g_hash_table_size (table);

  qsort (keys, n, sizeof *keys, kic_compare_strings);
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%s%s", prefix, (const char *) keys[i]);
      if (with_value)
        g_string_append_printf (out, "\t%s", (const char *) g_hash_table_lookup (table, keys[i]));
      g_string_append_c (out, '\n');
    }
}

char *
kic_manifest_to_string (const KicManifest *manifest)
{
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  GString *out = g_string_new (KIC_MANIFEST_HEADER "\n");
  GHashTableIter iter;
  gpointer value;

  if (manifest->journal)
    g_string_append (out, "# journal: a run was under way; it may have left more than this\n");
  if (manifest->settings != NULL)
    g_string_append_printf (out, "# settings: %s\n", manifest->settings);
  if (manifest->inputs != NULL)
    g_string_append_printf (out, "# inputs: %s\n", manifest->inputs);
  if (manifest->temp_token != NULL)
    g_string_append_printf (out, "# temporary: %s\n", manifest->temp_token);
  append_sorted_keys (out, manifest->made, "# made\t", FALSE);
  append_sorted_keys (out, manifest->mtimes, "# mtime\t", TRUE);
  g_hash_table_iter_init (&iter, manifest->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (sorted, value);
  g_ptr_array_sort (sorted, compare_entries);
  for (guint i = 0; i < sorted->len; i++)
    {
      const KicManifestEntry *entry = g_ptr_array_index (sorted, i);

      /* "file\tPATH\tSOURCE\tSHA256" or "link\tPATH\tTARGET" (appended,
       * not printf'd: the manifest is written three times a run) */
      g_string_append (out, entry->kind == KIC_ENTRY_FILE ? "file\t" : "link\t");
      g_string_append (out, entry->path);
      g_string_append_c (out, '\t');
      g_string_append (out, entry->target);
      if (entry->kind == KIC_ENTRY_FILE)
        {
          g_string_append_c (out, '\t');
          g_string_append (out, entry->sha256);
        }
      g_string_append_c (out, '\n');
    }
  g_string_append (out, KIC_MANIFEST_END "\n");
  return g_string_free (out, FALSE);
}
