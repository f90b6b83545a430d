/* diag.h - the error domain and the run's diagnostics
 *
 * Every module reports failures through GError in the KIC_ERROR domain (or a
 * GLib domain such as G_FILE_ERROR for system calls); only main.c turns an
 * error into a message and an exit code, by its domain and code: usage
 * errors exit 2, "out of date" 1, anything else is a runtime error (3).
 */
#ifndef KIC_DIAG_H
#define KIC_DIAG_H

#include <glib.h>

#define KIC_ERROR (kic_error_quark ())

typedef enum {
  KIC_ERROR_USAGE,    /* a bad option value, also when found at run time (exit 2) */
  KIC_ERROR_IO,       /* a file that cannot be used as it is, a lock held by another run */
  KIC_ERROR_OUTDATED, /* --check: a rebuild would change something (exit 1) */
  KIC_ERROR_CONFIG,   /* a bad value in the configuration file */
  KIC_ERROR_PRIVATE,  /* a file not every user may read (source.h): as KIC_ERROR_IO, and not to be read at all */
} KicError;

GQuark kic_error_quark (void);

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
/* Replace the message of ERROR, a GKeyFile or GMarkup parse error, by one
 * that quotes nothing of the file: GLib's messages quote the offending
 * line or value, and the file may be a link to /etc/shadow whose hash
 * would end up in a warning (issue 19 row 12).  Other errors are left as
 * they are.  NULL is fine. */
void kic_error_unquote (GError *error);

/* ONE when N is 1, else MANY: "%u %s", n, kic_plural (n, "link", "links") */
static inline const char *
kic_plural (guint64 n, const char *one, const char *many)
{
  return n == 1 ? one : many;
}

#endif /* KIC_DIAG_H */
