/* dpkg.h - which package ships a file (what `dpkg -S` says), read from the
 * dpkg database inside the root, so that it works under --root too */
#ifndef KIC_DPKG_H
#define KIC_DPKG_H

#include "fsindex.h"

#include <glib.h>

/* For each path of WANTED (a set of paths inside the root), the package
 * whose file list (/var/lib/dpkg/info/<package>.list) holds it.  Paths no
 * package ships are absent.  transfer full: path -> package */
GHashTable *kic_dpkg_owners (KicFsIndex *index, GHashTable *wanted);

#endif /* KIC_DPKG_H */
