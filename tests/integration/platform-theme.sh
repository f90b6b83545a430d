#!/bin/sh
# platform-theme.sh - KF6 with and without the KDE platform theme
# (tests/oracle/FINDINGS.md §l): a process that loads plasma-integration 6's
# platform theme (every Qt 6 program of a Plasma session, plasmashell too)
# builds KIconLoader::global() before breeze is Qt's fallback theme, so its
# theme list is the current theme, its inherits and hicolor: breeze is
# searched once for a breeze user, not at all for a user of a theme that
# does not inherit it.  The tool models the menu's process that way when the
# plugin is installed, and proves a plan for the processes without it too.
#
# The root: breeze (apps/48), "plain" (inherits hicolor only) and hicolor;
# kicb is a breeze SVG and a different hicolor PNG; the menu asks kicb.
# 1. --explain, hand-derived from iconloader.c's rule (no KDE needed).
# 2. With the KF6 root (tests/oracle/kf6/make-root.sh, as root): KF6 itself
#    with QT_QPA_PLATFORMTHEME=kde and without, against --explain with and
#    without the plugin in the root; and after --rebuild --theme plain, both
#    processes load what they loaded before (main's planner, which priced
#    breeze for both, linked breeze's SVG into plain: the platform theme's
#    process then showed it instead of hicolor's PNG).
# 3. The fixture roots of oracle-kf6.sh with the plugin: KF6 with the
#    platform theme against ours, every path and call count.
. "$(dirname "$0")/lib.sh"

unset XDG_DATA_DIRS XDG_CONFIG_DIRS XDG_DATA_HOME XDG_CONFIG_HOME
TAB=$(printf '\t')
R=$WORK/root
PLUGIN=usr/lib/x86_64-linux-gnu/qt6/plugins/platformthemes/KDEPlasmaPlatformTheme6.so

mkdir -p "$R/usr/lib/x86_64-linux-gnu" "$R/usr/share/icons/breeze/apps/48" "$R/usr/share/icons/hicolor/48x48/apps" \
  "$R/usr/share/icons/plain/48x48/apps" "$R/usr/share/applications"
# an empty file: KF6 is detected, breeze is not built in (no ELF to read)
: > "$R/usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.6"
printf '[Icon Theme]\nName=Breeze\nInherits=hicolor\nDirectories=apps/48\n\n[apps/48]\nSize=48\nContext=Applications\nType=Scalable\nMinSize=16\nMaxSize=256\n' \
  > "$R/usr/share/icons/breeze/index.theme"
printf '[Icon Theme]\nName=Plain\nInherits=hicolor\nDirectories=48x48/apps\n\n[48x48/apps]\nSize=48\nContext=Applications\nType=Fixed\n' \
  > "$R/usr/share/icons/plain/index.theme"
printf '[Icon Theme]\nName=Hicolor\nDirectories=48x48/apps\n\n[48x48/apps]\nSize=48\nContext=Applications\nType=Threshold\n' \
  > "$R/usr/share/icons/hicolor/index.theme"
svg_file "$R" usr/share/icons/breeze/apps/48/kicb.svg '#00aa00'
python3 - "$R/usr/share/icons/hicolor/48x48/apps/kicb.png" <<'PY'
import struct, sys, zlib
raw = b"".join(b"\x00" + bytes([200, 0, 0]) * 48 for _ in range(48))
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 48, 48, 8, 2, 0, 0, 0))
                              + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY
printf '[Desktop Entry]\nType=Application\nName=Kicb\nExec=kicb\nIcon=kicb\n' > "$R/usr/share/applications/kicb.desktop"
# an absolute Icon=: Plasma 6 looks its base name up (FINDINGS.md §j, §l)
mkdir -p "$R/usr/share/pixmaps"
cp "$R/usr/share/icons/hicolor/48x48/apps/kicb.png" "$R/usr/share/pixmaps/kicabs.png"
printf '[Desktop Entry]\nType=Application\nName=Kicabs\nExec=kicabs\nIcon=/usr/share/pixmaps/kicabs.png\n' \
  > "$R/usr/share/applications/kicabs.desktop"

# absolute_calls: the report's calls before the rebuild for the absolute
# Icon= at 48 px, and --explain's for its base name
absolute_calls () {
  "$BIN" -q --root "$R" --theme plain --dry-run --json | python3 -c '
import json, sys
for n in json.load(sys.stdin)["names"]:
    if n["name"] == "/usr/share/pixmaps/kicabs.png":
        print(" ".join(str(s["calls_before"]) for s in n["sizes"] if s["size"] == 48))'
}
base_calls () {
  "$BIN" -q --root "$R" --theme plain --explain --size 48 kicabs | sed -n 's/^=> .*[(,] \([0-9]*\) calls\?)$/\1/p'
}

# searched THEME WANT: the "themes searched" of --explain kicb at 48 px
searched () {
  _got=$("$BIN" -q --root "$R" --theme "$1" --explain --size 48 kicb | sed -n 's/.*; themes searched: //p')
  [ "$_got" = "$2" ]
  ok $? "$3: --theme $1 searches $2"
  [ "$_got" = "$2" ] || diag "got: $_got"
}
# found THEME WANT-PATH TEXT
found () {
  _got=$("$BIN" -q --root "$R" --theme "$1" --explain --size 48 kicb | sed -n 's/^=> \([^ ]*\) .*/\1/p')
  [ "$_got" = "$2" ]
  ok $? "$3: --theme $1 finds kicb at $2"
  [ "$_got" = "$2" ] || diag "got: $_got"
}

# --- 1. the model -----------------------------------------------------------
searched breeze "breeze, breeze, hicolor" "no platform theme"
searched plain "plain, breeze, hicolor" "no platform theme"
searched hicolor "hicolor, breeze, hicolor" "no platform theme"
found plain /usr/share/icons/breeze/apps/48/kicb.svg "no platform theme"
"$BIN" --root "$R" -v --list > /dev/null 2> "$WORK/v.none"
! grep -q 'KDE platform theme' "$WORK/v.none"
ok $? "no platform theme: -v does not name it"
a=$(absolute_calls)
[ "$a" = 0 ]
ok $? "no platform theme: an absolute Icon= costs 0 calls (got '$a')"
mkdir -p "$(dirname "$R/$PLUGIN")"
: > "$R/$PLUGIN"
searched breeze "breeze, hicolor" "platform theme"
searched plain "plain, hicolor" "platform theme"
searched hicolor "hicolor, hicolor" "platform theme"
found plain /usr/share/icons/hicolor/48x48/apps/kicb.png "platform theme"
"$BIN" --root "$R" -v --list > /dev/null 2> "$WORK/v.kde"
grep -q 'profile: kf6 .*, KDE platform theme)' "$WORK/v.kde"
ok $? "platform theme: -v names it"
a=$(absolute_calls) b=$(base_calls)
[ -n "$b" ] && [ "$b" -gt 0 ] && [ "$a" = "$b" ]
ok $? "platform theme: an absolute Icon= costs its base name's lookup ($a calls, kicabs $b)"
# the plan: a link in plain for hicolor's PNG (what the platform theme's
# process finds) would hide breeze's SVG from the processes without it
"$BIN" -q --root "$R" --theme plain --rebuild --dry-run > "$WORK/plan.kde"
! grep -q "^link${TAB}/usr/share/icons/plain/" "$WORK/plan.kde"
ok $? "platform theme: no link in plain (the processes without it find breeze's kicb)"
grep "^link${TAB}" "$WORK/plan.kde" | sed 's/^/#   /'

# --- 2. KF6 itself ------------------------------------------------------------
K=$TOP/tests/oracle/kf6
KF6_ROOT=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-trixie}
lib=$KF6_ROOT/usr/lib/x86_64-linux-gnu
if [ ! -f "$KF6_ROOT/.kic-kf6-stamp" ] || [ "$(id -u)" -ne 0 ] || [ ! -f "$lib/qt6/plugins/platformthemes/KDEPlasmaPlatformTheme6.so" ]; then
  _tap_n=$((_tap_n + 1))
  echo "ok $_tap_n # SKIP no KF6 root with plasma-integration at $KF6_ROOT, or not root"
  echo "1..$_tap_n"
  finish; exit
fi
export KIC_KF6_ROOT="$KF6_ROOT" TMPDIR="$WORK"
# the real libraries (under their file names, which carry the release our
# profile follows: a cp -L of the soname had 6.30 planned with 6.13's
# rules) and plugin, so that our detection sees what KDE runs
# shellcheck source=tests/oracle/kf6/libs.sh
. "$K/libs.sh"
rm -f "$R/usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.6"
kf6_copy_libs "$KF6_ROOT" "$R" || { echo "Bail out! cannot copy $KF6_ROOT's KF6 libraries"; exit 1; }
cp -L "$lib/qt6/plugins/platformthemes/KDEPlasmaPlatformTheme6.so" "$R/$PLUGIN"
printf 'kicb\nkic-none\nkicb-extra\n' > "$WORK/names"

# kde_counts LABEL PT: KF6's NAME SIZE COUNT PATH, with the platform theme or not
kde_counts () {
  _e=
  [ "$2" = kde ] && _e=QT_QPA_PLATFORMTHEME=kde
  ORACLE_EXTRA_ENV="$_e" "$K/probe-count.sh" "$R" "$3" 16,48 < "$WORK/names" > "$WORK/$1.kde" 2> "$WORK/$1.err"
}
# our_counts_here LABEL THEME: ours, in the same form
our_counts_here () {
  for _s in 16 48; do
    xargs "$BIN" -q --root "$R" --theme "$2" --kde=kf6 --explain --size "$_s" < "$WORK/names" |
      awk -v s="$_s" '/ at [0-9]+ px; themes searched/ { name = $0; sub(/ at [0-9]+ px; themes searched.*/, "", name) }
        /^=> / { p = $2; if ($2 == "not") p = "-"; n = $0; sub(/.*[(,] ?/, "", n); sub(/ calls?\)$/, "", n)
                 print name "\t" s "\t" n "\t" p }'
  done | sort > "$WORK/$1.ours"
}
for theme in plain breeze hicolor; do
  kde_counts "$theme-kde" kde "$theme"
  our_counts_here "$theme-kde" "$theme"
  sort "$WORK/$theme-kde.kde" > "$WORK/$theme-kde.kdes"
  [ -s "$WORK/$theme-kde.kdes" ] && cmp -s "$WORK/$theme-kde.kdes" "$WORK/$theme-kde.ours"
  ok $? "$theme: KF6 with QT_QPA_PLATFORMTHEME=kde and ours with the plugin: same paths and calls"
  diff "$WORK/$theme-kde.kdes" "$WORK/$theme-kde.ours" | head -n 10 | sed 's/^/#   /'
done
# and without it, where the model's list has breeze as the fallback
mv "$R/$PLUGIN" "$WORK/plugin.so"
for theme in plain breeze; do
  kde_counts "$theme-none" none "$theme"
  our_counts_here "$theme-none" "$theme"
  sort "$WORK/$theme-none.kde" > "$WORK/$theme-none.kdes"
  [ -s "$WORK/$theme-none.kdes" ] && cmp -s "$WORK/$theme-none.kdes" "$WORK/$theme-none.ours"
  ok $? "$theme: KF6 without the platform theme and ours without the plugin: same paths and calls"
  diff "$WORK/$theme-none.kdes" "$WORK/$theme-none.ours" | head -n 10 | sed 's/^/#   /'
done
mv "$WORK/plugin.so" "$R/$PLUGIN"

# the promise for both processes, plain current
for pt in none kde; do
  _e=
  [ "$pt" = kde ] && _e=QT_QPA_PLATFORMTHEME=kde
  ORACLE_EXTRA_ENV="$_e" "$K/run.sh" "$R" plain 16,22,32,48,64 < "$WORK/names" > "$WORK/before.$pt" 2>/dev/null
done
"$BIN" -q --root "$R" --theme plain --rebuild
for pt in none kde; do
  _e=
  [ "$pt" = kde ] && _e=QT_QPA_PLATFORMTHEME=kde
  ORACLE_EXTRA_ENV="$_e" "$K/run.sh" "$R" plain 16,22,32,48,64 < "$WORK/names" > "$WORK/after.$pt" 2>/dev/null
  # the same file, or one with the same bytes (a link); "-" only as "-"
  paste "$WORK/before.$pt" "$WORK/after.$pt" | while IFS="$TAB" read -r n s b _n _s a; do
    [ "$b" = "$a" ] && continue
    case "$b|$a" in -\|*|*\|-|:*|*\|:*) echo "$n $s: $b -> $a"; continue ;; esac
    cmp -s "$R$b" "$R$a" || echo "$n $s: $b -> $a"
  done > "$WORK/changed.$pt"
  [ -s "$WORK/before.$pt" ] && [ ! -s "$WORK/changed.$pt" ]
  ok $? "after --rebuild --theme plain ($(grep -c '^link' "$R/var/lib/kde-icon-cache/manifest") links), KF6 ($pt platform theme) loads the same bytes for every (name, size)"
  sed 's/^/#   /' "$WORK/changed.$pt"
done
! cmp -s "$WORK/before.none" "$WORK/before.kde"
ok $? "the two processes load different files for kicb (the test can tell them apart)"

# 3. wider: oracle-kf6.sh's fixture roots with the plugin, against KF6 with
# QT_QPA_PLATFORMTHEME=kde (compare.sh: every Icon=, every icon's base
# name, two missing names; paths and calls at 16-48 px): no difference
cases="basic oddtheme nobreeze hicolor-current papirus-like empty"
fixtures "$WORK/fx" $cases
for c in $cases; do
  F=$WORK/fx/$c
  mkdir -p "$(dirname "$F/$PLUGIN")"
  cp -L "$lib/qt6/plugins/platformthemes/KDEPlasmaPlatformTheme6.so" "$F/$PLUGIN"
  fixture_names "$F" > "$WORK/$c.names"
  ORACLE_EXTRA_ENV=QT_QPA_PLATFORMTHEME=kde KIC_BIN="$BIN" "$K/compare.sh" --counts "$F" "$(root_theme "$F")" 16,22,32,48 \
    < "$WORK/$c.names" > "$WORK/$c.cmp" 2> "$WORK/$c.sum"
  st=$?
  grep '^compare.sh: [0-9]' "$WORK/$c.sum" | sed 's/^/# /'
  [ $st -eq 0 ] && grep -q ' lookups counted, ' "$WORK/$c.sum" && [ ! -s "$WORK/$c.cmp" ]
  ok $? "$c: KF6 with the platform theme and ours with its plugin agree on every path and call count"
  head -n 10 "$WORK/$c.cmp" | sed 's/^/#   /'
done

echo "1..$_tap_n"
finish
