/* main.c - kde-icon-cache: make KDE find menu icons in a few file system
 * calls instead of hundreds.
 *
 * This file only parses the command line and maps the outcome to an exit
 * status: 0 success, 1 runtime error, 2 usage error.
 */
#include "commands.h"
#include "kic.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KIC_VERSION
#define KIC_VERSION "0.1"
#endif

enum { EXIT_USAGE = 2 };

static gboolean opt_resolve, opt_list, opt_explain, opt_json, opt_version;
static char *opt_root, *opt_theme;
static char **opt_sizes, **opt_names;

static const GOptionEntry mode_entries[] = {
  { "resolve", 0, 0, G_OPTION_ARG_NONE, &opt_resolve, "Print the file KDE loads for each NAME", NULL },
  { "list", 0, 0, G_OPTION_ARG_NONE, &opt_list, "List every menu entry with its icon and KDE's cost", NULL },
  { "explain", 0, 0, G_OPTION_ARG_NONE, &opt_explain, "Show KDE's file system calls for NAME, numbered", NULL },
  { NULL },
};

static const GOptionEntry option_entries[] = {
  { "size", 's', 0, G_OPTION_ARG_STRING_ARRAY, &opt_sizes, "Icon size in pixels (repeatable)", "N" },
  { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, "Machine-readable output (--list)", NULL },
  { "root", 'r', 0, G_OPTION_ARG_FILENAME, &opt_root, "Work on the system under DIR (a chroot)", "DIR" },
  { "theme", 't', 0, G_OPTION_ARG_STRING, &opt_theme, "Current icon theme (default: kdeglobals, else breeze)", "NAME" },
  { "verbose", 'v', 0, G_OPTION_ARG_NONE, &kic_verbose, "Say more", NULL },
  { "quiet", 'q', 0, G_OPTION_ARG_NONE, &kic_quiet, "Print no warnings", NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, &opt_version, "Print the version and exit", NULL },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_names, NULL, "NAME..." },
  { NULL },
};

/* "N": a pixel size from 1 to 4096 */
static gboolean
parse_sizes (GArray *sizes, GError **error)
{
  for (guint i = 0; opt_sizes != NULL && opt_sizes[i] != NULL; i++)
    {
      char *end;
      long n;

      errno = 0;
      n = strtol (opt_sizes[i], &end, 10);
      if (end == opt_sizes[i] || *end != '\0' || errno != 0 || n < 1 || n > 4096)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "invalid size '%s': give a number of pixels from 1 to 4096", opt_sizes[i]);
          return FALSE;
        }
      g_array_append_val (sizes, (int) { (int) n });
    }
  return TRUE;
}

static gboolean
check_modes (GError **error)
{
  int modes = opt_resolve + opt_list + opt_explain;

  if (modes != 1)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           modes ? "give only one of --resolve, --list, --explain"
                                 : "give one of --resolve, --list, --explain");
      return FALSE;
    }
  if (opt_list && opt_names != NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--list takes no NAME ('%s')", opt_names[0]);
      return FALSE;
    }
  if (opt_explain && opt_names == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--explain needs a NAME");
      return FALSE;
    }
  if (opt_json && !opt_list)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--json goes with --list");
      return FALSE;
    }
  return TRUE;
}

static void
print_handler (const char *message)
{
  fputs (message, stderr);
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (int));
  KicCommandOptions options = { 0 };
  gboolean ok;

  setlocale (LC_ALL, "");
  g_set_prgname ("kde-icon-cache");
  g_set_printerr_handler (print_handler);
  context = g_option_context_new ("- make KDE find menu icons quickly");
  g_option_context_set_summary (context,
                                "Finds the icon file KDE Frameworks 5 loads for each application menu entry,\n"
                                "and what that costs in file system calls.");
  g_option_context_set_description (context, "See kde-icon-cache(8) for details and exit status.");
  g_option_context_add_main_entries (context, mode_entries, NULL);
  g_option_context_add_main_entries (context, option_entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error)
      || (!opt_version && (!check_modes (&error) || !parse_sizes (sizes, &error))))
    {
      g_printerr ("kde-icon-cache: %s\nTry 'kde-icon-cache --help' for more information.\n", error->message);
      return EXIT_USAGE;
    }
  if (opt_version)
    {
      printf ("kde-icon-cache %s\n", KIC_VERSION);
      return EXIT_SUCCESS;
    }
  options.system.root = opt_root;
  options.system.theme = opt_theme;
  options.sizes = sizes;
  options.json = opt_json;
  options.names = opt_names;
  if (opt_resolve)
    ok = kic_command_resolve (&options, &error);
  else if (opt_list)
    ok = kic_command_list (&options, &error);
  else
    ok = kic_command_explain (&options, &error);
  if (!ok)
    {
      g_printerr ("kde-icon-cache: error: %s\n", error->message);
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}
