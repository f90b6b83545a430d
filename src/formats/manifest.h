/* manifest.h - the record of everything kde-icon-cache put on disk
 *
 * <store>/manifest, one entry a line, sorted, tab-separated, so that a
 * shell loop can undo it in an emergency:
 *
 *   file<TAB><store copy><TAB><source file><TAB><sha256 of the content>
 *   link<TAB><planted link><TAB><its target, relative>
 *
 * Lines starting with '#' are comments (the first says the format; a
 * "# journal" line says a run was under way and may have left more).  All
 * paths are as seen inside the root.  A path holding a tab, a newline or a
 * control character is never planted, so a line always splits cleanly.
 * Five comments carry state:
 *
 *   # made<TAB><directory>          a parent of the store a run created
 *                                   (--clean removes it again when empty)
 *   # mtime<TAB><directory><TAB><seconds>.<nanoseconds>
 *                                   journal only: the modification time a
 *                                   theme directory had before the run
 *   # temporary: <token>            journal only: the temporary names the
 *                                   run may leave are ".<name>.kic-<token>"
 *   # inputs: <sha256>              what the run read (fingerprint.h):
 *                                   only its fingerprint matches it
 *   # end                           the last line: a manifest without it
 *                                   was cut short
 */
#ifndef KIC_MANIFEST_H
#define KIC_MANIFEST_H

#include <glib.h>

typedef enum {
  KIC_ENTRY_FILE,
  KIC_ENTRY_LINK,
} KicEntryKind;

typedef struct {
  KicEntryKind kind;
  char *path;   /* the store copy, or the link */
  char *target; /* the source file, or the link's target */
  char *sha256; /* files only */
} KicManifestEntry;

typedef struct {
  GHashTable *entries; /* path -> KicManifestEntry* */
  char *settings;      /* the "# settings:" line, or NULL */
  char *inputs;        /* the "# inputs:" line: the digest of the inputs
                        * the run read (fingerprint.h), or NULL */
  char *temp_token;    /* journal only, "# temporary: <token>": the run's
                        * temporary names are ".<name>.kic-<token>" */
  gboolean journal;    /* written before a run's changes, not after */
  GHashTable *made;    /* directory path (a set): "# made" lines */
  GHashTable *mtimes;  /* directory path -> "<seconds>.<nanoseconds>" */
  gboolean damaged;    /* parsed text: a bad line, a NUL byte, or no "# end" */
} KicManifest;

KicManifest *kic_manifest_new (void);
void kic_manifest_free (KicManifest *manifest);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicManifest, kic_manifest_free)

/* Parse manifest text; a bad line (also one holding a NUL byte) is a
 * warning naming ORIGIN and line, and is skipped; a bad line or a missing
 * "# end" marks the manifest damaged.  transfer full */
KicManifest *kic_manifest_parse (const char *data, gsize length, const char *origin);

/* The "# inputs:" digest kic_manifest_parse() would give of the same text
 * (the last such line, of the lines it parses), without the rest of the
 * parse and without its warnings (the fingerprint's look needs no more:
 * fingerprint.c), or NULL.  transfer full */
char *kic_manifest_inputs (const char *data, gsize length);

/* The sorted text of MANIFEST.  transfer full */
char *kic_manifest_to_string (const KicManifest *manifest);

void kic_manifest_add (KicManifest *manifest, KicEntryKind kind, const char *path,
                       const char *target, const char *sha256);

/* Record that directory DIR had modification time MTIME before a run. */
void kic_manifest_set_mtime (KicManifest *manifest, const char *dir, gint64 sec, glong nsec);
/* The time recorded for DIR; FALSE when none is. */
gboolean kic_manifest_get_mtime (const KicManifest *manifest, const char *dir, gint64 *sec, glong *nsec);

/* TRUE when PATH is safe to record: absolute, no control characters. */
gboolean kic_manifest_path_ok (const char *path);

/* ".NAME.kic-TOKEN": the writer's temporary name beside NAME, TOKEN new for
 * every run (writer-private.h) */
#define KIC_TEMP_PREFIX "."
#define KIC_TEMP_INFIX ".kic-"
#define KIC_TEMP_TOKEN_LEN 8

/* TRUE when the writer can write PATH, a store copy or a link: safe to
 * record (kic_manifest_path_ok()), clean (no "." or ".." component, no
 * "//"), and its last component short enough that its temporary name fits
 * NAME_MAX.  The one filter: the planner plans no link or copy it refuses,
 * so that the proof counts on nothing the writer leaves out (issue 39,
 * row 6); the writer asks it again of what it is given. */
gboolean kic_manifest_path_writable (const char *path);
/* The same of a last component NAME alone: its temporary name fits. */
gboolean kic_manifest_name_fits (const char *name);

#endif /* KIC_MANIFEST_H */
