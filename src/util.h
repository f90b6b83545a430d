/* util.h - general helpers: paths, bounded reads, integers
 *
 * Nothing here knows about icons or KDE; each function is pure or reads
 * only the descriptor it is given.
 */
#ifndef KIC_UTIL_H
#define KIC_UTIL_H

#include <glib.h>

/* Lexically clean PATH ("//", "/./", "/../"; ".." stops at "/"), the way
 * Qt's QDir::cleanPath does; a relative PATH is first taken from the
 * current directory.  The one normalisation of paths (--root, --output,
 * the XDG directories, paths built while resolving).  transfer full */
char *kic_path_clean (const char *path);

/* Is PATH absolute and what kic_path_clean() gives of it: no empty, "."
 * or ".." component, no '/' at the end but in "/"?  Without a copy (asked
 * of every path the state, the fingerprint and the writer read). */
gboolean kic_path_is_clean (const char *path);

/* The relative target of a link at LINK pointing to TARGET (both clean
 * and absolute): "../../…/var/lib/kde-icon-cache/…".  transfer full */
char *kic_relative_link (const char *link, const char *target);

/* Files bigger than this are refused (icons, .desktop and index.theme
 * files are a few KiB to a few hundred). */
#define KIC_MAX_FILE (16 << 20)

/* Read all of FD (at most KIC_MAX_FILE, or MAX); WHAT names it in errors.
 * SIZE is what fstat() gave for FD, read into one buffer of that size
 * (-1: not known, asked here; a file that grew since is read on to its
 * end). */
gboolean kic_read_fd (int fd, const char *what, char **contents, gsize *length, GError **error);
gboolean kic_read_fd_max (int fd, const char *what, gsize max, goffset size, char **contents, gsize *length,
                          GError **error);

/* The unsigned SIZE-byte integer at OFFSET of DATA (LENGTH bytes), in
 * big- or little-endian order; FALSE when it does not lie inside DATA,
 * whatever OFFSET is (it usually comes from the file being read). */
gboolean kic_read_uint (const guchar *data, gsize length, guint64 offset, guint size, gboolean big_endian,
                        guint64 *value);

/* TEXT as a decimal integer from MIN to MAX, the way KConfig's
 * readEntry(key, int) and QString::toInt() take it: an optional sign and
 * digits, surrounding blanks allowed, nothing else ("48px" is no number).
 * The one integer parser of every option, configuration and theme value. */
gboolean kic_parse_int (const char *text, gint64 min, gint64 max, gint64 *value);

/* Replace the message of ERROR, a GKeyFile or GMarkup parse error, by one
 * that quotes nothing of the file: GLib's messages quote the offending
 * line or value, and the file may be a link to /etc/shadow whose hash
 * would end up in a warning (issue 19 row 12).  Other errors are left as
 * they are.  NULL is fine. */
void kic_error_unquote (GError *error);

/* A 64-bit checksum of LENGTH bytes of DATA, as 16 hex digits (transfer
 * full): what tells a cache file cut short or damaged from a whole one
 * (state.c), at memory speed.  Not a defence against a deliberate edit:
 * that needs the right to write root's store, which is the right to
 * write the tree itself (SECURITY.md). */
char *kic_checksum64 (const void *data, gsize length);

/* SipHash-C-D of LENGTH bytes of DATA under the 128-bit KEY: a keyed hash
 * whose collisions cannot be found without the key. */
guint64 kic_siphash (const guint64 key[2], const void *data, gsize length, guint c_rounds, guint d_rounds);

/* A GHashFunc for NUL-terminated strings, for every table keyed by a name
 * or a path.  Not g_str_hash(), which takes a byte a step (the paths here
 * are 40 to 120 bytes long: hashing was the rebuild's largest single cost,
 * a tenth of its time, perf), and whose collisions anyone can make: a user
 * who may create files in a directory the run lists could name them so
 * that its tables take quadratic time.  SipHash-1-3 of the string under a
 * key drawn once per process, folded; nothing a run prints, writes or
 * decides depends on a table's order (the tables are walked sorted where
 * it would), so a run is the same whatever the key. */
guint kic_str_hash (gconstpointer key);

/* Leave DATA to the process's exit instead of FREE_FUNC: the kernel takes
 * a run's memory back at once, where freeing a rebuild's index, state and
 * plan one allocation at a time costs about a tenth of an incremental
 * rebuild (3 ms of 33, measured).  DATA stays reachable (from a static
 * array), so valgrind counts it as such and no leak; built with
 * AddressSanitizer, FREE_FUNC runs at once, so that the leak check still
 * sees every allocation freed.  For the face's commands, which run once a
 * process.  NULL is left alone. */
void kic_keep_until_exit (gpointer data, GDestroyNotify free_func);

/* strcmp() of two elements of an array of strings (for g_ptr_array_sort()
 * and qsort()) */
int kic_compare_strings (const void *a, const void *b);

/* The keys (strings) of TABLE, sorted: for walking a table in an order no
 * hash function chooses.  transfer container */
GPtrArray *kic_sorted_keys (GHashTable *table);

/* Is PATH DIR or below it (both clean and absolute)? */
gboolean kic_path_is_under (const char *path, const char *dir);

/* V in decimal, as "%" G_GINT64_FORMAT (G_GUINT64_FORMAT) prints it, into
 * BUF (NUL-ended); its length.  (For the records written thousands of
 * times a run, where printf is most of the cost.) */
#define KIC_INT64_DIGITS 21
gsize kic_format_int64 (char buf[KIC_INT64_DIGITS], gint64 v);
gsize kic_format_uint64 (char buf[KIC_INT64_DIGITS], guint64 v);

/* ONE when N is 1, else MANY: "%u %s", n, kic_plural (n, "link", "links") */
static inline const char *
kic_plural (guint64 n, const char *one, const char *many)
{
  return n == 1 ? one : many;
}

#endif /* KIC_UTIL_H */
