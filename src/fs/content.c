/* content.c - one content identity per real path per run, each file read
 * at most once (content-read.c), compared by length, then by hash
 *
 * The only code that reads icon files: the planner's comparisons and the
 * writer's copies both take their bytes from here.
 */
#include "content-private.h"

#include "diag.h"
#include "hash.h"
#include "raster.h"
#include "sha256.h"

#include <string.h>
#include <sys/stat.h>

static void
content_free (gpointer data)
{
  Content *c = data;

  if (c->bytes != NULL)
    g_bytes_unref (c->bytes);
  if (c->png != NULL)
    g_bytes_unref (c->png);
  g_free (c->png_why);
  g_free (c->not_copyable);
  g_free (c->path);
  g_free (c);
}

static Content *
content_new (KicContentTable *table, KicContentKind kind, const char *path)
{
  Content *c = g_new0 (Content, 1);

  c->table = table;
  c->pub.kind = kind;
  c->path = g_strdup (path);
  c->pub.path = c->path;
  return c;
}

KicContentTable *
kic_content_table_new (KicFsIndex *index)
{
  KicContentTable *table = g_new0 (KicContentTable, 1);

  table->ref = 1;
  table->index = index;
  table->by_real = g_hash_table_new_full (kic_str_hash, g_str_equal, NULL, content_free);
  table->by_asked = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  table->special = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, content_free);
  table->nothing = content_new (table, KIC_CONTENT_NOTHING, NULL);
  return table;
}

KicContentTable *
kic_content_table_ref (KicContentTable *table)
{
  g_atomic_int_inc (&table->ref);
  return table;
}

void
kic_content_table_unref (KicContentTable *table)
{
  if (table == NULL || !g_atomic_int_dec_and_test (&table->ref))
    return;
  g_hash_table_unref (table->by_asked);
  g_hash_table_unref (table->by_real);
  g_hash_table_unref (table->special);
  content_free (table->nothing);
  kic_source_dirs_free (table->dirs);
  if (table->scratch != NULL)
    g_bytes_unref (table->scratch);
  g_free (table);
}

guint
kic_content_table_n_read (const KicContentTable *table)
{
  return table->n_read;
}

const KicContent *
kic_content_special (KicContentTable *table, KicContentKind kind, const char *path)
{
  g_autofree char *key = NULL;
  Content *c;

  if (kind == KIC_CONTENT_NOTHING || path == NULL)
    return &table->nothing->pub;
  key = g_strdup_printf ("%d\t%s", (int) kind, path);
  c = g_hash_table_lookup (table->special, key);
  if (c == NULL)
    {
      c = content_new (table, kind, path);
      g_hash_table_insert (table->special, g_steal_pointer (&key), c);
    }
  return &c->pub;
}

const KicContent *
kic_content_of_path (KicContentTable *table, const char *path)
{
  Content *c = g_hash_table_lookup (table->by_asked, path);
  g_autofree char *real = NULL;

  if (c != NULL)
    return &c->pub;
  real = kic_fs_index_realpath (table->index, path);
  /* (behind a directory not every user may search: there for some users,
   * and read by none, fsindex.h) */
  if (real == NULL)
    return kic_content_special (
      table, kic_fs_index_hidden (table->index, path) ? KIC_CONTENT_UNREADABLE : KIC_CONTENT_MISSING, path);
  c = g_hash_table_lookup (table->by_real, real);
  if (c == NULL)
    {
      KicFsType type = kic_fs_index_stat (table->index, real);

      c = content_new (table, type == KIC_FS_DIR    ? KIC_CONTENT_DIRECTORY
                              : type == KIC_FS_FILE ? KIC_CONTENT_FILE
                                                    : KIC_CONTENT_UNREADABLE,
                       real);
      g_hash_table_insert (table->by_real, c->path, c);
    }
  g_hash_table_insert (table->by_asked, g_strdup (path), c);
  return &c->pub;
}

/* The length of the bytes C's hash is of, or would be of when it is
 * read: a read's, else its stamp's (kic_fs_index_file_stamp(): the one
 * kept for it, which for a content known from the last run is that run's
 * read's, else one taken now and remembered for content_read()).  FALSE
 * when it is not known. */
static gboolean
content_size (Content *c, gint64 *size)
{
  KicFsStamp stamp;

  if (c->read)
    {
      *size = (gint64) c->length;
      return c->length_known;
    }
  if (!c->sized)
    {
      if (!kic_fs_index_file_stamp (c->table->index, c->path, &stamp))
        return FALSE;
      if (c->known)
        {
          *size = stamp.size;
          return TRUE;
        }
      c->size_stamp = stamp;
      c->sized = TRUE;
    }
  *size = c->size_stamp.size;
  return TRUE;
}

gboolean
kic_content_equal (const KicContent *a, const KicContent *b)
{
  gint64 size_a, size_b;

  if (a == b)
    return TRUE;
  if (a->kind != KIC_CONTENT_FILE || b->kind != KIC_CONTENT_FILE)
    return FALSE; /* every other kind is one object per path */
  /* files of different lengths differ: neither is read for that (most
   * comparisons are of the files of one icon at different sizes) */
  if ((!((Content *) a)->known || !((Content *) b)->known) && content_size ((Content *) a, &size_a)
      && content_size ((Content *) b, &size_b) && size_a != size_b)
    return FALSE;
  if (!((Content *) a)->known)
    content_read ((Content *) a);
  if (!((Content *) b)->known)
    content_read ((Content *) b);
  return a->hashed && b->hashed && memcmp (a->sha256, b->sha256, sizeof a->sha256) == 0;
}

KicContentKind
kic_content_read_kind (const KicContent *content)
{
  if (!((Content *) content)->known)
    content_read ((Content *) content);
  return content->kind;
}

void
kic_content_table_know (KicContentTable *table, const char *real, const char *sha256)
{
  Content *c = g_hash_table_lookup (table->by_real, real);

  if (strlen (sha256) != KIC_SHA256_HEX_LEN || (c != NULL && (c->read || c->pub.kind != KIC_CONTENT_FILE)))
    return;
  if (c == NULL)
    {
      if (kic_fs_index_stat (table->index, real) != KIC_FS_FILE)
        return;
      c = content_new (table, KIC_CONTENT_FILE, real);
      g_hash_table_insert (table->by_real, c->path, c);
    }
  for (guint i = 0; i < KIC_SHA256_LEN; i++)
    {
      int hi = g_ascii_xdigit_value (sha256[2 * i]), lo = g_ascii_xdigit_value (sha256[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return;
      c->pub.sha256[i] = (guint8) (hi << 4 | lo);
    }
  kic_sha256_hex (c->pub.sha256, c->sha_hex);
  c->pub.hashed = TRUE;
  c->known = TRUE;
}

const char *
kic_content_sha256 (const KicContent *content)
{
  Content *c = (Content *) content;

  if (!c->known)
    content_read (c);
  return content->hashed ? c->sha_hex : NULL;
}

const char *
kic_content_copy_sha256 (const KicContent *content, GError **error)
{
  Content *c = (Content *) content;

  /* copied by a run before, as it still is */
  if (c->known && !c->read)
    return c->sha_hex;
  /* the hash of what was read: the copy reads the bytes again if it must,
   * and checks them against it then (kic_content_bytes()) */
  content_read (c);
  if (content->kind != KIC_CONTENT_FILE || c->not_copyable != NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s", c->not_copyable ? c->not_copyable : "no file to copy");
      return NULL;
    }
  return c->sha_hex;
}

GBytes *
kic_content_bytes (const KicContent *content, struct timespec *mtime, GError **error)
{
  Content *c = (Content *) content;

  content_read (c);
  if (content->kind != KIC_CONTENT_FILE || c->not_copyable != NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s",
                   c->not_copyable ? c->not_copyable : "no file to copy");
      return NULL;
    }
  if (mtime != NULL)
    *mtime = c->mtime;
  return content_bytes_of (c, error);
}

GBytes *
kic_content_png (const KicContent *content, const char **sha256, const char **why)
{
  Content *c = (Content *) content;
  GBytes *png = c->png;

  /* made once, or made again when it was let go past the budget (then it
   * must be the same bytes: what the plan compared), unless it is the
   * scratch still */
  if (c->png_let_go && c->table->scratch_of == &c->png)
    png = c->table->scratch;
  else if (!c->png_made || c->png_let_go)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *made_why = NULL;
      gboolean again = c->png_made;
      GBytes *bytes, *made = NULL;

      c->png_made = TRUE;
      c->png_let_go = FALSE;
      content_read (c);
      bytes = content->kind != KIC_CONTENT_FILE ? NULL : content_bytes_of (c, &error);
      if (bytes == NULL)
        made_why = g_strdup (error != NULL ? error->message : "unreadable");
      else
        {
          gsize length;
          const char *data = g_bytes_get_data (bytes, &length);

          made = kic_raster_xpm_to_png (data, length, &made_why);
        }
      if (made != NULL)
        {
          gsize length;
          const char *data = g_bytes_get_data (made, &length);
          guint8 sum[KIC_SHA256_LEN];
          char hex[KIC_SHA256_HEX_LEN + 1];

          kic_sha256_of (data, length, sum);
          kic_sha256_hex (sum, hex);
          if (again && strcmp (hex, c->png_sha) != 0)
            {
              g_clear_pointer (&made, g_bytes_unref);
              g_free (made_why);
              made_why = g_strdup ("it changed while kde-icon-cache ran");
            }
          else
            {
              memcpy (c->png_sha, hex, sizeof hex);
              /* (the XPM's bytes, if they were the scratch, are let go here:
               * the PNG is made) */
              png = content_keep_or_scratch (c->table, &c->png, made);
              c->png_let_go = png != c->png;
            }
        }
      if (made == NULL)
        png = NULL;
      if (c->png_why == NULL)
        c->png_why = g_steal_pointer (&made_why);
    }
  if (sha256 != NULL)
    *sha256 = png != NULL ? c->png_sha : NULL;
  if (why != NULL)
    *why = c->png_why;
  return png;
}

gboolean
kic_content_has_png (const KicContent *content, const char **why)
{
  Content *c = (Content *) content;

  /* made once: a PNG let go past the budget is made again for the writer
   * only, so the plan's answer cannot change within the run */
  if (!c->png_made)
    kic_content_png (content, NULL, NULL);
  if (why != NULL)
    *why = c->png_why;
  return c->png != NULL || c->png_let_go;
}

void
kic_content_table_keep_only (KicContentTable *table, GHashTable *wanted)
{
  GHashTableIter iter;
  gpointer value;

  /* the plan is made: the writer's phase checks every directory again */
  g_clear_pointer (&table->dirs, kic_source_dirs_free);
  table->writing = TRUE;
  g_hash_table_iter_init (&iter, table->by_real);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Content *c = value;

      if (c->bytes == NULL || g_hash_table_contains (wanted, &c->pub))
        continue;
      table->kept -= g_bytes_get_size (c->bytes);
      g_clear_pointer (&c->bytes, g_bytes_unref);
    }
}

gboolean
kic_content_unchanged (const KicContent *content, GError **error)
{
  Content *c = (Content *) content;
  KicFsIndex *index = c->table->index;
  int rootfd = kic_fs_index_rootfd (index);
  struct stat st;

  if (!c->read || rootfd < 0 || content->kind != KIC_CONTENT_FILE || c->not_copyable != NULL)
    return TRUE; /* read now, or nothing to copy anyway */
  if (!kic_source_stat_in (content_source_dirs (c->table), c->path, NULL, &st, error))
    return FALSE;
  /* a rewrite moves the times; a chmod or chown the change time */
  if (st.st_dev != c->st.st_dev || st.st_ino != c->st.st_ino || st.st_size != c->st.st_size
      || st.st_mtim.tv_sec != c->st.st_mtim.tv_sec || st.st_mtim.tv_nsec != c->st.st_mtim.tv_nsec
      || st.st_ctim.tv_sec != c->st.st_ctim.tv_sec || st.st_ctim.tv_nsec != c->st.st_ctim.tv_nsec)
    {
      g_autofree char *host = kic_fs_index_host_path (index, c->path);

      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' changed while kde-icon-cache ran", host);
      return FALSE;
    }
  return TRUE;
}

gboolean
kic_content_copyable (const KicContent *content, GError **error)
{
  Content *c = (Content *) content;
  KicFsIndex *index = c->table->index;
  struct stat st;

  /* copied by a run before, as it still is (its stamp, the one that run
   * took when it checked the file, and the runs since found again): its
   * bytes passed every check then; the path to it must pass them now,
   * and the file, when it is no longer the one the stamp says */
  if (c->known && !c->read && kic_fs_index_rootfd (index) >= 0)
    {
      KicFsStamp stamp;
      KicSourceSeen seen;
      gboolean stamped = kic_fs_index_kept_stamp (index, c->path, &stamp) && stamp.type == KIC_FS_FILE
                         && stamp.exists;

      seen.dev = (dev_t) stamp.dev;
      seen.ino = (ino_t) stamp.ino;
      seen.ctime_ns = stamp.ctime_ns;
      return kic_source_stat_in (content_source_dirs (c->table), c->path, stamped ? &seen : NULL, &st, error);
    }
  return kic_content_bytes (content, NULL, error) != NULL;
}
