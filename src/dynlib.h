/* dynlib.h - a library opened when a run first needs it
 *
 * json-glib (--json) and libXpm (an XPM icon turned into its PNG twin)
 * bring 9 and 6 more libraries with them (gio, gobject, libmount,
 * libselinux...; libX11, libxcb...).  Linked, the dynamic loader maps and
 * relocates all of them at every start: 3.9 ms of CPU time a run on the
 * development machine (perf stat of an empty program linked with them,
 * 5.3 ms against 1.4), about an eighth of the incremental rebuild a dpkg
 * trigger runs, which needs neither.  So the two are opened by their
 * sonames (the versions the package depends on, debian/control) only by
 * the code that uses them (report.c, raster.c).
 */
#ifndef KIC_DYNLIB_H
#define KIC_DYNLIB_H

#include <glib.h>

/* One symbol of a library and where its address goes: SLOT is the
 * address of a function pointer (POSIX dlsym(): a function's address
 * read through a void *). */
typedef struct {
  const char *name;
  void **slot;
} KicDynSymbol;

/* Open SONAME and fill every slot of SYMBOLS (N_SYMBOLS of them); the
 * library stays open to the end of the process.  FALSE with ERROR (naming
 * SONAME and what the loader said) when it cannot be opened or lacks a
 * symbol; the slots are then left NULL. */
gboolean kic_dynlib_open (const char *soname, const KicDynSymbol *symbols, gsize n_symbols, GError **error);

#endif /* KIC_DYNLIB_H */
