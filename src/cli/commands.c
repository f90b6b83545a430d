/* commands.c - the modes other than the rebuild: --clean, --resolve, --list and
 * --explain (--rebuild and --check: commands-rebuild.c) */
#include "commands.h"

#include "config.h"
#include "desktop.h"
#include "diag.h"
#include "dpkg.h"
#include "fingerprint.h"
#include "fsmount.h"
#include "hash.h"
#include "plan.h"
#include "report.h"
#include "resolver.h"
#include "safeopen.h"
#include "writer-log.h"
#include "writer.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands-private.h"

void
kic_print_diagnostics (void)
{
  g_autoptr (GPtrArray) diagnostics = kic_diagnostics_take ();

  for (guint i = 0; i < diagnostics->len; i++)
    if (!kic_quiet || kic_diagnostic_is_loud (g_ptr_array_index (diagnostics, i)))
      g_printerr ("kde-icon-cache: %s\n", (const char *) g_ptr_array_index (diagnostics, i));
}

/* The installed theme whose name is NAME but for case, or NULL.  transfer full */
char *
commands_theme_spelled_otherwise (KicSystem *system, const char *name)
{
  for (guint b = 0; system->icon_bases[b] != NULL; b++)
    {
      g_autoptr (GPtrArray) names = kic_fs_index_list (system->index, system->icon_bases[b]);

      for (guint i = 0; names != NULL && i < names->len; i++)
        if (g_ascii_strcasecmp (names->pdata[i], name) == 0 && kic_system_has_theme (system, names->pdata[i]))
          return g_strdup (names->pdata[i]);
    }
  return NULL;
}

/* Themes= names a theme the root does not have: a warning (KDE falls back),
 * unless an installed theme differs from it only in case ("Breeze"): then
 * the file has a typo that would move every link to the fallback's
 * places, and nothing is planted until it is fixed. */
gboolean
commands_config_themes_ok (KicSystem *system, const KicConfig *config, GError **error)
{
  for (guint i = 0; config->themes != NULL && config->themes[i] != NULL; i++)
    {
      g_autofree char *installed = NULL;

      if (kic_system_has_theme (system, config->themes[i]))
        continue;
      installed = commands_theme_spelled_otherwise (system, config->themes[i]);
      if (installed != NULL)
        {
          g_set_error (error, KIC_ERROR, KIC_ERROR_CONFIG,
                       "%s: key 'Themes': no icon theme '%s' in the root: the installed one is spelled '%s' (theme names are case-sensitive)",
                       config->path, config->themes[i], installed);
          return FALSE;
        }
      kic_warning ("%s: key 'Themes': no icon theme '%s' in the root (KDE would fall back to its default)",
                   config->path, config->themes[i]);
    }
  return TRUE;
}

/* The session's data directories, with -v, and where a login's
 * additions came from (paths.h). */
char *
commands_session_string (const KicSystem *system)
{
  g_autofree char *dirs = g_strjoinv (":", system->data_dirs);
  GString *s = g_string_new (dirs);

  for (guint i = 0; i < system->session.origins->len; i++)
    g_string_append_printf (s, "%s%s", i ? "; " : " (", (const char *) g_ptr_array_index (system->session.origins, i));
  if (system->session.origins->len > 0)
    g_string_append (s, ")");
  for (guint i = 0; i < system->session.hidden->len; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "; a login also searches, unseen by root: ",
                            (const char *) g_ptr_array_index (system->session.hidden, i));
  return g_string_free (s, FALSE);
}

static void
describe_session (const KicSystem *system)
{
  g_autofree char *session = commands_session_string (system);

  kic_debug ("data directories: %s", session);
}

/* What a call KDE makes there costs, by the mount of its icon
 * directories (make bench-nfs measures each, README's "Who gains"). */
static const char *
mount_worth (KicMountKind kind, gboolean nbd)
{
  if (kind == KIC_MOUNT_IMAGE && nbd)
    return "read from a network block device (NBD): squashfs reads its directory blocks past any page cache, "
           "so the links save requests, fewer than on NFS, and CPU time";
  switch (kind)
    {
    case KIC_MOUNT_NFS:
    case KIC_MOUNT_NETWORK:
      return "each of KDE's calls the links save is a network round trip the first time a session makes it "
             "(and again once the client's cache of the directory ages), so a rebuild saves seconds at login "
             "and in the menu";
    case KIC_MOUNT_FUSE:
      return "a FUSE file system: over a network (sshfs) each of KDE's calls the links save is a round trip, "
             "on this machine the gain is CPU time only";
    case KIC_MOUNT_IMAGE:
      return "KDE's lookups read the same blocks of the image before and after a rebuild, so the network (when "
             "the image is a file on NFS) sees the same traffic once the page cache holds them: the gain is CPU "
             "time only";
    case KIC_MOUNT_LOCAL:
      return "KDE's calls are answered from the kernel's memory once the directories are read: the gain is "
             "CPU time only";
    case KIC_MOUNT_OVERLAY:
    case KIC_MOUNT_UNKNOWN:
      break;
    }
  return "what a saved call is worth here is not known";
}

static const char *
mount_name (KicMountKind kind)
{
  switch (kind)
    {
    case KIC_MOUNT_NFS:
      return "on NFS";
    case KIC_MOUNT_NETWORK:
      return "on a network file system";
    case KIC_MOUNT_FUSE:
      return "on FUSE";
    case KIC_MOUNT_IMAGE:
      return "in a squashfs-like image";
    case KIC_MOUNT_OVERLAY:
      return "on an overlay";
    case KIC_MOUNT_LOCAL:
      return "on a local file system";
    case KIC_MOUNT_UNKNOWN:
      break;
    }
  return "on a file system that could not be read";
}

/* -v: how each theme base (a data directory's icons/ and pixmaps/) is
 * mounted, and what a rebuild is worth there (the admin's question is
 * seconds, not calls); said by every mode, a run with nothing to do too.
 * Under --root, as this machine sees the tree, not as the clients that
 * mount it do. */
void
commands_mount_hint (const KicCommandOptions *options)
{
  const char *root = options->system.root != NULL && strcmp (options->system.root, "/") != 0 ? options->system.root : "";
  g_auto (GStrv) dirs = NULL;
  int rootfd;

  if (!kic_verbose || (rootfd = kic_root_open (root[0] != '\0' ? root : "/")) < 0)
    return;
  dirs = options->system.data_dirs != NULL ? g_strdupv (options->system.data_dirs) : kic_paths_data_dirs ();
  for (guint i = 0; dirs[i] != NULL; i++)
    for (guint j = 0; j < 2; j++)
      {
        g_autofree char *base = g_build_filename (dirs[i], j == 0 ? "icons" : "pixmaps", NULL);
        int fd = kic_open_in_root (rootfd, base, O_PATH | O_DIRECTORY | O_CLOEXEC, FALSE);
        const char *seen = root[0] != '\0' ? ", as this machine sees it" : "";
        KicMount m;

        if (fd < 0)
          continue;
        m = kic_mount_of_fd (fd);
        close (fd);
        if (m.kind == KIC_MOUNT_OVERLAY)
          kic_debug ("%s%s: %s (overlay) whose lowest layer is %s (%s)%s: %s", root, base, mount_name (m.kind),
                     mount_name (m.lower_kind) + 3, m.lower_fs ? m.lower_fs : "unknown", seen,
                     mount_worth (m.lower_kind, m.nbd));
        else
          kic_debug ("%s%s: %s (%s)%s: %s", root, base, mount_name (m.kind), m.fs, seen, mount_worth (m.kind, m.nbd));
      }
  close (rootfd);
}

/* --check's answer when a rebuild would change something: what it would
 * change, and why when no link would (the settings, the store copies, a
 * damaged manifest), so that "out of date" never stands unexplained */
void
commands_set_outdated (GError **error, const KicManifest *old, const char *settings, const KicWriteStats *stats,
                       const char *root, const char *store)
{
  g_autoptr (GString) why = g_string_new (NULL);

  /* no manifest (and no store copies, which would make it a damaged
   * one): nothing was ever built here */
  if (g_hash_table_size (old->entries) == 0 && old->settings == NULL && !old->damaged)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_OUTDATED, "there is no cache yet (no '%s%s/manifest'): a rebuild would plant %u %s",
                   strcmp (root, "/") == 0 ? "" : root, store, stats->added, kic_plural (stats->added, "link", "links"));
      return;
    }
  if (stats->files_written + stats->files_removed > 0)
    g_string_append_printf (why, "; store copies: %u to write, %u to remove", stats->files_written, stats->files_removed);
  if (g_strcmp0 (old->settings, settings) != 0)
    g_string_append_printf (why, "; the settings changed (the last rebuild's: %s; now: %s)",
                            old->settings ? old->settings : "none", settings);
  if (old->damaged)
    g_string_append (why, "; the manifest is damaged");
  g_set_error (error, KIC_ERROR, KIC_ERROR_OUTDATED, "the cache is out of date: %u %s to add, %u to replace, %u to remove%s",
               stats->added, kic_plural (stats->added, "link", "links"), stats->replaced, stats->removed, why->str);
}

/* The system a command works on, and which KDE it models: -v tells, and
 * a guess is noted (kde-lookup.md §2: each generation searches
 * differently). */
KicSystem *
commands_load_system (const KicCommandOptions *options, GError **error)
{
  KicSystem *system = kic_system_load (&options->system, error);
  g_autofree char *profile = NULL;

  if (system == NULL)
    return NULL;
  profile = kic_profile_describe (system->profile);
  if (system->profile->found != NULL)
    kic_debug ("profile: %s (from %s)", profile, system->profile->found);
  else if (options->system.kde == NULL || strcmp (options->system.kde, "auto") == 0)
    {
      kic_debug ("profile: %s (no KDE icon library found in the root)", profile);
      /* the libraries and directories of kic_detect_icon_library() */
      kic_note ("no KDE icon library in the root (none of libKF6IconThemes.so.6, libKF5IconThemes.so.5, "
                "libkdeui.so.5, libkdecore.so.4 in /usr/lib, /lib or their multiarch directories): "
                "modelling %s (choose another with --kde)",
                system->profile->table->title);
    }
  else
    kic_debug ("profile: %s (--kde)", profile);
  commands_mount_hint (options);
  /* a typo in --theme would model a KDE nobody runs without a word */
  if (options->system.theme != NULL && !kic_system_has_theme (system, options->system.theme))
    {
      g_autofree char *installed = commands_theme_spelled_otherwise (system, options->system.theme);
      g_autofree char *spelled = installed ? g_strdup_printf (" (the installed one is spelled '%s')", installed) : NULL;

      kic_warning ("--theme: no icon theme '%s' in the root%s: KDE falls back to '%s', and so does this run",
                   options->system.theme, spelled ? spelled : "", system->current_theme);
    }
  /* KDE 4 and 3 search nothing at all when neither the current theme nor
   * their default one is there: every lookup then finds nothing, at 0
   * calls, which reads like a bug unless said */
  if (kic_resolver_themes (system->resolver)->len == 0)
    {
      const char *current = system->current_theme, *fallback = system->profile->table->default_theme;
      g_autofree char *which = current[0] != '\0' && strcmp (current, fallback) != 0
                                 ? g_strdup_printf ("neither '%s' nor its default theme '%s' is", current, fallback)
                                 : g_strdup_printf ("its default theme '%s' is not", fallback);

      kic_warning ("%s searches no icon theme in this root: %s installed (or has no directory it takes), "
                   "so it finds no icon at all, at 0 calls",
                   system->profile->table->title, which);
    }
  describe_session (system);
  if (system->profile->breeze_resource_dirs != NULL)
    kic_debug ("breeze built into KDE: read from %s (%u directories)", system->profile->breeze_library,
               g_hash_table_size (system->profile->breeze_resource_dirs));
  else if (system->profile->breeze_problem != NULL)
    kic_note ("KDE has breeze built in, but %s: taking the installed breeze for it, and planting no links in breeze",
              system->profile->breeze_problem);
  return system;
}

/* The single size of --resolve/--explain: --size, else the Desktop group
 * size, which is what kiconfinder5 and Plasma's hasIcon() use (48 with
 * breeze). */
static int
single_size (const KicCommandOptions *options, const KicSystem *system)
{
  if (options->sizes->len > 0)
    return g_array_index (options->sizes, KicTarget, options->sizes->len - 1).size;
  return kic_resolver_group_size (system->resolver, KIC_GROUP_DESKTOP);
}

/* The names to look up: the arguments, else standard input, one a line
 * of any length. */
static GPtrArray *
read_names (const KicCommandOptions *options)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  char *line = NULL;
  size_t size = 0;

  if (options->names != NULL)
    {
      for (guint i = 0; options->names[i] != NULL; i++)
        g_ptr_array_add (names, g_strdup (options->names[i]));
      return names;
    }
  while (getline (&line, &size, stdin) >= 0)
    {
      g_strchomp (line);
      if (line[0] != '\0')
        g_ptr_array_add (names, g_strdup (line));
    }
  free (line);
  return names;
}

gboolean
kic_command_resolve (const KicCommandOptions *options, GError **error)
{
  g_autoptr (KicSystem) system = commands_load_system (options, error);
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
  return kic_fs_index_complete (system->index, error);
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
    case KIC_CALL_RESOURCE:
    case KIC_CALL_RESOURCE_L10N:
      return "qrc";
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
  g_autoptr (KicSystem) system = commands_load_system (options, error);
  g_autoptr (GPtrArray) names = NULL;
  g_autofree char *themes = NULL;
  int size;

  if (system == NULL)
    return FALSE;
  size = single_size (options, system);
  names = read_names (options);
  if (options->icon_item)
    {
      const GPtrArray *list = kic_resolver_themes (system->resolver);

      themes = g_strdup_printf ("%s (.svg, then .svgz: Plasma 5's IconItem)",
                                list->len > 0 ? ((const KicTheme *) g_ptr_array_index (list, 0))->desc->name : "none");
    }
  else
    themes = theme_list_string (system);
  if (themes[0] == '\0')
    {
      g_free (themes);
      themes = g_strdup ("none");
    }
  /* where a login adds data directories, the run says which (only then:
   * the output stays what it was on a root without them) */
  if (system->session.origins->len > 0)
    {
      g_autofree char *session = commands_session_string (system);

      printf ("data directories: %s\n", session);
    }
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autoptr (KicResult) result = options->icon_item ? kic_resolve_icon_item (system->resolver, name, size, TRUE)
                                                        : kic_resolve (system->resolver, name, size, TRUE);

      printf ("%s at %d px; themes searched: %s\n", name, size, themes);
      guint number = 0;

      for (guint c = 0; c < result->calls->len; c++)
        {
          const KicCall *call = g_ptr_array_index (result->calls, c);
          gboolean l10n = call->kind == KIC_CALL_L10N || call->kind == KIC_CALL_RESOURCE_L10N;
          const char *mark = l10n ? "" : call->hit ? "found" : "-";
          g_autofree char *n = NULL;

          /* a resource probe costs no call: it gets no number */
          n = call->kind == KIC_CALL_RESOURCE || call->kind == KIC_CALL_RESOURCE_L10N
                ? g_strdup ("-") : g_strdup_printf ("%u", ++number);
          printf ("%6s  %-6s  %s  %s\n", n, call_kind_name (call->kind), call->path, mark);
        }
      if (result->path != NULL)
        printf ("=> %s (%s, %u %s)\n", result->path, kic_via_to_string (result->via), result->n_calls,
                kic_plural (result->n_calls, "call", "calls"));
      else
        printf ("=> not found (%u %s)\n", result->n_calls, kic_plural (result->n_calls, "call", "calls"));
    }
  return kic_fs_index_complete (system->index, error);
}

/* --size, else the sizes the generation's menus ask for (kde-lookup.md
 * §7: Plasma 16, 22, 32, 48; KDE 4 16 and 32; KDE 3 16). */
static GArray *
list_sizes (const KicCommandOptions *options, const KicSystem *system)
{
  const int *menu_sizes = system->profile->table->menu_sizes;
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (int));

  if (options->sizes->len > 0)
    for (guint i = 0; i < options->sizes->len; i++)
      g_array_append_val (sizes, g_array_index (options->sizes, KicTarget, i).size);
  else
    for (guint i = 0; menu_sizes[i] != 0; i++)
      g_array_append_val (sizes, menu_sizes[i]);
  return sizes;
}

/* What an admin should know about ENTRY, or NULL: a menu icon KDE cannot
 * find (it costs the most calls), an Icon= that is a path or carries an
 * extension, an icon KDE finds only through its last fallback.  RESULT is
 * the lookup at the Desktop size. */
static const char *
entry_problem (const KicSystem *system, const KicDesktopEntry *entry, const KicResult *result)
{
  if (entry->icon == NULL || entry->icon[0] == '\0')
    return "no-icon";
  if (kic_icon_name_is_absolute (entry->icon))
    return kic_fs_index_stat (system->index, entry->icon) == KIC_FS_NONE ? "absolute-path-missing"
                                                                        : "absolute-path";
  if (result->path == NULL)
    return "not-found";
  if (kic_icon_name_extension (entry->icon) != NULL)
    return "has-extension";
  if (result->via == KIC_VIA_USER)
    return "pixmaps-fallback-only";
  return NULL;
}

/* The entries an admin should fix, as text lines, or as the problems
 * array of JSON. */
static void
print_problems (KicSystem *system, GPtrArray *entries, KicJson *json)
{
  int size = kic_resolver_group_size (system->resolver, KIC_GROUP_DESKTOP);
  g_autoptr (GHashTable) wanted = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) owners = NULL;
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_result_free);

  for (guint i = 0; i < entries->len; i++)
    {
      const KicDesktopEntry *entry = g_ptr_array_index (entries, i);

      g_ptr_array_add (results, kic_resolve (system->resolver, entry->icon ? entry->icon : "", size, FALSE));
      g_hash_table_add (wanted, entry->path);
    }
  owners = kic_dpkg_owners (system->index, wanted);
  if (json != NULL)
    kic_json_begin_array (json, "problems");
  for (guint i = 0; i < entries->len; i++)
    {
      const KicDesktopEntry *entry = g_ptr_array_index (entries, i);
      const KicResult *r = g_ptr_array_index (results, i);
      const char *problem = entry_problem (system, entry, r);
      const char *package = g_hash_table_lookup (owners, entry->path);

      if (problem == NULL)
        continue;
      if (json != NULL)
        kic_json_add_problem (json, entry->id, entry->path, entry->icon, problem, size, r->n_calls, package);
      else
        printf ("%s\t%s\t%s\t%u\t%s\n", entry->id, entry->icon ? entry->icon : "", problem, r->n_calls,
                package ? package : "-");
    }
  if (json != NULL)
    kic_json_end_array (json);
}


gboolean
kic_command_list (const KicCommandOptions *options, GError **error)
{
  g_autoptr (KicJson) json = options->json ? kic_json_new () : NULL;
  g_autoptr (KicSystem) system = NULL;
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GArray) sizes = NULL;
  g_autoptr (KicOverlay) hidden = NULL;

  system = commands_load_system (options, error);
  if (system == NULL)
    return FALSE;
  sizes = list_sizes (options, system);
  entries = kic_desktop_scan (system->index, system->data_dirs, NULL);
  if (json != NULL)
    kic_json_string (json, "theme", system->current_theme);
  /* --problems: those alone, in either form */
  if (options->problems)
    {
      print_problems (system, entries, json);
      /* JSON is printed whole or not at all; a listing cut short names
       * its directory and exits 3 */
      if (!kic_fs_index_complete (system->index, error))
        return FALSE;
      if (json != NULL)
        kic_json_print (json, stdout);
      return TRUE;
    }
  hidden = commands_our_links_hidden (options, system);
  if (json != NULL)
    kic_json_begin_array (json, "desktop_files");
  for (guint i = 0; i < entries->len; i++)
    {
      const KicDesktopEntry *entry = g_ptr_array_index (entries, i);

      if (json != NULL)
        kic_json_add_entry (json, entry->id, entry->path, entry->icon);
      else if (entry->icon == NULL)
        printf ("%s\t\t-\t-\t0\t0\n", entry->id);
      for (guint s = 0; s < sizes->len && entry->icon != NULL; s++)
        {
          int size = g_array_index (sizes, int, s);
          g_autoptr (KicResult) result = kic_resolve (system->resolver, entry->icon, size, FALSE);
          guint without = result->n_calls;

          if (hidden != NULL)
            {
              g_autoptr (KicResult) bare = NULL;

              kic_resolver_set_overlay (system->resolver, hidden);
              bare = kic_resolve (system->resolver, entry->icon, size, FALSE);
              kic_resolver_set_overlay (system->resolver, NULL);
              without = bare->n_calls;
            }
          if (json != NULL)
            kic_json_add_lookup (json, size, result->path, kic_via_to_string (result->via), result->n_calls,
                                 without);
          else
            printf ("%s\t%s\t%d\t%s\t%u\t%u\n", entry->id, entry->icon, size,
                    result->path ? result->path : "-", result->n_calls, without);
        }
      if (json != NULL)
        kic_json_end_entry (json);
    }
  if (json != NULL)
    {
      kic_json_end_array (json);
      print_problems (system, entries, json);
      /* JSON is printed whole or not at all */
      if (!kic_fs_index_complete (system->index, error))
        return FALSE;
      kic_json_print (json, stdout);
    }
  /* a listing cut short names its directory and exits 3 */
  return kic_fs_index_complete (system->index, error);
}

gboolean
kic_command_clean (const KicCommandOptions *options, GError **error)
{
  /* which KDE it is does not matter to what --clean removes: no note */
  g_autoptr (KicSystem) system = kic_system_load (&options->system, error);
  g_auto (GStrv) dirs = NULL;
  g_autoptr (KicChangeLog) log = NULL;
  g_autoptr (KicWriter) writer = NULL;
  KicWriterOptions wopts = { 0 };
  ChangeSink sink = { FALSE, NULL };
  KicWriteStats stats;

  if (system == NULL)
    return FALSE;
  dirs = commands_link_dirs (system);
  if (!options->dry_run)
    {
      const char *root = kic_fs_index_root (system->index);

      sink.log = log = kic_change_log_new (kic_fs_index_rootfd (system->index), strcmp (root, "/") == 0 ? "" : root,
                                           "clean");
    }
  writer = commands_open_writer (options, system, dirs, options->dry_run, &wopts, &sink, error);
  if (writer == NULL || !kic_writer_clean (writer, &stats, error))
    {
      commands_finish_log (log, NULL, error != NULL ? *error : NULL);
      return FALSE;
    }
  commands_finish_log (log, &stats, NULL);
  if (!kic_quiet)
    g_printerr ("kde-icon-cache: %s %u %s and %u %s%s\n", wopts.dry_run ? "would remove" : "removed", stats.removed,
                kic_plural (stats.removed, "link", "links"), stats.files_removed,
                kic_plural (stats.files_removed, "copy", "copies"), wopts.dry_run ? " (dry run: nothing removed)" : "");
  return TRUE;
}
