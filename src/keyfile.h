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

/* The lines kic_keyfile_load_lenient() dropped: how many, the first (1-based) */
typedef struct {
  guint lines;
  guint first;
} KicKeyfileSkipped;

/* kic_keyfile_load() without its warning: SKIPPED says what was dropped,
 * for a caller that gives one warning per file of its own */
GKeyFile *kic_keyfile_load_lenient (const char *data, gsize length, const char *origin, KicKeyfileSkipped *skipped,
                                    GError **error);
/* the warning kic_keyfile_load() gives: the file, the first line, how many */
void kic_keyfile_warn_skipped (const char *origin, const KicKeyfileSkipped *skipped);

/* transfer full */
char *kic_keyfile_get_string (GKeyFile *kf, const char *group, const char *key, const char *def);
int kic_keyfile_get_int (GKeyFile *kf, const char *group, const char *key, int def);
gboolean kic_keyfile_get_bool (GKeyFile *kf, const char *group, const char *key, gboolean def);
/* A comma-separated list (KConfig's list syntax); DEF is comma-separated
 * too, NULL for an empty list.  transfer full, never NULL */
char **kic_keyfile_get_list (GKeyFile *kf, const char *group, const char *key, const char *def);

#endif /* KIC_KEYFILE_H */
