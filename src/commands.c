/* commands.c - --resolve, --list and --explain */
#include "commands.h"

#include "desktop.h"
#include "kic.h"
#include "resolver.h"

#include <stdio.h>
#include <string.h>

/* The sizes the application menu asks for (kde-lookup.md §7.1): Kicker 16,
 * Kickoff compact 22, Kickoff list 32, favourites and hasIcon() 48. */
static const int menu_sizes[] = { 16, 22, 32, 48 };

/* The single size of --resolve/--explain: --size, else the Desktop group
 * size, which is what kiconfinder5 and Plasma's hasIcon() use (48 with
 * breeze). */
static int
single_size (const KicCommandOptions *options, const KicSystem *system)
{
  if (options->sizes->len > 0)
    return g_array_index (options->sizes, int, options->sizes->len - 1);
  return kic_resolver_group_size (system->resolver, KIC_GROUP_DESKTOP);
}

/* The names to look up: the arguments, else standard input, one a line. */
static GPtrArray *
read_names (const KicCommandOptions *options)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  char buf[8192];

  if (options->names != NULL)
    {
      for (guint i = 0; options->names[i] != NULL; i++)
        g_ptr_array_add (names, g_strdup (options->names[i]));
      return names;
    }
  while (fgets (buf, sizeof buf, stdin) != NULL)
    {
      g_strchomp (buf);
      if (buf[0] != '\0')
        g_ptr_array_add (names, g_strdup (buf));
    }
  return names;
}

gboolean
kic_command_resolve (const KicCommandOptions *options, GError **error)
{
  g_autoptr (KicSystem) system = kic_system_load (&options->system, error);
  g_autoptr (GPtrArray) names = NULL;
  int size;

  if (system == NULL)
    return FALSE;
  size = single_size (options, system);
  names = read_names (options);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autoptr (KicResult) result = kic_resolve (system->resolver, name, size, FALSE);

      printf ("%s\t%s\n", name, result->path ? result->path : "-");
    }
  return TRUE;
}

static const char *
call_kind_name (KicCallKind kind)
{
  switch (kind)
    {
    case KIC_CALL_ACCESS:
      return "access";
    case KIC_CALL_L10N:
      return "stat";
    case KIC_CALL_STAT:
      return "stat";
    }
  return "?";
}

static char *
theme_list_string (const KicSystem *system)
{
  const GPtrArray *themes = kic_resolver_themes (system->resolver);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < themes->len; i++)
    {
      const KicTheme *theme = g_ptr_array_index (themes, i);

      g_string_append_printf (s, "%s%s", i ? ", " : "", theme->desc->name);
    }
  return g_string_free (s, FALSE);
}

gboolean
kic_command_explain (const KicCommandOptions *options, GError **error)
{
  g_autoptr (KicSystem) system = kic_system_load (&options->system, error);
  g_autoptr (GPtrArray) names = NULL;
  g_autofree char *themes = NULL;
  int size;

  if (system == NULL)
    return FALSE;
  size = single_size (options, system);
  names = read_names (options);
  themes = theme_list_string (system);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autoptr (KicResult) result = kic_resolve (system->resolver, name, size, TRUE);

      printf ("%s at %d px; themes searched: %s\n", name, size, themes);
      for (guint c = 0; c < result->calls->len; c++)
        {
          const KicCall *call = g_ptr_array_index (result->calls, c);
          const char *mark = call->kind == KIC_CALL_L10N ? "" : call->hit ? "found" : "-";

          printf ("%6u  %-6s  %s  %s\n", c + 1, call_kind_name (call->kind), call->path, mark);
        }
      if (result->path != NULL)
        printf ("=> %s (%s, %u calls)\n", result->path, kic_via_to_string (result->via), result->n_calls);
      else
        printf ("=> not found (%u calls)\n", result->n_calls);
    }
  return TRUE;
}

/* JSON string syntax: quotes, backslashes and control characters escaped;
 * bytes that are not UTF-8 are written as U+FFFD. */
static void
json_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  if (s != NULL)
    for (const char *p = s; *p != '\0';)
      {
        gunichar c = g_utf8_get_char_validated (p, -1);

        if (c == (gunichar) -1 || c == (gunichar) -2)
          {
            g_string_append (out, "\\ufffd");
            p++;
            continue;
          }
        if (c == '"' || c == '\\')
          g_string_append_printf (out, "\\%c", (char) c);
        else if (c < 0x20)
          g_string_append_printf (out, "\\u%04x", c);
        else
          g_string_append_unichar (out, c);
        p = g_utf8_next_char (p);
      }
  g_string_append_c (out, '"');
}

static GArray *
list_sizes (const KicCommandOptions *options)
{
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (int));

  if (options->sizes->len > 0)
    g_array_append_vals (sizes, options->sizes->data, options->sizes->len);
  else
    g_array_append_vals (sizes, menu_sizes, G_N_ELEMENTS (menu_sizes));
  return sizes;
}

gboolean
kic_command_list (const KicCommandOptions *options, GError **error)
{
  g_autoptr (KicSystem) system = kic_system_load (&options->system, error);
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GArray) sizes = NULL;
  g_autoptr (GString) json = g_string_new (NULL);

  if (system == NULL)
    return FALSE;
  sizes = list_sizes (options);
  entries = kic_desktop_scan (system->index, system->data_dirs);
  if (options->json)
    {
      g_string_append (json, "{\n  \"theme\": ");
      json_string (json, system->current_theme);
      g_string_append (json, ",\n  \"desktop_files\": [");
    }
  for (guint i = 0; i < entries->len; i++)
    {
      const KicDesktopEntry *entry = g_ptr_array_index (entries, i);

      if (options->json)
        {
          g_string_append (json, i ? ",\n    {\"id\": " : "\n    {\"id\": ");
          json_string (json, entry->id);
          g_string_append (json, ", \"file\": ");
          json_string (json, entry->path);
          g_string_append (json, ", \"icon\": ");
          if (entry->icon)
            json_string (json, entry->icon);
          else
            g_string_append (json, "null");
          g_string_append (json, ", \"sizes\": [");
        }
      for (guint s = 0; s < sizes->len; s++)
        {
          int size = g_array_index (sizes, int, s);
          g_autoptr (KicResult) result = NULL;

          if (entry->icon == NULL)
            {
              if (!options->json && s == 0)
                printf ("%s\t\t-\t-\t0\n", entry->id);
              continue;
            }
          result = kic_resolve (system->resolver, entry->icon, size, FALSE);
          if (!options->json)
            {
              printf ("%s\t%s\t%d\t%s\t%u\n", entry->id, entry->icon, size,
                      result->path ? result->path : "-", result->n_calls);
              continue;
            }
          g_string_append_printf (json, "%s{\"size\": %d, \"path\": ", s ? ", " : "", size);
          if (result->path)
            json_string (json, result->path);
          else
            g_string_append (json, "null");
          g_string_append_printf (json, ", \"via\": \"%s\", \"calls\": %u}",
                                  kic_via_to_string (result->via), result->n_calls);
        }
      if (options->json)
        g_string_append (json, "]}");
    }
  if (options->json)
    {
      g_string_append (json, "\n  ]\n}\n");
      fputs (json->str, stdout);
    }
  return TRUE;
}
