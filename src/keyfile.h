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

/* transfer full */
char *kic_keyfile_get_string (GKeyFile *kf, const char *group, const char *key, const char *def);
int kic_keyfile_get_int (GKeyFile *kf, const char *group, const char *key, int def);
gboolean kic_keyfile_get_bool (GKeyFile *kf, const char *group, const char *key, gboolean def);
/* A comma-separated list (KConfig's list syntax); DEF is comma-separated
 * too, NULL for an empty list.  transfer full, never NULL */
char **kic_keyfile_get_list (GKeyFile *kf, const char *group, const char *key, const char *def);

#endif /* KIC_KEYFILE_H */
