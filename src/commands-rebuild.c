/* commands-rebuild.c - --rebuild and --check: the fingerprint's look, the
 * plan (incremental when the kept state allows), the links handed to the
 * writer, and the summary
 */
#include "commands-private.h"

#include "config.h"
#include "desktop.h"
#include "dpkg.h"
#include "fingerprint.h"
#include "menu.h"
#include "paths.h"
#include "plan.h"
#include "report.h"
#include "source.h"
#include "trusted.h"
#include "writer.h"
#include "writer-log.h"
#include "kic.h"
#include "resolver.h"
#include "safeopen.h"
#include "state.h"
#include "util.h"

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
 * its options and the directories of the environment (fingerprint.h). */
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
                             "config-dirs=%s sizes=",
                          kic_version, options->system.theme ? options->system.theme : "",
                          options->system.kde ? options->system.kde : "",
                          options->system.kde_version ? options->system.kde_version : "",
                          options->system.app_name ? options->system.app_name : "", options->store, data, config);
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
 * trusted descriptor (trusted_dir_fd()).  (The writer checks again when it
 * plants: this only keeps the plan from counting on a refusal.) */
static gboolean
root_may_plant (const char *dir, gpointer data)
{
  RootChecks *rc = data;
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *name = g_path_get_basename (dir);
  g_autofree char *host = g_strconcat (rc->prefix, dir, NULL);
  gboolean owned;
  gboolean ok;
  int pfd;

  if (strcmp (dir, "/") == 0)
    return kic_trusted_dir_check (rc->rootfd, rc->prefix, dir, NULL);
  pfd = trusted_dir_fd (rc, parent, &owned);
  ok = pfd >= 0 && kic_trusted_dir_check_at (pfd, host, name, NULL);
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

/* Whether the fingerprint still matches with the store's lock held: a
 * --clean or a rebuild that holds the lock may be changing the store
 * after an unlocked look found no change.  The lock is only held for the
 * look: a run that gets in after it changes the inputs, which the plan
 * then reads. */
static gboolean
unchanged_when_locked (const KicCommandOptions *options, const char *root, const char *setup,
                       gboolean *unchanged, GError **error)
{
  g_autoptr (KicFsIndex) bare_root = kic_fs_index_new (root);
  g_autoptr (KicWriter) writer = NULL;
  KicWriterOptions wopts = { 0 };

  wopts.index = bare_root;
  wopts.store = options->store;
  wopts.wait_seconds = options->wait_seconds;
  writer = kic_writer_open (&wopts, error);
  if (writer == NULL)
    return FALSE;
  *unchanged = kic_fingerprint_unchanged (root, options->store, setup);
  return TRUE;
}

/* What the last rebuild learned, for this one (state.h). */
typedef struct {
  KicState *state;
  GHashTable *changed;  /* what changed since (kic_fingerprint_changes()) */
  GHashTable *stamps;   /* ... and the stamps of what did not */
  KicFsIndex *index;
  const GPtrArray *owned;
} MemoSource;

/* KicWriterOptions.settled: DIR is as the fingerprint found it, which was
 * as the last rebuild left it (SETTLED_DATA: the MemoSource). */
static gboolean
dir_settled (const char *dir, gpointer data)
{
  const MemoSource *m = data;
  const KicFsStamp *stamp = m->stamps != NULL ? g_hash_table_lookup (m->stamps, dir) : NULL;

  return stamp != NULL && stamp->type == KIC_FS_DIR && stamp->exists && !g_hash_table_contains (m->changed, dir);
}

/* The state read on the other core while the fingerprint looks at the
 * inputs after the first changed one (kic_fingerprint_what_changed()'s
 * ON_CHANGE): both the look's stats and the state's parse take a few
 * milliseconds on a large tree, and a run with no change needs no state. */
typedef struct {
  const char *root;
  const char *path; /* the store's state file */
  KicStateLoad *load;
} StateRead;

static void
state_read_start (const char *inputs, gpointer data)
{
  StateRead *sr = data;

  sr->load = kic_state_load_start (sr->root, sr->path, inputs);
}

/* Whether a run wants what the last rebuild learned: when an input changed
 * since (CHANGED, the fingerprint's look), or for --json, which plans with
 * no change too; not with --full, nor without a fingerprint. */
static gboolean
state_wanted (GHashTable *changed, const KicCommandOptions *options)
{
  return changed != NULL && !options->full && (g_hash_table_size (changed) > 0 || options->json);
}

/* The state bound to INPUTS (NULL: none is wanted), or NULL: what SR's
 * thread read, or read now when none was started (no input changed, and
 * a --json run plans all the same). */
static KicState *
state_read_join (StateRead *sr, const char *inputs)
{
  KicState *state = sr->load != NULL ? kic_state_load_finish (g_steal_pointer (&sr->load))
                                     : inputs != NULL ? kic_state_load (sr->root, sr->path, inputs) : NULL;

  if (inputs == NULL)
    g_clear_pointer (&state, kic_state_free);
  return state;
}

/* The sources of the store copies the manifest OLD records, whose stamp
 * did not change since (not in CHANGED; STAMPS has it): real path ->
 * SHA-256, from the manifest (a copy's content is its source's; a PNG
 * twin's is not, and is left out).  Each is an input of this run as it
 * was of the last, stamped in INDEX without a read.  transfer full */
static GHashTable *
known_contents (const KicManifest *old, KicFsIndex *index, const char *store, GHashTable *changed,
                GHashTable *stamps)
{
  GHashTable *known = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autofree char *files = g_strconcat (store, "/files", NULL);
  GHashTableIter iter;
  gpointer value;

  if (old->damaged || old->journal || stamps == NULL)
    return known;
  g_hash_table_iter_init (&iter, old->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const KicManifestEntry *e = value;
      const KicFsStamp *stamp;

      if (e->kind != KIC_ENTRY_FILE || e->sha256 == NULL || e->target == NULL || !g_str_has_prefix (e->path, files)
          || strcmp (e->path + strlen (files), e->target) != 0 || g_hash_table_contains (changed, e->target)
          || (stamp = g_hash_table_lookup (stamps, e->target)) == NULL || stamp->type != KIC_FS_FILE)
        continue;
      kic_fs_index_seed_file (index, e->target, stamp);
      g_hash_table_insert (known, e->target, e->sha256);
    }
  return known;
}

/* KicSystemOptions.seed: the directories that did not change, from the state. */
static void
seed_index (KicFsIndex *index, gpointer data)
{
  MemoSource *m = data;

  kic_state_seed (m->state, index, m->changed, m->stamps);
}

/* KicPlanOptions.memo: the state's memo for a plan of KEY, or NULL. */
static KicPlanMemo *
load_memo (const char *key, gpointer data)
{
  MemoSource *m = data;

  return kic_state_memo (m->state, key, m->index, m->changed, m->owned);
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
  g_autofree char *fingerprint_setup = fingerprint_settings (options);
  g_autofree char *root = g_canonicalize_filename (options->system.root ? options->system.root : "/", NULL);
  KicCommandOptions stamped = *options;
  g_autoptr (KicSystem) system = NULL;
  g_auto (GStrv) dirs = NULL;
  g_autoptr (KicWriter) writer = NULL;
  g_autoptr (KicPlan) plan = NULL;
  g_autoptr (GPtrArray) icons = NULL;
  g_autoptr (GPtrArray) wanted = NULL;
  guint n_desktop_files = 0;
  g_autoptr (GPtrArray) owned = NULL;
  g_autofree char *settings = NULL;
  g_auto (KicConfig) config = { 0 };
  KicWriterOptions wopts = { 0 };
  ChangeSink sink = { FALSE, NULL };
  KicPlanOptions popts = { 0 };
  g_autoptr (GHashTable) parents = kic_kept_dirs_new ();
  RootChecks checks = { -1, "", parents };
  KicWriteStats stats;
  const KicManifest *old;
  g_autofree char *last_inputs = NULL;
  g_autofree char *inputs = NULL;
  g_autoptr (GHashTable) stamps = NULL;
  g_autofree char *state_path = g_build_filename (options->store, KIC_STATE_FILE, NULL);
  StateRead state_read = { root, state_path, NULL };
  g_autoptr (GHashTable) changed = kic_fingerprint_what_changed (root, options->store, fingerprint_setup,
                                                                 &last_inputs, &stamps,
                                                                 options->full ? NULL : state_read_start,
                                                                 &state_read);
  g_autoptr (KicState) state = state_read_join (&state_read, state_wanted (changed, options) ? last_inputs : NULL);
  g_autoptr (GHashTable) known = NULL;
  g_autoptr (GHashTable) desktop_known = NULL;
  g_autoptr (GHashTable) desktop_read = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, kic_desktop_read_free);
  KicDesktopMemo desktop = { NULL, desktop_read };
  /* --json reports every name: that needs the plan */
  gboolean unchanged = !options->json && changed != NULL && g_hash_table_size (changed) == 0;
  MemoSource memo = { 0 };
  /* made before anything changes: a --json run that cannot report
   * changes nothing */
  g_autoptr (KicJson) json = options->json ? kic_json_new (error) : NULL;

  if (options->json && json == NULL)
    return FALSE;
  if (unchanged && !(options->dry_run || check_only))
    {
      if (!unchanged_when_locked (options, root, fingerprint_setup, &unchanged, error))
        return FALSE;
      /* something changed between the two looks (a --clean, another run,
       * a package): what the first said of every input is not so, and
       * the run plans as with no fingerprint, settling nothing on it */
      if (!unchanged)
        {
          g_clear_pointer (&changed, g_hash_table_unref);
          g_clear_pointer (&stamps, g_hash_table_unref);
        }
    }
  if (unchanged)
    {
      if (!kic_quiet)
        g_printerr ("kde-icon-cache: no input changed since the last rebuild: nothing to do\n");
      return TRUE;
    }
  /* the fingerprint needs what each input was as it was read */
  stamped.system.keep_stamps = TRUE;
  if (state != NULL)
    {
      memo.state = state;
      memo.changed = changed;
      memo.stamps = stamps;
      stamped.system.seed = seed_index;
      stamped.system.seed_data = &memo;
    }
  system = commands_load_system (&stamped, error);
  if (system == NULL || !kic_config_load (system->index, &config, error))
    return FALSE;
  if (!commands_config_themes_ok (system, &config, error))
    return FALSE;
  dirs = commands_link_dirs (system);
  /* every change a real run makes is logged (opened at the first) */
  if (!options->dry_run && !check_only)
    sink.log = *log = kic_change_log_new (kic_fs_index_rootfd (system->index), strcmp (root, "/") == 0 ? "" : root,
                                          "rebuild");
  /* the store copies as the last rebuild left them (writer.h) */
  if (state != NULL && !options->full)
    wopts.store_stamps = kic_state_store_stamps (state);
  /* links in the directories no change reached are as the last rebuild
   * left them (writer.h): not read again */
  if (changed != NULL && stamps != NULL && !options->full)
    {
      memo.changed = changed;
      memo.stamps = stamps;
      wopts.settled = dir_settled;
      wopts.settled_data = &memo;
    }
  writer = commands_open_writer (options, system, dirs, options->dry_run || check_only, &wopts, &sink, error);
  if (writer == NULL)
    return FALSE;
  old = kic_writer_manifest (writer);
  owned = kic_writer_owned_links (writer);
  if (options->sizes->len == 0 && config.targets->len == 0)
    {
      g_array_unref (config.targets);
      config.targets = kic_plan_default_targets (system->profile->table);
    }
  popts.targets = options->sizes->len > 0 ? options->sizes : config.targets;
  popts.themes = config.themes;
  popts.per_size_sets = config.per_size_sets;
  popts.unthemed_links = config.unthemed_links;
  popts.store = options->store;
  popts.previous = owned;
  popts.floor = options->json; /* the floor costs a search per size: only for the report */
  /* the summary's calls and --json are what show the size reports */
  popts.no_reports = (kic_quiet || check_only) && !options->json;
  if (state != NULL)
    {
      memo.index = system->index;
      memo.owned = owned;
      popts.memo = load_memo;
      popts.memo_data = &memo;
      known = known_contents (old, system->index, options->store, changed, stamps);
      popts.known_contents = known;
      /* the menu's files the fingerprint found as they were */
      desktop.known = desktop_known = kic_state_desktop_known (state, changed, stamps);
    }
  checks.rootfd = kic_fs_index_rootfd (system->index);
  checks.prefix = strcmp (root, "/") == 0 ? "" : root;
  if (checks.rootfd >= 0)
    {
      popts.may_plant = root_may_plant;
      popts.may_copy = root_may_copy;
      popts.may_data = &checks;
    }
  icons = kic_menu_icons (system, config.extra_names, &desktop, &n_desktop_files);
  plan = kic_plan_build (system, &popts, icons);
  /* the plans kept from the last rebuild stand on its inputs: the files
   * among them the fingerprint found as they were stay inputs, though
   * this run read none of them (a file only compared, rewritten in place,
   * reaches no listing: only its stamp shows the change) */
  if (plan->n_kept > 0 && stamps != NULL)
    kic_fs_index_seed_files (system->index, stamps);
  /* a plan made from a listing cut short (a readdir error) could plant
   * where KDE finds a file: nothing is written */
  if (!kic_fs_index_complete (system->index, error))
    return FALSE;
  if (plan->n_kept + plan->n_replanned > 0)
    kic_debug ("plan: %u %s kept from the last rebuild, %u planned again", plan->n_kept,
               kic_plural (plan->n_kept, "name", "names"), plan->n_replanned);
  settings = settings_string (system, popts.targets, config.themes);
  inputs = kic_fingerprint_inputs (system->index, options->store);
  kic_writer_set_inputs (writer, inputs);
  wanted = plan_links (plan);
  if (!kic_writer_apply (writer, wanted, settings, &stats, error))
    return FALSE;
  if (check_only)
    {
      /* a damaged manifest is rewritten by a rebuild: a change too */
      if (stats.added + stats.replaced + stats.removed + stats.files_written + stats.files_removed > 0
          || g_strcmp0 (old->settings, settings) != 0 || old->damaged)
        {
          commands_set_outdated (error, old, settings, &stats, root, options->store);
          return FALSE;
        }
      return TRUE;
    }
  if (!wopts.dry_run)
    {
      g_autofree char *fingerprint = kic_fingerprint_make (system->index, options->store, fingerprint_setup);
      g_autoptr (GError) local = NULL;
      /* a link left out (its copy or itself could not be made) is not
       * what the plan said: the next run plans every name again */
      g_autoptr (GHashTable) store_stamps = kic_writer_store_stamps (writer);
      g_autofree char *next = stats.left_out == 0 ? kic_state_make (plan, system->index, options->store, owned,
                                                                    desktop_read, store_stamps, popts.floor, inputs,
                                                                    state)
                                                  : NULL;

      /* without the state the next run plans every name, without the
       * fingerprint it plans in full: nothing worse.  The state first: a
       * run killed between the two leaves no fingerprint, so the next
       * run writes both again. */
      if (next != NULL && !kic_writer_put_state (writer, next, &local))
        {
          kic_warning ("%s", local->message);
          g_clear_error (&local);
        }
      if (!kic_writer_put_fingerprint (writer, fingerprint, &local))
        kic_warning ("%s", local->message);
    }
  if (*log != NULL)
    commands_finish_log (*log, &stats, NULL);
  if (json != NULL)
    kic_report_rebuild_json (json, system->current_theme, plan, n_desktop_files, &stats, stdout);
  print_summary (plan, popts.targets, n_desktop_files, &stats, wopts.dry_run);
  /* the largest structures of the run go with the process (util.h) */
  kic_keep_until_exit (g_steal_pointer (&plan), (GDestroyNotify) kic_plan_free);
  kic_keep_until_exit (g_steal_pointer (&state), (GDestroyNotify) kic_state_free);
  kic_keep_until_exit (g_steal_pointer (&system), (GDestroyNotify) kic_system_free);
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
