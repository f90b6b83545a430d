/* fingerprint.c - every input of a run with what fstat(2) said of it
 *
 * The text: a header line, the settings, then one line per input,
 *   d <tab> <state> <tab> <path>   a directory listing
 *   f <tab> <state> <tab> <path>   a file read
 *   c <tab> <state> <tab> <path>   a store copy the run left (its state
 *                                  never racy: root's own file, whose
 *                                  loss or damage is what it tells)
 * where the state is kic_fs_stamp_format()'s numbers (stamp.c), "none"
 * when there is no such directory or file, or "racy" when the stamp
 * proves nothing.  Paths are g_strescape()d.  The sixth number a
 * directory only root may write can have is the change time its ACL was
 * known at: the look asks the ACL only when that moved, and compares the
 * states without it (kic_fs_stamp_dir_states_equal()).
 */
#include "fingerprint.h"

#include "diag.h"
#include "hash.h"
#include "manifest.h"
#include "path.h"
#include "readfd.h"
#include "safeopen.h"
#include "sha256.h"
#include "sorted.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* 2: directories others may write stamped by their change time too, and
 * "racy" stamps (a fingerprint of version 1 may hide either: it matches
 * nothing) */
/* 3: directories only root may write stamped by their mode, owner and
 * ACL too (issue 39, row 3), and, as a note outside what is compared, the
 * change time the ACL was known at (a version 3 state without it is one
 * whose ACL is asked) */
#define HEADER "kde-icon-cache fingerprint 3"

/* PATH, an object of TYPE, as it is now, as *STAMP, and its text in OUT */
static const char *
stamp_now (int rootfd, KicFsType type, const char *path, KicFsStamp *stamp, KicFsStampText *out)
{
  kic_fs_stamp_of_path (rootfd, type, path, stamp);
  return kic_fs_stamp_format (stamp, out);
}

/* Inputs stamped in their (sorted) order, each by name in its directory,
 * which is reached from the root one component at a time (O_PATH |
 * O_NOFOLLOW: an input's path is a real path, so a link put in place of
 * a directory since is not followed, nor waited on where it leads: the
 * inputs below it are stamped as nothing there, and the link shows in
 * its parent's listing, an input too).  The directories of the path
 * stamped last stay open, so each directory is opened once for the look,
 * not walked again for every input below it. */
/* At most this many directories a cursor keeps open: a path deeper than
 * that (a theme's Directories= entry of any depth, which its owner
 * chooses) keeps the innermost ones, and an input outside them is
 * reached from the root again (issue 39, row 4). */
#define CURSOR_MAX_FDS 16

typedef struct {
  int rootfd;
  GString *dir;   /* the path of the innermost directory open ("" for the root) */
  GArray *ends;   /* per directory open: the length of DIR up to it */
  GArray *fds;    /* ... and its descriptor */
} StatCursor;

static void
cursor_init (StatCursor *c, int rootfd)
{
  c->rootfd = rootfd;
  c->dir = g_string_new (NULL);
  c->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  c->fds = g_array_new (FALSE, FALSE, sizeof (int));
}

static void
cursor_pop (StatCursor *c)
{
  close (g_array_index (c->fds, int, c->fds->len - 1));
  g_array_set_size (c->fds, c->fds->len - 1);
  g_array_set_size (c->ends, c->ends->len - 1);
  g_string_truncate (c->dir, c->ends->len > 0 ? g_array_index (c->ends, gsize, c->ends->len - 1) : 0);
}

/* PATH (a clean absolute path, not "/"), an object of TYPE, as it is now,
 * into *STAMP; WAS, the fingerprint's state of it (NULL: none), may tell
 * its ACL (kic_fs_stamp_acl_from()). */
static void
cursor_stamp (StatCursor *c, KicFsType type, const char *path, const char *was, KicFsStamp *stamp)
{
  const char *base = strrchr (path, '/') + 1;
  gsize n = (gsize) (base - 1 - path); /* its directory: PATH's first N bytes ("" for the root) */
  gint64 read_ns;
  int dirfd;
  struct stat st;

  /* the open directories that are not that directory or one above it */
  while (c->fds->len > 0
         && !(c->dir->len <= n && strncmp (c->dir->str, path, c->dir->len) == 0 && path[c->dir->len] == '/'))
    cursor_pop (c);
  /* down to it */
  while (c->dir->len < n)
    {
      const char *name = path + c->dir->len + 1;
      const char *end = memchr (name, '/', path + n - name);
      g_autofree char *component = g_strndup (name, (end != NULL ? end : path + n) - name);
      int parent = c->fds->len > 0 ? g_array_index (c->fds, int, c->fds->len - 1) : c->rootfd;
      int fd = openat (parent, component, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      gsize len;

      if (fd < 0)
        {
          kic_fs_stamp_of_stat (stamp, type, NULL);
          return;
        }
      g_string_append_c (c->dir, '/');
      g_string_append (c->dir, component);
      len = c->dir->len;
      /* the outermost let go: popped past the rest, the cursor starts
       * again from the root ("" and ROOTFD) */
      if (c->fds->len == CURSOR_MAX_FDS)
        {
          close (g_array_index (c->fds, int, 0));
          g_array_remove_index (c->fds, 0);
          g_array_remove_index (c->ends, 0);
        }
      g_array_append_val (c->ends, len);
      g_array_append_val (c->fds, fd);
    }
  dirfd = c->fds->len > 0 ? g_array_index (c->fds, int, c->fds->len - 1) : c->rootfd;
  read_ns = kic_fs_stamp_clock ();
  kic_fs_stamp_of_stat (stamp, type, fstatat (dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 ? &st : NULL);
  if (!kic_fs_stamp_acl_from (stamp, was))
    kic_fs_stamp_ask_acl (stamp, dirfd, base, read_ns);
}

static void
cursor_clear (StatCursor *c)
{
  while (c->fds->len > 0)
    cursor_pop (c);
  g_string_free (c->dir, TRUE);
  g_array_unref (c->ends);
  g_array_unref (c->fds);
}

/* PATH as it is now, by CURSOR (the root itself from the root's
 * descriptor); WAS as cursor_stamp() takes it. */
static void
stamp_in_order (StatCursor *c, KicFsType type, const char *path, const char *was, KicFsStamp *stamp)
{
  if (path[1] == '\0')
    kic_fs_stamp_of_path (c->rootfd, type, path, stamp);
  else
    cursor_stamp (c, type, path, was, stamp);
}

/* The type of an input, from the head of its line ("d\t..." or "f\t...") */
static KicFsType
input_type (const char *head)
{
  return head[0] == 'd' ? KIC_FS_DIR : KIC_FS_FILE;
}

/* PATH as g_strescape() writes it: PATH itself when no byte of it needs
 * an escape, as in almost every path (no copy of each, which showed in the
 * digest of the inputs), else a new string, in *ESCAPED too. */
static const char *
escape_path (const char *path, char **escaped)
{
  *escaped = NULL;
  for (const guchar *p = (const guchar *) path; *p != '\0'; p++)
    if (*p < 0x20 || *p >= 0x7f || *p == '\\' || *p == '"')
      return *escaped = g_strescape (path, NULL);
  return path;
}

/* One line of the fingerprint: KIND ('d', 'f' or 'c'), STATE and PATH. */
static void
add_line (GString *out, char kind, const char *state, const char *path)
{
  g_autofree char *escaped = NULL;

  g_string_append_c (out, kind);
  g_string_append_c (out, '\t');
  g_string_append (out, state);
  g_string_append_c (out, '\t');
  g_string_append (out, escape_path (path, &escaped));
  g_string_append_c (out, '\n');
}

static void
add_input (GString *out, KicFsType type, const char *state, const char *path)
{
  add_line (out, type == KIC_FS_DIR ? 'd' : 'f', state, path);
}

/* One input line into the digest that binds a fingerprint to its
 * manifest (kic_fingerprint_inputs()).  STATE is NULL for a directory
 * above the store, whose state is taken after the run wrote: there the
 * path alone counts. */
static void
digest_input (KicSha256 *digest, char type, const char *state, const char *escaped_path)
{
  /* (fed in pieces: the digest of the line "TYPE\tSTATE\tPATH\n") */
  const char tab = '\t', newline = '\n';

  kic_sha256_update (digest, &type, 1);
  kic_sha256_update (digest, &tab, 1);
  kic_sha256_update_str (digest, state ? state : "-");
  kic_sha256_update (digest, &tab, 1);
  kic_sha256_update_str (digest, escaped_path);
  kic_sha256_update (digest, &newline, 1);
}

/* The paths INDEX stamped, sorted, without those under STORE (the run
 * wrote there: the manifest stands for them).  transfer container */
static GPtrArray *
sorted_inputs (KicFsIndex *index, const char *store)
{
  GHashTable *stamps = kic_fs_index_stamps (index);
  GPtrArray *paths = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, stamps);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!kic_path_is_under (key, store))
      g_ptr_array_add (paths, key);
  g_ptr_array_sort (paths, kic_compare_strings);
  return paths;
}

char *
kic_fingerprint_inputs (KicFsIndex *index, const char *store)
{
  GHashTable *stamps = kic_fs_index_stamps (index);
  KicSha256 digest;
  g_autoptr (GPtrArray) paths = NULL;

  g_return_val_if_fail (stamps != NULL, NULL);
  kic_sha256_init (&digest);
  paths = sorted_inputs (index, store);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      const KicFsStamp *stamp = g_hash_table_lookup (stamps, path);
      KicFsStampText t;
      g_autofree char *escaped = NULL;

      digest_input (&digest, stamp->type == KIC_FS_DIR ? 'd' : 'f',
                    kic_path_is_under (store, path) ? NULL : kic_fs_stamp_format (stamp, &t), escape_path (path, &escaped));
    }
  return kic_sha256_dup_hex (&digest);
}

struct _KicFingerprintDraft {
  GString *lines;  /* the inputs' lines but for those of the directories above the store */
  GPtrArray *now;  /* those directories' paths, stamped when finished ... */
  GArray *at;      /* ... and where in LINES each one's line goes */
};

KicFingerprintDraft *
kic_fingerprint_draft (KicFsIndex *index, const char *store)
{
  GHashTable *stamps = kic_fs_index_stamps (index);
  KicFingerprintDraft *draft = g_new0 (KicFingerprintDraft, 1);
  g_autoptr (GPtrArray) paths = NULL;

  g_return_val_if_fail (stamps != NULL, NULL);
  paths = sorted_inputs (index, store);
  draft->lines = g_string_sized_new (128 * paths->len);
  draft->now = g_ptr_array_new_with_free_func (g_free);
  draft->at = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      const KicFsStamp *stamp = g_hash_table_lookup (stamps, path);
      KicFsStampText t;

      /* above the store, the run may have created it: as it is when
       * finished */
      if (kic_path_is_under (store, path))
        {
          g_ptr_array_add (draft->now, g_strdup (path));
          g_array_append_val (draft->at, draft->lines->len);
        }
      else
        add_input (draft->lines, stamp->type, kic_fs_stamp_format (stamp, &t), path);
    }
  return draft;
}

char *
kic_fingerprint_finish (KicFingerprintDraft *draft, KicFsIndex *index, const char *store, const char *settings,
                        GHashTable *copies)
{
  int rootfd = kic_fs_index_rootfd (index);
  GHashTable *stamps = kic_fs_index_stamps (index);
  g_autofree char *escaped = g_strescape (settings, NULL);
  g_autofree char *manifest = g_build_filename (store, "manifest", NULL);
  GString *out = g_string_sized_new (draft->lines->len + 4096);
  gsize done = 0;

  g_string_append (out, HEADER "\n");
  g_string_append_printf (out, "settings\t%s\n", escaped);
  for (guint i = 0; i <= draft->now->len; i++)
    {
      gsize at = i < draft->now->len ? g_array_index (draft->at, gsize, i) : draft->lines->len;
      KicFsStamp now;
      KicFsStampText t;

      g_string_append_len (out, draft->lines->str + done, (gssize) (at - done));
      done = at;
      if (i < draft->now->len)
        {
          const char *path = g_ptr_array_index (draft->now, i);
          const KicFsStamp *stamp = g_hash_table_lookup (stamps, path);

          add_input (out, stamp->type, stamp_now (rootfd, stamp->type, path, &now, &t), path);
        }
    }
  {
    KicFsStamp now;
    KicFsStampText t;

    add_input (out, KIC_FS_FILE, stamp_now (rootfd, KIC_FS_FILE, manifest, &now, &t), manifest);
  }
  if (copies != NULL)
    {
      g_autoptr (GPtrArray) sorted = kic_sorted_keys (copies);

      for (guint i = 0; i < sorted->len; i++)
        {
          const char *path = g_ptr_array_index (sorted, i);
          KicFsStampText t;

          if (kic_path_is_under (path, store))
            add_line (out, 'c', kic_fs_stamp_format_copy (g_hash_table_lookup (copies, path), &t), path);
        }
    }
  kic_fingerprint_draft_free (draft);
  return g_string_free (out, FALSE);
}

void
kic_fingerprint_draft_free (KicFingerprintDraft *draft)
{
  if (draft == NULL)
    return;
  g_string_free (draft->lines, TRUE);
  g_ptr_array_unref (draft->now);
  g_array_unref (draft->at);
  g_free (draft);
}

char *
kic_fingerprint_make (KicFsIndex *index, const char *store, const char *settings, GHashTable *copies)
{
  KicFingerprintDraft *draft = kic_fingerprint_draft (index, store);

  g_return_val_if_fail (draft != NULL, NULL);
  return kic_fingerprint_finish (draft, index, store, settings, copies);
}

/* The stamps of inputs FIRST to END - 1 (PATHS, of the types HEADS say),
 * taken on another thread into STAMPS while kic_fingerprint_changes()
 * takes the others'. */
typedef struct {
  int rootfd;
  const GPtrArray *paths;
  const GPtrArray *heads;
  guint first, end;
  KicFsStamp *stamps;
} StatRange;

static gpointer
stat_range (gpointer data)
{
  StatRange *range = data;
  StatCursor cursor;

  cursor_init (&cursor, range->rootfd);
  for (guint i = range->first; i < range->end; i++)
    {
      const char *head = g_ptr_array_index (range->heads, i);

      stamp_in_order (&cursor, input_type (head), g_ptr_array_index (range->paths, i), head + 2,
                      &range->stamps[i - range->first]);
    }
  cursor_clear (&cursor);
  return NULL;
}

/* TEXT's lines, cut in place in COPY (as g_strsplit() would cut them),
 * NULL-terminated.  transfer container */
static GPtrArray *
fingerprint_lines (char *copy)
{
  GPtrArray *lines = g_ptr_array_new ();

  for (char *line = copy, *end;; line = end + 1)
    {
      g_ptr_array_add (lines, line);
      if ((end = strchr (line, '\n')) == NULL)
        break;
      *end = '\0';
    }
  g_ptr_array_add (lines, NULL);
  return lines;
}

/* 1. The text alone: well formed, clean paths inside the root, and the
 * inputs the manifest's run read, whose digest is INPUTS (a fingerprint
 * edited by hand, a line dropped or a state rewritten, stops no run, or
 * it could hide a change for good); nothing is looked at on disk before
 * that holds.  Per input: its line, cut after the state, in HEADS ("d\t
 * <state>"), and its path in PATHS (in the line, or unescaped in
 * UNESCAPED). */
static gboolean
fingerprint_parse (GPtrArray *lines, const char *store, const char *manifest, const char *inputs, GPtrArray *heads,
                   GPtrArray *paths, GPtrArray *unescaped)
{
  gboolean has_manifest = FALSE;
  char hex[KIC_SHA256_HEX_LEN + 1];
  KicSha256 digest;

  kic_sha256_init (&digest);
  for (guint i = 2; lines->pdata[i] != NULL; i++)
    {
      char *line = lines->pdata[i];
      char *state, *path_field, *path;

      if (line[0] == '\0')
        continue;
      if ((line[0] != 'd' && line[0] != 'f' && line[0] != 'c') || line[1] != '\t'
          || (path_field = strchr (line + 2, '\t')) == NULL)
        return FALSE;
      state = line + 2;
      *path_field++ = '\0';
      /* (g_strescape() escapes with a backslash: without one the field is the path) */
      if (strchr (path_field, '\\') != NULL)
        g_ptr_array_add (unescaped, path = g_strcompress (path_field));
      else
        path = path_field;
      g_ptr_array_add (paths, path);
      if (!kic_path_is_clean (path) || (line[0] == 'c' && !kic_path_is_under (path, store)))
        return FALSE;
      if (strcmp (path, manifest) == 0)
        has_manifest = TRUE;
      else if (line[0] != 'c') /* (the copies come after the run's inputs were digested) */
        digest_input (&digest, line[0], kic_path_is_under (store, path) ? NULL : state, path_field);
      g_ptr_array_add (heads, line);
    }
  kic_sha256_digest_hex (&digest, hex);
  if (!has_manifest || inputs == NULL || strcmp (hex, inputs) != 0)
    {
      kic_debug ("fingerprint: not the one made with the manifest's inputs");
      return FALSE;
    }
  return TRUE;
}

/* 2. Every input of HEADS and PATHS as it is now: the second half stated
 * on another thread meanwhile (the stats are most of this look, and of a
 * run with no change: a getattr of the file system each), every input
 * then compared in order.  The paths that changed; STAMPS (may be NULL)
 * gets the stamps of the others.  transfer full */
static GHashTable *
fingerprint_compare (int rootfd, const GPtrArray *heads, const GPtrArray *paths, const char *manifest,
                     const char *inputs, GHashTable *stamps, KicFingerprintChangeFunc on_change, gpointer change_data)
{
  GHashTable *changed = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  StatRange range = { rootfd, paths, heads, paths->len / 2, paths->len, NULL };
  GThread *stat_thread;
  StatCursor cursor;

  cursor_init (&cursor, rootfd);
  range.stamps = g_new (KicFsStamp, range.end - range.first);
  stat_thread = paths->len >= 64 ? g_thread_try_new ("kic-stat", stat_range, &range, NULL) : NULL;
  if (stat_thread == NULL)
    range.first = range.end; /* (all stated here) */
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      const char *head = g_ptr_array_index (heads, i);
      const char *state = head + 2;
      KicFsStamp stamp;
      KicFsStampText now_text;
      const char *now;

      if (i == range.first)
        g_thread_join (g_steal_pointer (&stat_thread));
      if (i >= range.first)
        stamp = range.stamps[i - range.first];
      else
        stamp_in_order (&cursor, input_type (head), path, state, &stamp);
      now = head[0] == 'c' ? kic_fs_stamp_format_copy (&stamp, &now_text) : kic_fs_stamp_format (&stamp, &now_text);
      if (head[0] == 'd' ? !kic_fs_stamp_dir_states_equal (now, state) : strcmp (now, state) != 0)
        {
          kic_debug ("fingerprint: '%s' changed (%s, was %s)", path, now, state);
          if (on_change != NULL && g_hash_table_size (changed) == 0)
            on_change (inputs, change_data);
          g_hash_table_add (changed, g_strdup (path));
        }
      else if (stamps != NULL && strcmp (path, manifest) != 0 && head[0] != 'c')
        g_hash_table_insert (stamps, g_strdup (path), g_memdup2 (&stamp, sizeof stamp));
    }
  g_free (range.stamps);
  cursor_clear (&cursor);
  return changed;
}

GHashTable *
kic_fingerprint_changes (int rootfd, const char *text, const char *settings, const char *store,
                         const char *inputs, GHashTable **stamps, KicFingerprintChangeFunc on_change,
                         gpointer change_data)
{
  g_autofree char *copy = g_strdup (text);
  g_autoptr (GPtrArray) lines = fingerprint_lines (copy);
  g_autofree char *escaped = g_strescape (settings, NULL);
  g_autofree char *settings_line = g_strconcat ("settings\t", escaped, NULL);
  g_autofree char *manifest = g_build_filename (store, "manifest", NULL);
  g_autoptr (GPtrArray) heads = g_ptr_array_new ();
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autoptr (GPtrArray) unescaped = g_ptr_array_new_with_free_func (g_free);
  GHashTable *changed;

  if (stamps != NULL)
    *stamps = NULL;
  if (strcmp (lines->pdata[0], HEADER) != 0 || lines->pdata[1] == NULL
      || strcmp (lines->pdata[1], settings_line) != 0
      || !fingerprint_parse (lines, store, manifest, inputs, heads, paths, unescaped))
    return NULL;
  if (stamps != NULL)
    *stamps = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  changed = fingerprint_compare (rootfd, heads, paths, manifest, inputs, stamps != NULL ? *stamps : NULL, on_change,
                                 change_data);
  kic_debug ("fingerprint: %u inputs, %u changed", paths->len, g_hash_table_size (changed));
  return changed;
}

gboolean
kic_fingerprint_matches (int rootfd, const char *text, const char *settings, const char *store,
                         const char *inputs)
{
  g_autoptr (GHashTable) changed = kic_fingerprint_changes (rootfd, text, settings, store, inputs, NULL, NULL, NULL);

  return changed != NULL && g_hash_table_size (changed) == 0;
}

GHashTable *
kic_fingerprint_what_changed (const char *root, const char *store, const char *settings, char **inputs,
                              GHashTable **stamps, KicFingerprintChangeFunc on_change, gpointer change_data)
{
  g_autofree char *path = g_build_filename (store, KIC_FINGERPRINT_FILE, NULL);
  g_autofree char *manifest_path = g_build_filename (store, "manifest", NULL);
  g_autofree char *text = NULL;
  g_autofree char *manifest_text = NULL;
  g_autofree char *manifest_inputs = NULL;
  GHashTable *changed = NULL;
  gsize length = 0;
  int rootfd = kic_root_open (root ? root : "/");

  if (inputs != NULL)
    *inputs = NULL;
  if (stamps != NULL)
    *stamps = NULL;
  if (rootfd < 0)
    return NULL;
  text = kic_read_regular_in_root (rootfd, path, KIC_MAX_FILE, NULL);
  manifest_text = text ? kic_read_regular_in_root (rootfd, manifest_path, KIC_MAX_FILE, &length) : NULL;
  if (manifest_text != NULL)
    {
      manifest_inputs = kic_manifest_inputs (manifest_text, length);
      changed = kic_fingerprint_changes (rootfd, text, settings, store, manifest_inputs, stamps, on_change,
                                         change_data);
      if (changed != NULL && inputs != NULL)
        *inputs = g_steal_pointer (&manifest_inputs);
    }
  close (rootfd);
  return changed;
}

gboolean
kic_fingerprint_unchanged (const char *root, const char *store, const char *settings)
{
  g_autoptr (GHashTable) changed = kic_fingerprint_what_changed (root, store, settings, NULL, NULL, NULL, NULL);

  return changed != NULL && g_hash_table_size (changed) == 0;
}
