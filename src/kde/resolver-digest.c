/* resolver-digest.c - what a resolver's lookups depend on besides the
 * files, as a digest (kic_resolver_digest()) */
#include "resolver.h"

#include <string.h>
#include "resolver-private.h"
#include "gtkcache.h"
#include "number.h"
#include "sorted.h"

static void
digest_str (KicSha256 *checksum, const char *s)
{
  /* NUL-terminated, so that "ab","c" and "a","bc" differ; NULL as "\1" */
  if (s == NULL)
    kic_sha256_update (checksum, "\1", 2);
  else
    kic_sha256_update (checksum, s, strlen (s) + 1);
}

static void
digest_int (KicSha256 *checksum, gint64 v)
{
  char buf[KIC_INT64_DIGITS];

  kic_format_int64 (buf, v);
  digest_str (checksum, buf);
}

static void
digest_set (KicSha256 *checksum, GHashTable *table, gboolean values)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  digest_int (checksum, table != NULL ? (gint64) g_hash_table_size (table) : -1);
  if (table == NULL)
    return;
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, kic_compare_strings);
  for (guint i = 0; i < keys->len; i++)
    {
      digest_str (checksum, g_ptr_array_index (keys, i));
      if (values)
        digest_str (checksum, g_hash_table_lookup (table, g_ptr_array_index (keys, i)));
    }
}

static void
digest_dirs (KicSha256 *checksum, KicFsIndex *index, const GPtrArray *dirs)
{
  digest_int (checksum, dirs != NULL ? (gint64) dirs->len : -1);
  for (guint d = 0; dirs != NULL && d < dirs->len; d++)
    {
      const KicThemeDir *dir = g_ptr_array_index (dirs, d);
      const KicDirSpec *spec = dir->spec;
      g_autofree char *real = kic_fs_index_realpath (index, dir->path);

      digest_str (checksum, dir->path);
      /* a real path begins with "/": "\2", the same as the path, is no
       * real path's digest */
      digest_str (checksum, real != NULL && strcmp (real, dir->path) == 0 ? "\2" : real);
      digest_str (checksum, dir->mirror);
      digest_str (checksum, spec->name);
      digest_int (checksum, spec->valid);
      digest_int (checksum, spec->type);
      digest_int (checksum, spec->size);
      digest_int (checksum, spec->scale);
      digest_int (checksum, spec->min_size);
      digest_int (checksum, spec->max_size);
      digest_int (checksum, spec->threshold);
      digest_set (checksum, dir->resource_files, FALSE);
      /* GTK's cache KDE uses there (theme-gtkcache.c), if any: which
       * names it lists decides every lookup there, and whether it is
       * used at all depends on the times of the theme's directories.  A
       * plan kept stands on neither, so either changing is a change of
       * the key: every name is planned again */
      digest_str (checksum, dir->gtk_cache != NULL ? kic_gtk_cache_digest (dir->gtk_cache) : "");
    }
}

static void
digest_theme (KicSha256 *checksum, KicFsIndex *index, const KicTheme *theme)
{
  digest_str (checksum, theme->desc->name);
  for (guint e = 0; theme->desc->extensions[e] != NULL; e++)
    digest_str (checksum, theme->desc->extensions[e]);
  digest_int (checksum, theme->desc->follows_color_scheme);
  for (guint g = 0; g < KIC_GROUP_LAST; g++)
    digest_int (checksum, theme->desc->group_default[g]);
  digest_int (checksum, theme->guessed_resource);
  digest_dirs (checksum, index, theme->dirs);
  digest_dirs (checksum, index, theme->scaled_dirs);
}

/* The digest of what KEY stands for (a theme or the generic icons; DIGEST
 * makes it), fed into CHECKSUM: from MEMO when made already, since the
 * resolvers of one plan share their themes and tables.  A digest of
 * digests changes whenever one of them does. */
static void
digest_memo (KicSha256 *checksum, GHashTable *memo, gconstpointer key,
             void (*digest) (KicSha256 *, gconstpointer, gconstpointer), gconstpointer data)
{
  guint8 *sum = memo != NULL ? g_hash_table_lookup (memo, key) : NULL;

  if (sum == NULL)
    {
      KicSha256 part;

      sum = g_malloc (KIC_SHA256_LEN);
      kic_sha256_init (&part);
      digest (&part, key, data);
      kic_sha256_digest (&part, sum);
      if (memo != NULL)
        g_hash_table_insert (memo, (gpointer) key, sum);
    }
  kic_sha256_update (checksum, sum, KIC_SHA256_LEN);
  if (memo == NULL)
    g_free (sum);
}

static void
memo_theme (KicSha256 *checksum, gconstpointer theme, gconstpointer index)
{
  digest_theme (checksum, (KicFsIndex *) index, theme);
}

static void
memo_generic (KicSha256 *checksum, gconstpointer table, gconstpointer unused)
{
  (void) unused;
  digest_set (checksum, (GHashTable *) table, TRUE);
}

GHashTable *
kic_resolver_digest_memo_new (void)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
}

void
kic_resolver_digest (const KicResolver *resolver, KicSha256 *checksum, GHashTable *memo)
{
  g_autofree char *profile = kic_profile_id (resolver->profile);

  digest_str (checksum, profile);
  digest_int (checksum, resolver->themes->len);
  for (guint t = 0; t < resolver->themes->len; t++)
    digest_memo (checksum, memo, g_ptr_array_index (resolver->themes, t), memo_theme, resolver->index);
  for (guint d = 0; resolver->data_dirs != NULL && resolver->data_dirs[d] != NULL; d++)
    digest_str (checksum, resolver->data_dirs[d]);
  digest_int (checksum, resolver->data_home_hidden);
  for (guint s = 0; resolver->user_search_paths != NULL && resolver->user_search_paths[s] != NULL; s++)
    digest_str (checksum, resolver->user_search_paths[s]);
  if (resolver->generic_icons == NULL)
    digest_int (checksum, -1);
  else
    digest_memo (checksum, memo, resolver->generic_icons, memo_generic, NULL);
  for (guint g = 0; g < KIC_GROUP_LAST; g++)
    digest_int (checksum, resolver->group_size[g]);
}
