/* manifest.c - read and write the manifest */
#include "manifest.h"

#include "kic.h"

#include <string.h>

#define KIC_MANIFEST_HEADER "# kde-icon-cache manifest 1"

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

  manifest->entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, entry_free);
  return manifest;
}

void
kic_manifest_free (KicManifest *manifest)
{
  if (manifest == NULL)
    return;
  g_hash_table_unref (manifest->entries);
  g_free (manifest->settings);
  g_free (manifest);
}

gboolean
kic_manifest_path_ok (const char *path)
{
  if (path == NULL || path[0] != '/' || !g_utf8_validate (path, -1, NULL))
    return FALSE;
  for (const char *p = path; *p; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      return FALSE;
  return TRUE;
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

KicManifest *
kic_manifest_parse (const char *data, gsize length, const char *origin)
{
  KicManifest *manifest = kic_manifest_new ();
  g_autofree char *copy = g_strndup (data, length);
  g_auto (GStrv) lines = g_strsplit (copy, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = NULL;
      guint n;

      if (lines[i][0] == '\0')
        continue;
      if (lines[i][0] == '#')
        {
          if (g_str_has_prefix (lines[i], "# journal"))
            manifest->journal = TRUE;
          if (g_str_has_prefix (lines[i], "# settings: "))
            {
              g_free (manifest->settings);
              manifest->settings = g_strdup (lines[i] + strlen ("# settings: "));
            }
          continue;
        }
      fields = g_strsplit (lines[i], "\t", -1);
      n = g_strv_length (fields);
      if (n == 4 && strcmp (fields[0], "file") == 0 && kic_manifest_path_ok (fields[1])
          && kic_manifest_path_ok (fields[2]))
        kic_manifest_add (manifest, KIC_ENTRY_FILE, fields[1], fields[2], fields[3]);
      else if (n == 3 && strcmp (fields[0], "link") == 0 && kic_manifest_path_ok (fields[1])
               && fields[2][0] != '\0')
        kic_manifest_add (manifest, KIC_ENTRY_LINK, fields[1], fields[2], NULL);
      else
        kic_warning ("%s:%u: ignoring a line that is not a manifest entry", origin, i + 1);
    }
  return manifest;
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
  g_hash_table_iter_init (&iter, manifest->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (sorted, value);
  g_ptr_array_sort (sorted, compare_entries);
  for (guint i = 0; i < sorted->len; i++)
    {
      const KicManifestEntry *entry = g_ptr_array_index (sorted, i);

      if (entry->kind == KIC_ENTRY_FILE)
        g_string_append_printf (out, "file\t%s\t%s\t%s\n", entry->path, entry->target, entry->sha256);
      else
        g_string_append_printf (out, "link\t%s\t%s\n", entry->path, entry->target);
    }
  return g_string_free (out, FALSE);
}
