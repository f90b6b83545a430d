/* config.c - the configuration file and the size syntax */
#include "config.h"

#include "diag.h"
#include "keyfile.h"
#include "number.h"
#include "resolver.h"

#include <string.h>

gboolean
kic_config_parse_size (const char *text, GArray *targets, GError **error)
{
  KicTarget target = { 0, 1.0 };
  g_auto (GStrv) parts = g_strsplit (text, ":", 2);
  gboolean ok;
  gint64 n = 0;

  ok = parts[0] != NULL && kic_parse_int (parts[0], 1, 4096, &n);
  if (ok && parts[1] != NULL)
    {
      char *end;

      target.weight = g_ascii_strtod (parts[1], &end);
      ok = end != parts[1] && *end == '\0' && target.weight > 0 && target.weight <= 1e6;
    }
  if (!ok)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_USAGE,
                   "invalid size '%s': give N or N:WEIGHT, N pixels from 1 to 4096, WEIGHT above 0", text);
      return FALSE;
    }
  target.size = (int) n;
  for (guint i = 0; i < targets->len; i++)
    if (g_array_index (targets, KicTarget, i).size == target.size)
      {
        g_array_index (targets, KicTarget, i).weight = target.weight;
        return TRUE;
      }
  g_array_append_val (targets, target);
  return TRUE;
}

/* The keys of the file (config.h); anything else is most likely a typo
 * ("Sizez=16"), which would silently leave the default in force. */
static const char *const known_keys[] = { "Sizes", "Themes", "ExtraNames", "ExcludeNames", "PerSizeSets",
                                          "UnthemedLinks", NULL };

static void
warn_unknown (GKeyFile *kf, const char *host)
{
  g_auto (GStrv) groups = g_key_file_get_groups (kf, NULL);

  for (guint g = 0; groups[g] != NULL; g++)
    {
      g_auto (GStrv) keys = NULL;

      if (strcmp (groups[g], KIC_CONFIG_GROUP) != 0)
        {
          kic_warning ("%s: unknown group '[%s]' ignored (the settings go in [%s])", host, groups[g],
                       KIC_CONFIG_GROUP);
          continue;
        }
      keys = g_key_file_get_keys (kf, groups[g], NULL, NULL);
      for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
        if (!g_strv_contains (known_keys, keys[k]))
          kic_warning ("%s: unknown key '%s' ignored (known: Sizes, Themes, ExtraNames, ExcludeNames, PerSizeSets, "
                       "UnthemedLinks)", host,
                       keys[k]);
    }
}

/* A boolean as KConfig writes one (true/false, on/off, yes/no, 1/0); any
 * other value is an error: KConfig would read it as false, and a
 * "PerSizeSets=maybe" should not quietly mean no. */
static gboolean
get_bool (GKeyFile *kf, const char *host, const char *key, gboolean *value, GError **error)
{
  static const char *const yes[] = { "true", "on", "yes", "1", NULL };
  static const char *const no[] = { "false", "off", "no", "0", NULL };
  g_autofree char *text = g_key_file_get_string (kf, KIC_CONFIG_GROUP, key, NULL);

  if (text == NULL)
    return TRUE;
  g_strstrip (text);
  for (guint i = 0; yes[i] != NULL; i++)
    if (g_ascii_strcasecmp (text, yes[i]) == 0)
      {
        *value = TRUE;
        return TRUE;
      }
  for (guint i = 0; no[i] != NULL; i++)
    if (g_ascii_strcasecmp (text, no[i]) == 0)
      {
        *value = FALSE;
        return TRUE;
      }
  g_set_error (error, KIC_ERROR, KIC_ERROR_CONFIG,
               "%s: key '%s': '%s' is not a boolean: give true, false, on, off, yes, no, 1 or 0", host, key, text);
  return FALSE;
}

/* A list value is split at commas only: "ExtraNames=a b" or "a;b" (the
 * separators of other files) would be one name that matches nothing, and
 * the names meant would quietly lose their links. */
static void
warn_separators (const char *host, const char *key, char **values)
{
  for (guint i = 0; values[i] != NULL; i++)
    if (strpbrk (values[i], " \t;") != NULL)
      kic_warning ("%s: key '%s': '%s' is taken as one name: separate names with commas (%s=a,b)", host, key,
                   values[i], key);
}

gboolean
kic_config_load (KicFsIndex *index, KicConfig *config, GError **error)
{
  g_autofree char *host = kic_fs_index_host_path (index, KIC_CONFIG_FILE);
  g_autofree char *data = NULL;
  g_autoptr (GKeyFile) kf = NULL;
  g_auto (GStrv) sizes = NULL;
  gsize length;

  config->path = g_strdup (host);
  config->targets = g_array_new (FALSE, FALSE, sizeof (KicTarget));
  config->themes = NULL;
  config->extra_names = g_new0 (char *, 1);
  config->exclude_names = g_new0 (char *, 1);
  if (kic_fs_index_stat (index, KIC_CONFIG_FILE) == KIC_FS_NONE)
    return TRUE;
  if (!kic_fs_index_read_file (index, KIC_CONFIG_FILE, &data, &length, error))
    return FALSE;
  kf = kic_keyfile_load (data, length, host, error);
  if (kf == NULL)
    return FALSE;
  sizes = kic_keyfile_get_list (kf, KIC_CONFIG_GROUP, "Sizes", NULL);
  for (guint i = 0; sizes[i] != NULL; i++)
    {
      g_autoptr (GError) bad = NULL;

      g_strstrip (sizes[i]);
      if (sizes[i][0] != '\0' && !kic_config_parse_size (sizes[i], config->targets, &bad))
        {
          /* the file is wrong, not the command line: a runtime error */
          g_set_error (error, KIC_ERROR, KIC_ERROR_CONFIG, "%s: key 'Sizes': %s%s", host, bad->message,
                       strpbrk (sizes[i], " \t;") != NULL ? " (separate sizes with commas: Sizes=16,48:4)" : "");
          return FALSE;
        }
    }
  config->themes = kic_keyfile_get_list (kf, KIC_CONFIG_GROUP, "Themes", NULL);
  for (guint i = 0; config->themes[i] != NULL; i++)
    g_strstrip (config->themes[i]);
  warn_separators (host, "Themes", config->themes);
  if (config->themes[0] == NULL)
    g_clear_pointer (&config->themes, g_strfreev);
  g_strfreev (config->extra_names);
  config->extra_names = kic_keyfile_get_list (kf, KIC_CONFIG_GROUP, "ExtraNames", NULL);
  for (guint i = 0; config->extra_names[i] != NULL; i++)
    g_strstrip (config->extra_names[i]);
  warn_separators (host, "ExtraNames", config->extra_names);
  g_strfreev (config->exclude_names);
  config->exclude_names = kic_keyfile_get_list (kf, KIC_CONFIG_GROUP, "ExcludeNames", NULL);
  for (guint i = 0; config->exclude_names[i] != NULL; i++)
    g_strstrip (config->exclude_names[i]);
  warn_separators (host, "ExcludeNames", config->exclude_names);
  if (!get_bool (kf, host, "PerSizeSets", &config->per_size_sets, error))
    return FALSE;
  if (!get_bool (kf, host, "UnthemedLinks", &config->unthemed_links, error))
    return FALSE;
  warn_unknown (kf, host);
  return TRUE;
}

void
kic_config_clear (KicConfig *config)
{
  if (config->targets)
    g_array_unref (config->targets);
  g_strfreev (config->themes);
  g_strfreev (config->extra_names);
  g_strfreev (config->exclude_names);
  g_free (config->path);
  config->path = NULL;
  config->targets = NULL;
  config->themes = NULL;
  config->extra_names = NULL;
  config->exclude_names = NULL;
}

void
kic_config_exclude (const KicConfig *config, GPtrArray *names)
{
  for (guint i = names->len; i > 0; i--)
    {
      const char *name = g_ptr_array_index (names, i - 1);
      g_autofree char *stem = name != NULL ? kic_icon_name_strip_extension (name) : NULL;

      if (name != NULL
          && (g_strv_contains ((const char *const *) config->exclude_names, name)
              || g_strv_contains ((const char *const *) config->exclude_names, stem)))
        g_ptr_array_remove_index (names, i - 1);
    }
}
