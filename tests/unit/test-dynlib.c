/* test-dynlib.c - a library opened when first needed: found, missing, or
 * without a symbol asked for */
#include "dynlib.h"

#include "diag.h"

#include <string.h>

/* the C library is there in every process: its strlen is strlen */
static void
test_dynlib_opens (void)
{
  size_t (*length) (const char *) = NULL;
  const KicDynSymbol symbols[] = { { "strlen", (void **) &length } };
  g_autoptr (GError) error = NULL;

  g_assert_true (kic_dynlib_open ("libc.so.6", symbols, G_N_ELEMENTS (symbols), &error));
  g_assert_no_error (error);
  g_assert_nonnull (length);
  g_assert_cmpuint (length ("kde-icon-cache"), ==, 14);
}

static void
test_dynlib_missing (void)
{
  size_t (*length) (const char *) = NULL;
  const KicDynSymbol symbols[] = { { "strlen", (void **) &length } };
  g_autoptr (GError) error = NULL;

  g_assert_false (kic_dynlib_open ("libkic-no-such-library.so.0", symbols, G_N_ELEMENTS (symbols), &error));
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "libkic-no-such-library.so.0 cannot be loaded"));
  g_assert_null (length);
}

/* a symbol missing: none of the slots is left filled */
static void
test_dynlib_no_symbol (void)
{
  size_t (*length) (const char *) = NULL;
  void (*nothing) (void) = NULL;
  const KicDynSymbol symbols[] = {
    { "strlen", (void **) &length },
    { "kic_no_such_function", (void **) &nothing },
  };
  g_autoptr (GError) error = NULL;

  g_assert_false (kic_dynlib_open ("libc.so.6", symbols, G_N_ELEMENTS (symbols), &error));
  g_assert_error (error, KIC_ERROR, KIC_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "libc.so.6 has no kic_no_such_function"));
  g_assert_null (length);
  g_assert_null (nothing);
}

/* a library needed twice is opened once: the second answer is the
 * first's, the same error for one that cannot be opened */
static void
test_dynlib_need_once (void)
{
  size_t (*length) (const char *) = NULL;
  const KicDynSymbol symbols[] = { { "strlen", (void **) &length } };
  KicDynLib found = { "libc.so.6", symbols, G_N_ELEMENTS (symbols), FALSE, NULL };
  KicDynLib missing = { "libkic-no-such-library.so.0", symbols, G_N_ELEMENTS (symbols), FALSE, NULL };
  g_autoptr (GError) first = NULL;
  g_autoptr (GError) second = NULL;

  g_assert_true (kic_dynlib_need (&found, NULL));
  g_assert_nonnull (length);
  length = NULL;
  g_assert_true (kic_dynlib_need (&found, NULL));
  g_assert_null (length); /* not looked up again */
  g_assert_false (kic_dynlib_need (&missing, &first));
  g_assert_false (kic_dynlib_need (&missing, &second));
  g_assert_error (second, KIC_ERROR, KIC_ERROR_IO);
  g_assert_cmpstr (first->message, ==, second->message);
  g_clear_error (&missing.failed);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dynlib/opens", test_dynlib_opens);
  g_test_add_func ("/dynlib/missing", test_dynlib_missing);
  g_test_add_func ("/dynlib/no-symbol", test_dynlib_no_symbol);
  g_test_add_func ("/dynlib/need-once", test_dynlib_need_once);
  return g_test_run ();
}
