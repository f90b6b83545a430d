/* content-read.c - an icon file read for its content: once, through
 * source.c's checks (or, for a file that may not be copied, through the
 * index), its stamp the one the comparisons were made on; and its bytes
 * kept for the writer, or read again and checked against its hash
 */
#include "content-private.h"

#include "diag.h"
#include "readfd.h"
#include "sha256.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Does DATA look like what its name says?  Only icon files are ever copied
 * into the store: whatever a hostile Icon= or tree points at, nothing else
 * can be made world-readable there. */
static gboolean
content_matches_name (const char *name, const char *data, gsize length)
{
  gsize head = MIN (length, (gsize) 65536);

  if (g_str_has_suffix (name, ".png"))
    return length >= 8 && memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0;
  if (g_str_has_suffix (name, ".svgz"))
    return length >= 2 && (guchar) data[0] == 0x1f && (guchar) data[1] == 0x8b;
  if (g_str_has_suffix (name, ".xpm"))
    return g_strstr_len (data, MIN (head, (gsize) 256), "XPM") != NULL;
  if (g_str_has_suffix (name, ".svg"))
    return g_strstr_len (data, head, "<svg") != NULL;
  return FALSE;
}

/* The directory cache of TABLE's reads and checks in this phase of the
 * run: while the plan is made, then, from kic_content_table_keep_only()
 * on, a fresh one for the writer's, which checks every directory again
 * before its first copy from it, asks each again by name at every later
 * copy, and checks every file at its copy: not a walk from the root for
 * each copy, whose cost shows in a full rebuild. */
KicSourceDirs *
content_source_dirs (KicContentTable *table)
{
  if (table->dirs == NULL)
    table->dirs = kic_source_dirs_new (kic_fs_index_rootfd (table->index), kic_fs_index_root (table->index),
                                       table->writing);
  return table->dirs;
}

/* Read C's file: one open, fstat, read and close.  *DATA (transfer full)
 * gets its bytes; FALSE with *WHY when it cannot be read.  *COPY_WHY gets
 * why it may not be copied into the store, or NULL: the copyable check is
 * kic_source_open_in()'s (source.h: every directory from the root down
 * searchable by all, no link, a regular file every user may read, at most
 * KIC_MAX_ICON_BYTES, no holes), and the bytes of a file that passes it
 * are read from the descriptor it checked.  A file that does not is read
 * for its content identity only (KDE may show it), through the index,
 * unless not every user may read it: then not at all (FALSE: its content
 * is unreadable, the same as nothing but itself). */
static gboolean
read_file_now (Content *c, char **data, gsize *length, struct stat *st, char **why, char **copy_why)
{
  KicFsIndex *index = c->table->index;
  g_autofree char *host = kic_fs_index_host_path (index, c->path);
  g_autoptr (GError) error = NULL;
  int rootfd = kic_fs_index_rootfd (index);
  gint64 read_ns;
  int fd;
  gboolean ok;

  c->table->n_read++;
  *copy_why = NULL;
  if (rootfd < 0)
    {
      /* a virtual index (the planner's tests): its files' bytes, as a
       * regular file anyone may read */
      memset (st, 0, sizeof *st);
      st->st_mode = S_IFREG | 0644;
      if (kic_fs_index_read_file (index, c->path, data, length, &error))
        {
          st->st_size = (off_t) *length;
          return TRUE;
        }
      *why = g_strdup (error->message);
      return FALSE;
    }
  /* (the clock before the stat: the stamp's racy rule, stamp.h) */
  read_ns = kic_fs_stamp_clock ();
  fd = kic_source_open_in (content_source_dirs (c->table), c->path, st, &error);
  if (fd >= 0)
    {
      kic_fs_index_file_was_read (index, c->path, st, read_ns);
      ok = kic_read_fd_max (fd, host, KIC_MAX_ICON_BYTES, st->st_size, data, length, &error);
      close (fd);
      if (!ok)
        *why = g_strdup (error->message);
      return ok;
    }
  /* a file not every user may read (or in a directory not every user may
   * search) is not read at all: what KDE shows from it differs from user
   * to user, and root's answer would tell its bytes (issue 39, row 2) */
  if (g_error_matches (error, KIC_ERROR, KIC_ERROR_PRIVATE))
    {
      *why = g_strdup (error->message);
      return FALSE;
    }
  *copy_why = g_strdup (error->message);
  g_clear_error (&error);
  fd = kic_fs_index_open_file (index, c->path);
  if (fd < 0)
    {
      *why = errno == EINVAL ? g_strdup_printf ("'%s' is not a regular file", host)
                             : g_strdup_printf ("cannot open '%s': %s", host, g_strerror (errno));
      return FALSE;
    }
  if (fstat (fd, st) < 0 || !S_ISREG (st->st_mode))
    {
      close (fd);
      *why = g_strdup_printf ("'%s' is not a regular file", host);
      return FALSE;
    }
  ok = kic_read_fd_max (fd, host, KIC_MAX_FILE, st->st_size, data, length, &error);
  close (fd);
  if (!ok)
    *why = g_strdup (error->message);
  return ok;
}

/* Is the file read as ST the one STAMP stamped, unchanged? */
static gboolean
same_file (const KicFsStamp *stamp, const struct stat *st)
{
  KicFsStamp now;

  kic_fs_stamp_of_stat (&now, KIC_FS_FILE, st);
  return now.exists && now.dev == stamp->dev && now.ino == stamp->ino && now.size == stamp->size
         && now.mtime_ns == stamp->mtime_ns && now.ctime_ns == stamp->ctime_ns;
}

/* read_file_now(), for a content whose file was stamped before the read
 * and compared as so stamped: by its length (content_size()), or, known
 * from the last run, by the hash that run read.  When the read finds
 * another file than that stamp says, or none, the run keeps the stamp the
 * comparisons were made on (and *MOVED says so), so that the next run
 * sees the change and plans the names again; a read would have stamped
 * the file it found instead. */
static gboolean
read_file (Content *c, char **data, gsize *length, struct stat *st, char **why, char **copy_why, gboolean *moved)
{
  KicFsStamp before;
  gboolean compared = FALSE;
  gboolean ok;

  if (c->sized)
    {
      before = c->size_stamp;
      compared = TRUE;
    }
  else if (c->known)
    compared = kic_fs_index_kept_stamp (c->table->index, c->path, &before) && before.type == KIC_FS_FILE;
  ok = read_file_now (c, data, length, st, why, copy_why);
  *moved = compared && (!ok || !same_file (&before, st));
  if (*moved)
    kic_fs_index_keep_file_stamp (c->table->index, c->path, &before);
  return ok;
}

/* Read and hash a FILE content, once; it turns UNREADABLE when it cannot
 * be read. */
void
content_read (Content *c)
{
  g_autofree char *host = NULL;
  g_autofree char *copy_why = NULL;
  char *data = NULL;
  struct stat st;
  gsize length;
  gboolean moved;
  gboolean ok;

  if (c->pub.kind != KIC_CONTENT_FILE || c->read)
    return;
  c->read = TRUE;
  ok = read_file (c, &data, &length, &st, &c->not_copyable, &copy_why, &moved);
  /* compared by its length before, and another file now: as every
   * comparison so far said it differs, so does every later one (it is
   * hashed by nothing), and it is not copied (read_file() kept the stamp
   * the comparisons were made on) */
  if (ok && moved && c->sized)
    {
      host = kic_fs_index_host_path (c->table->index, c->path);
      c->not_copyable = g_strdup_printf ("'%s' changed while kde-icon-cache ran", host);
      g_free (data);
      return;
    }
  if (!ok)
    {
      c->pub.kind = KIC_CONTENT_UNREADABLE;
      return;
    }
  if (c->known)
    {
      guint8 sum[KIC_SHA256_LEN];

      kic_sha256_of (data, length, sum);
      if (memcmp (sum, c->pub.sha256, sizeof sum) != 0)
        {
          /* not what was compared: it cannot be copied for it */
          host = kic_fs_index_host_path (c->table->index, c->path);
          c->not_copyable = g_strdup_printf ("'%s' changed while kde-icon-cache ran", host);
          g_free (data);
          return;
        }
    }
  else
    {
      kic_sha256_of (data, length, c->pub.sha256);
      c->pub.hashed = TRUE;
      kic_sha256_hex (c->pub.sha256, c->sha_hex);
    }
  c->length = length;
  c->length_known = TRUE;
  c->mtime = st.st_mtim;
  c->st = st;
  host = kic_fs_index_host_path (c->table->index, c->path);
  if (copy_why != NULL)
    c->not_copyable = g_steal_pointer (&copy_why);
  else if (!content_matches_name (c->path, data, length))
    c->not_copyable = g_strdup_printf ("'%s' is not the image its name says: not copied", host);
  if (c->table->kept + length <= KEEP_BUDGET)
    {
      c->bytes = g_bytes_new_take (data, length);
      c->table->kept += length;
    }
  else
    g_free (data);
}

/* BYTES (transfer full), made again after they were let go: kept in *SLOT
 * while the budget allows, else TABLE's scratch, which holds the last
 * such bytes only (so a tree of many large icons costs the writer one
 * icon's bytes at a time, not all of them: transfer none either way, the
 * scratch valid until the next call). */
GBytes *
content_keep_or_scratch (KicContentTable *table, GBytes **slot, GBytes *bytes)
{
  gsize length = g_bytes_get_size (bytes);

  if (table->kept + length <= KEEP_BUDGET)
    {
      table->kept += length;
      return *slot = bytes;
    }
  if (table->scratch != NULL)
    g_bytes_unref (table->scratch);
  table->scratch_of = slot;
  return table->scratch = bytes;
}

/* C's bytes again after they were let go: read once more, and only
 * taken when they still hash to what was compared. */
static GBytes *
read_again (Content *c, GError **error)
{
  g_autofree char *host = kic_fs_index_host_path (c->table->index, c->path);
  g_autofree char *why = NULL;
  g_autofree char *copy_why = NULL;
  char *data = NULL;
  guint8 sum[KIC_SHA256_LEN];
  struct stat st;
  gsize length;
  gboolean moved;

  /* (a file that changed after a comparison by its length has no hash to
   * be read again for: content_read()) */
  if (!c->pub.hashed)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s", c->not_copyable ? c->not_copyable : "no content");
      return NULL;
    }
  if (!read_file (c, &data, &length, &st, &why, &copy_why, &moved) || copy_why != NULL)
    {
      g_free (data);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s", why != NULL ? why : copy_why);
      return NULL;
    }
  kic_sha256_of (data, length, sum);
  if (memcmp (sum, c->pub.sha256, sizeof sum) != 0)
    {
      g_free (data);
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' changed while kde-icon-cache ran", host);
      return NULL;
    }
  return content_keep_or_scratch (c->table, &c->bytes, g_bytes_new_take (data, length));
}

/* C's bytes: kept, the scratch of the last read of them, or read again. */
GBytes *
content_bytes_of (Content *c, GError **error)
{
  if (c->bytes != NULL)
    return c->bytes;
  if (c->table->scratch_of == &c->bytes)
    return c->table->scratch;
  return read_again (c, error);
}
