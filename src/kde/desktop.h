/* desktop.h - the menu's .desktop files and their Icon= values */
#ifndef KIC_DESKTOP_H
#define KIC_DESKTOP_H

#include "fsindex.h"

#include <glib.h>

typedef struct {
  char *id;   /* desktop-file ID, e.g. "kde4-foo.desktop" */
  char *path; /* the file, inside the root */
  char *icon; /* Icon= as written; NULL when the key is missing */
} KicDesktopEntry;

void kic_desktop_entry_free (KicDesktopEntry *entry);

/* What reading one .desktop or .directory file gave, kept by the state
 * (state.h) so that the next run need not read it again while its stamp
 * (fingerprint.h) says it did not change. */
typedef struct {
  gboolean hidden;
  char *icon;              /* as kic_desktop_parse() gives it, NULL: none */
  const KicFsStamp *stamp; /* (in KicDesktopMemo.known) the file's, as it is now */
} KicDesktopRead;

void kic_desktop_read_free (gpointer read);

/* The scans' memo: KNOWN (may be NULL; real path -> KicDesktopRead*) the
 * files whose reads a previous run kept and whose stamps show them as
 * they were then: taken as read (the index keeps the stamp, as if read
 * now) instead of opened; READ (may be NULL; filled, real path -> a new
 * KicDesktopRead*, stamp NULL) every file this scan read or took that
 * gave no warning (one that warns is read again by the next run, which
 * warns again). */
typedef struct {
  GHashTable *known;
  GHashTable *read;
} KicDesktopMemo;

/* Every .desktop file under "<datadir>/applications" of DATA_DIRS,
 * sorted by desktop-file ID.  A file KDE would not show (Hidden=true) is
 * left out; a file that cannot be read or parsed is one warning naming it.
 * MEMO (may be NULL): reads kept from a previous run, and this one's.
 * transfer full: KicDesktopEntry* */
GPtrArray *kic_desktop_scan (KicFsIndex *index, char **data_dirs, KicDesktopMemo *memo);

/* Every .directory file of the XDG menu: those under
 * "<datadir>/desktop-directories" of DATA_DIRS (for one ID, the earliest
 * data directory wins) and those in the <DirectoryDir> directories that
 * the .menu files under "<configdir>/menus" and
 * "<configdir>/menus/applications-merged" of CONFIG_DIRS name; sorted by
 * ID.  Hidden ones are left out, as in kic_desktop_scan().  MEMO (may be
 * NULL) as for kic_desktop_scan().
 * transfer full: KicDesktopEntry* */
GPtrArray *kic_desktop_scan_directories (KicFsIndex *index, char **data_dirs, char **config_dirs,
                                         KicDesktopMemo *memo);

/* Parse one .desktop file's text.  Returns FALSE with ERROR for a broken
 * file; TRUE with *ICON NULL when there is no Icon= or the entry is hidden,
 * *HIDDEN telling which. */
gboolean kic_desktop_parse (const char *origin, const char *data, gsize length, char **icon,
                            gboolean *hidden, GError **error);

#endif /* KIC_DESKTOP_H */
