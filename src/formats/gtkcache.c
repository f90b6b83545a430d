/* gtkcache.c - a bounded reader of GTK's icon-theme.cache (gtkcache.h)
 *
 * Every read checks its bounds and alignment as KIconCache::read16() and
 * read32() do (KDE/kiconthemes a8749c1 src/kicontheme.cpp:201-218); a
 * string must end inside the file (KDE reads it unbounded); a chain may
 * not visit more icons than the file can hold, so a loop ends.
 */
#include "gtkcache.h"

#include "diag.h"
#include "number.h"
#include "sha256.h"

#include <string.h>

struct _KicGtkCache {
  GPtrArray *dirs;   /* char*, the directory list */
  GHashTable *names; /* icon name -> GArray of guint16 directory indexes */
  char digest[KIC_SHA256_HEX_LEN + 1]; /* of the bytes parsed */
};

typedef struct {
  const guchar *data;
  gsize length;
  const char *problem; /* the first bad read, or NULL */
} Reader;

/* a8749c1 kicontheme.cpp:202-209: out of range or odd: the cache is bad */
static guint32
read16 (Reader *r, guint64 offset)
{
  guint64 v = 0;

  if ((offset & 1) != 0 || !kic_read_uint (r->data, r->length, offset, 2, TRUE, &v))
    r->problem = r->problem ? r->problem : "a 16-bit read out of range or misaligned";
  return (guint32) v;
}

/* :210-217: out of range or not a multiple of 4 */
static guint32
read32 (Reader *r, guint64 offset)
{
  guint64 v = 0;

  if ((offset & 3) != 0 || !kic_read_uint (r->data, r->length, offset, 4, TRUE, &v))
    r->problem = r->problem ? r->problem : "a 32-bit read out of range or misaligned";
  return (guint32) v;
}

/* The NUL-terminated string at OFFSET, or NULL (and a problem) when it
 * starts or ends outside the file. */
static const char *
read_string (Reader *r, guint32 offset)
{
  const guchar *end;

  if (offset >= r->length || (end = memchr (r->data + offset, '\0', r->length - offset)) == NULL)
    {
      r->problem = r->problem ? r->problem : "a name runs past the end of the file";
      return NULL;
    }
  return (const char *) r->data + offset;
}

guint32
kic_gtk_cache_hash (const char *name)
{
  const signed char *p = (const signed char *) name;
  guint32 h = (guint32) (gint32) *p;

  /* a8749c1 :265-268, GTK's icon_name_hash() */
  if (*p != 0)
    for (p++; *p != 0; p++)
      h = (h << 5) - h + (guint32) (gint32) *p;
  return h;
}

char *
kic_gtk_cache_stem (const char *file)
{
  const char *dot = strrchr (file, '.');

  /* a8749c1 :970: name.left(name.lastIndexOf('.')); left(-1) is all of it */
  return dot != NULL ? g_strndup (file, (gsize) (dot - file)) : g_strdup (file);
}

void
kic_gtk_cache_free (KicGtkCache *cache)
{
  if (cache == NULL)
    return;
  g_ptr_array_unref (cache->dirs);
  g_hash_table_unref (cache->names);
  g_free (cache);
}

/* :244-253: the directory list, each name inside the file */
static gboolean
read_dirs (Reader *r, KicGtkCache *cache, guint32 *list)
{
  g_autoptr (GHashTable) by_offset = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint32 n;

  *list = read32 (r, 8);
  n = read32 (r, *list);
  /* a 16-bit index cannot name more: asked before anything is read */
  if (r->problem == NULL && n > G_MAXUINT16 + 1u)
    r->problem = "more directories than an image can name";
  for (guint64 i = 0; i < n && r->problem == NULL; i++)
    {
      guint32 offset = read32 (r, (guint64) *list + 4 + 4 * i);
      char *name = g_hash_table_lookup (by_offset, GUINT_TO_POINTER (offset));
      const char *text;

      /* a name the list gives again is the same string, shared: what the
       * directories take is bounded by the file, however often a long
       * name is given */
      if (name != NULL)
        g_ptr_array_add (cache->dirs, g_ref_string_acquire (name));
      else if ((text = read_string (r, offset)) != NULL)
        {
          name = g_ref_string_new (text);
          g_hash_table_insert (by_offset, GUINT_TO_POINTER (offset), name);
          g_ptr_array_add (cache->dirs, name);
        }
    }
  return r->problem == NULL;
}

/* :283-299: the image list of an icon: each image's directory index must
 * name a directory of the list */
static GArray *
read_images (Reader *r, const KicGtkCache *cache, guint32 entry)
{
  guint32 list = read32 (r, (guint64) entry + 8);
  guint32 n = read32 (r, list);
  GArray *dirs;

  if (r->problem != NULL || (guint64) list + 4 + 8 * (guint64) n > r->length)
    {
      r->problem = r->problem ? r->problem : "an image list runs past the end of the file";
      return NULL;
    }
  dirs = g_array_sized_new (FALSE, FALSE, sizeof (guint16), n);
  for (guint64 j = 0; j < n && r->problem == NULL; j++)
    {
      guint32 d = read16 (r, (guint64) list + 4 + 8 * j);
      guint16 d16 = (guint16) d;

      if (d >= cache->dirs->len)
        r->problem = r->problem ? r->problem : "an image names no directory of the list";
      g_array_append_val (dirs, d16);
    }
  if (r->problem != NULL)
    g_clear_pointer (&dirs, g_array_unref);
  return dirs;
}

/* One bucket's chain (:280-303): the first icon named N in the chain of
 * N's own bucket is the one KDE finds; an icon in another bucket's chain
 * is never found.  *BUDGET: the icons the file can still hold. */
static void
read_chain (Reader *r, KicGtkCache *cache, guint32 bucket, guint32 n_buckets, guint32 entry, guint64 *budget)
{
  /* :280: a chain ends at an offset 0 or too close to the end (GTK ends
   * it with 0xffffffff) */
  while (r->problem == NULL && entry > 0 && r->length >= 12 && entry <= r->length - 12)
    {
      const char *name = read_string (r, read32 (r, (guint64) entry + 4));

      if (*budget == 0)
        r->problem = "a hash chain visits more icons than the file holds";
      if (r->problem != NULL)
        return;
      (*budget)--;
      if (kic_gtk_cache_hash (name) % n_buckets == bucket && !g_hash_table_contains (cache->names, name))
        {
          GArray *dirs = read_images (r, cache, entry);

          if (dirs == NULL)
            return;
          g_hash_table_insert (cache->names, g_strdup (name), dirs);
        }
      entry = read32 (r, entry);
    }
}

KicGtkCache *
kic_gtk_cache_parse (const guchar *data, gsize length, GError **error)
{
  g_autoptr (KicGtkCache) cache = g_new0 (KicGtkCache, 1);
  Reader r = { data, length, NULL };
  guint32 list, hash, n_buckets;
  guint64 budget = length / 12;

  cache->dirs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ref_string_release);
  cache->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  /* :238: major version 1 */
  if (length > G_MAXUINT32 || read16 (&r, 0) != 1)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "not a version 1 icon cache");
      return NULL;
    }
  if (read_dirs (&r, cache, &list))
    {
      /* :271-276: a table of no bucket is bad at the first lookup */
      hash = read32 (&r, 4);
      n_buckets = read32 (&r, hash);
      if (r.problem == NULL && n_buckets == 0)
        r.problem = "a hash table of no bucket";
      for (guint64 b = 0; b < n_buckets && r.problem == NULL; b++)
        read_chain (&r, cache, (guint32) b, n_buckets, read32 (&r, (guint64) hash + 4 + 4 * b), &budget);
    }
  if (r.problem != NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "damaged icon cache: %s", r.problem);
      return NULL;
    }
  {
    guint8 sum[KIC_SHA256_LEN];

    kic_sha256_of (data, length, sum);
    kic_sha256_hex (sum, cache->digest);
  }
  return g_steal_pointer (&cache);
}

const char *
kic_gtk_cache_digest (const KicGtkCache *cache)
{
  return cache->digest;
}

guint
kic_gtk_cache_n_dirs (const KicGtkCache *cache)
{
  return cache->dirs->len;
}

const char *
kic_gtk_cache_dir (const KicGtkCache *cache, guint i)
{
  return g_ptr_array_index (cache->dirs, i);
}

gboolean
kic_gtk_cache_lists (const KicGtkCache *cache, const char *dir, const char *stem)
{
  const GArray *dirs = stem[0] != '\0' ? g_hash_table_lookup (cache->names, stem) : NULL;

  /* :972-976: the directory's name as Directories= has it, compared whole */
  for (guint i = 0; dirs != NULL && i < dirs->len; i++)
    if (strcmp (g_ptr_array_index (cache->dirs, g_array_index (dirs, guint16, i)), dir) == 0)
      return TRUE;
  return FALSE;
}
