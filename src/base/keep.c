/* keep.c - memory left to the end of the process (keep.h) */
#include "keep.h"

#define SIP_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KIC_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KIC_ASAN 1
#endif

void
kic_keep_until_exit (gpointer data, GDestroyNotify free_func)
{
#ifdef KIC_ASAN
  if (data != NULL)
    free_func (data);
#else
  static GPtrArray *kept;

  (void) free_func;
  if (data == NULL)
    return;
  if (kept == NULL)
    kept = g_ptr_array_new ();
  g_ptr_array_add (kept, data);
#endif
}
