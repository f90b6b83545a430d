/* report.c - the JSON documents of --list and --rebuild, built with
 * json-glib (the syntax, escaping and commas are its job) */
#include "report.h"

#include <json-glib/json-glib.h>

/* JSON strings are UTF-8: a byte that is not (an Icon= or a file name
 * may have any) is written as U+FFFD, as KDE decodes it. */
static void
add_string (JsonBuilder *b, const char *s)
{
  if (s == NULL)
    json_builder_add_null_value (b);
  else if (g_utf8_validate (s, -1, NULL))
    json_builder_add_string_value (b, s);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (s, -1);

      json_builder_add_string_value (b, valid);
    }
}

static void
member_string (JsonBuilder *b, const char *name, const char *s)
{
  json_builder_set_member_name (b, name);
  add_string (b, s);
}

static void
member_int (JsonBuilder *b, const char *name, gint64 n)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, n);
}

KicJson *
kic_json_new (void)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  return (KicJson *) b;
}

void
kic_json_print (KicJson *json, FILE *out)
{
  JsonBuilder *b = (JsonBuilder *) json;
  JsonGenerator *gen = json_generator_new ();
  JsonNode *root;
  g_autofree char *text = NULL;

  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, NULL);
  json_node_unref (root);
  g_object_unref (gen);
  fputs (text, out);
  fputc ('\n', out);
}

void
kic_json_free (KicJson *json)
{
  if (json != NULL)
    g_object_unref ((JsonBuilder *) json);
}

void
kic_json_string (KicJson *json, const char *name, const char *value)
{
  member_string ((JsonBuilder *) json, name, value);
}

void
kic_json_begin_array (KicJson *json, const char *name)
{
  json_builder_set_member_name ((JsonBuilder *) json, name);
  json_builder_begin_array ((JsonBuilder *) json);
}

void
kic_json_end_array (KicJson *json)
{
  json_builder_end_array ((JsonBuilder *) json);
}

void
kic_json_add_entry (KicJson *json, const char *id, const char *file, const char *icon)
{
  JsonBuilder *b = (JsonBuilder *) json;

  json_builder_begin_object (b);
  member_string (b, "id", id);
  member_string (b, "file", file);
  member_string (b, "icon", icon);
  json_builder_set_member_name (b, "sizes");
  json_builder_begin_array (b);
}

void
kic_json_add_lookup (KicJson *json, int size, const char *path, const char *via, guint calls,
                     guint calls_without_links)
{
  JsonBuilder *b = (JsonBuilder *) json;

  json_builder_begin_object (b);
  member_int (b, "size", size);
  member_string (b, "path", path);
  member_string (b, "via", via);
  member_int (b, "calls", calls);
  member_int (b, "calls_without_links", calls_without_links);
  json_builder_end_object (b);
}

void
kic_json_end_entry (KicJson *json)
{
  json_builder_end_array ((JsonBuilder *) json);
  json_builder_end_object ((JsonBuilder *) json);
}

void
kic_json_add_problem (KicJson *json, const char *id, const char *file, const char *icon, const char *problem,
                      int size, guint calls, const char *package)
{
  JsonBuilder *b = (JsonBuilder *) json;

  json_builder_begin_object (b);
  member_string (b, "id", id);
  member_string (b, "file", file);
  member_string (b, "icon", icon);
  member_string (b, "problem", problem);
  member_int (b, "size", size);
  member_int (b, "calls", calls);
  member_string (b, "package", package);
  json_builder_end_object (b);
}

static void
add_links (JsonBuilder *b, const KicNamePlan *np)
{
  json_builder_set_member_name (b, "links");
  json_builder_begin_array (b);
  for (guint k = 0; k < np->plants->len; k++)
    add_string (b, ((KicPlant *) g_ptr_array_index (np->plants, k))->link);
  json_builder_end_array (b);
}

static void
add_name (JsonBuilder *b, const KicNamePlan *np)
{
  json_builder_begin_object (b);
  member_string (b, "name", np->name);
  member_string (b, "icon", np->icon);
  member_string (b, "status", kic_name_status_to_string (np->status));
  member_string (b, "reason", np->reason);
  json_builder_set_member_name (b, "per_size");
  json_builder_add_boolean_value (b, np->per_size);
  add_links (b, np);
  json_builder_set_member_name (b, "sizes");
  json_builder_begin_array (b);
  for (guint k = 0; k < np->sizes->len; k++)
    {
      const KicSizeReport *r = g_ptr_array_index (np->sizes, k);

      json_builder_begin_object (b);
      member_int (b, "size", r->size);
      member_string (b, "path", r->path);
      member_int (b, "calls_before", r->calls_before);
      member_int (b, "calls_after", r->calls_after);
      member_int (b, "calls_floor", r->calls_floor);
      if (r->floor_reason != NULL)
        member_string (b, "above_floor", r->floor_reason);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* "KDE's calls for the menu at 16, 22, 32 and 48 px: 2043 without the
 * links, 512 with them (3.99x)": the plan's own counts (plan-floor.c,
 * report_sizes: each menu name's lookup in the current theme with the
 * previous run's links hidden, and with the plan's), summed over the
 * names and TARGETS; the ratio as make bench prints it. */
char *
kic_report_calls (const KicPlan *plan, const GArray *targets)
{
  GString *s = g_string_new ("KDE's calls for the menu at ");
  guint64 before = 0, after = 0;

  for (guint t = 0; t < targets->len; t++)
    g_string_append_printf (s, "%s%d", t == 0 ? "" : t + 1 == targets->len ? " and " : ", ",
                            g_array_index (targets, KicTarget, t).size);
  for (guint i = 0; i < plan->names->len; i++)
    {
      const KicNamePlan *np = g_ptr_array_index (plan->names, i);

      for (guint k = 0; k < np->sizes->len; k++)
        {
          const KicSizeReport *r = g_ptr_array_index (np->sizes, k);

          before += r->calls_before;
          after += r->calls_after;
        }
    }
  g_string_append_printf (s, " px: %" G_GUINT64_FORMAT " without the links, %" G_GUINT64_FORMAT " with them", before,
                          after);
  if (after > 0)
    g_string_append_printf (s, (double) before / after < 10 ? " (%.2fx)" : " (%.1fx)", (double) before / after);
  return g_string_free (s, FALSE);
}

void
kic_report_rebuild_json (KicJson *json, const char *theme, const KicPlan *plan, guint n_desktop_files,
                         const KicWriteStats *stats, FILE *out)
{
  JsonBuilder *b = (JsonBuilder *) json;
  guint n_per_size = 0, n_per_size_planted = 0;

  /* names KDE loads with different files at different sizes, and how
   * many of them the proof let a per-size set stand for */
  for (guint i = 0; i < plan->names->len; i++)
    {
      const KicNamePlan *np = g_ptr_array_index (plan->names, i);

      n_per_size += np->per_size;
      n_per_size_planted += np->per_size && np->status == KIC_NAME_PLANTED;
    }
  member_string (b, "theme", theme);
  member_int (b, "desktop_files", n_desktop_files);
  member_int (b, "lookups_proved", plan->n_verified);
  json_builder_set_member_name (b, "links");
  json_builder_begin_object (b);
  member_int (b, "added", stats->added);
  member_int (b, "replaced", stats->replaced);
  member_int (b, "removed", stats->removed);
  member_int (b, "unchanged", stats->unchanged);
  member_int (b, "refused", stats->refused);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "per_size_sets");
  json_builder_begin_object (b);
  member_int (b, "names", n_per_size);
  member_int (b, "planted", n_per_size_planted);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "names");
  json_builder_begin_array (b);
  for (guint i = 0; i < plan->names->len; i++)
    add_name (b, g_ptr_array_index (plan->names, i));
  json_builder_end_array (b);
  /* the closure's names are no menu name: without this they would only
   * show as links nobody asked for */
  json_builder_set_member_name (b, "closure");
  json_builder_begin_array (b);
  for (guint i = 0; i < plan->closure->len; i++)
    {
      const KicNamePlan *np = g_ptr_array_index (plan->closure, i);

      json_builder_begin_object (b);
      member_string (b, "name", np->name);
      member_string (b, "for", np->closure_for->name);
      member_string (b, "theme", np->closure_theme);
      member_string (b, "status", kic_name_status_to_string (np->status));
      add_links (b, np);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  kic_json_print (json, out);
}
