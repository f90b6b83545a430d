/* mime-icons.h - the mime icon name -> generic icon name table of KDE's
 * generic fallback (KIconLoaderGlobalData; KF6: QMimeDatabase)
 */
#ifndef KIC_MIME_ICONS_H
#define KIC_MIME_ICONS_H

#include "fsindex.h"
#include "profile.h"

#include <glib.h>

/* The table PROFILE's KDE builds from the mime files of DATA_DIRS (as
 * INDEX sees them): mime icon name -> generic icon name.  transfer full */
GHashTable *kic_mime_generic_icons (KicFsIndex *index, const KicProfileTable *profile, char **data_dirs);

#endif /* KIC_MIME_ICONS_H */
