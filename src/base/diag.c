/* diag.c - messages and the error domain (diag.h) */
#include "diag.h"
#include "hash.h"

#include <stdio.h>
#include <stdarg.h>

gboolean kic_quiet = FALSE;
gboolean kic_verbose = FALSE;

G_DEFINE_QUARK (kic-error-quark, kic_error)

static void
print_prefixed (const char *level, const char *format, va_list args)
{
  g_autofree char *msg = g_strdup_vprintf (format, args);
  g_printerr ("%s: %s%s\n", g_get_prgname () ? g_get_prgname () : "kde-icon-cache", level, msg);
}

/* The run's diagnostics, in the order first given, each text once: the
 * same bad file is met by every resolver that reads it (one per theme the
 * proof takes), and the admin should hear of it once. */
static GPtrArray *diagnostics;
static GHashTable *diagnostics_seen;
static GHashTable *diagnostics_loud;
static guint diagnostics_serial;

/* (the message as recorded: "LEVEL: text") */
static const char *
record (const char *level, const char *format, va_list args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);
  char *msg = g_strconcat (level, text, NULL);

  diagnostics_serial++;
  if (diagnostics_seen == NULL)
    diagnostics_seen = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  if (diagnostics == NULL)
    diagnostics = g_ptr_array_new_with_free_func (g_free);
  if (!g_hash_table_add (diagnostics_seen, msg))
    return g_hash_table_lookup (diagnostics_seen, msg); /* seen before (the set keeps MSG in place of its equal) */
  g_ptr_array_add (diagnostics, g_strdup (msg));
  return msg;
}

void
kic_warning (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  record ("warning: ", format, args);
  va_end (args);
}

void
kic_warning_loud (const char *format, ...)
{
  va_list args;
  const char *msg;

  va_start (args, format);
  msg = record ("warning: ", format, args);
  va_end (args);
  if (diagnostics_loud == NULL)
    diagnostics_loud = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add (diagnostics_loud, g_strdup (msg));
}

gboolean
kic_diagnostic_is_loud (const char *msg)
{
  return diagnostics_loud != NULL && g_hash_table_contains (diagnostics_loud, msg);
}

void
kic_note (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  record ("note: ", format, args);
  va_end (args);
}

guint
kic_diagnostics_serial (void)
{
  return diagnostics_serial;
}

GPtrArray *
kic_diagnostics_take (void)
{
  GPtrArray *taken = diagnostics != NULL ? diagnostics : g_ptr_array_new_with_free_func (g_free);

  /* what was taken stays in the seen set: a later repeat is still dropped */
  diagnostics = NULL;
  return taken;
}

void
kic_debug (const char *format, ...)
{
  va_list args;

  if (!kic_verbose)
    return;
  va_start (args, format);
  print_prefixed ("", format, args);
  va_end (args);
}

void
kic_error_unquote (GError *error)
{
  const char *text = NULL;

  if (error == NULL)
    return;
  if (error->domain == G_KEY_FILE_ERROR)
    switch ((GKeyFileError) error->code)
      {
      case G_KEY_FILE_ERROR_UNKNOWN_ENCODING:
        text = "not UTF-8";
        break;
      case G_KEY_FILE_ERROR_PARSE:
        text = "a line is not 'key=value', '[group]' or a comment";
        break;
      case G_KEY_FILE_ERROR_NOT_FOUND:
        text = "not found";
        break;
      case G_KEY_FILE_ERROR_KEY_NOT_FOUND:
        text = "a key is missing";
        break;
      case G_KEY_FILE_ERROR_GROUP_NOT_FOUND:
        text = "a group is missing";
        break;
      case G_KEY_FILE_ERROR_INVALID_VALUE:
      default:
        text = "a value is not valid";
        break;
      }
  else if (error->domain == G_MARKUP_ERROR)
    {
      int line = 0;

      /* "Error on line N char M: ..." says where, which quotes nothing */
      if (sscanf (error->message, "Error on line %d", &line) == 1 && line > 0)
        {
          g_free (error->message);
          error->message = g_strdup_printf ("not well-formed XML (line %d)", line);
          return;
        }
      text = "not well-formed XML";
    }
  if (text == NULL)
    return;
  g_free (error->message);
  error->message = g_strdup (text);
}
