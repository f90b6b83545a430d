/* path.c - clean absolute paths, their relations and relative links (path.h) */
#include "path.h"

#include <string.h>

gboolean
kic_path_is_clean (const char *path)
{
  const char *p = path;

  if (p == NULL || p[0] != '/')
    return FALSE;
  if (p[1] == '\0')
    return TRUE;
  while (*p == '/')
    {
      const char *start = ++p;

      p = strchrnul (start, '/');
      /* an empty component ("//", a '/' at the end), "." or ".." */
      if (p == start || (p - start == 1 && start[0] == '.')
          || (p - start == 2 && start[0] == '.' && start[1] == '.'))
        return FALSE;
    }
  return TRUE;
}

char *
kic_path_clean (const char *path)
{
  g_autofree char *joined = NULL;
  const char *p = path;
  char *out;
  gsize len = 0;

  if (!g_path_is_absolute (path))
    {
      g_autofree char *cwd = g_get_current_dir ();

      p = joined = g_strconcat (cwd, "/", path, NULL);
    }
  /* one pass, in one buffer: every component the result keeps came with
   * at least one '/' before it, so it is no longer than P (the planner
   * cleans a path per link and per record read: no split, no array) */
  out = g_malloc (strlen (p) + 2);
  while (*p != '\0')
    {
      const char *start;
      gsize n;

      while (*p == '/')
        p++;
      start = p;
      while (*p != '\0' && *p != '/')
        p++;
      n = (gsize) (p - start);
      if (n == 0 || (n == 1 && start[0] == '.'))
        continue;
      if (n == 2 && start[0] == '.' && start[1] == '.')
        {
          /* drop the last component kept, and its '/' ("/.." is "/") */
          while (len > 0 && out[len - 1] != '/')
            len--;
          if (len > 0)
            len--;
          continue;
        }
      out[len++] = '/';
      memcpy (out + len, start, n);
      len += n;
    }
  if (len == 0)
    out[len++] = '/';
  out[len] = '\0';
  return out;
}

char *
kic_relative_link (const char *link, const char *target)
{
  /* the directories of LINK are its components but the last (the link
   * itself); those it shares with TARGET, component by component, are
   * left out, each other one is a "../" */
  const char *last = strrchr (link, '/');
  const char *from = link, *to = target;
  GString *out = g_string_new (NULL);

  while (from <= last && to != NULL)
    {
      const char *from_end = strchr (from, '/');
      const char *to_end = strchr (to, '/');
      gsize n = (gsize) (from_end - from);

      if ((to_end != NULL ? (gsize) (to_end - to) : strlen (to)) != n || memcmp (from, to, n) != 0)
        break;
      from = from_end + 1;
      to = to_end != NULL ? to_end + 1 : NULL;
    }
  /* each directory left ends with a '/' up to the link's last one */
  for (const char *p = from; p <= last; p++)
    if (*p == '/')
      g_string_append (out, "../");
  if (to != NULL)
    g_string_append (out, to);
  return g_string_free (out, FALSE);
}

gboolean
kic_path_is_under (const char *path, const char *dir)
{
  gsize n = strlen (dir);

  if (strcmp (dir, "/") == 0)
    return TRUE;
  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *
kic_path_child (const char *dir, const char *name)
{
  return dir[0] == '/' && dir[1] == '\0' ? g_strconcat ("/", name, NULL) : g_strconcat (dir, "/", name, NULL);
}
