/* commands.h - the modes of kde-icon-cache; main.c only picks one */
#ifndef KIC_COMMANDS_H
#define KIC_COMMANDS_H

#include "system.h"

#include <glib.h>

typedef struct {
  KicSystemOptions system;
  GArray *sizes;   /* int; empty: the mode's default */
  gboolean json;
  char **names;    /* --resolve/--explain: NULL means standard input */
} KicCommandOptions;

/* Each returns FALSE with ERROR set on a runtime failure. */
gboolean kic_command_resolve (const KicCommandOptions *options, GError **error);
gboolean kic_command_list (const KicCommandOptions *options, GError **error);
gboolean kic_command_explain (const KicCommandOptions *options, GError **error);

#endif /* KIC_COMMANDS_H */
