/* kic.h - shared definitions of kde-icon-cache
 *
 * Every module reports failures through GError in the KIC_ERROR domain (or a
 * GLib domain such as G_FILE_ERROR for system calls); only main.c turns an
 * error into a message and an exit code, by its domain and code: usage
 * errors exit 2, "out of date" 1, anything else is a runtime error (3).
 */
#ifndef KIC_H
#define KIC_H

#include <glib.h>

#define KIC_ERROR (kic_error_quark ())

typedef enum {
  KIC_ERROR_USAGE,    /* a bad option value, also when found at run time (exit 2) */
  KIC_ERROR_IO,       /* a file that cannot be used as it is, a lock held by another run */
  KIC_ERROR_OUTDATED, /* --check: a rebuild would change something (exit 1) */
  KIC_ERROR_CONFIG,   /* a bad value in the configuration file */
} KicError;

GQuark kic_error_quark (void);

/* "0.2": the top entry of debian/changelog (version.c). */
extern const char kic_version[];

/* Record a warning, "warning: ...": bad input that the run skips (a broken
 * .desktop file, an index.theme line KDE ignores too), which never stops
 * the run.  Each distinct text is recorded once per run, however often
 * the input is met; the face prints them (kic_diagnostics_take()). */
void kic_warning (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* A warning that --quiet does not silence: something the admin must
 * hear even from a quiet periodic job (a change that cannot be logged, a
 * link directory that cannot be written).  kic_diagnostic_is_loud(): is
 * MSG, as kic_diagnostics_take() gives it, one of those? */
void kic_warning_loud (const char *format, ...) G_GNUC_PRINTF (1, 2);
gboolean kic_diagnostic_is_loud (const char *msg);

/* Record a note, "note: ...": a guess the run made that the admin may
 * want to correct (nothing is wrong with the input).  Once, as warnings. */
void kic_note (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* The warnings and notes recorded since the last call, in the order first
 * given, each "warning: ..." or "note: ...".  transfer full: char* */
GPtrArray *kic_diagnostics_take (void);

/* How many warnings and notes were given so far, repeats included: a step
 * that gave none leaves it as it was (desktop.c keeps only such reads). */
guint kic_diagnostics_serial (void);

/* Verbose diagnostics, printed only with --verbose. */
void kic_debug (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* Set by main.c from --quiet / --verbose. */
extern gboolean kic_quiet;
extern gboolean kic_verbose;

#endif /* KIC_H */
