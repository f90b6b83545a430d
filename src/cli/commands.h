/* commands.h - the modes of kde-icon-cache; main.c only picks one */
#ifndef KIC_COMMANDS_H
#define KIC_COMMANDS_H

#include "iconloader.h"

#include <glib.h>

typedef struct {
  KicSystemOptions system;
  GArray *sizes;      /* KicTarget from --size; empty: the mode's default */
  gboolean json;
  gboolean problems;  /* --list: only the entries an admin should look at */
  char **names;       /* --resolve/--explain: NULL means standard input */
  gboolean icon_item; /* --explain: Plasma 5's IconItem search, not KIconLoader's */
  const char *store;  /* --output, inside the root */
  gboolean dry_run;
  gboolean full;      /* --full: plan every name, keeping nothing of the last rebuild's */
  int wait_seconds;
} KicCommandOptions;

/* Print the warnings and notes the run recorded so far (diag.h) on
 * standard error, each once, unless --quiet. */
void kic_print_diagnostics (void);

/* Each returns FALSE with ERROR set on a runtime failure. */
gboolean kic_command_resolve (const KicCommandOptions *options, GError **error);
gboolean kic_command_list (const KicCommandOptions *options, GError **error);
gboolean kic_command_explain (const KicCommandOptions *options, GError **error);
/* --shadowed, run by a user: their own icon names a link now hides
 * (commands-shadowed.c) */
gboolean kic_command_shadowed (const KicCommandOptions *options, GError **error);
/* --rebuild (with --dry-run: say what would change) */
gboolean kic_command_rebuild (const KicCommandOptions *options, GError **error);
/* --check: FALSE with KIC_ERROR_OUTDATED when a rebuild would change anything */
gboolean kic_command_check (const KicCommandOptions *options, GError **error);
gboolean kic_command_clean (const KicCommandOptions *options, GError **error);

#endif /* KIC_COMMANDS_H */
