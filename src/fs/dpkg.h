/* dpkg.h - which package ships a file: `dpkg-query --search`, with the
 * dpkg database inside the root, so that it works under --root too */
#ifndef KIC_DPKG_H
#define KIC_DPKG_H

#include "fsindex.h"

#include <glib.h>

/* For each path of WANTED (a set of paths inside the root), the package
 * that ships it ("a, b" when several do).  Paths no package ships are
 * absent; so is everything when dpkg-query is missing.
 * transfer full: path -> package */
GHashTable *kic_dpkg_owners (KicFsIndex *index, GHashTable *wanted);

#endif /* KIC_DPKG_H */
