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
/* CALLS: KDE's calls now; CALLS_WITHOUT_LINKS: with the store's links
 * hidden (as before the first rebuild) */
void kic_json_add_lookup (KicJson *json, int size, const char *path, const char *via, guint calls,
                          guint calls_without_links);
void kic_json_end_entry (KicJson *json);
/* --list: an entry of the problems array; PACKAGE NULL when no package
 * ships the file. */
void kic_json_add_problem (KicJson *json, const char *id, const char *file, const char *icon, const char *problem,
                           int size, guint calls, const char *package);

/* --rebuild --json: into JSON (a new document) the plan's report of every
 * name (THEME the current theme, N_DESKTOP_FILES the menu files read) and
 * what the writer did, then print it to OUT. */
void kic_report_rebuild_json (KicJson *json, const char *theme, const KicPlan *plan, guint n_desktop_files,
                              const KicWriteStats *stats, FILE *out);

/* The rebuild's last line: KDE's calls for the menu at the TARGETS
 * (KicTarget) sizes without the links and with them (kic_report_calls in
 * report.c says how they are counted).  transfer full */
char *kic_report_calls (const KicPlan *plan, const GArray *targets);

#endif /* KIC_REPORT_H */
