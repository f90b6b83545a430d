#!/bin/sh
# xpm-png.sh - an XPM icon planted as its PNG twin renders the same pixels
# in KDE
#
# The corpus: the distinct XPM files of the realistic tree's Debian
# packages (games, science and X11 programs) that are icon-sized (at most
# 256x256), at least 200, each put in /usr/share/pixmaps of a fixture root
# under a name of its own with a menu entry.  After --rebuild, every XPM
# the tool made a PNG of (<store>/files/....xpm.png, linked as .png in
# hicolor, with UnthemedLinks=true) is loaded by path in the KF5 helper (KIconLoader::loadIcon,
# ARGB32 hash) beside its PNG: the same pixels at 8 px and at the spread
# oracle-wide.sh renders every name at (16, 22, 32, 48, 64, 128), and at
# every size 8-256 for the XPM menu icons of the realistic tree.  Then the
# menu names at 48 px: the same pixels.
# make stress (KIC_STRESS=1) renders the whole corpus at every size 8-256
# (the corpus-wide sweep: make check's sweep is the menu's icons').
# (KF5 stores each render in its icon cache as a PNG, so a render costs
# about its pixel count: the corpus at every size 8-48 and at 64, 128 and
# 256 px was a third of this test's pixels, the menu's icons the rest.)
. "$(dirname "$0")/lib.sh"
need_oracle

plan 9
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
S=/var/lib/kde-icon-cache
# the menu's XPM icons of the realistic tree: full sweep below
icon_names "$T" | while read -r icon; do
  for f in "$T/usr/share/pixmaps/$icon" "$T/usr/share/pixmaps/$icon.xpm"; do
    case $f in *.xpm) [ -f "$f" ] && sha256sum < "$f" | cut -d' ' -f1 ;; esac
  done
done | sort -u > "$WORK/menu-sums"
find "$T/usr" -name '*.xpm' -type f | LC_ALL=C sort | xargs sha256sum | LC_ALL=C sort -u -k1,1 > "$WORK/all"
n=0
while read -r sum path; do
  size=$(sed -n '/^"/{s/^"\([0-9]*\) \([0-9]*\).*/\1 \2/p;q}' "$path")
  [ "${size% *}" -le 256 ] 2>/dev/null && [ "${size#* }" -le 256 ] 2>/dev/null || continue
  n=$((n + 1))
  cp "$path" "$R/usr/share/pixmaps/kicxpm$n.xpm"
  printf '[Desktop Entry]\nType=Application\nName=kicxpm%s\nExec=true\nIcon=kicxpm%s\n' "$n" "$n" \
    > "$R/usr/share/applications/kicxpm$n.desktop"
  echo "kicxpm$n" >> "$WORK/names"
  grep -qx "$sum" "$WORK/menu-sums" && echo "kicxpm$n.xpm" >> "$WORK/menu-files"
done < "$WORK/all"
[ "$n" -ge 200 ]
ok $? "a corpus of $n distinct icon-sized XPM files from the realistic tree's packages (at least 200)"

. "$TOP/tests/oracle/oracle-env.sh"
oracle_run "$R" breeze "$ORACLE" --render --sizes 48 < "$WORK/names" | cut -f1,2,4 > "$WORK/before"
# (an icon only in /usr/share/pixmaps gets a link in a theme only with
# UnthemedLinks=true: plan-choose.c, theme_forbids; the twins are what
# that link points to)
mkdir -p "$R/etc"
printf '[kde-icon-cache]\nUnthemedLinks=true\n' > "$R/etc/kde-icon-cache.conf"
"$BIN" -q --root "$R" --theme breeze
ok $? "--rebuild exits 0 (UnthemedLinks=true)"
grep '^file	[^	]*\.xpm\.png	' "$R$S/manifest" | cut -f2,3 > "$WORK/pngs"
converted=$(wc -l < "$WORK/pngs")
[ "$converted" -ge 150 ]
ok $? "$converted of $n XPM files are planted as PNG (the rest use colour names or more than 256 colours)"
bad=0
while IFS="$(printf '\t')" read -r png xpm; do
  [ "$(head -c 8 "$R$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "# not a PNG: $png"; bad=1; }
done < "$WORK/pngs"
is "$bad" 0 "every generated file in the store is a PNG"

# KF5 itself on each pair, loaded by path (no search)
pixels () { # pixels SIZES < paths: FILE SIZE RENDER (FILE: the XPM's base name)
  oracle_run "$R" breeze "$ORACLE" --render --sizes "$1" |
    awk -F '\t' '{ n = $1; sub(/.*\//, "", n); sub(/\.png$/, "", n); print n "\t" $2 "\t" $4 }'
}
if [ -n "${KIC_STRESS:-}" ]; then sizes=$(seq -s, 8 256) what="every size 8-256"
else sizes=8,16,22,32,48,64,128 what="8, 16, 22, 32, 48, 64 and 128 px"; fi
# (the XPM and the PNG sides run side by side: KF5's renders are most of
# this test's time, one core each)
cut -f2 "$WORK/pngs" | sed "s|^|$R|" | pixels "$sizes" > "$WORK/xpm-pixels" &
cut -f1 "$WORK/pngs" | sed "s|^|$R|" | pixels "$sizes" > "$WORK/png-pixels"
wait
[ -s "$WORK/xpm-pixels" ] && ! grep -q '	-$' "$WORK/xpm-pixels"
ok $? "KF5 loads every converted XPM ($(wc -l < "$WORK/xpm-pixels") renders)"
same_answers "$WORK/xpm-pixels" "$WORK/png-pixels"
ok $? "KF5 renders each of the $converted PNGs exactly as its XPM at $what"
grep -F -f "$WORK/menu-files" "$WORK/pngs" | cut -f2 | sed "s|^|$R|" > "$WORK/menu-xpm"
grep -F -f "$WORK/menu-files" "$WORK/pngs" | cut -f1 | sed "s|^|$R|" > "$WORK/menu-png"
pixels "$(seq -s, 8 256)" < "$WORK/menu-xpm" > "$WORK/menu-xpm-pixels" &
pixels "$(seq -s, 8 256)" < "$WORK/menu-png" > "$WORK/menu-png-pixels"
wait
[ -s "$WORK/menu-xpm-pixels" ] && same_answers "$WORK/menu-xpm-pixels" "$WORK/menu-png-pixels"
ok $? "the realistic tree's $(wc -l < "$WORK/menu-xpm") converted XPM menu icons: the same pixels at every size 8-256"
# and through the menu names: the lookup now ends at the PNG, same pixels
oracle_run "$R" breeze "$ORACLE" --render --sizes 48 < "$WORK/names" | cut -f1,2,4 > "$WORK/after"
same_answers "$WORK/before" "$WORK/after"
ok $? "KDE shows the same pixels for all $n menu names at 48 px after the rebuild"
name=$(sed -n '1s|.*/\(kicxpm[0-9]*\)\.xpm$|\1|p' "$WORK/menu-xpm")
"$BIN" -q --root "$R" --theme breeze --explain --size 48 "$name" | tail -n 1 > "$WORK/explain"
grep -q '/icons/hicolor/.*\.png (' "$WORK/explain"
ok $? "KDE's lookup ends at the PNG in hicolor: $(cat "$WORK/explain")"
finish
