/* rcc.h - the Qt resources compiled into a library (KF6's embedded breeze)
 *
 * Qt's rcc compiles files into three byte arrays: a tree of 14- or 22-byte
 * nodes, a table of names (16-bit length, qt_hash, UTF-16BE) and the data.
 * kiconthemes 6 links libKF6BreezeIcons, which carries breeze that way
 * under :/icons/breeze (kde-lookup.md §2.2).  We find the tree by its root
 * and check every name against its hash, so no symbol table is needed.
 */
#ifndef KIC_RCC_H
#define KIC_RCC_H

#include <glib.h>

typedef struct {
  GPtrArray *files;  /* char*: every file, as ":/icons/breeze/actions/16/x.svg" */
  char *index_theme; /* the text of ":/icons/breeze/index.theme", or NULL */
  gsize index_theme_length;
} KicRccBreeze;

/* The :/icons/breeze resources in the library image DATA; NULL (and
 * ERROR) when none are found or they are damaged.  transfer full */
KicRccBreeze *kic_rcc_read_breeze (const guchar *data, gsize length, GError **error);
void kic_rcc_breeze_free (KicRccBreeze *breeze);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicRccBreeze, kic_rcc_breeze_free)

/* Qt's qt_hash() of the UTF-16 name NAME (ASCII here). */
guint32 kic_rcc_hash (const char *name);

#endif /* KIC_RCC_H */
