/* keyfile.c - lenient GKeyFile loading and KConfig-like getters */
#include "keyfile.h"

#include "kic.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* KConfig accepts "[group]", "key=value", comments and blank lines; it
 * skips anything else, and keys before the first group go to a default
 * group nobody here reads (KDE/kconfig@v5.103.0 src/core/kconfigini.cpp
 * parseConfig(): "Invalid group header", "Invalid entry (missing '=')",
 * "Invalid entry (empty key)" are warnings, and the line is skipped). */
static gboolean
line_is_acceptable (const char *line, gboolean in_group)
{
  const char *p = line;

  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '\0' || *p == '#')
    return TRUE;
  if (*p == '[')
    return strchr (p, ']') != NULL;
  return in_group && strchr (p, '=') != NULL && *p != '=';
}

/* A group header as KConfig reads it (kconfigini.cpp parseConfig): the
 * name runs to the first ']', what follows a ']' other than another
 * "[...]" is ignored, and "[a][b]" is the nested group "b" of "a", a group
 * of its own (here "a/b": GKeyFile takes no control character, KConfig's
 * own separator, in a group name). */
static char *
group_header (const char *line)
{
  GString *name = g_string_new ("[");
  const char *p = line;

  while (*p == ' ' || *p == '\t')
    p++;
  for (gboolean first = TRUE; *p == '['; first = FALSE)
    {
      const char *end = strchr (p, ']');

      if (end == NULL)
        break;
      if (!first)
        g_string_append_c (name, '/');
      g_string_append_len (name, p + 1, end - p - 1);
      p = end + 1;
    }
  g_string_append_c (name, ']');
  return g_string_free (name, FALSE);
}

/* DATA without the lines KConfig skips, group headers as KConfig reads
 * them.  With KEEP_RAW, a line that is not UTF-8 stays when its shape is
 * right (KDE reads such a value with U+FFFD for each bad byte; GKeyFile
 * loads it and says so when it is asked for it). */
static char *
sanitize (const char *data, gsize length, gboolean keep_raw, guint *n_skipped, guint *first_skipped)
{
  g_autofree char *copy = g_strndup (data, length);
  g_auto (GStrv) lines = g_strsplit (copy, "\n", -1);
  GString *out = g_string_sized_new (length);
  gboolean in_group = FALSE;
  guint skipped = 0;
  guint first_bad = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gsize len = strlen (line);

      if (len > 0 && line[len - 1] == '\r')
        lines[i][len - 1] = '\0';
      if ((!keep_raw && !g_utf8_validate (line, -1, NULL)) || !line_is_acceptable (line, in_group))
        {
          if (skipped++ == 0)
            first_bad = i + 1;
          continue;
        }
      if (g_str_has_prefix (g_strchug (lines[i]), "["))
        {
          g_autofree char *header = group_header (line);

          in_group = TRUE;
          g_string_append (out, header);
        }
      else
        g_string_append (out, line);
      g_string_append_c (out, '\n');
    }
  *n_skipped = skipped;
  *first_skipped = first_bad;
  return g_string_free (out, FALSE);
}

GKeyFile *
kic_keyfile_load_lenient (const char *data, gsize length, const char *origin, KicKeyfileSkipped *skipped,
                          GError **error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autofree char *clean = NULL;

  skipped->lines = skipped->first = 0;
  g_key_file_set_list_separator (kf, ',');
  if (memchr (data, '\0', length) == NULL && g_key_file_load_from_data (kf, data, length, G_KEY_FILE_NONE, NULL))
    return g_steal_pointer (&kf);
  /* first with the lines that are not UTF-8 kept, then (if GKeyFile still
   * refuses, e.g. a key name that is not UTF-8) without them */
  for (int keep_raw = 1; keep_raw >= 0; keep_raw--)
    {
      g_clear_pointer (&clean, g_free);
      clean = sanitize (data, length, keep_raw, &skipped->lines, &skipped->first);
      g_key_file_free (kf);
      kf = g_key_file_new ();
      g_key_file_set_list_separator (kf, ',');
      if (g_key_file_load_from_data (kf, clean, strlen (clean), G_KEY_FILE_NONE, keep_raw ? NULL : error))
        return g_steal_pointer (&kf);
    }
  kic_error_unquote (error != NULL ? *error : NULL);
  g_prefix_error (error, "%s: ", origin);
  return NULL;
}

void
kic_keyfile_warn_skipped (const char *origin, const KicKeyfileSkipped *skipped)
{
  if (skipped->lines > 0)
    kic_warning ("%s:%u: skipping %u line%s that %s not 'key=value' or '[group]'", origin, skipped->first,
                 skipped->lines, skipped->lines == 1 ? "" : "s", skipped->lines == 1 ? "is" : "are");
}

GKeyFile *
kic_keyfile_load (const char *data, gsize length, const char *origin, GError **error)
{
  KicKeyfileSkipped skipped;
  GKeyFile *kf = kic_keyfile_load_lenient (data, length, origin, &skipped, error);

  if (kf != NULL)
    kic_keyfile_warn_skipped (origin, &skipped);
  return kf;
}

char *
kic_keyfile_get_string (GKeyFile *kf, const char *group, const char *key, const char *def)
{
  char *value = g_key_file_get_string (kf, group, key, NULL);

  return value ? value : g_strdup (def);
}

int
kic_keyfile_get_int (GKeyFile *kf, const char *group, const char *key, int def)
{
  g_autofree char *value = g_key_file_get_string (kf, group, key, NULL);
  gint64 n;

  if (value == NULL || !kic_parse_int (value, G_MININT, G_MAXINT, &n))
    return def;
  return (int) n;
}

gboolean
kic_keyfile_get_bool (GKeyFile *kf, const char *group, const char *key, gboolean def)
{
  g_autofree char *value = g_key_file_get_string (kf, group, key, NULL);
  static const char *const negatives[] = { "false", "no", "off", "0" };

  if (value == NULL)
    return def;
  g_strstrip (value);
  /* KDE/kconfig@v5.103.0 src/core/kconfiggroup.cpp convertToQVariant(),
   * QMetaType::Bool: false when the value is one of the negatives, any
   * case; anything else, the empty value included, is true (measured with
   * KF5's KDesktopFile: "Hidden=" and "Hidden=maybe" hide an entry) */
  for (guint i = 0; i < G_N_ELEMENTS (negatives); i++)
    if (g_ascii_strcasecmp (value, negatives[i]) == 0)
      return FALSE;
  return TRUE;
}

char **
kic_keyfile_get_list (GKeyFile *kf, const char *group, const char *key, const char *def)
{
  char **value = g_key_file_get_string_list (kf, group, key, NULL, NULL);

  if (value != NULL)
    return value;
  if (def == NULL)
    return g_new0 (char *, 1);
  return g_strsplit (def, ",", -1);
}
