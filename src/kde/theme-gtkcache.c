/* theme-gtkcache.c - which icon-theme.cache a KIconThemes that reads GTK's
 * caches uses for each theme directory (KDE/kiconthemes a8749c1,
 * src/kicontheme.cpp; gtkcache.h)
 *
 * :579-587: one KIconCache per base of the theme ("<base>/<theme>/"),
 * made when the first directory of Directories= is found there; :225-255:
 * it is used only when the cache file is no older than that directory
 * and than each directory it lists (QFileInfo::lastModified(), to the
 * millisecond), and when its major version is 1.  A Qt resource base
 * (":/icons") has no file: QFileInfo::exists() is false there.
 */
#include "theme.h"

#include "gtkcache.h"
#include "diag.h"

#include <string.h>

/* The biggest cache read: breeze's is a few megabytes. */
#define MAX_CACHE (256u << 20)

/* QDateTime's milliseconds of a time in nanoseconds (floor, as a
 * timespec's seconds * 1000 + nanoseconds / 10^6). */
static gint64
msecs (gint64 ns)
{
  return ns >= 0 ? ns / 1000000 : -((-ns + 999999) / 1000000);
}

/* Say why the cache at PATH is not used (the admin's calls depend on it). */
static void
note (KicFsIndex *index, const char *path, const char *why)
{
  g_autofree char *host = kic_fs_index_host_path (index, path);

  kic_note ("%s is not used by KIconThemes (%s): its theme's directories are each checked", host, why);
}

/* The cache of BASE ("<base>/<theme>") KIconThemes would use, or NULL. */
static KicGtkCache *
load_cache (KicFsIndex *index, const char *base)
{
  g_autofree char *path = g_strconcat (base, "/icon-theme.cache", NULL);
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (KicGtkCache) cache = NULL;
  gint64 cache_ns, ns;
  gsize length;

  /* :228-230: none, or older than the theme directory: as if none */
  if (kic_fs_index_stat (index, path) != KIC_FS_FILE || !kic_fs_index_mtime (index, path, &cache_ns))
    {
      g_autofree char *description = g_strconcat (base, "/index.theme", NULL);

      /* a theme's own base (not an application's or pixmaps' copy of
       * it): what the admin can do about its calls */
      if (kic_fs_index_stat (index, description) == KIC_FS_FILE)
        {
          g_autofree char *host = kic_fs_index_host_path (index, base);

          kic_note ("%s has no icon-theme.cache: KIconThemes checks each of its directories "
                    "(gtk-update-icon-cache makes one)", host);
        }
      return NULL;
    }
  if (kic_fs_index_mtime (index, base, &ns) && msecs (cache_ns) < msecs (ns))
    {
      note (index, path, "older than its theme directory");
      return NULL;
    }
  if (!kic_fs_index_read_file_max (index, path, MAX_CACHE, &data, &length, &error)
      || (cache = kic_gtk_cache_parse ((const guchar *) data, length, &error)) == NULL)
    {
      note (index, path, error->message);
      return NULL;
    }
  /* :242-253: older than a directory it lists (one that is not there has
   * no time, which no time is older than).  Each is listed, as the base
   * is: a listing is an input of the run (fingerprint.c), so a change of
   * its time, which may end the cache's use, is seen by the next run */
  kic_fs_index_dir (index, base);
  for (guint i = 0; i < kic_gtk_cache_n_dirs (cache); i++)
    {
      g_autofree char *dir = g_strconcat (base, "/", kic_gtk_cache_dir (cache, i), NULL);

      kic_fs_index_dir (index, dir);

      if (kic_fs_index_mtime (index, dir, &ns) && msecs (cache_ns) < msecs (ns))
        {
          g_autofree char *why = g_strdup_printf ("older than %s", kic_gtk_cache_dir (cache, i));

          note (index, path, why);
          return NULL;
        }
    }
  return g_steal_pointer (&cache);
}

/* Give the directories of DIRS their base's cache, loaded once per base
 * into BY_BASE ("<base>/<theme>" -> KicGtkCache*, or "" for none). */
static void
use_caches (KicTheme *theme, GPtrArray *dirs, GHashTable *by_base, KicFsIndex *index)
{
  for (guint i = 0; i < dirs->len; i++)
    {
      KicThemeDir *dir = g_ptr_array_index (dirs, i);
      gsize n = strlen (dir->path), m = strlen (dir->spec->name);
      g_autofree char *base = NULL;
      gpointer cache;

      if (kic_theme_dir_is_resource (dir) || n <= m + 1)
        continue;
      base = g_strndup (dir->path, n - m - 1);
      if (!g_hash_table_lookup_extended (by_base, base, NULL, &cache))
        {
          cache = load_cache (index, base);
          if (cache != NULL)
            {
              g_autofree char *host = kic_fs_index_host_path (index, base);

              kic_debug ("%s/icon-theme.cache answers for the directories it does not list a name in", host);
              if (theme->gtk_caches == NULL)
                theme->gtk_caches = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_gtk_cache_free);
              g_ptr_array_add (theme->gtk_caches, cache);
            }
          g_hash_table_insert (by_base, g_strdup (base), cache);
        }
      dir->gtk_cache = cache;
    }
}

void
kic_theme_use_gtk_caches (KicTheme *theme, KicFsIndex *index)
{
  g_autoptr (GHashTable) by_base = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  use_caches (theme, theme->dirs, by_base, index);
  use_caches (theme, theme->scaled_dirs, by_base, index);
}
