/* fingerprint.c - every input of a run with what fstat(2) said of it
 *
 * The text: a header line, the settings, then one line per input,
 *   d <tab> <state> <tab> <path>   a directory listing
 *   f <tab> <state> <tab> <path>   a file read
 * where the state is stamp_state()'s numbers, or "none" when there is no
 * such directory or file.  Paths are g_strescape()d.
 */
#include "fingerprint.h"

#include "kic.h"
#include "safeopen.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "kde-icon-cache fingerprint 1"

/* A stamp as the fingerprint writes it.  A directory's modification
 * time, not its change time or size: the writer keeps the time of the
 * directories it plants in, but a link changes the other two. */
static char *
stamp_state (const KicFsStamp *stamp)
{
  if (!stamp->exists)
    return g_strdup ("none");
  if (stamp->type == KIC_FS_DIR)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT, stamp->dev,
                            stamp->ino, stamp->mtime_ns);
  /* dpkg gives an unpacked file its package's modification time: the
   * change time says when it came */
  return g_strdup_printf ("%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                          " %" G_GINT64_FORMAT,
                          stamp->dev, stamp->ino, stamp->size, stamp->mtime_ns, stamp->ctime_ns);
}

/* The state of PATH, an object of TYPE, as it is now. */
static char *
state_now (int rootfd, KicFsType type, const char *path)
{
  const char *relative = path[1] ? path + 1 : ".";
  KicFsStamp stamp;
  struct stat st;

  /* the path is a real path: all its components are directories whose
   * listings are inputs too, so a link put in place of one shows there */
  kic_fs_stamp_of_stat (&stamp, type, fstatat (rootfd, relative, &st, AT_SYMLINK_NOFOLLOW) == 0 ? &st : NULL);
  return stamp_state (&stamp);
}

static void
add_input (GString *out, KicFsType type, const char *state, const char *path)
{
  g_autofree char *escaped = g_strescape (path, NULL);

  g_string_append_printf (out, "%c\t%s\t%s\n", type == KIC_FS_DIR ? 'd' : 'f', state, escaped);
}

static gboolean
is_under (const char *path, const char *dir)
{
  gsize n = strlen (dir);

  if (strcmp (dir, "/") == 0)
    return TRUE;
  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

char *
kic_fingerprint_make (KicFsIndex *index, const char *store, const char *settings)
{
  int rootfd = kic_fs_index_rootfd (index);
  GHashTable *stamps = kic_fs_index_stamps (index);
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autofree char *escaped = g_strescape (settings, NULL);
  g_autofree char *manifest = g_build_filename (store, "manifest", NULL);
  GString *out;
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (stamps != NULL, NULL);
  g_hash_table_iter_init (&iter, stamps);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (paths, key);
  g_ptr_array_sort (paths, compare_paths);
  out = g_string_new (HEADER "\n");
  g_string_append_printf (out, "settings\t%s\n", escaped);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      const KicFsStamp *stamp = g_hash_table_lookup (stamps, path);
      g_autofree char *state = NULL;

      /* the run wrote in the store: the manifest stands for it.  Above
       * it, the run may have created it: as they are now */
      if (is_under (path, store))
        continue;
      if (is_under (store, path))
        state = state_now (rootfd, stamp->type, path);
      else
        state = stamp_state (stamp);
      add_input (out, stamp->type, state, path);
    }
  {
    g_autofree char *state = state_now (rootfd, KIC_FS_FILE, manifest);

    add_input (out, KIC_FS_FILE, state, manifest);
  }
  return g_string_free (out, FALSE);
}

gboolean
kic_fingerprint_matches (int rootfd, const char *text, const char *settings)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *escaped = g_strescape (settings, NULL);
  g_autofree char *settings_line = g_strconcat ("settings\t", escaped, NULL);
  guint n_inputs = 0;

  if (lines[0] == NULL || strcmp (lines[0], HEADER) != 0 || lines[1] == NULL
      || strcmp (lines[1], settings_line) != 0)
    return FALSE;
  for (guint i = 2; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = NULL;
      g_autofree char *path = NULL;
      g_autofree char *now = NULL;

      if (lines[i][0] == '\0')
        continue;
      fields = g_strsplit (lines[i], "\t", 3);
      if (g_strv_length (fields) != 3 || (strcmp (fields[0], "d") != 0 && strcmp (fields[0], "f") != 0))
        return FALSE;
      path = g_strcompress (fields[2]);
      if (path[0] != '/')
        return FALSE;
      now = state_now (rootfd, fields[0][0] == 'd' ? KIC_FS_DIR : KIC_FS_FILE, path);
      if (strcmp (now, fields[1]) != 0)
        {
          kic_debug ("fingerprint: '%s' changed (%s, was %s)", path, now, fields[1]);
          return FALSE;
        }
      n_inputs++;
    }
  kic_debug ("fingerprint: %u inputs as they were", n_inputs);
  /* a fingerprint without the manifest is no fingerprint */
  return n_inputs > 0;
}

gboolean
kic_fingerprint_unchanged (const char *root, const char *store, const char *settings)
{
  g_autofree char *path = g_build_filename (store, KIC_FINGERPRINT_FILE, NULL);
  g_autofree char *text = NULL;
  gboolean same;
  int rootfd = kic_root_open (root ? root : "/");
  int fd;

  if (rootfd < 0)
    return FALSE;
  fd = kic_open_in_root (rootfd, path, O_RDONLY, TRUE);
  if (fd < 0 || !kic_read_fd (fd, path, &text, NULL, NULL))
    {
      if (fd >= 0)
        close (fd);
      close (rootfd);
      return FALSE;
    }
  close (fd);
  same = kic_fingerprint_matches (rootfd, text, settings);
  close (rootfd);
  return same;
}
