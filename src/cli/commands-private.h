/* commands-private.h - what commands.c (the other modes) and
 * commands-rebuild.c share; nothing else includes it
 */
#ifndef KIC_COMMANDS_PRIVATE_H
#define KIC_COMMANDS_PRIVATE_H

#include "commands.h"
#include "config.h"
#include "iconloader.h"
#include "writer-log.h"
#include "writer.h"

/* Where the writer's changes go: a dry run's list on standard output,
 * ACTION<TAB>PATH[<TAB>DETAIL]; a real run's log (writer-log.h). */
typedef struct {
  gboolean print;
  KicChangeLog *log; /* NULL: none (a dry run, --check) */
} ChangeSink;

/* commands-rebuild.c */
KicOverlay * commands_our_links_hidden (const KicCommandOptions *options, KicSystem *system);
/* commands-rebuild.c */
KicWriter * commands_open_writer (const KicCommandOptions *options, KicSystem *system, char **link_dirs, gboolean dry_run, KicWriterOptions *wopts, ChangeSink *sink, GError **error);
/* commands-rebuild.c */
char ** commands_link_dirs (const KicSystem *system);
/* commands-rebuild.c */
void commands_finish_log (KicChangeLog *log, const KicWriteStats *stats, const GError *error);
/* commands.c: the session's data directories and where a login's
 * additions came from, for -v and --explain.  transfer full */
char *commands_session_string (const KicSystem *system);
/* commands.c */
KicSystem * commands_load_system (const KicCommandOptions *options, GError **error);
/* The installed theme whose name is NAME but for case ("Breeze": "breeze"),
 * or NULL.  transfer full */
char *commands_theme_spelled_otherwise (KicSystem *system, const char *name);
/* commands.c: --check's KIC_ERROR_OUTDATED, from the manifest OLD, the
 * run's SETTINGS and what the writer would do */
void commands_set_outdated (GError **error, const KicManifest *old, const char *settings, const KicWriteStats *stats,
                            const char *root, const char *store);
/* commands.c: Themes= of CONFIG, each a theme of the root (else a warning),
 * FALSE (KIC_ERROR_CONFIG) for one installed only under another case */
gboolean commands_config_themes_ok (KicSystem *system, const KicConfig *config, GError **error);
/* commands.c: -v's word on how the icon directories are mounted */
void commands_mount_hint (const KicCommandOptions *options);

#endif
