/* trusted.c - directories root may plant in: no link, no "..", owned by
 * root (or the running user) and writable by nobody else */
#include "trusted.h"

#include "diag.h"
#include "safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean
kic_path_has_dotdot (const char *path)
{
  /* a ".." between two slashes or the ends (a ".." that starts one
   * character later follows a '.', no slash: skipping it misses none) */
  for (const char *p = path; (p = strstr (p, "..")) != NULL; p += 2)
    if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
      return TRUE;
  return FALSE;
}

/* Why the directory stat(2) says ST of (HOST names it) is not trusted, or
 * NULL. */
static char *
untrusted_stat (const struct stat *st, const char *host, uid_t owner)
{
  if (!S_ISDIR (st->st_mode))
    return g_strdup_printf ("'%s' is not a directory", host);
  if (st->st_uid != 0 && st->st_uid != owner)
    return g_strdup_printf ("'%s' is owned by uid %u, not root", host, (unsigned) st->st_uid);
  /* sticky or not: a sticky directory still lets others add names */
  if (st->st_mode & (S_IWGRP | S_IWOTH))
    return g_strdup_printf ("'%s' is writable by %s", host, (st->st_mode & S_IWOTH) ? "others" : "its group");
  return NULL;
}

/* Why the directory open as FD (HOST names it) is not trusted, or NULL
 * (a KicDirRule: DATA points to the trusted owner besides root). */
static char *
untrusted_because (int fd, const char *host, gpointer data)
{
  uid_t owner = *(const uid_t *) data;
  struct stat st;

  if (fstat (fd, &st) < 0)
    return g_strdup_printf ("cannot stat '%s': %s", host, g_strerror (errno));
  return untrusted_stat (&st, host, owner);
}

gboolean
kic_trusted_dir_check_at (int dirfd, const char *host, const char *name, GError **error)
{
  g_autofree char *why = NULL;
  struct stat st;

  if (name[0] == '\0' || strcmp (name, ".") == 0 || strcmp (name, "..") == 0 || strchr (name, '/') != NULL)
    why = g_strdup_printf ("'%s' is not one component of a path", host);
  else if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    why = g_strdup_printf ("cannot stat '%s': %s", host, g_strerror (errno));
  else if (S_ISLNK (st.st_mode))
    why = g_strdup_printf ("'%s' is a symbolic link", host);
  else
    why = untrusted_stat (&st, host, kic_run_euid ());
  if (why != NULL)
    g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s", why);
  return why == NULL;
}

gboolean
kic_trusted_dir_stamp (const KicFsStamp *stamp, gboolean *known)
{
  struct stat st = { 0 };
  g_autofree char *why = NULL;

  *known = stamp->type == KIC_FS_DIR && stamp->exists && S_ISDIR (stamp->mode);
  if (!*known)
    return FALSE;
  st.st_mode = stamp->mode;
  st.st_uid = stamp->uid;
  why = untrusted_stat (&st, "", kic_run_euid ());
  return why == NULL;
}

int
kic_trusted_dir_open_for (int rootfd, const char *host_root, const char *path, uid_t owner, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr (GString) host = g_string_new (host_root ? host_root : "");
  g_autofree char *why = NULL;
  int fd = fcntl (rootfd, F_DUPFD_CLOEXEC, 0);

  if (fd < 0)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "cannot use the root: %s", g_strerror (errno));
      return -1;
    }
  if ((why = untrusted_because (fd, host->len ? host->str : "/", &owner)) != NULL)
    goto refused;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      int next = kic_walk_step (fd, parts[i], host, O_RDONLY | O_DIRECTORY, untrusted_because, &owner, &why);

      if (next == KIC_WALK_SKIP)
        continue;
      if (next < 0)
        goto refused;
      close (fd);
      fd = next;
    }
  return fd;

refused:
  close (fd);
  g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s", why);
  return -1;
}

int
kic_trusted_dir_open (int rootfd, const char *host_root, const char *path, GError **error)
{
  return kic_trusted_dir_open_for (rootfd, host_root, path, kic_run_euid (), error);
}

int
kic_trusted_dir_open_at (int dirfd, const char *host, const char *name, GError **error)
{
  g_autofree char *why = NULL;
  g_autofree char *parent = NULL;
  g_autoptr (GString) walked = NULL;
  uid_t owner = kic_run_euid ();
  int fd;

  if (name[0] == '\0' || strcmp (name, ".") == 0 || strcmp (name, "..") == 0 || strchr (name, '/') != NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "'%s' is not one component of a path", host);
      return -1;
    }
  /* (HOST names NAME itself: the step appends it to its parent's name) */
  parent = g_path_get_dirname (host);
  walked = g_string_new (strcmp (parent, "/") == 0 ? "" : parent);
  fd = kic_walk_step (dirfd, name, walked, O_RDONLY | O_DIRECTORY, untrusted_because, &owner, &why);
  if (fd < 0)
    g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s", why);
  return fd;
}

gboolean
kic_trusted_dir_check (int rootfd, const char *host_root, const char *path, GError **error)
{
  int fd = kic_trusted_dir_open (rootfd, host_root, path, error);

  if (fd < 0)
    return FALSE;
  close (fd);
  return TRUE;
}
