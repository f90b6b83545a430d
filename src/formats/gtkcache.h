/* gtkcache.h - GTK's icon-theme.cache, read as KIconThemes reads it
 *
 * A KIconThemes with KDE/kiconthemes a8749c1 ("Use icon-theme.cache to
 * avoid excessive stat calls", branch work/chinmoy/icon-loader) reads the
 * cache gtk-update-icon-cache writes into a theme's base directory and
 * skips the file check of a directory the cache does not list a name in.
 * GTK keeps its own reader private (libgtk-3 and libgtk-4 export no
 * icon cache function), so this is a small bounded one: pure, on bytes.
 *
 * The format (GTK's gtk/updateiconcache.c, all big-endian): a header of
 * major and minor version (16 bits each), the offset of the hash table
 * and of the directory list (32 bits each); the directory list is a
 * count and that many offsets of NUL-terminated names ("actions/16");
 * the hash table a bucket count and that many offsets of chains of
 * icons, each icon the offset of the next, of its name and of its image
 * list; an image list a count and per image a 16-bit directory index, 16
 * bits of flags and 32 of data offset.
 */
#ifndef KIC_GTKCACHE_H
#define KIC_GTKCACHE_H

#include <glib.h>

typedef struct _KicGtkCache KicGtkCache;

/* The cache in DATA (LENGTH bytes, copied from nothing: what is kept is
 * parsed out), or NULL with ERROR when KIconThemes would not use it
 * (major version other than 1) or any offset, count, alignment or name
 * the lookup of some name would read is out of bounds, misaligned or
 * unterminated (KIconCache::read16/read32 of a8749c1: such a cache is
 * taken as absent; KIconThemes does so at the first lookup that reads the
 * damage, this reader for the whole file).  transfer full */
KicGtkCache *kic_gtk_cache_parse (const guchar *data, gsize length, GError **error);
void kic_gtk_cache_free (KicGtkCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicGtkCache, kic_gtk_cache_free)

/* The SHA-256 of the cache's bytes, in hex: what a plan made with it
 * stands on (the plan's key, resolver.c).  transfer none */
const char *kic_gtk_cache_digest (const KicGtkCache *cache);

/* The directory names the cache lists, in its order ("actions/16"). */
guint kic_gtk_cache_n_dirs (const KicGtkCache *cache);
const char *kic_gtk_cache_dir (const KicGtkCache *cache, guint i);

/* Does the cache list icon STEM (a file name without its last
 * extension) in directory DIR (as named in Directories=)?  What
 * KIconCache::lookup() answers: the first icon of STEM's hash chain
 * named STEM, and the directories of its images. */
gboolean kic_gtk_cache_lists (const KicGtkCache *cache, const char *dir, const char *stem);

/* The stem KIconThemeDir::iconPath() asks the cache about for FILE
 * ("foo.svg" -> "foo"; a name with no '.' is its own stem).  transfer full */
char *kic_gtk_cache_stem (const char *file);

/* GTK's icon name hash (icon_name_hash(), signed chars), which
 * KIconCache::lookup() repeats. */
guint32 kic_gtk_cache_hash (const char *name);

#endif /* KIC_GTKCACHE_H */
