/* content-private.h - what content.c and content-read.c share: a
 * content, its table, and the reads (content-read.c) the rest asks for */
#ifndef KIC_CONTENT_PRIVATE_H
#define KIC_CONTENT_PRIVATE_H

#include "content.h"
#include "source.h"

#include <sys/stat.h>

/* The bytes kept for the writer stay under this: past it a file's bytes
 * are let go once hashed, and read again (and checked against the hash)
 * when the writer wants them.  Icons are a few KiB each. */
#define KEEP_BUDGET (32u << 20)

typedef struct {
  KicContent pub;
  KicContentTable *table;
  char *path;           /* pub.path points here */
  gboolean read;        /* a FILE was read (or found unreadable) */
  gboolean known;       /* its SHA-256 was known before it was read (kic_content_table_know()) */
  GBytes *bytes;        /* as read, while kept */
  char *not_copyable;   /* why it may not go into the store, once read */
  struct timespec mtime;
  struct stat st;       /* the file as it was read (kic_content_unchanged()) */
  gsize length;         /* the length of the bytes hashed, once read and hashed */
  gboolean length_known;
  gboolean sized;       /* stamped for its size before a read (content_size()) */
  KicFsStamp size_stamp; /* ... so */
  char sha_hex[KIC_SHA256_HEX_LEN + 1];
  gboolean png_made;    /* kic_content_png() was asked */
  gboolean png_let_go;  /* ... and its PNG, past the budget, let go (png_sha kept) */
  GBytes *png;
  char *png_why;
  char png_sha[KIC_SHA256_HEX_LEN + 1];
} Content;

struct _KicContentTable {
  gint ref;
  KicFsIndex *index;
  GHashTable *by_real;  /* real path -> Content* (FILE, UNREADABLE, DIRECTORY) */
  GHashTable *by_asked; /* path as asked -> Content* (borrowed) */
  GHashTable *special;  /* "<kind>\t<path>" -> Content* (MISSING, RESOURCE, ABSOLUTE) */
  Content *nothing;
  gsize kept;           /* bytes kept */
  guint n_read;
  KicSourceDirs *dirs;  /* the directories the reads and checks of this phase
                         * checked (source.h): the plan's, then the writer's */
  gboolean writing;     /* the writer's phase: from kic_content_table_keep_only() */
  GBytes *scratch;      /* bytes read again (or a PNG made again) past the
                         * budget: the last only, until the next such read */
  const void *scratch_of; /* ... whose (a Content's bytes, or its png) */
};

/* The directories TABLE's reads and checks asked in this phase of the
 * run (kic_source_dirs_new()). */
KicSourceDirs *content_source_dirs (KicContentTable *table);

/* Read and hash a FILE content, once; it turns UNREADABLE when it cannot
 * be read. */
void content_read (Content *c);

/* BYTES (transfer full) kept in *SLOT while the budget allows, else
 * TABLE's scratch (transfer none either way). */
GBytes *content_keep_or_scratch (KicContentTable *table, GBytes **slot, GBytes *bytes);

/* C's bytes: kept, the scratch of the last read of them, or read again
 * (transfer none). */
GBytes *content_bytes_of (Content *c, GError **error);

#endif /* KIC_CONTENT_PRIVATE_H */
