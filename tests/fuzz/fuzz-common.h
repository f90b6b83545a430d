/* fuzz-common.h - what every libFuzzer target of kde-icon-cache shares
 *
 * FUZZ_CHECK() is an invariant: when it fails the target aborts, and
 * libFuzzer saves the input as a crash.  fuzz_init() makes the library
 * quiet (kic_warning prints nothing) and GLib allocate with plain malloc,
 * so that AddressSanitizer sees every GSlice block too.
 */
#ifndef KIC_FUZZ_COMMON_H
#define KIC_FUZZ_COMMON_H

#include "diag.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The objects are built with UBSan's recoverable checks, so that a known,
 * not yet fixed report can be suppressed while fuzzing (fuzz.mk,
 * FUZZ_UBSAN_SUPP); without a suppression every report is fatal, also
 * when a target is run by hand.  UBSAN_OPTIONS adds to these. */
const char *__ubsan_default_options (void);
const char *
__ubsan_default_options (void)
{
  return "halt_on_error=1:print_stacktrace=1:report_error_type=1";
}

/* KIC_FUZZ_SKIP_KNOWN="huge-ints,..." makes the targets step around a
 * known bug that is not fixed yet, so that a long run can find others:
 *   huge-ints  index.theme ints (Size=, MinSize=, MaxSize=, Threshold=,
 *              <Group>Default=) or sizes beyond +-FUZZ_SANE_INT
 *              (RESULTS.md, findings 1 and 2)
 *   slash-names  fuzz-resolver's ?STEM check for an Icon= name holding a
 *              '/' (RESULTS.md, finding 4)
 * Unset (the default of make fuzz and make fuzz-regress), nothing is
 * skipped. */
#define FUZZ_SANE_INT (1 << 20)

static inline gboolean
fuzz_skip_known (const char *what)
{
  const char *list = getenv ("KIC_FUZZ_SKIP_KNOWN");

  return list != NULL && strstr (list, what) != NULL;
}

static inline gboolean
fuzz_int_is_sane (int value)
{
  return value > -FUZZ_SANE_INT && value < FUZZ_SANE_INT;
}

static inline void
fuzz_init (void)
{
  /* before GLib's first slice allocation; the scripts set it too */
  setenv ("G_SLICE", "always-malloc", 0);
  kic_quiet = TRUE;
  kic_verbose = FALSE;
}

#endif /* KIC_FUZZ_COMMON_H */
