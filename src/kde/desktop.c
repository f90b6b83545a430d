/* desktop.c - the .desktop scanner
 *
 * DESKTOP-ID PRECEDENCE: the desktop-file ID of "<datadir>/applications/
 * a/b/foo.desktop" is "a-b-foo.desktop" (desktop-entry spec, "Desktop File
 * ID"), and for one ID the file of the earliest data directory wins, as in
 * update-desktop-database and KDE's menu.
 *
 * MENU DIRECTORIES: the categories of the XDG menu (Kickoff's left column,
 * the submenus of the classic menu) take their Icon= from ".directory"
 * files, found in "<datadir>/desktop-directories" (menu spec,
 * <DefaultDirectoryDirs>) and in the <DirectoryDir> elements of the .menu
 * files under "<configdir>/menus".  Every such file is read, not only the
 * ones a <Directory> names: a name too many only costs the planner time.
 */
#include "desktop.h"

#include "diag.h"
#include "hash.h"
#include "keyfile.h"

#include <string.h>

void
kic_desktop_entry_free (KicDesktopEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->id);
  g_free (entry->path);
  g_free (entry->icon);
  g_free (entry);
}

/* A value as KConfig unescapes it (kconfigini.cpp, printableToString):
 * \s \t \n \r \\ and \xHH; "\;" and "\," stay as they are (list
 * syntax, for the caller); any other escape keeps the backslash and drops
 * the character, and a trailing backslash is dropped, each with a warning
 * in KDE's log (measured with tests/oracle/kic-desktop: "kic\qx" reads
 * "kic\x").  GKeyFile refuses such values outright.  transfer full */
static char *
kconfig_unescape (const char *raw)
{
  GString *out = g_string_sized_new (strlen (raw));

  for (const char *p = raw; *p != '\0'; p++)
    {
      if (*p != '\\')
        {
          g_string_append_c (out, *p);
          continue;
        }
      switch (*++p)
        {
        case '\0':
          p--; /* a trailing backslash: dropped */
          break;
        case 's':
          g_string_append_c (out, ' ');
          break;
        case 't':
          g_string_append_c (out, '\t');
          break;
        case 'n':
          g_string_append_c (out, '\n');
          break;
        case 'r':
          g_string_append_c (out, '\r');
          break;
        case '\\':
          g_string_append_c (out, '\\');
          break;
        case ';':
        case ',':
          g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
          break;
        case 'x':
          if (g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
            {
              g_string_append_c (out, (char) (g_ascii_xdigit_value (p[1]) * 16 + g_ascii_xdigit_value (p[2])));
              p += 2;
              break;
            }
          G_GNUC_FALLTHROUGH;
        default:
          g_string_append_c (out, '\\');
          break;
        }
    }
  return g_string_free (out, FALSE);
}

/* KService reads a menu entry with KDesktopFile, that is KConfig: a line
 * it cannot parse (no '=', an empty key, a bad group header) is skipped
 * and the rest of the file read (kconfigini.cpp, parseConfig); keyfile.c
 * does the same, with one warning naming the file.  Hidden= takes
 * KConfig's booleans (yes and on are true: KConfigGroup::readEntry), and
 * Icon= its escapes.  Checked against KF5 itself by desktop-kconfig.sh. */
gboolean
kic_desktop_parse (const char *origin, const char *data, gsize length, char **icon,
                   gboolean *hidden, GError **error)
{
  g_autoptr (GKeyFile) kf = NULL;
  g_autofree char *raw = NULL;

  *icon = NULL;
  *hidden = FALSE;
  /* (Name=, Comment= and Keywords= in every language: none is read) */
  kf = kic_keyfile_load_untranslated (data, length, origin, error);
  if (kf == NULL)
    {
      /* GKeyFile quotes the line it stops at: not in a warning */
      kic_error_unquote (error != NULL ? *error : NULL);
      return FALSE;
    }
  if (!g_key_file_has_group (kf, G_KEY_FILE_DESKTOP_GROUP))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
                   "no [%s] group", G_KEY_FILE_DESKTOP_GROUP);
      return FALSE;
    }
  *hidden = kic_keyfile_get_bool (kf, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_HIDDEN, FALSE);
  if (*hidden)
    return TRUE;
  raw = g_key_file_get_value (kf, G_KEY_FILE_DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_ICON, NULL);
  if (raw == NULL)
    return TRUE;
  *icon = kconfig_unescape (raw);
  if (!g_utf8_validate (*icon, -1, NULL))
    {
      /* KDE decodes the value as UTF-8, each bad byte becoming U+FFFD, and
       * looks that name up; so do we, after saying so */
      char *valid = g_utf8_make_valid (*icon, -1);

      g_free (*icon);
      *icon = valid;
      kic_warning ("%s: key 'Icon' is not UTF-8; KDE reads it as '%s'", origin, *icon);
    }
  g_strstrip (*icon);
  return TRUE;
}

void
kic_desktop_read_free (gpointer data)
{
  KicDesktopRead *read = data;

  if (read == NULL)
    return;
  g_free (read->icon);
  g_free (read);
}

/* The file PATH (a regular file, as the listing says) as KDE's menu reads
 * it: *ICON (transfer full) and *HIDDEN; FALSE after a warning when it
 * cannot be read or parsed.  A read MEMO kept is taken instead. */
static gboolean
read_entry (KicFsIndex *index, const char *path, KicDesktopMemo *memo, char **icon, gboolean *hidden)
{
  g_autofree char *real = memo != NULL ? kic_fs_index_realpath (index, path) : NULL;
  const KicDesktopRead *known = real != NULL && memo->known != NULL ? g_hash_table_lookup (memo->known, real) : NULL;
  g_autofree char *host = NULL;
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;
  guint serial = kic_diagnostics_serial ();
  gsize length;

  if (known != NULL && known->stamp != NULL)
    {
      /* an input of this run as it was of the last (fingerprint.h) */
      kic_fs_index_seed_file (index, real, known->stamp);
      *icon = g_strdup (known->icon);
      *hidden = known->hidden;
    }
  else if (!kic_fs_index_read_file (index, path, &data, &length, &error))
    {
      kic_warning ("%s", error->message);
      return FALSE;
    }
  else
    {
      host = kic_fs_index_host_path (index, path);
      if (!kic_desktop_parse (host, data, length, icon, hidden, &error))
        {
          kic_warning ("%s: %s", host, error->message);
          return FALSE;
        }
    }
  if (real != NULL && memo->read != NULL && kic_diagnostics_serial () == serial)
    {
      KicDesktopRead *read = g_new0 (KicDesktopRead, 1);

      read->hidden = *hidden;
      read->icon = g_strdup (*icon);
      g_hash_table_replace (memo->read, g_steal_pointer (&real), read);
    }
  return TRUE;
}

/* The files ending in SUFFIX under DIR, their IDs being PREFIX plus the
 * path below DIR with SEPARATOR between the components. */
static void
scan_dir (KicFsIndex *index, const char *dir, const char *prefix, const char *suffix, const char *separator,
          GHashTable *seen, GHashTable *visited, GPtrArray *entries, KicDesktopMemo *memo, guint depth)
{
  g_autoptr (GPtrArray) names = NULL;
  char *real = kic_fs_index_realpath (index, dir);

  /* each directory once, by its real path: links to a directory already
   * read (two "ln -s . l" make the tree grow by powers of two) and loops
   * of links end here, as the spec's recursion must */
  if (real == NULL || g_hash_table_contains (visited, real) || depth > 16)
    {
      g_free (real);
      return;
    }
  g_hash_table_add (visited, real);
  names = kic_fs_index_list (index, dir);
  if (names == NULL)
    return;
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      KicFsType type;

      if (name[0] == '.')
        continue;
      type = kic_fs_index_stat_at (index, dir, name);
      if (type == KIC_FS_DIR)
        {
          g_autofree char *sub = g_strconcat (prefix, name, separator, NULL);

          scan_dir (index, path, sub, suffix, separator, seen, visited, entries, memo, depth + 1);
        }
      else if (type == KIC_FS_FILE && g_str_has_suffix (name, suffix))
        {
          g_autofree char *id = g_strconcat (prefix, name, NULL);
          gboolean hidden;
          KicDesktopEntry *entry;
          char *icon;

          if (g_hash_table_contains (seen, id))
            continue;
          g_hash_table_add (seen, g_strdup (id));
          if (!read_entry (index, path, memo, &icon, &hidden))
            continue;
          if (hidden)
            {
              g_free (icon);
              continue;
            }
          entry = g_new0 (KicDesktopEntry, 1);
          entry->id = g_steal_pointer (&id);
          entry->path = g_steal_pointer (&path);
          entry->icon = icon;
          g_ptr_array_add (entries, entry);
        }
    }
}

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  const KicDesktopEntry *ea = *(KicDesktopEntry *const *) a;
  const KicDesktopEntry *eb = *(KicDesktopEntry *const *) b;

  return strcmp (ea->id, eb->id);
}

GPtrArray *
kic_desktop_scan (KicFsIndex *index, char **data_dirs, KicDesktopMemo *memo)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_desktop_entry_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) visited = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; data_dirs[i] != NULL; i++)
    {
      g_autofree char *apps = g_build_filename (data_dirs[i], "applications", NULL);

      scan_dir (index, apps, "", ".desktop", "-", seen, visited, entries, memo, 0);
    }
  g_ptr_array_sort (entries, compare_entries);
  return entries;
}

/* The text of every <DirectoryDir> element of one .menu file. */
typedef struct {
  gboolean in_directory_dir;
  GString *text;
  GPtrArray *dirs;
} MenuParse;

static void
menu_start (G_GNUC_UNUSED GMarkupParseContext *context, const char *element,
            G_GNUC_UNUSED const char **names, G_GNUC_UNUSED const char **values, gpointer data,
            G_GNUC_UNUSED GError **error)
{
  MenuParse *mp = data;

  mp->in_directory_dir = strcmp (element, "DirectoryDir") == 0;
  g_string_truncate (mp->text, 0);
}

static void
menu_text (G_GNUC_UNUSED GMarkupParseContext *context, const char *text, gsize length, gpointer data,
           G_GNUC_UNUSED GError **error)
{
  MenuParse *mp = data;

  if (mp->in_directory_dir)
    g_string_append_len (mp->text, text, (gssize) length);
}

static void
menu_end (G_GNUC_UNUSED GMarkupParseContext *context, G_GNUC_UNUSED const char *element, gpointer data,
          G_GNUC_UNUSED GError **error)
{
  MenuParse *mp = data;

  if (mp->in_directory_dir && mp->text->len > 0)
    g_ptr_array_add (mp->dirs, g_strstrip (g_strdup (mp->text->str)));
  mp->in_directory_dir = FALSE;
}

/* Add to DIRS the <DirectoryDir> directories of the .menu files in
 * MENUS, relative ones made absolute against MENUS (menu spec). */
static void
menu_directory_dirs (KicFsIndex *index, const char *menus, GPtrArray *dirs)
{
  static const GMarkupParser parser = { menu_start, menu_end, menu_text, NULL, NULL };
  g_autoptr (GPtrArray) names = kic_fs_index_list (index, menus);

  for (guint i = 0; names != NULL && i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (menus, name, NULL);
      g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GError) error = NULL;
      g_autofree char *data = NULL;
      GMarkupParseContext *context;
      MenuParse mp = { FALSE, NULL, found };
      gboolean ok;
      gsize length;

      if (!g_str_has_suffix (name, ".menu") || kic_fs_index_stat (index, path) != KIC_FS_FILE)
        continue;
      if (!kic_fs_index_read_file (index, path, &data, &length, &error))
        {
          kic_warning ("%s: %s", path, error->message);
          continue;
        }
      mp.text = g_string_new (NULL);
      context = g_markup_parse_context_new (&parser, (GMarkupParseFlags) 0, &mp, NULL);
      ok = g_markup_parse_context_parse (context, data, (gssize) length, &error)
           && g_markup_parse_context_end_parse (context, &error);
      g_markup_parse_context_free (context);
      g_string_free (mp.text, TRUE);
      if (!ok)
        {
          kic_error_unquote (error);
          kic_warning ("%s: %s", path, error->message);
          continue;
        }
      for (guint k = 0; k < found->len; k++)
        {
          const char *dir = g_ptr_array_index (found, k);

          g_ptr_array_add (dirs, g_path_is_absolute (dir) ? g_strdup (dir) : g_build_filename (menus, dir, NULL));
        }
    }
}

GPtrArray *
kic_desktop_scan_directories (KicFsIndex *index, char **data_dirs, char **config_dirs, KicDesktopMemo *memo)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_desktop_entry_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) visited = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  guint n_default = g_strv_length (data_dirs);

  for (guint i = 0; data_dirs[i] != NULL; i++)
    g_ptr_array_add (dirs, g_build_filename (data_dirs[i], "desktop-directories", NULL));
  for (guint i = 0; config_dirs[i] != NULL; i++)
    {
      g_autofree char *menus = g_build_filename (config_dirs[i], "menus", NULL);
      g_autofree char *merged = g_build_filename (menus, "applications-merged", NULL);

      menu_directory_dirs (index, menus, dirs);
      menu_directory_dirs (index, merged, dirs);
    }
  for (guint i = 0; i < dirs->len; i++)
    {
      /* each directory its own ID space: a file of a <DirectoryDir> is
       * read even when a default directory has one of that name */
      g_autoptr (GHashTable) dir_seen = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);

      scan_dir (index, g_ptr_array_index (dirs, i), "", ".directory", "/", i < n_default ? seen : dir_seen, visited,
                entries, memo, 0);
    }
  g_ptr_array_sort (entries, compare_entries);
  return entries;
}
