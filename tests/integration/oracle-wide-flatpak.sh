#!/bin/sh
# oracle-wide-flatpak.sh - oracle-wide.sh on a root with Flatpak
# applications of the same IDs as .debs, KDE asked in the session a login
# gets there (KIC_WIDE_FLATPAK=1: the exports first in XDG_DATA_DIRS)
KIC_WIDE_FLATPAK=1 exec sh "$(dirname "$0")/oracle-wide.sh"
