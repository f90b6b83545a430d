/* writer-log.h - the record of every change a run made
 *
 * Part of the writer: the one other file it writes.  As update-alternatives
 * keeps /var/log/alternatives.log, a run that changes anything appends to
 * /var/log/kde-icon-cache.log inside the root (under --root, the chroot's
 * own /var/log: the changes are the chroot's, and so is its admin), one
 * line per change, tab-separated:
 *
 *   TIME<TAB>PID<TAB>ACTION<TAB>PATH<TAB>DETAIL
 *
 * TIME is UTC (2026-12-01T15:50:56Z); ACTION is "start" (PATH: the mode,
 * DETAIL: the version), "copy" (a store copy, DETAIL its source), "link"
 * and "replace" (a link, DETAIL its target), "remove" (a link or copy),
 * then "end" (PATH: the mode, DETAIL: what it did, or "failed: " and the
 * error).  The paths are as seen inside the root; the writer plants no
 * path with a tab or a newline, so a line always splits cleanly.
 *
 * A run that changes nothing writes nothing: the file is opened at the
 * first change.  It is opened only in a directory root may plant in
 * (trusted.h: /var/log reached without a link, owned by root, writable by
 * nobody else), with O_NOFOLLOW, and used only when it is a regular file
 * of the run's user with one link: a link or a hard link a user put there
 * is never followed nor written.  Its size is bounded: when it has grown
 * past KIC_LOG_MAX_BYTES, the next run renames it to
 * kde-icon-cache.log.1 (the one before to .log.2, up to
 * KIC_LOG_GENERATIONS old ones) and starts a new one.  One run writes at
 * most KIC_LOG_RUN_MAX_BYTES of change lines; past that it counts them and
 * writes one "more" line (DETAIL: how many were not logged) before its end
 * line: a user who can make runs plant thousands of links (an icon and a
 * menu directory of their own) fills a fourth of a generation per run, so
 * three such runs cannot push the last real change out of the
 * generations kept (issue 39, row 7).
 * A log that cannot be kept is one warning; the run goes on.
 */
#ifndef KIC_WRITER_LOG_H
#define KIC_WRITER_LOG_H

#include <glib.h>

#define KIC_LOG_PATH "/var/log/kde-icon-cache.log"
#define KIC_LOG_MAX_BYTES (1024 * 1024)
#define KIC_LOG_RUN_MAX_BYTES (KIC_LOG_MAX_BYTES / 4)
#define KIC_LOG_GENERATIONS 3

typedef struct _KicChangeLog KicChangeLog;

/* The log of one run of MODE ("rebuild", "clean") in the root ROOTFD
 * (HOST_ROOT: its host path, "" for "/", for messages).  Nothing is
 * opened yet.  transfer full */
KicChangeLog *kic_change_log_new (int rootfd, const char *host_root, const char *mode);

/* One change (the writer's on_change): the file is opened, and the start
 * line written, at the first. */
void kic_change_log_add (KicChangeLog *log, const char *action, const char *path, const char *detail);

/* The end line, RESULT (when anything was logged), and the file synced
 * and closed. */
void kic_change_log_finish (KicChangeLog *log, const char *result);

void kic_change_log_free (KicChangeLog *log);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicChangeLog, kic_change_log_free)

#endif /* KIC_WRITER_LOG_H */
