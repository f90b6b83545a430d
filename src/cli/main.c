/* main.c - kde-icon-cache: make KDE find menu icons in a few file system
 * calls instead of hundreds.
 *
 * This file only parses the command line and maps the outcome to an exit
 * status, by the domain of the error (as dconf's bin/dconf.c does), the
 * same for every mode:
 *   0  success; --check: the cache is up to date
 *   1  --check: a rebuild would change something (KIC_ERROR_OUTDATED)
 *   2  a usage error, found while parsing or at run time (G_OPTION_ERROR,
 *      KIC_ERROR_USAGE): the command line must change
 *   3  a runtime error (anything else): the run failed; --check could not
 *      tell whether the cache is up to date
 */
#include "commands.h"
#include "config.h"
#include "diag.h"
#include "path.h"
#include "plan.h"
#include "profile.h"
#include "version.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
  EXIT_OUTDATED = 1,
  EXIT_USAGE = 2,
  EXIT_RUNTIME = 3,
};

#define KIC_DEFAULT_STORE "/var/lib/kde-icon-cache"

static gboolean opt_rebuild, opt_check, opt_clean, opt_resolve, opt_list, opt_explain, opt_shadowed;
static gboolean opt_json, opt_version, opt_dry_run, opt_problems, opt_full, opt_icon_item;
static char *opt_root, *opt_theme, *opt_output, *opt_kde, *opt_kde_version;
static char **opt_sizes, **opt_names;
static int opt_wait;

static const GOptionEntry mode_entries[] = {
  { "rebuild", 0, 0, G_OPTION_ARG_NONE, &opt_rebuild, "Copy menu icons and plant links (the default)", NULL },
  { "check", 0, 0, G_OPTION_ARG_NONE, &opt_check, "Exit 1 if a rebuild would change anything, 3 if that cannot be told", NULL },
  { "clean", 0, 0, G_OPTION_ARG_NONE, &opt_clean, "Remove every link and copy the manifest lists", NULL },
  { "resolve", 0, 0, G_OPTION_ARG_NONE, &opt_resolve, "Print the file KDE loads for each NAME", NULL },
  { "list", 0, 0, G_OPTION_ARG_NONE, &opt_list, "List every menu entry with its icon and KDE's cost, now and without the links", NULL },
  { "explain", 0, 0, G_OPTION_ARG_NONE, &opt_explain, "Show KDE's file system calls for NAME, numbered, then where KDE found it: "
    "theme (an icon theme), generic (its mime type's generic icon), user (KDE's last fallback, the \"User\" group: "
    "pixmaps/, icons/ and the application's pics/, outside the themes) or absolute (Icon= is a path)", NULL },
  { "shadowed", 0, 0, G_OPTION_ARG_NONE, &opt_shadowed, "Run as a user: list your own icons that the system's links now hide", NULL },
  { NULL },
};

static const GOptionEntry option_entries[] = {
  { "size", 's', 0, G_OPTION_ARG_STRING_ARRAY, &opt_sizes, "Icon size in pixels, with --rebuild N:WEIGHT (repeatable)", "N" },
  { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &opt_dry_run, "Print what --rebuild or --clean would change; change nothing", NULL },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output, "The store (default " KIC_DEFAULT_STORE ", inside --root)", "DIR" },
  { "wait", 'w', 0, G_OPTION_ARG_INT, &opt_wait, "Wait up to SECONDS for another run to finish", "SECONDS" },
  { "full", 0, 0, G_OPTION_ARG_NONE, &opt_full, "With --rebuild or --check: plan every name again, keeping nothing the last rebuild learned", NULL },
  { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, "Machine-readable output (--list, --rebuild)", NULL },
  { "problems", 0, 0, G_OPTION_ARG_NONE, &opt_problems, "With --list: only the menu entries an admin should fix", NULL },
  { "icon-item", 0, 0, G_OPTION_ARG_NONE, &opt_icon_item, "With --explain: the search Plasma 5's icon item makes first (NAME.svg, NAME.svgz, the current theme alone)", NULL },
  { "root", 'r', 0, G_OPTION_ARG_FILENAME, &opt_root, "Work on the system under DIR (a chroot)", "DIR" },
  { "theme", 't', 0, G_OPTION_ARG_STRING, &opt_theme, "Current icon theme (default: kdeglobals, else the generation's)", "NAME" },
  { "kde", 'k', 0, G_OPTION_ARG_STRING, &opt_kde, "KDE generation to model: auto (default), kf6, kf5, kde4, kde3", "GEN" },
  { "kde-version", 0, 0, G_OPTION_ARG_STRING, &opt_kde_version, "With --kde=kde4: its version, 4.X[.Y] (default: detected, else 4.14.2); with --kde=kf6: the KIconThemes release, 6.X[.Y][+iconcache] (+iconcache: one that reads GTK's icon-theme.cache; default: detected, else 6.13.0)", "VERSION" },
  { "verbose", 'v', 0, G_OPTION_ARG_NONE, &kic_verbose, "Say more", NULL },
  { "quiet", 'q', 0, G_OPTION_ARG_NONE, &kic_quiet, "Print no warnings but that the change log or a link directory cannot be written", NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, &opt_version, "Print the version and exit", NULL },
  /* no argument description: GLib would put NAME... in the first usage
   * line, which is every mode's (the second line of the usage has it) */
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_names, NULL, NULL },
  { NULL },
};

/* "N" or "N:WEIGHT" */
static gboolean
parse_sizes (GArray *sizes, GError **error)
{
  for (guint i = 0; opt_sizes != NULL && opt_sizes[i] != NULL; i++)
    if (!kic_config_parse_size (opt_sizes[i], sizes, error))
      return FALSE;
  return TRUE;
}

static gboolean
check_modes (GError **error)
{
  int modes = opt_rebuild + opt_check + opt_clean + opt_resolve + opt_list + opt_explain + opt_shadowed;

  if (modes > 1)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           "give only one of --rebuild, --check, --clean, --resolve, --list, --explain, --shadowed");
      return FALSE;
    }
  if (modes == 0)
    opt_rebuild = TRUE;
  if (!opt_resolve && !opt_explain && opt_names != NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "unexpected argument '%s'", opt_names[0]);
      return FALSE;
    }
  if (opt_dry_run && !opt_rebuild && !opt_clean)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--dry-run goes with --rebuild or --clean");
      return FALSE;
    }
  if (opt_full && !opt_rebuild && !opt_check)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--full goes with --rebuild or --check");
      return FALSE;
    }
  if (opt_wait < 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--wait takes a number of seconds");
      return FALSE;
    }
  if (opt_root != NULL && opt_root[0] == '\0')
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--root needs a directory (give --root / for this system)");
      return FALSE;
    }
  if (opt_output != NULL && !g_path_is_absolute (opt_output))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--output must be an absolute path ('%s')", opt_output);
      return FALSE;
    }
  if (opt_explain && opt_names == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--explain needs a NAME");
      return FALSE;
    }
  if (!kic_profile_check_options (opt_kde, opt_kde_version, error))
    return FALSE;
  if (opt_icon_item && !opt_explain)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--icon-item goes with --explain");
      return FALSE;
    }
  if (opt_problems && !opt_list)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--problems goes with --list");
      return FALSE;
    }
  if (opt_json && !opt_list && !opt_rebuild)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "--json goes with --list or --rebuild");
      return FALSE;
    }
  return TRUE;
}

static int
exit_status (const GError *error)
{
  if (error->domain == G_OPTION_ERROR || g_error_matches (error, KIC_ERROR, KIC_ERROR_USAGE))
    return EXIT_USAGE;
  if (g_error_matches (error, KIC_ERROR, KIC_ERROR_OUTDATED))
    return EXIT_OUTDATED;
  return EXIT_RUNTIME;
}

/* Flush standard output; FALSE (and ERROR, when not NULL) if anything
 * written there was lost. */
static gboolean
stdout_flushed (GError **error)
{
  int failed = fflush (stdout) != 0;
  int errsv = errno;

  if (!failed && !ferror (stdout))
    return TRUE;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot write to standard output: %s",
               failed ? g_strerror (errsv) : "write error");
  return FALSE;
}

/* Print ERROR as its exit status says: a usage error points at --help,
 * "out of date" is no error (and --quiet silences it). */
static int
report (const GError *error)
{
  int status = exit_status (error);

  if (status == EXIT_USAGE)
    g_printerr ("kde-icon-cache: %s\nTry 'kde-icon-cache --help' for more information.\n", error->message);
  else if (status == EXIT_OUTDATED)
    {
      if (!kic_quiet)
        g_printerr ("kde-icon-cache: %s\n", error->message);
    }
  else if ((g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_ACCES) || g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_PERM))
           && !opt_resolve && !opt_list && !opt_explain && !opt_check && !opt_dry_run)
    /* the usual cause: a user's rebuild or --clean, which only root may do */
    g_printerr ("kde-icon-cache: error: %s%s\n", error->message,
                geteuid () == 0 ? ""
                                : " (run as root to change the cache; --dry-run, --check, --list, --explain and "
                                  "--resolve work as any user)");
  else
    g_printerr ("kde-icon-cache: error: %s\n", error->message);
  return status;
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
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (KicTarget));
  g_autofree char *store = NULL;
  KicCommandOptions options = { 0 };
  gboolean ok;

  setlocale (LC_ALL, "");
  g_set_prgname ("kde-icon-cache");
  g_set_printerr_handler (print_handler);
  context = g_option_context_new ("- make KDE find menu icons in a few file system calls\n"
                                   "  kde-icon-cache --resolve [OPTION…] [NAME…]\n"
                                   "  kde-icon-cache --explain [OPTION…] NAME…\n"
                                   "  kde-icon-cache --shadowed [--size N]… (as a user)");
  g_option_context_set_summary (context,
                                "Copies the icon file KDE loads for each application menu entry\n"
                                "into a store and plants links where KDE's search ends early, changing\n"
                                "nothing KDE shows.  Without a mode it rebuilds, ending with KDE's calls\n"
                                "for the menu without the links and with them; every change is logged\n"
                                "in /var/log/kde-icon-cache.log (inside --root).  A rebuild and --clean\n"
                                "run as root; --dry-run and the other modes work as any user.");
  g_option_context_set_description (context, "Exit status: 0 done (an icon that cannot be cached is a warning, not an error), 1 out of\n"
                                             "date (--check), 2 usage error, 3 runtime error.  See kde-icon-cache(8) for details.");
  g_option_context_add_main_entries (context, mode_entries, NULL);
  g_option_context_add_main_entries (context, option_entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error)
      || (!opt_version && (!check_modes (&error) || !parse_sizes (sizes, &error))))
    return report (error);
  if (opt_version)
    {
      printf ("kde-icon-cache %s\n", kic_version);
      return stdout_flushed (&error) ? EXIT_SUCCESS : report (error);
    }
  options.system.root = opt_root;
  options.system.theme = opt_theme;
  options.system.kde = opt_kde;
  options.system.kde_version = opt_kde_version;
  options.sizes = sizes;
  options.json = opt_json;
  options.problems = opt_problems;
  options.names = opt_names;
  options.icon_item = opt_icon_item;
  store = kic_path_clean (opt_output ? opt_output : KIC_DEFAULT_STORE);
  options.store = store;
  options.dry_run = opt_dry_run;
  options.full = opt_full;
  options.wait_seconds = opt_wait;
  if (opt_resolve)
    ok = kic_command_resolve (&options, &error);
  else if (opt_list)
    ok = kic_command_list (&options, &error);
  else if (opt_explain)
    ok = kic_command_explain (&options, &error);
  else if (opt_shadowed)
    ok = kic_command_shadowed (&options, &error);
  else if (opt_check)
    ok = kic_command_check (&options, &error);
  else if (opt_clean)
    ok = kic_command_clean (&options, &error);
  else
    ok = kic_command_rebuild (&options, &error);
  kic_print_diagnostics ();
  /* what went to standard output must have got there: a full disk or a
   * closed pipe is a runtime error too (as in coreutils' close_stdout) */
  if (!stdout_flushed (ok ? &error : NULL))
    ok = FALSE;
  return ok ? EXIT_SUCCESS : report (error);
}
