/* paths.c - XDG base directories through libxdg-basedir */
#include "paths.h"

#include "path.h"

#include <basedir.h>
#include <string.h>

/* Clean, drop relative entries and duplicates, keep the order. */
static char **
normalize (const char *const *dirs)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    {
      char *clean;

      if (!g_path_is_absolute (dirs[i]))
        continue;
      clean = kic_path_clean (dirs[i]);
      if (g_ptr_array_find_with_equal_func (out, clean, g_str_equal, NULL))
        {
          g_free (clean);
          continue;
        }
      g_ptr_array_add (out, clean);
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

char **
kic_paths_data_dirs (void)
{
  xdgHandle handle;
  char **dirs;

  if (xdgInitHandle (&handle) == NULL)
    {
      const char *const fallback[] = { "/usr/local/share", "/usr/share", NULL };
      return normalize (fallback);
    }
  dirs = normalize (xdgDataDirectories (&handle));
  xdgWipeHandle (&handle);
  return dirs;
}

char **
kic_paths_config_dirs (void)
{
  xdgHandle handle;
  char **dirs;

  if (xdgInitHandle (&handle) == NULL)
    {
      const char *const fallback[] = { "/etc/xdg", NULL };
      return normalize (fallback);
    }
  dirs = normalize (xdgConfigDirectories (&handle));
  xdgWipeHandle (&handle);
  return dirs;
}

char *
kic_paths_data_home (void)
{
  xdgHandle handle;
  char *home;

  if (xdgInitHandle (&handle) == NULL)
    return NULL;
  home = xdgDataHome (&handle) != NULL && g_path_is_absolute (xdgDataHome (&handle))
           ? kic_path_clean (xdgDataHome (&handle)) : NULL;
  xdgWipeHandle (&handle);
  return home;
}
