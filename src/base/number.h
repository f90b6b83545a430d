/* number.h - integers in bytes and in text
 *
 * Pure.
 */
#ifndef KIC_NUMBER_H
#define KIC_NUMBER_H

#include <glib.h>

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

/* V in decimal, as "%" G_GINT64_FORMAT (G_GUINT64_FORMAT) prints it, into
 * BUF (NUL-ended); its length.  (For the records written thousands of
 * times a run, where printf is most of the cost.) */
#define KIC_INT64_DIGITS 21
gsize kic_format_int64 (char buf[KIC_INT64_DIGITS], gint64 v);
gsize kic_format_uint64 (char buf[KIC_INT64_DIGITS], guint64 v);

#endif /* KIC_NUMBER_H */
