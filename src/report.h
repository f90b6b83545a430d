/* report.h - the JSON documents of --list and --rebuild
 *
 * A KicJson is one document being built: an object whose members are
 * added in order, then printed once.  Strings that are not UTF-8 are
 * written with U+FFFD for each bad byte; NULL strings are null.
 */
#ifndef KIC_REPORT_H
#define KIC_REPORT_H

#include "plan.h"
#include "writer.h"

#include <glib.h>
#include <stdio.h>

typedef struct _KicJson KicJson;

/* A document: an object. */
KicJson *kic_json_new (void);
/* Close the document and print it (pretty, with a final newline). */
void kic_json_print (KicJson *json, FILE *out);
void kic_json_free (KicJson *json);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicJson, kic_json_free)

/* A string member NAME of the document (VALUE NULL: null). */
void kic_json_string (KicJson *json, const char *name, const char *value);
/* An array member NAME, holding the entries or problems added up to
 * kic_json_end_array(). */
void kic_json_begin_array (KicJson *json, const char *name);
void kic_json_end_array (KicJson *json);

/* --list: an entry of the desktop_files array, with its lookups, one per
 * size, up to kic_json_end_entry(). */
void kic_json_add_entry (KicJson *json, const char *id, const char *file, const char *icon);
void kic_json_add_lookup (KicJson *json, int size, const char *path, const char *via, guint calls);
void kic_json_end_entry (KicJson *json);
/* --list: an entry of the problems array; PACKAGE NULL when no package
 * ships the file. */
void kic_json_add_problem (KicJson *json, const char *id, const char *file, const char *icon, const char *problem,
                           int size, guint calls, const char *package);

/* --rebuild --json: the plan's report of every name (THEME the current
 * theme, N_DESKTOP_FILES the menu files read), and what the writer did. */
void kic_report_rebuild_json (const char *theme, const KicPlan *plan, guint n_desktop_files,
                              const KicWriteStats *stats, FILE *out);

#endif /* KIC_REPORT_H */
