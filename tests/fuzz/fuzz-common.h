/* fuzz-common.h - what every libFuzzer target of kde-icon-cache shares
 *
 * FUZZ_CHECK() is an invariant: when it fails the target aborts, and
 * libFuzzer saves the input as a crash.  fuzz_init() makes the library
 * quiet (kic_warning prints nothing) and GLib allocate with plain malloc,
 * so that AddressSanitizer sees every GSlice block too.
 */
#ifndef KIC_FUZZ_COMMON_H
#define KIC_FUZZ_COMMON_H

#include "kic.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond)                                                                     \
  do                                                                                         \
    {                                                                                        \
      if (!(cond))                                                                           \
        {                                                                                    \
          fprintf (stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);     \
          abort ();                                                                          \
        }                                                                                    \
    }                                                                                        \
  while (0)

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static inline void
fuzz_init (void)
{
  /* before GLib's first slice allocation; the scripts set it too */
  setenv ("G_SLICE", "always-malloc", 0);
  kic_quiet = TRUE;
  kic_verbose = FALSE;
}

#endif /* KIC_FUZZ_COMMON_H */
