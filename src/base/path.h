/* path.h - clean absolute paths
 *
 * Pure: no path is looked up on disk here.
 */
#ifndef KIC_PATH_H
#define KIC_PATH_H

#include <glib.h>

/* Lexically clean PATH ("//", "/./", "/../"; ".." stops at "/"), the way
 * Qt's QDir::cleanPath does; a relative PATH is first taken from the
 * current directory.  The one normalisation of paths (--root, --output,
 * the XDG directories, paths built while resolving).  transfer full */
char *kic_path_clean (const char *path);

/* Is PATH absolute and what kic_path_clean() gives of it: no empty, "."
 * or ".." component, no '/' at the end but in "/"?  Without a copy (asked
 * of every path the state, the fingerprint and the writer read). */
gboolean kic_path_is_clean (const char *path);

/* The relative target of a link at LINK pointing to TARGET (both clean
 * and absolute): "../../…/var/lib/kde-icon-cache/…".  transfer full */
char *kic_relative_link (const char *link, const char *target);

/* DIR (clean and absolute) joined with NAME (one component: no '/'), as
 * g_build_filename() joins them, without its general splitting (asked of
 * every entry of a listing a change reached).  transfer full */
char *kic_path_child (const char *dir, const char *name);

/* Is PATH DIR or below it (both clean and absolute)? */
gboolean kic_path_is_under (const char *path, const char *dir);

#endif /* KIC_PATH_H */
