/* dynlib.h - a library opened when a run first needs it
 *
 * json-glib (--json) and libXpm (an XPM icon turned into its PNG twin)
 * bring 9 and 6 more libraries with them (gio, gobject, libmount,
 * libselinux...; libX11, libxcb...).  Linked, the dynamic loader maps and
 * relocates all of them at every start: measured with perf stat -r 300
 * on an empty program linked with all of the tool's libraries, 5.3 ms of
 * CPU time against 1.4 ms without those two (2026-12, the development
 * VM), paid by the incremental rebuild a dpkg trigger runs, which needs
 * neither.  So the two are opened by their
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

/* A library a module needs, opened once a run: its soname and symbols,
 * then what opening it gave. */
typedef struct {
  const char *soname;
  const KicDynSymbol *symbols;
  gsize n_symbols;
  gboolean tried;
  GError *failed; /* why it could not be opened (kept to the end of the run) */
} KicDynLib;

/* LIB opened (kic_dynlib_open(), at the first call only): FALSE with
 * ERROR, the same each time, when it could not be. */
gboolean kic_dynlib_need (KicDynLib *lib, GError **error);

#endif /* KIC_DYNLIB_H */
