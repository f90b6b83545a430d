/* keyfile.h - GKeyFile with KConfig's leniency
 *
 * KDE reads index.theme and kdeglobals with KConfig, which skips lines it
 * cannot parse; GKeyFile rejects the whole file.  kic_keyfile_load() first
 * tries GKeyFile as is and, when that fails, drops the lines KConfig would
 * skip (with one warning naming the file and line) and tries again.  The
 * getters fall back to the default, as KConfigGroup::readEntry() does, when
 * the key is missing or its value does not convert.
 */
#ifndef KIC_KEYFILE_H
#define KIC_KEYFILE_H

#include <glib.h>

/* transfer full; NULL with ERROR set only when nothing could be parsed */
GKeyFile *kic_keyfile_load (const char *data, gsize length, const char *origin, GError **error);

/* The same, for a caller that reads no translation (a KEY[LOCALE] key):
 * DATA is first parsed without the lines of its translations that GKeyFile
 * takes whatever they hold (kic_keyfile_untranslated()); only when that
 * fails is it loaded as kic_keyfile_load() loads it, with its warnings.  A
 * menu entry is mostly translations: GKeyFile's parse of them was half
 * of reading the menu. */
GKeyFile *kic_keyfile_load_untranslated (const char *data, gsize length, const char *origin, GError **error);

/* DATA (no NUL in it) without the lines, after its first line that opens
 * with '[', of the form KEY[LOCALE]=VALUE with KEY of ASCII letters,
 * digits and '-' and LOCALE of those, '_', '.' and '@' (a ' ' may stand
 * before the '='): a key name GKeyFile accepts in any group, so that
 * GKeyFile parses DATA if and only if it parses what is left, to the same
 * values of every key but those.  NULL when no line is dropped.  transfer
 * full */
char *kic_keyfile_untranslated (const char *data, gsize length, gsize *out_length);

/* transfer full */
char *kic_keyfile_get_string (GKeyFile *kf, const char *group, const char *key, const char *def);
int kic_keyfile_get_int (GKeyFile *kf, const char *group, const char *key, int def);
gboolean kic_keyfile_get_bool (GKeyFile *kf, const char *group, const char *key, gboolean def);
/* A comma-separated list (KConfig's list syntax); DEF is comma-separated
 * too, NULL for an empty list.  transfer full, never NULL */
char **kic_keyfile_get_list (GKeyFile *kf, const char *group, const char *key, const char *def);

#endif /* KIC_KEYFILE_H */
