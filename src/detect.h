/* detect.h - which KDE a root runs, from the libraries installed in it
 *
 * kic_profile_new() (profile.c) asks these when --kde is auto, and for
 * what only the installed libraries tell: KDE 4's release and KF6's
 * embedded breeze (kde-lookup.md §2.2).
 */
#ifndef KIC_DETECT_H
#define KIC_DETECT_H

#include "fsindex.h"
#include "profile.h"

#include <glib.h>

/* PROFILE's table: the generation whose icon library is installed, newest
 * first (KF5 when there is none); PROFILE->found: that library. */
void kic_detect_generation (KicProfile *profile, KicFsIndex *index);

/* KDE 4's release: VERSION (--kde-version), else the installed libkdeui's,
 * else 4.14.2, jessie's, the last; and whether it has the /apps/ pass. */
void kic_detect_kde4_version (KicProfile *profile, KicFsIndex *index, const char *version);

/* KF6: whether kiconthemes carries breeze (it links libKF6BreezeIcons),
 * and then what that breeze holds, or why it could not be read. */
void kic_detect_embedded_breeze (KicProfile *profile, KicFsIndex *index);

/* The DT_NEEDED entries of the ELF shared object DATA (32 or 64 bit,
 * either byte order); NULL when it is not one.  transfer full */
char **kic_elf_needed (const char *data, gsize length);

#endif /* KIC_DETECT_H */
