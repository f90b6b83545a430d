/* content.h - what the user sees of a file KDE loads: its content identity
 *
 * Two lookups show the user the same thing when they load files of the
 * same content (the same bytes: SHA-256), or the same entry of the
 * library's own breeze; an XPM and the PNG raster.c makes of it count as
 * one content (the same pixels, tests/integration/xpm-png.sh).
 *
 * A KicContentTable gives one KicContent per real path per run (and one
 * per special path: a resource entry, an absolute Icon=, a path that does
 * not resolve).  A file is read at most once per run, when something first
 * needs its bytes: two contents of the same real path are the same object
 * and equal without a read; only files at different real paths are read
 * and hashed to be compared.  The bytes of a file that may be copied into
 * the store (a regular file anyone may read, an image of the type its
 * name says) are kept, so that the writer copies the very bytes the
 * planner compared instead of reading the file again; an XPM's PNG twin
 * is made once, from those bytes.
 *
 * Neutral: the planner makes the contents, the writer takes them
 * (writer.h, KicWriteLink); neither's internals are seen here.
 */
#ifndef KIC_CONTENT_H
#define KIC_CONTENT_H

#include "fsindex.h"
#include "sha256.h"

#include <glib.h>
#include <time.h>

typedef enum {
  KIC_CONTENT_NOTHING,    /* the lookup found nothing */
  KIC_CONTENT_FILE,       /* a regular file: its bytes */
  KIC_CONTENT_UNREADABLE, /* a file that cannot be read: the same as nothing but itself */
  KIC_CONTENT_DIRECTORY,  /* a directory where a file was looked for: only itself */
  KIC_CONTENT_MISSING,    /* a path that does not resolve: only itself */
  KIC_CONTENT_RESOURCE,   /* an entry of the library's own breeze (unread): only itself */
  KIC_CONTENT_ABSOLUTE,   /* an absolute Icon=, which KDE loads as it is: only itself */
} KicContentKind;

typedef struct _KicContentTable KicContentTable;

typedef struct {
  KicContentKind kind;  /* FILE may turn UNREADABLE when it is read */
  const char *path;     /* the real path (FILE, UNREADABLE, DIRECTORY), else the path as given */
  gboolean hashed;      /* FILE, read: sha256 holds its SHA-256 */
  guint8 sha256[KIC_SHA256_LEN];
} KicContent;

/* A table for the files of INDEX (which must outlive it).  transfer full */
KicContentTable *kic_content_table_new (KicFsIndex *index);
KicContentTable *kic_content_table_ref (KicContentTable *table);
void kic_content_table_unref (KicContentTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicContentTable, kic_content_table_unref)

/* The content of the file at PATH (inside the root, links followed): one
 * object per real path, valid while the table lives.  Reads nothing
 * (the index answers what PATH is).  transfer none */
const KicContent *kic_content_of_path (KicContentTable *table, const char *path);

/* The content of kind KIND (NOTHING, RESOURCE, ABSOLUTE) for PATH (NULL
 * for NOTHING).  transfer none */
const KicContent *kic_content_special (KicContentTable *table, KicContentKind kind, const char *path);

/* Do A and B show the user the same thing?  Reads and hashes each of
 * them once if they are files at different real paths. */
gboolean kic_content_equal (const KicContent *a, const KicContent *b);

/* The kind of CONTENT once its file is read: a FILE is read (once) to
 * tell whether it stays one or is UNREADABLE. */
KicContentKind kic_content_read_kind (const KicContent *content);

/* The SHA-256 of a FILE content in hex (reading it once if it was not),
 * or NULL when it is no readable file.  transfer none */
const char *kic_content_sha256 (const KicContent *content);

/* The bytes of a FILE content that may be copied into the store (a
 * regular file that anyone may read, whose bytes are an image of the
 * type its name says), as they were read, and its modification time;
 * NULL with ERROR naming the file when it may not be.  transfer none:
 * bytes read again past the table's budget are valid until the next
 * kic_content_bytes() or kic_content_png() of the table asks another
 * file again (one large icon at a time is held, not all). */
GBytes *kic_content_bytes (const KicContent *content, struct timespec *mtime, GError **error);

/* May CONTENT be copied into the store (kic_content_bytes() would give
 * its bytes)?  A content known from a previous run (kic_content_table_
 * know()) is not read for it: its path is checked (kic_source_stat_in()).
 * FALSE with ERROR naming the file and why. */
gboolean kic_content_copyable (const KicContent *content, GError **error);

/* Is the file of CONTENT, if it was read, still as it was then (the same
 * file, size, times), and still copyable (source.h)?  Asked by the writer
 * just before it copies the bytes read then: a file made private,
 * rewritten or swapped for something else since is not copied; ERROR
 * says why (naming the file). */
gboolean kic_content_unchanged (const KicContent *content, GError **error);

/* The SHA-256 (hex) of a copy of CONTENT into the store: as
 * kic_content_bytes() would give them, but without a read for a content
 * known and not read yet (kic_content_table_know()).  NULL with ERROR as
 * kic_content_bytes().  transfer none */
const char *kic_content_copy_sha256 (const KicContent *content, GError **error);

/* The PNG twin of an XPM content (raster.h), made once per run (again,
 * and checked to be the same bytes, when it was let go past the table's
 * budget); NULL with *WHY (transfer none) when it has none.  *SHA256 (may
 * be NULL) gets the PNG's SHA-256 in hex.  transfer none, valid as
 * kic_content_bytes()'s */
GBytes *kic_content_png (const KicContent *content, const char **sha256, const char **why);

/* Has the XPM content a PNG twin (kic_content_png())?  Made once; the
 * answer stays for the run, even where the PNG was let go past the budget
 * (the plan asks this; the writer kic_content_png() for the bytes).  *WHY
 * (may be NULL; transfer none) as kic_content_png()'s. */
gboolean kic_content_has_png (const KicContent *content, const char **why);

/* The file at REAL (a real path) has the SHA-256 SHA256 (hex): a run that
 * read it found so, and it has not changed since (its stamp, fingerprint.h).
 * Its content is then compared without a read; the file is read only for
 * its bytes (kic_content_bytes()), and must still hash to SHA256. */
void kic_content_table_know (KicContentTable *table, const char *real, const char *sha256);

/* Let go of the bytes kept for the contents WANTED (a set of KicContent*)
 * does not hold: after the plan, the writer only needs its sources'. */
void kic_content_table_keep_only (KicContentTable *table, GHashTable *wanted);

/* How many files the table has read (for tests). */
guint kic_content_table_n_read (const KicContentTable *table);

#endif /* KIC_CONTENT_H */
