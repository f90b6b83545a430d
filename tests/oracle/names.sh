#!/bin/sh
# names.sh TREE  -- the icon-name list for conformance tests (one per line).
#
#  1. every Icon= value of TREE's .desktop files (usr/share/applications and
#     below; all sections, not the localised Icon[xx]= keys), raw, deduplicated;
#  2. a deterministic sample of names the themes hold (evenly spaced picks from
#     the C-sorted basename lists): breeze apps/mimetypes/places/actions/status,
#     Papirus apps, oxygen apps/mimetypes, Adwaita, all of hicolor, pixmaps;
#  3. breeze names that only some sizes have (present in one size dir of a context);
#  4. derived names: theme names with a "-kic-suffix" (found by dash truncation),
#     names with an extension (.png/.svg/.xpm/.jpg), media-type prefixed names
#     (text-…, image-…, application-x-…, …), mime names from mime/generic-icons,
#     and names nobody has.
# Output order: groups in the order above, first occurrence kept.  ~500-700 names.
set -eu
[ $# -eq 1 ] || { echo "usage: names.sh TREE" >&2; exit 2; }
T=$(cd "$1" && pwd)
I=$T/usr/share/icons
export LC_ALL=C

# basenames (no extension) of icon files under the given dirs, sorted, unique
bases() {
    for d in "$@"; do [ -d "$d" ] && find "$d" \( -type f -o -type l \) \
        \( -name '*.png' -o -name '*.svg' -o -name '*.svgz' -o -name '*.xpm' \); done |
        sed 's|.*/||; s/\.[^.]*$//' | sort -u
}
# pick K evenly spaced lines from stdin
pick() {
    awk -v k="$1" '{ a[NR] = $0 } END { if (NR <= k) { for (i = 1; i <= NR; i++) print a[i]; exit }
        for (j = 0; j < k; j++) print a[int(j * NR / k) + 1] }'
}
# dirs of a theme matching a context name, e.g. ctxdirs breeze apps
ctxdirs() { find "$I/$1" -mindepth 1 -maxdepth 3 -type d -name "$2" 2>/dev/null; find "$I/$1" -mindepth 1 -maxdepth 1 -type d -name "$2" 2>/dev/null; }

{
    # 1. desktop files
    find "$T/usr/share/applications" -name '*.desktop' 2>/dev/null | sort |
        xargs -r grep -h '^Icon[[:space:]]*=' | sed 's/^Icon[[:space:]]*=[[:space:]]*//; s/[[:space:]]*$//'

    # 2. theme samples
    bases $(ctxdirs breeze apps) | pick 70
    bases $(ctxdirs breeze mimetypes) | pick 50
    bases $(ctxdirs breeze places) | pick 25
    bases $(ctxdirs breeze actions) | pick 40
    bases $(ctxdirs breeze status) $(ctxdirs breeze devices) | pick 20
    bases "$I/Papirus/64x64/apps" | pick 70
    bases $(ctxdirs oxygen apps) | pick 35
    bases $(ctxdirs oxygen mimetypes) | pick 15
    bases "$I/Adwaita" | pick 20
    bases "$I/hicolor"
    bases "$T/usr/share/pixmaps" | pick 30

    # 3. breeze names present in exactly one size dir of their context
    for c in apps actions places devices; do
        find "$I/breeze/$c" -mindepth 2 -maxdepth 2 \( -type f -o -type l \) -name '*.svg' 2>/dev/null |
            sed 's|.*/||; s/\.svg$//' | sort | uniq -c | awk '$1 == 1 { print $2 }' | pick 10
    done

    # 4. derived names
    bases $(ctxdirs breeze apps) | pick 15 | sed 's/$/-kic-suffix/'
    bases "$I/hicolor" | pick 10 | sed 's/$/-kic-suffix/'
    bases $(ctxdirs breeze apps) | pick 5 | sed 's/$/.png/'
    bases "$I/hicolor" | pick 5 | sed 's/$/.svg/'
    bases "$T/usr/share/pixmaps" | pick 5 | sed 's/$/.xpm/'
    bases $(ctxdirs breeze apps) | pick 3 | sed 's/$/.jpg/'
    printf '%s\n' text-kic-foo image-viewer-kic-foo image-kic application-x-kic-foo audio-x-kic \
        video-kic-player inode-kic x-content-kic-foo x-epoc-kic text-x-generic application-x-generic \
        folder-kic-foo utilities-terminal-kic org.kde.kic-no-such-app kic-no-such-icon \
        Kic_No_Such.Icon kic-a-b-c-d-e-f
    [ -f "$T/usr/share/mime/generic-icons" ] &&
        sed 's/:.*//; s|/|-|' "$T/usr/share/mime/generic-icons" | sort -u | pick 20
} | awk 'NF && !seen[$0]++'
