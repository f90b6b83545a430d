/* keyfile.c - lenient GKeyFile loading and KConfig-like getters */
#include "keyfile.h"

#include "diag.h"
#include "number.h"

#include <stdlib.h>
#include <string.h>

/* KConfig accepts "[group]", "key=value", comments and blank lines; it
 * skips anything else, and keys before the first group go to a default
 * group nobody here reads. */
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

/* DATA without the lines KConfig skips.  With KEEP_RAW a line that is not
 * UTF-8 stays when its shape is right (KDE reads such a value with U+FFFD
 * for each bad byte; GKeyFile loads it and says so when asked for it);
 * ORIGIN NULL: no warning. */
static char *
sanitize (const char *data, gsize length, const char *origin, gboolean keep_raw)
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

      if ((!keep_raw && !g_utf8_validate (line, -1, NULL)) || !line_is_acceptable (line, in_group))
        {
          if (skipped++ == 0)
            first_bad = i + 1;
          continue;
        }
      if (g_str_has_prefix (g_strchug (lines[i]), "["))
        {
          /* KConfig ends the group name at its ']' and reads on: what
           * follows ("[Desktop Entry]junk", a '\r') is no part of it;
           * "[a][b]" is its group b inside a, here "a/b" (no group of
           * that name is read) */
          char *end = strchr (lines[i], ']');

          while (end[1] == '[' && strchr (end + 2, ']') != NULL)
            {
              end[0] = '/';
              memmove (end + 1, end + 2, strlen (end + 2) + 1);
              end = strchr (end, ']');
            }
          end[1] = '\0';
          in_group = TRUE;
        }
      g_string_append (out, line);
      g_string_append_c (out, '\n');
    }
  if (skipped > 0 && origin != NULL)
    kic_warning ("%s:%u: skipping %u line%s that %s not 'key=value' or '[group]'", origin, first_bad, skipped,
                 skipped == 1 ? "" : "s", skipped == 1 ? "is" : "are");
  return g_string_free (out, FALSE);
}

GKeyFile *
kic_keyfile_load (const char *data, gsize length, const char *origin, GError **error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) first_error = NULL;
  g_autofree char *clean = NULL;

  g_key_file_set_list_separator (kf, ',');
  if (memchr (data, '\0', length) == NULL
      && g_key_file_load_from_data (kf, data, length, G_KEY_FILE_NONE, &first_error))
    return g_steal_pointer (&kf);
  /* first with the lines that are not UTF-8 kept (measured with KF5's
   * KDesktopFile: a stray line does not lose a Latin-1 Icon= its file
   * has), then, if GKeyFile still refuses (a key name that is not UTF-8),
   * without them */
  clean = sanitize (data, length, NULL, TRUE);
  g_key_file_free (kf);
  kf = g_key_file_new ();
  g_key_file_set_list_separator (kf, ',');
  if (g_key_file_load_from_data (kf, clean, strlen (clean), G_KEY_FILE_NONE, NULL))
    {
      g_free (sanitize (data, length, origin, TRUE));
      return g_steal_pointer (&kf);
    }
  g_free (clean);
  clean = sanitize (data, length, origin, FALSE);
  g_key_file_free (kf);
  kf = g_key_file_new ();
  g_key_file_set_list_separator (kf, ',');
  if (!g_key_file_load_from_data (kf, clean, strlen (clean), G_KEY_FILE_NONE, error))
    {
      kic_error_unquote (error != NULL ? *error : NULL);
      g_prefix_error (error, "%s: ", origin);
      return NULL;
    }
  return g_steal_pointer (&kf);
}

/* Is LINE (up to END) a translation kic_keyfile_untranslated() drops? */
static gboolean
is_translation (const char *line, const char *end)
{
  const char *p = line;

  while (p < end && (g_ascii_isalnum (*p) || *p == '-'))
    p++;
  if (p == line || p == end || *p++ != '[')
    return FALSE;
  line = p;
  while (p < end && (g_ascii_isalnum (*p) || *p == '-' || *p == '_' || *p == '.' || *p == '@'))
    p++;
  if (p == line || p == end || *p++ != ']')
    return FALSE;
  while (p < end && *p == ' ')
    p++;
  return p < end && *p == '=';
}

char *
kic_keyfile_untranslated (const char *data, gsize length, gsize *out_length)
{
  const char *end = data + length;
  GString *out = NULL;
  gboolean in_group = FALSE;

  for (const char *line = data, *next; line < end; line = next)
    {
      const char *nl = memchr (line, '\n', end - line);

      next = nl != NULL ? nl + 1 : end;
      if (!in_group)
        in_group = line[0] == '[';
      else if (is_translation (line, nl != NULL ? nl : end))
        {
          /* (the lines before it go in whole, at the first drop) */
          if (out == NULL)
            {
              out = g_string_sized_new (length);
              g_string_append_len (out, data, line - data);
            }
          continue;
        }
      if (out != NULL)
        g_string_append_len (out, line, next - line);
    }
  if (out == NULL)
    return NULL;
  *out_length = out->len;
  return g_string_free (out, FALSE);
}

GKeyFile *
kic_keyfile_load_untranslated (const char *data, gsize length, const char *origin, GError **error)
{
  g_autofree char *lean = NULL;
  gsize lean_length = 0;

  if (memchr (data, '\0', length) == NULL && (lean = kic_keyfile_untranslated (data, length, &lean_length)) != NULL)
    {
      g_autoptr (GKeyFile) kf = g_key_file_new ();

      g_key_file_set_list_separator (kf, ',');
      if (g_key_file_load_from_data (kf, lean, lean_length, G_KEY_FILE_NONE, NULL))
        return g_steal_pointer (&kf);
    }
  return kic_keyfile_load (data, length, origin, error);
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

  if (value == NULL)
    return def;
  g_strstrip (value);
  /* KDE/kconfig@v5.103.0 src/core/kconfiggroup.cpp convertToQVariant(),
   * QMetaType::Bool: false when the value is "false", "no", "off" or "0"
   * in any case; anything else, the empty value included, is true
   * (measured with KF5's KDesktopFile: "Hidden=" and "Hidden=maybe" hide
   * an entry) */
  return !(g_ascii_strcasecmp (value, "false") == 0 || g_ascii_strcasecmp (value, "no") == 0
           || g_ascii_strcasecmp (value, "off") == 0 || strcmp (value, "0") == 0);
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
