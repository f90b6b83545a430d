#!/bin/bash
# qt-sweep.sh [TREE]  -- supplement to experiment.sh, Qt only (no KDE lookup):
# KF5's createIconImage() reads both a PNG and an SVG through QImageReader with
# setScaledSize(); this compares, for 12 hicolor PNGs of each of 16, 22, 24, 32
# and 48 px, QImageReader(png) against QImageReader(make-wrapper.sh svg) at
# 16 22 24 32 44 48 64 96 px.  Compared premultiplied (as KDE's QPixmap holds
# them; the SVG reader returns premultiplied data, the PNG reader straight).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TREE=${1:-/work/cache/tree}
TOOL=$HERE/kic-wraptool
export QT_QPA_PLATFORM=offscreen KIC_WRAPTOOL=$TOOL
make -s -C "$HERE" kic-wraptool
D=$(mktemp -d "${TMPDIR:-/tmp}/kic-qt-sweep.XXXXXX"); trap 'rm -rf "$D"' EXIT
for d in 16x16 22x22 24x24 32x32 48x48; do ls "$TREE"/usr/share/icons/hicolor/$d/apps/*.png 2>/dev/null | head -12; done |
while read -r f; do
    s=$("$TOOL" size "$f" | cut -d' ' -f1)
    "$HERE/make-wrapper.sh" "$f" "$D/w.svg"
    for S in 16 22 24 32 44 48 64 96; do
        if [ "$S" = "$s" ]; then k=same; elif [ "$S" -lt "$s" ]; then k=down; else k=up; fi
        "$TOOL" svgrender "$f" "$S" "$S" "$D/p.png"
        "$TOOL" svgrender "$D/w.svg" "$S" "$S" "$D/s.png"
        echo "$s $S $k $("$TOOL" cmp "$D/p.png" "$D/s.png")"
    done
done | awk '{k = $1 "->" $2 " " $3; t[k]++; if ($6 == 0 || $9 == 0) i[k]++; else if ($9 > m[k]) m[k] = $9}
    END {for (k in t) printf "%-14s %5s identical (premultiplied), max premultiplied diff %d\n", k, (i[k] + 0) "/" t[k], m[k]}' |
    sort -t' ' -k1,1V
