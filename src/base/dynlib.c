/* dynlib.c - a library opened when a run first needs it (dynlib.h) */
#include "dynlib.h"

#include "diag.h"

#include <dlfcn.h>

gboolean
kic_dynlib_open (const char *soname, const KicDynSymbol *symbols, gsize n_symbols, GError **error)
{
  void *handle;

  /* RTLD_NOW: a symbol missing is found here, not at its first call;
   * RTLD_LOCAL: nothing of it is bound to anything else */
  handle = dlopen (soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    {
      g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s cannot be loaded: %s", soname, dlerror ());
      return FALSE;
    }
  for (gsize i = 0; i < n_symbols; i++)
    {
      dlerror ();
      *symbols[i].slot = dlsym (handle, symbols[i].name);
      if (*symbols[i].slot == NULL)
        {
          const char *why = dlerror ();

          g_set_error (error, KIC_ERROR, KIC_ERROR_IO, "%s has no %s: %s", soname, symbols[i].name,
                       why != NULL ? why : "its address is NULL");
          for (gsize k = 0; k <= i; k++)
            *symbols[k].slot = NULL;
          dlclose (handle);
          return FALSE;
        }
    }
  /* left open: the functions are used to the end of the run */
  return TRUE;
}

gboolean
kic_dynlib_need (KicDynLib *lib, GError **error)
{
  if (!lib->tried)
    {
      lib->tried = TRUE;
      kic_dynlib_open (lib->soname, lib->symbols, lib->n_symbols, &lib->failed);
    }
  if (lib->failed != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (lib->failed);
      return FALSE;
    }
  return TRUE;
}
