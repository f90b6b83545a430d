/* paths-session.c - the data directories a login on the root gets
 *
 * A Plasma session does not run with the environment of a dpkg trigger or
 * a timer: its XDG_DATA_DIRS is what the systemd user manager's
 * environment generators and a login shell's /etc/profile.d made of it.
 * startplasma imports the user manager's environment over its own
 * (plasma-workspace startkde/startplasma.cpp importSystemdEnvrionment()),
 * and a login shell (SDDM's Xsession sources /etc/profile) runs
 * the scripts of /etc/profile.d; both are modelled here, in that order, on the
 * files of the root, read through the index so that the fingerprint
 * stamps them like any input.  What is modelled (paths.h):
 *
 * - systemd's 30-systemd-environment-d-generator: environment.d(5) files,
 *   XDG_DATA_DIRS= lines, $XDG_DATA_DIRS expanded;
 * - flatpak's 60-flatpak generator ("flatpak --print-updated-env") and
 *   /etc/profile.d/flatpak.sh (Debian 12's flatpak 1.14 and 13's 1.16 ship
 *   the same two): every installation's exports/share not yet in the list
 *   is put in front, the user's own ($XDG_DATA_HOME/flatpak) first, then
 *   the system's (/var/lib/flatpak, then /etc/flatpak/installations.d).
 *
 * Any other generator or profile.d script that names XDG_DATA_DIRS is
 * one warning naming it: root cannot run a program of the root's.
 */
#include "paths.h"

#include "diag.h"
#include "path.h"
#include "sorted.h"

#include <string.h>

#define FLATPAK_SYSTEM_BASE "/var/lib/flatpak"
#define FLATPAK_GENERATOR "60-flatpak"
#define ENVIRONMENT_D_GENERATOR "30-systemd-environment-d-generator"

/* systemd's user-environment-generators directories, highest priority
 * first (systemd.environment-generator(7)); /run is left out: it holds
 * nothing in a root at rest. */
static const char *const generator_dirs[] = { "/etc/systemd/user-environment-generators",
                                              "/usr/local/lib/systemd/user-environment-generators",
                                              "/usr/lib/systemd/user-environment-generators", NULL };
/* environment.d(5), highest priority first (the user's own
 * ~/.config/environment.d comes before them and is not seen) */
static const char *const environment_d_dirs[] = { "/etc/environment.d", "/usr/local/lib/environment.d",
                                                  "/usr/lib/environment.d", NULL };

/* One way XDG_DATA_DIRS is made: the systemd user manager's environment
 * (generators), or the login shell's (profile.d). */
typedef struct {
  KicFsIndex *index;
  GPtrArray *dirs;    /* char*, the list being built */
  KicSessionDirs *out;
  gboolean set;       /* XDG_DATA_DIRS is set in this environment */
  GPtrArray *origins; /* char*, what set or added what, in order */
} Session;

/* A file of the root, by its name in the first of DIRS that has it (a
 * same-named file in a directory of higher priority masks the others):
 * file name -> path, for every name in any of DIRS.  transfer full */
static GHashTable *
masked_files (KicFsIndex *index, const char *const *dirs, const char *suffix)
{
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint d = 0; dirs[d] != NULL; d++)
    {
      g_autoptr (GPtrArray) names = kic_fs_index_list (index, dirs[d]);

      for (guint i = 0; names != NULL && i < names->len; i++)
        {
          const char *name = g_ptr_array_index (names, i);

          if ((suffix == NULL || g_str_has_suffix (name, suffix)) && !g_hash_table_contains (files, name))
            g_hash_table_insert (files, g_strdup (name), g_build_filename (dirs[d], name, NULL));
        }
    }
  return files;
}

static gboolean
has_dir (GPtrArray *dirs, const char *dir)
{
  return g_ptr_array_find_with_equal_func (dirs, dir, g_str_equal, NULL);
}

/* What expand() puts where a variable of each user's stood: no path has
 * it, so the entry is known for one root cannot see. */
#define PER_USER_MARK '\001'

/* VALUE with $XDG_DATA_DIRS, ${XDG_DATA_DIRS}, ${XDG_DATA_DIRS:-WORD} and
 * ${XDG_DATA_DIRS:+WORD} expanded (environment.d(5)); any other variable
 * is empty, as for systemd when no earlier line set it.  *PER_USER is set
 * when one of them was $HOME or XDG_DATA_HOME (a directory of each user,
 * which root cannot see).  transfer full */
static char *
expand (const char *value, const char *current, gboolean *per_user)
{
  GString *s = g_string_new (NULL);

  for (const char *p = value; *p != '\0';)
    {
      g_autofree char *var = NULL;
      g_autofree char *word = NULL;
      char op = '\0';

      if (*p != '$')
        {
          g_string_append_c (s, *p++);
          continue;
        }
      p++;
      if (*p == '{')
        {
          const char *end = strchr (p, '}');
          const char *colon;

          if (end == NULL)
            break;
          colon = memchr (p, ':', end - p);
          var = g_strndup (p + 1, (colon != NULL ? colon : end) - p - 1);
          if (colon != NULL && colon + 1 < end)
            {
              op = colon[1];
              word = g_strndup (colon + 2, end - colon - 2);
            }
          p = end + 1;
        }
      else
        {
          const char *start = p;

          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          var = g_strndup (start, p - start);
        }
      if (strcmp (var, "XDG_DATA_DIRS") == 0)
        {
          gboolean set = current != NULL && current[0] != '\0';

          if (op == '-')
            g_string_append (s, set ? current : word);
          else if (op == '+')
            g_string_append (s, set ? word : "");
          else if (set)
            g_string_append (s, current);
        }
      else if (strcmp (var, "HOME") == 0 || strcmp (var, "XDG_DATA_HOME") == 0)
        {
          /* each user's own: the entry it is in is none of root's
           * (set_list() leaves it out) */
          *per_user = TRUE;
          g_string_append_c (s, PER_USER_MARK);
        }
    }
  return g_string_free (s, FALSE);
}

/* Replace the list by the colon-separated VALUE; entries a user's home
 * decides go to the hidden ones. */
static void
set_list (Session *session, const char *value, const char *origin)
{
  g_auto (GStrv) parts = g_strsplit (value, ":", -1);

  g_ptr_array_set_size (session->dirs, 0);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *clean = NULL;

      if (!g_path_is_absolute (parts[i]) || strchr (parts[i], PER_USER_MARK) != NULL)
        continue;
      clean = kic_path_clean (parts[i]);
      if (!has_dir (session->dirs, clean))
        g_ptr_array_add (session->dirs, g_steal_pointer (&clean));
    }
  session->set = TRUE;
  g_ptr_array_add (session->origins, g_strdup_printf ("%s set XDG_DATA_DIRS", origin));
}

/* environment.d(5): the files of every directory, by name, each name from
 * the directory of highest priority; XDG_DATA_DIRS= lines in order. */
static void
apply_environment_d (Session *session)
{
  g_autoptr (GHashTable) files = masked_files (session->index, environment_d_dirs, ".conf");
  g_autoptr (GPtrArray) names = kic_sorted_keys (files);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *path = g_hash_table_lookup (files, name);
      g_autofree char *data = NULL;
      g_auto (GStrv) lines = NULL;

      if (!kic_fs_index_read_file (session->index, path, &data, NULL, NULL))
        continue;
      lines = g_strsplit (data, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        {
          const char *line = g_strstrip (lines[l]);
          g_autofree char *current = NULL;
          g_autofree char *value = NULL;
          gboolean per_user = FALSE;

          if (!g_str_has_prefix (line, "XDG_DATA_DIRS="))
            continue;
          if (session->set)
            {
              g_ptr_array_add (session->dirs, NULL);
              current = g_strjoinv (":", (char **) session->dirs->pdata);
              g_ptr_array_remove_index (session->dirs, session->dirs->len - 1);
            }
          value = expand (line + strlen ("XDG_DATA_DIRS="), current, &per_user);
          if (per_user)
            g_ptr_array_add (session->out->hidden, g_strdup_printf ("%s (%s)", line, path));
          set_list (session, value, path);
        }
    }
}

/* "flatpak --installations": the default system installation, then those
 * of /etc/flatpak/installations.d/ (by file name; each [Installation]
 * group's Path=).  transfer full */
static GPtrArray *
flatpak_installations (KicFsIndex *index)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = kic_fs_index_list (index, "/etc/flatpak/installations.d");

  g_ptr_array_add (list, g_strdup (FLATPAK_SYSTEM_BASE));
  for (guint i = 0; names != NULL && i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename ("/etc/flatpak/installations.d", name, NULL);
      g_autofree char *data = NULL;
      gsize length;
      g_autoptr (GKeyFile) kf = g_key_file_new ();
      g_auto (GStrv) groups = NULL;

      if (!g_str_has_suffix (name, ".conf") || !kic_fs_index_read_file (index, path, &data, &length, NULL)
          || !g_key_file_load_from_data (kf, data, length, G_KEY_FILE_NONE, NULL))
        continue;
      groups = g_key_file_get_groups (kf, NULL);
      for (guint g = 0; groups[g] != NULL; g++)
        {
          g_autofree char *dir = g_key_file_get_string (kf, groups[g], "Path", NULL);

          if (g_str_has_prefix (groups[g], "Installation ") && dir != NULL && g_path_is_absolute (dir))
            g_ptr_array_add (list, kic_path_clean (dir));
        }
    }
  return list;
}

/* flatpak's generator and profile script: each installation's
 * exports/share not in the list yet goes in front, in order; the user's
 * own installation comes first, and is not seen from here. */
static void
apply_flatpak (Session *session, const char *origin)
{
  g_autoptr (GPtrArray) installations = flatpak_installations (session->index);
  g_autoptr (GPtrArray) front = g_ptr_array_new_with_free_func (g_free);

  /* unset or empty: the default, as both scripts say */
  if (!session->set || session->dirs->len == 0)
    {
      g_ptr_array_set_size (session->dirs, 0);
      g_ptr_array_add (session->dirs, g_strdup ("/usr/local/share"));
      g_ptr_array_add (session->dirs, g_strdup ("/usr/share"));
    }
  session->set = TRUE;
  if (session->out->user_data_home != NULL)
    g_ptr_array_insert (installations, 0, g_build_filename (session->out->user_data_home, "flatpak", NULL));
  else if (!g_ptr_array_find_with_equal_func (session->out->hidden, KIC_SESSION_USER_FLATPAK, g_str_equal, NULL))
    g_ptr_array_add (session->out->hidden, g_strdup (KIC_SESSION_USER_FLATPAK));
  for (guint i = 0; i < installations->len; i++)
    {
      char *share = g_build_filename (g_ptr_array_index (installations, i), "exports", "share", NULL);

      if (has_dir (session->dirs, share) || has_dir (front, share))
        g_free (share);
      else
        g_ptr_array_add (front, share);
    }
  for (guint i = 0; i < installations->len; i++)
    {
      char *share = g_build_filename (g_ptr_array_index (installations, i), "exports", "share", NULL);

      if (has_dir (session->out->foreign, share))
        g_free (share);
      else
        g_ptr_array_add (session->out->foreign, share);
    }
  for (guint i = 0; i < front->len; i++)
    g_ptr_array_add (session->origins,
                     g_strdup_printf ("%s added %s", origin, (const char *) g_ptr_array_index (front, i)));
  for (guint i = front->len; i > 0; i--)
    g_ptr_array_insert (session->dirs, 0, g_strdup (g_ptr_array_index (front, i - 1)));
}

/* Does the script at PATH name XDG_DATA_DIRS (and so may change it)? */
static gboolean
names_data_dirs (KicFsIndex *index, const char *path)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  return kic_fs_index_read_file (index, path, &data, &length, NULL)
         && g_strstr_len (data, length, "XDG_DATA_DIRS") != NULL;
}

static void
apply_generators (Session *session)
{
  g_autoptr (GHashTable) files = masked_files (session->index, generator_dirs, NULL);
  g_autoptr (GPtrArray) names = kic_sorted_keys (files);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *path = g_hash_table_lookup (files, name);

      /* a generator masked (a link to /dev/null, systemd.environment-
       * generator(7)) or no program: it does not run at a login */
      if (kic_fs_index_stat (session->index, path) != KIC_FS_FILE)
        continue;
      if (strcmp (name, ENVIRONMENT_D_GENERATOR) == 0)
        apply_environment_d (session);
      else if (strcmp (name, FLATPAK_GENERATOR) == 0)
        {
          if (kic_fs_index_stat (session->index, "/usr/bin/flatpak") == KIC_FS_FILE)
            apply_flatpak (session, path);
        }
      else if (names_data_dirs (session->index, path))
        kic_warning ("%s: a session's environment generator that may change XDG_DATA_DIRS, which this run "
                     "cannot model: its directories are not searched",
                     kic_fs_index_host_path (session->index, path));
    }
}

/* /etc/profile: the .sh files of /etc/profile.d in the order of the shell's glob. */
static void
apply_profile_d (Session *session)
{
  g_autoptr (GPtrArray) names = kic_fs_index_list (session->index, "/etc/profile.d");

  for (guint i = 0; names != NULL && i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename ("/etc/profile.d", name, NULL);

      if (!g_str_has_suffix (name, ".sh"))
        continue;
      if (strcmp (name, "flatpak.sh") == 0)
        {
          if (kic_fs_index_stat (session->index, "/usr/bin/flatpak") == KIC_FS_FILE)
            apply_flatpak (session, path);
        }
      else if (names_data_dirs (session->index, path))
        kic_warning ("%s: a login script that may change XDG_DATA_DIRS, which this run cannot model: "
                     "its directories are not searched",
                     kic_fs_index_host_path (session->index, path));
    }
}

/* The session's list: startplasma imports the user manager's
 * environment over the login shell's (plasma-workspace
 * startkde/startplasma.cpp importSystemdEnvrionment()), so the
 * generators' XDG_DATA_DIRS wins where they set one; else the shell's,
 * BASE after /etc/profile.d.  An empty entry is dropped, as Qt's
 * xdgDataDirs() drops it, and an empty list is the default. */
char **
kic_paths_session_data_dirs (KicFsIndex *index, char **base, KicSessionDirs *out)
{
  Session systemd = { index, g_ptr_array_new_with_free_func (g_free), out, FALSE,
                      g_ptr_array_new_with_free_func (g_free) };
  Session shell = { index, g_ptr_array_new_with_free_func (g_free), out, TRUE,
                    g_ptr_array_new_with_free_func (g_free) };
  Session *login;
  GPtrArray *dirs;

  out->origins = g_ptr_array_new_with_free_func (g_free);
  out->hidden = g_ptr_array_new_with_free_func (g_free);
  out->foreign = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; base[i] != NULL; i++)
    g_ptr_array_add (shell.dirs, g_strdup (base[i]));
  apply_generators (&systemd);
  apply_profile_d (&shell);
  login = systemd.set ? &systemd : &shell;
  dirs = g_steal_pointer (&login->dirs);
  g_ptr_array_extend_and_steal (out->origins, g_steal_pointer (&login->origins));
  g_clear_pointer (&systemd.dirs, g_ptr_array_unref);
  g_clear_pointer (&shell.dirs, g_ptr_array_unref);
  g_clear_pointer (&systemd.origins, g_ptr_array_unref);
  g_clear_pointer (&shell.origins, g_ptr_array_unref);
  if (dirs->len == 0)
    {
      g_ptr_array_add (dirs, g_strdup ("/usr/local/share"));
      g_ptr_array_add (dirs, g_strdup ("/usr/share"));
    }
  /* a user's own run: their data home comes before every data directory
   * (QStandardPaths::GenericDataLocation) */
  if (out->user_data_home != NULL)
    {
      guint at;

      if (g_ptr_array_find_with_equal_func (dirs, out->user_data_home, g_str_equal, &at))
        g_ptr_array_remove_index (dirs, at);
      g_ptr_array_insert (dirs, 0, g_strdup (out->user_data_home));
    }
  g_ptr_array_add (out->foreign, NULL);
  g_ptr_array_add (dirs, NULL);
  return (char **) g_ptr_array_free (dirs, FALSE);
}

void
kic_session_dirs_clear (KicSessionDirs *dirs)
{
  g_clear_pointer (&dirs->origins, g_ptr_array_unref);
  g_clear_pointer (&dirs->hidden, g_ptr_array_unref);
  g_clear_pointer (&dirs->foreign, g_ptr_array_unref);
  g_clear_pointer (&dirs->user_data_home, g_free);
}
