/* commands-rebuild.c - --rebuild and --check: the fingerprint's look, the
 * plan (incremental when the kept state allows), the links handed to the
 * writer, and the summary
 */
#include "commands-private.h"

#include "config.h"
#include "desktop.h"
#include "diag.h"
#include "fingerprint.h"
#include "hash.h"
#include "keep.h"
#include "menu.h"
#include "path.h"
#include "paths.h"
#include "plan.h"
#include "report.h"
#include "resolver.h"
#include "safeopen.h"
#include "source.h"
#include "state.h"
#include "trusted.h"
#include "version.h"
#include "writer-log.h"
#include "writer.h"
#include "rebuild-kept.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the manifest records of the settings: a change of them is a change. */
static char *
settings_string (const KicSystem *system, const GArray *targets, char **themes)
{
  g_autofree char *profile = kic_profile_id (system->profile);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "profile=%s themes=", profile);

  if (themes == NULL)
    g_string_append (s, system->configured_theme);
  for (guint i = 0; themes != NULL && themes[i] != NULL; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "", themes[i]);
  g_string_append (s, " sizes=");
  for (guint i = 0; i < targets->len; i++)
    {
      const KicTarget *t = &g_array_index (targets, KicTarget, i);
      char weight[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (weight, sizeof weight, "%g", t->weight);
      g_string_append_printf (s, "%s%d:%s", i ? "," : "", t->size, weight);
    }
  return g_string_free (s, FALSE);
}

static void
print_summary (const KicPlan *plan, const GArray *targets, guint n_desktop_files, const KicWriteStats *stats,
               gboolean dry_run)
{
  guint count[KIC_NAME_ABSOLUTE + 1] = { 0 };
  guint links = g_hash_table_size (plan->links);
  guint helps = 0;
  g_autofree char *calls = NULL;

  for (guint i = 0; i < plan->names->len; i++)
    {
      const KicNamePlan *np = g_ptr_array_index (plan->names, i);

      count[np->status]++;
      helps += np->size_set_helps;
    }
  /* the warnings before the summary and KDE's calls, the last line */
  kic_print_diagnostics ();
  if (kic_quiet)
    return;
  g_printerr ("kde-icon-cache: %u %s, %u %s: %u planted (%u %s), %u unchanged, "
              "%u skipped, %u not found, %u absolute; links %u %s, %u %s, %u %s, %u %s, %u refused%s\n",
              n_desktop_files, kic_plural (n_desktop_files, "desktop file", "desktop files"), plan->names->len,
              kic_plural (plan->names->len, "name", "names"), count[KIC_NAME_PLANTED], links,
              kic_plural (links, "link", "links"), count[KIC_NAME_UNCHANGED], count[KIC_NAME_SKIPPED],
              count[KIC_NAME_NOT_FOUND], count[KIC_NAME_ABSOLUTE], stats->added, dry_run ? "to add" : "added",
              stats->replaced, dry_run ? "to replace" : "replaced", stats->removed, dry_run ? "to remove" : "removed",
              stats->unchanged, dry_run ? "to keep" : "kept", stats->refused, dry_run ? " (dry run: nothing changed)" : "");
  for (guint i = 0; i < plan->names->len; i++)
    {
      const KicNamePlan *np = g_ptr_array_index (plan->names, i);

      if (np->status == KIC_NAME_SKIPPED || np->status == KIC_NAME_NOT_FOUND)
        kic_debug ("%s: %s: %s", np->name, kic_name_status_to_string (np->status), np->reason);
    }
  /* the hint only where it would help: names a per-size set would make
   * faster (plan-sizeset.c tried it) */
  if (helps > 0)
    g_printerr ("kde-icon-cache: %u %s different files at different sizes, and a per-size set of links would "
                "make %s faster: set PerSizeSets=true to plant %s (see kde-icon-cache(8))\n",
                helps, helps == 1 ? "name loads" : "names load", helps == 1 ? "it" : "them",
                helps == 1 ? "it" : "those");
  calls = kic_report_calls (plan, targets);
  g_printerr ("kde-icon-cache: %s\n", calls);
}

/* Everything but the files a rebuild's result depends on: the program,
 * its options, the directories of the environment and the kernel's
 * hard-link protection, which decides what may be copied (a run that
 * kept a plan made under the other setting would not plan as --full;
 * fingerprint.h). */
static char *
fingerprint_settings (const KicCommandOptions *options)
{
  g_auto (GStrv) data_dirs = options->system.data_dirs ? g_strdupv (options->system.data_dirs) : kic_paths_data_dirs ();
  g_auto (GStrv) config_dirs = options->system.config_dirs ? g_strdupv (options->system.config_dirs)
                                                           : kic_paths_config_dirs ();
  g_autofree char *data = g_strjoinv (":", data_dirs);
  g_autofree char *config = g_strjoinv (":", config_dirs);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "version=%s theme=%s kde=%s kde-version=%s app=%s store=%s data-dirs=%s "
                             "config-dirs=%s hardlinks=%s sizes=",
                          kic_version, options->system.theme ? options->system.theme : "",
                          options->system.kde ? options->system.kde : "",
                          options->system.kde_version ? options->system.kde_version : "",
                          options->system.app_name ? options->system.app_name : "", options->store, data, config,
                          kic_source_hardlinks_protected () ? "protected" : "unprotected");
  for (guint i = 0; i < options->sizes->len; i++)
    {
      const KicTarget *t = &g_array_index (options->sizes, KicTarget, i);
      char weight[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (weight, sizeof weight, "%g", t->weight);
      g_string_append_printf (s, "%s%d:%s", i ? "," : "", t->size, weight);
    }
  return g_string_free (s, FALSE);
}

/* Where a run may have planted links: the theme bases, and the
 * application's own icon directories, "<datadir>/<app>/icons" (the
 * writer looks there when the manifest lost them).  transfer full */
char **
commands_link_dirs (const KicSystem *system)
{
  const char *kde_data = system->profile->table->kde_data;
  char *const data_dirs[] = { (char *) kde_data, NULL };
  char *const *app_dirs = kde_data != NULL ? data_dirs : system->data_dirs;
  GPtrArray *dirs = g_ptr_array_new ();

  for (guint i = 0; system->icon_bases[i] != NULL; i++)
    g_ptr_array_add (dirs, g_strdup (system->icon_bases[i]));
  for (guint i = 0; system->app_name != NULL && system->app_name[0] != '\0' && app_dirs[i] != NULL; i++)
    g_ptr_array_add (dirs, g_build_filename (app_dirs[i], system->app_name, "icons", NULL));
  g_ptr_array_add (dirs, NULL);
  return (char **) g_ptr_array_free (dirs, FALSE);
}

/* The writer's checks, for the planner to ask first (KicPlanOptions). */
typedef struct {
  int rootfd;
  const char *prefix; /* host prefix of the root, "" for "/" */
  GHashTable *parents; /* directory -> its trusted descriptor, -1: refused (kic_kept_dirs_new()) */
  char **foreign; /* never planted below: another package manager's (KicSessionDirs) */
  KicFsIndex *index; /* its stamps answer for the directories it read */
} RootChecks;

/* The trusted descriptor of the directory DIR (borrowed from RC's cache,
 * or with *OWNED set, the caller's to close), or -1.  A directory is
 * opened from the nearest one above it that was opened already, one
 * kic_trusted_dir_open_at() a component, as kic_trusted_dir_open() walks
 * from the root: the same steps, each checked the same way, and the
 * verdicts cannot change during the run (a trusted directory is writable
 * by its owner alone, root or the run's user; an untrusted one stays so,
 * since no other user can make it root's or take a write bit from it).
 * A path that is not clean (a "." or an empty component, which the walk
 * skips) is walked from the root.  Refusals are always kept, descriptors
 * while there is room (kic_kept_dirs_keep()). */
static int
trusted_dir_fd (RootChecks *rc, const char *dir, gboolean *owned)
{
  int fd;

  *owned = FALSE;
  if (kic_kept_dirs_lookup (rc->parents, dir, &fd))
    return fd;
  if (strcmp (dir, "/") == 0 || !kic_path_is_clean (dir))
    fd = kic_trusted_dir_open (rc->rootfd, rc->prefix, dir, NULL);
  else
    {
      g_autofree char *parent = g_path_get_dirname (dir);
      g_autofree char *name = g_path_get_basename (dir);
      g_autofree char *host = g_strconcat (rc->prefix, dir, NULL);
      gboolean parent_owned;
      int pfd = trusted_dir_fd (rc, parent, &parent_owned);

      fd = pfd >= 0 ? kic_trusted_dir_open_at (pfd, host, name, NULL) : -1;
      if (parent_owned)
        close (pfd);
    }
  *owned = !kic_kept_dirs_keep (rc->parents, dir, fd);
  return fd;
}

/* The planner asks of every candidate directory, and a theme's directories
 * share their parents: each directory is one fstatat below its parent's
 * trusted descriptor (trusted_dir_fd()), or the stamp this run's index
 * took of it (trusted.h).  (The writer checks again when it plants: this
 * only keeps the plan from counting on a refusal.) */
static gboolean
root_may_plant (const char *dir, gpointer data)
{
  RootChecks *rc = data;
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *name = g_path_get_basename (dir);
  g_autofree char *host = g_strconcat (rc->prefix, dir, NULL);
  gboolean owned, ok, known = FALSE;
  KicFsStamp stamp;
  int pfd;

  /* flatpak rewrites its exports as it likes: its directories are read,
   * never planted in */
  for (guint i = 0; rc->foreign != NULL && rc->foreign[i] != NULL; i++)
    if (g_str_has_prefix (dir, rc->foreign[i]) && dir[strlen (rc->foreign[i])] == '/')
      return FALSE;
  if (strcmp (dir, "/") == 0)
    return kic_trusted_dir_check (rc->rootfd, rc->prefix, dir, NULL);
  pfd = trusted_dir_fd (rc, parent, &owned);
  ok = FALSE;
  if (pfd >= 0 && kic_fs_index_kept_stamp (rc->index, dir, &stamp))
    ok = kic_trusted_dir_stamp (&stamp, &known);
  if (pfd >= 0 && !known)
    ok = kic_trusted_dir_check_at (pfd, host, name, NULL);
  if (owned)
    close (pfd);
  return ok;
}

/* The copyable check is content.c's: the file's one read goes through
 * kic_source_open_in() (source.h), and the bytes the writer copies are the
 * ones read then. */
static gboolean
root_may_copy (const KicContent *content, char **why, gpointer data)
{
  g_autoptr (GError) error = NULL;

  (void) data;
  if (kic_content_copyable (content, &error))
    return TRUE;
  *why = g_strdup (error->message);
  return FALSE;
}

static void
on_change (const char *action, const char *path, const char *detail, gpointer data)
{
  ChangeSink *sink = data;

  if (sink->print)
    printf ("%s\t%s%s%s\n", action, path, detail ? "\t" : "", detail ? detail : "");
  else
    kic_debug ("%s %s%s%s", action, path, detail ? " -> " : "", detail ? detail : "");
  if (sink->log != NULL)
    kic_change_log_add (sink->log, action, path, detail);
}

/* The log's last line: what the run did (STATS), or why it stopped. */
void
commands_finish_log (KicChangeLog *log, const KicWriteStats *stats, const GError *error)
{
  g_autofree char *result = NULL;

  if (log == NULL)
    return;
  if (stats == NULL)
    result = g_strdup_printf ("failed: %s", error != NULL ? error->message : "unknown error");
  else
    result = g_strdup_printf ("links: %u added, %u replaced, %u removed; store copies: %u written, %u removed",
                              stats->added, stats->replaced, stats->removed, stats->files_written,
                              stats->files_removed);
  kic_change_log_finish (log, result);
}

/* The links of PLAN, as the writer takes them.  transfer container: the
 * strings are PLAN's */
static GPtrArray *
plan_links (const KicPlan *plan)
{
  GPtrArray *links = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, plan->links);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const KicPlant *plant = value;
      KicWriteLink *want = g_new (KicWriteLink, 1);

      want->link = plant->link;
      want->store = plant->store;
      want->source = plant->source;
      want->content = plant->content;
      g_ptr_array_add (links, want);
    }
  return links;
}

/* The writer of the store for OPTIONS: a dry run takes no lock.  WOPTS,
 * LINK_DIRS and SINK must outlive it. */
KicWriter *
commands_open_writer (const KicCommandOptions *options, KicSystem *system, char **link_dirs, gboolean dry_run,
             KicWriterOptions *wopts, ChangeSink *sink, GError **error)
{
  wopts->index = system->index;
  wopts->store = options->store;
  wopts->link_dirs = link_dirs;
  wopts->dry_run = dry_run;
  sink->print = options->dry_run && !options->json;
  wopts->on_change = on_change;
  wopts->on_change_data = sink;
  wopts->wait_seconds = options->wait_seconds;
  return kic_writer_open (wopts, error);
}

/* The links of the store, hidden as the planner hides a previous run's
 * (kic_plan_build(), KicPlanOptions.previous): KDE's lookups without
 * them, for --list.  NULL when there are none (or no store).  transfer full */
KicOverlay *
commands_our_links_hidden (const KicCommandOptions *options, KicSystem *system)
{
  g_auto (GStrv) dirs = commands_link_dirs (system);
  KicWriterOptions wopts = { 0 };
  ChangeSink sink = { FALSE, NULL };
  g_autoptr (GError) local = NULL;
  g_autoptr (KicWriter) writer = commands_open_writer (options, system, dirs, TRUE, &wopts, &sink, &local);
  g_autoptr (GPtrArray) owned = NULL;
  KicOverlay *overlay;

  if (writer == NULL)
    {
      kic_warning ("%s: the calls without the links are shown as the calls with them", local->message);
      return NULL;
    }
  owned = kic_writer_owned_links (writer);
  if (owned->len == 0)
    return NULL;
  overlay = kic_overlay_new ();
  for (guint i = 0; i < owned->len; i++)
    {
      g_autofree char *dir = g_path_get_dirname (g_ptr_array_index (owned, i));
      g_autofree char *file = g_path_get_basename (g_ptr_array_index (owned, i));

      kic_overlay_set (overlay, dir, file, FALSE);
    }
  return overlay;
}

/* One rebuild, filled in step by step (rebuild()). */
typedef struct {
  const KicCommandOptions *options;
  gboolean check_only;
  char *fingerprint_setup;
  char *root; /* canonical */
  char *state_path;
  char *last_inputs;   /* the last rebuild's, from its fingerprint */
  GHashTable *changed; /* the fingerprint's look: what changed since ... */
  GHashTable *stamps;  /* ... and the stamps of what did not */
  KicState *state;     /* what the last rebuild learned, when wanted */
  KicSystem *system;
  KicConfig config;
  char **dirs;
  KicWriter *writer;
  const KicManifest *old;
  GPtrArray *owned;
  KicWriterOptions wopts;
  KicPlanOptions popts;
  ChangeSink sink;
  MemoSource memo;
  RootChecks checks;
  GHashTable *known;
  GHashTable *desktop_known;
  GHashTable *desktop_read;
  KicDesktopMemo desktop;
  GPtrArray *icons;
  guint n_desktop_files;
  KicPlan *plan;
  char *settings;
  char *inputs;
  GPtrArray *wanted;
  KicWriteStats stats;
  NextState next;
  KicJson *json;
} Rebuild;

/* What a rebuild holds, freed in the reverse of the order it was taken
 * (the writer and the plan before the system they point into). */
static void
rebuild_clear (Rebuild *r)
{
  g_clear_pointer (&r->json, kic_json_free);
  g_clear_pointer (&r->next.store_stamps, g_hash_table_unref);
  g_clear_pointer (&r->next.state, g_free);
  g_clear_pointer (&r->next.fingerprint, kic_fingerprint_draft_free);
  g_clear_pointer (&r->desktop_read, g_hash_table_unref);
  g_clear_pointer (&r->desktop_known, g_hash_table_unref);
  g_clear_pointer (&r->known, g_hash_table_unref);
  g_clear_pointer (&r->state, kic_state_free);
  g_clear_pointer (&r->changed, g_hash_table_unref);
  g_clear_pointer (&r->state_path, g_free);
  g_clear_pointer (&r->stamps, g_hash_table_unref);
  g_clear_pointer (&r->inputs, g_free);
  g_clear_pointer (&r->last_inputs, g_free);
  g_clear_pointer (&r->checks.parents, g_hash_table_unref);
  kic_config_clear (&r->config);
  g_clear_pointer (&r->settings, g_free);
  g_clear_pointer (&r->owned, g_ptr_array_unref);
  g_clear_pointer (&r->wanted, g_ptr_array_unref);
  g_clear_pointer (&r->icons, g_ptr_array_unref);
  g_clear_pointer (&r->plan, kic_plan_free);
  g_clear_pointer (&r->writer, kic_writer_free);
  g_clear_pointer (&r->dirs, g_strfreev);
  g_clear_pointer (&r->system, kic_system_free);
  g_clear_pointer (&r->root, g_free);
  g_clear_pointer (&r->fingerprint_setup, g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Rebuild, rebuild_clear)

/* The fingerprint's look, with the state read beside it when some input
 * changed.  FALSE when nothing is left to do (*DONE) or on an error. */
static gboolean
rebuild_look (Rebuild *r, gboolean *done, GError **error)
{
  const KicCommandOptions *options = r->options;
  StateRead state_read = { r->root, r->state_path, NULL };
  /* --json reports every name: that needs the plan; --full plans every
   * name again and looks at every link and copy (man page) */
  gboolean unchanged;

  r->changed = kic_fingerprint_what_changed (r->root, options->store, r->fingerprint_setup, &r->last_inputs,
                                             &r->stamps, options->full ? NULL : rebuild_state_read_start,
                                             &state_read);
  r->state = rebuild_state_read_join (&state_read,
                                      rebuild_state_wanted (r->changed, options) ? r->last_inputs : NULL);
  unchanged = !options->json && !options->full && r->changed != NULL && g_hash_table_size (r->changed) == 0;
  if (unchanged && !(options->dry_run || r->check_only))
    {
      if (!rebuild_unchanged_when_locked (options, r->root, r->fingerprint_setup, &unchanged, error))
        return FALSE;
      /* something changed between the two looks (a --clean, another run,
       * a package): what the first said of every input is not so, and
       * the run plans as with no fingerprint, settling nothing on it */
      if (!unchanged)
        {
          g_clear_pointer (&r->changed, g_hash_table_unref);
          g_clear_pointer (&r->stamps, g_hash_table_unref);
        }
    }
  if (unchanged)
    {
      commands_mount_hint (options);
      if (!kic_quiet)
        g_printerr ("kde-icon-cache: no input changed since the last rebuild: nothing to do\n");
      *done = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* The root as KDE sees it, seeded with what the state says of the
 * directories no change reached, and the configuration file. */
static gboolean
rebuild_load (Rebuild *r, GError **error)
{
  KicCommandOptions stamped = *r->options;

  /* the fingerprint needs what each input was as it was read */
  stamped.system.keep_stamps = TRUE;
  if (r->state != NULL)
    {
      r->memo.state = r->state;
      r->memo.changed = r->changed;
      r->memo.stamps = r->stamps;
      stamped.system.seed = rebuild_seed_index;
      stamped.system.seed_data = &r->memo;
    }
  r->system = commands_load_system (&stamped, error);
  if (r->system == NULL || !kic_config_load (r->system->index, &r->config, error))
    return FALSE;
  return commands_config_themes_ok (r->system, &r->config, error);
}

/* The writer, over the directories links may go in, and what the last
 * rebuild left that it need not look at again. */
static gboolean
rebuild_open_writer (Rebuild *r, KicChangeLog **log, GError **error)
{
  const KicCommandOptions *options = r->options;

  r->dirs = commands_link_dirs (r->system);
  /* every change a real run makes is logged (opened at the first) */
  if (!options->dry_run && !r->check_only)
    r->sink.log = *log = kic_change_log_new (kic_fs_index_rootfd (r->system->index),
                                             strcmp (r->root, "/") == 0 ? "" : r->root, "rebuild");
  /* the store copies as the last rebuild left them (writer.h) */
  if (r->state != NULL && !options->full)
    r->wopts.store_stamps = kic_state_store_stamps (r->state);
  /* links in the directories no change reached are as the last rebuild
   * left them (writer.h): not read again */
  if (r->changed != NULL && r->stamps != NULL && !options->full)
    {
      r->memo.changed = r->changed;
      r->memo.stamps = r->stamps;
      r->wopts.settled = rebuild_dir_settled;
      r->wopts.settled_data = &r->memo;
    }
  r->writer = commands_open_writer (options, r->system, r->dirs, options->dry_run || r->check_only, &r->wopts,
                                    &r->sink, error);
  if (r->writer == NULL)
    return FALSE;
  r->old = kic_writer_manifest (r->writer);
  r->owned = kic_writer_owned_links (r->writer);
  return TRUE;
}

/* What the planner is asked: the sizes, the themes, the memo of the
 * last rebuild, and root's own checks of where it may plant and copy. */
static void
rebuild_plan_options (Rebuild *r)
{
  const KicCommandOptions *options = r->options;
  KicPlanOptions *popts = &r->popts;

  if (options->sizes->len == 0 && r->config.targets->len == 0)
    {
      g_array_unref (r->config.targets);
      r->config.targets = kic_plan_default_targets (r->system->profile->table);
    }
  popts->targets = options->sizes->len > 0 ? options->sizes : r->config.targets;
  popts->themes = r->config.themes;
  popts->per_size_sets = r->config.per_size_sets;
  popts->unthemed_links = r->config.unthemed_links;
  popts->store = options->store;
  popts->previous = r->owned;
  popts->floor = options->json; /* the floor costs a search per size: only for the report */
  /* the summary's calls and --json are what show the size reports */
  popts->no_reports = (kic_quiet || r->check_only) && !options->json;
  if (r->state != NULL)
    {
      r->memo.index = r->system->index;
      r->memo.owned = r->owned;
      /* (a KIconThemes that reads GTK's caches: the caches used and
       * their contents are part of the plan's key, kic_resolver_digest()) */
      popts->memo = rebuild_load_memo;
      popts->memo_data = &r->memo;
      r->known = rebuild_known_contents (r->old, r->system->index, options->store, r->changed, r->stamps);
      popts->known_contents = r->known;
      /* the menu's files the fingerprint found as they were */
      r->desktop.known = r->desktop_known = kic_state_desktop_known (r->state, r->changed, r->stamps);
    }
  r->checks.rootfd = kic_fs_index_rootfd (r->system->index);
  r->checks.prefix = strcmp (r->root, "/") == 0 ? "" : r->root;
  r->checks.foreign = (char **) r->system->session.foreign->pdata;
  r->checks.index = r->system->index;
  if (r->checks.rootfd >= 0)
    {
      popts->may_plant = root_may_plant;
      popts->may_copy = root_may_copy;
      popts->may_data = &r->checks;
    }
}

/* The menu's names, planned; FALSE when the index cannot be trusted. */
static gboolean
rebuild_plan (Rebuild *r, GError **error)
{
  r->icons = kic_menu_icons (r->system, r->config.extra_names, &r->desktop, &r->n_desktop_files);
  kic_config_exclude (&r->config, r->icons);
  r->plan = kic_plan_build (r->system, &r->popts, r->icons);
  /* the plans kept from the last rebuild stand on its inputs: the files
   * among them the fingerprint found as they were stay inputs, though
   * this run read none of them (a file only compared, rewritten in place,
   * reaches no listing: only its stamp shows the change) */
  if (r->plan->n_kept > 0 && r->stamps != NULL)
    kic_fs_index_seed_files (r->system->index, r->stamps);
  /* a plan made from a listing cut short (a readdir error) could plant
   * where KDE finds a file: nothing is written */
  if (!kic_fs_index_complete (r->system->index, error))
    return FALSE;
  if (r->plan->n_kept + r->plan->n_replanned > 0)
    kic_debug ("plan: %u %s kept from the last rebuild, %u planned again", r->plan->n_kept,
               kic_plural (r->plan->n_kept, "name", "names"), r->plan->n_replanned);
  return TRUE;
}

/* --check: an error when the writer counted a change (the manifest's
 * settings and a damaged manifest, which a rebuild rewrites, count). */
static gboolean
rebuild_check_outcome (Rebuild *r, GError **error)
{
  const KicWriteStats *stats = &r->stats;
  const KicManifest *old = r->old;

  if (stats->added + stats->replaced + stats->removed + stats->files_written + stats->files_removed == 0
      && g_strcmp0 (old->settings, r->settings) == 0 && !old->damaged)
    return TRUE;
  commands_set_outdated (error, old, r->settings, stats, r->root, r->options->store);
  return FALSE;
}

/* What the next run starts from: the state, then the fingerprint.
 * Without the state the next run plans every name, without the
 * fingerprint it plans in full: nothing worse.  The state first: a run
 * killed between the two leaves no fingerprint, so the next run writes
 * both again. */
static void
rebuild_keep (Rebuild *r)
{
  g_autofree char *fingerprint = NULL;
  g_autofree char *next = NULL;
  g_autoptr (GError) local = NULL;

  /* (made while the manifest went to the disk, or now) */
  if (!r->next.made)
    rebuild_next_state (&r->next);
  next = g_steal_pointer (&r->next.state);
  fingerprint = kic_fingerprint_finish (g_steal_pointer (&r->next.fingerprint), r->system->index, r->options->store,
                                        r->fingerprint_setup, r->next.store_stamps);

  if (next != NULL && !kic_writer_put_state (r->writer, next, &local))
    {
      kic_warning ("%s", local->message);
      g_clear_error (&local);
    }
  if (!kic_writer_put_fingerprint (r->writer, fingerprint, &local))
    kic_warning ("%s", local->message);
}

/* The change log's last line, the JSON report and the summary; the
 * largest structures of the run go with the process (keep.h). */
static void
rebuild_report (Rebuild *r, KicChangeLog *log)
{
  if (log != NULL)
    commands_finish_log (log, &r->stats, NULL);
  if (r->json != NULL)
    kic_report_rebuild_json (r->json, r->system->current_theme, r->plan, r->n_desktop_files, &r->stats, stdout);
  print_summary (r->plan, r->popts.targets, r->n_desktop_files, &r->stats, r->wopts.dry_run);
  kic_keep_until_exit (g_steal_pointer (&r->plan), (GDestroyNotify) kic_plan_free);
  kic_keep_until_exit (g_steal_pointer (&r->state), (GDestroyNotify) kic_state_free);
  kic_keep_until_exit (g_steal_pointer (&r->system), (GDestroyNotify) kic_system_free);
}

/* Plan and apply; with CHECK_ONLY count the changes and write nothing.
 * When no input changed since the last rebuild (its fingerprint), the
 * plan would be the same and the disk is as it left it: stop there.  A
 * first look takes no lock, so that a no-op run or --check never waits;
 * a run that would write looks again with the lock held.  When some input
 * changed, the plan keeps what the last rebuild's state says of every name
 * no change reaches (state.h, plan-memo.c). */
static gboolean
rebuild (const KicCommandOptions *options, gboolean check_only, KicChangeLog **log, GError **error)
{
  g_auto (Rebuild) r = { 0 };
  gboolean done = FALSE;

  r.options = options;
  r.check_only = check_only;
  r.fingerprint_setup = fingerprint_settings (options);
  r.root = g_canonicalize_filename (options->system.root ? options->system.root : "/", NULL);
  r.state_path = g_build_filename (options->store, KIC_STATE_FILE, NULL);
  r.checks = (RootChecks) { -1, "", kic_kept_dirs_new (), NULL, NULL };
  r.desktop_read = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, kic_desktop_read_free);
  r.desktop.read = r.desktop_read;
  if (!rebuild_look (&r, &done, error))
    return done;
  r.json = options->json ? kic_json_new () : NULL;
  if (!rebuild_load (&r, error) || !rebuild_open_writer (&r, log, error))
    return FALSE;
  rebuild_plan_options (&r);
  if (!rebuild_plan (&r, error))
    return FALSE;
  r.settings = settings_string (r.system, r.popts.targets, r.config.themes);
  r.inputs = kic_fingerprint_inputs (r.system->index, options->store);
  kic_writer_set_inputs (r.writer, r.inputs);
  r.next = (NextState) { r.writer, &r.stats, r.plan, r.system->index, options->store, r.owned, r.desktop_read,
                         r.popts.floor, r.inputs, r.state, FALSE, NULL, NULL, NULL };
  if (!r.wopts.dry_run)
    kic_writer_set_meanwhile (r.writer, rebuild_next_state, &r.next);
  r.wanted = plan_links (r.plan);
  if (!kic_writer_apply (r.writer, r.wanted, r.settings, &r.stats, error))
    return FALSE;
  if (check_only)
    return rebuild_check_outcome (&r, error);
  if (!r.wopts.dry_run)
    rebuild_keep (&r);
  rebuild_report (&r, *log);
  return TRUE;
}

gboolean
kic_command_rebuild (const KicCommandOptions *options, GError **error)
{
  g_autoptr (KicChangeLog) log = NULL;
  gboolean ok = rebuild (options, FALSE, &log, error);

  /* a run stopped by an error says so in the log, after its changes */
  if (!ok)
    commands_finish_log (log, NULL, error != NULL ? *error : NULL);
  return ok;
}

gboolean
kic_command_check (const KicCommandOptions *options, GError **error)
{
  KicChangeLog *log = NULL; /* --check writes nothing */

  return rebuild (options, TRUE, &log, error);
}
