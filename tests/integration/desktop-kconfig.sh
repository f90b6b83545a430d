#!/bin/sh
# desktop-kconfig.sh - .desktop files read as KDE reads them: KService
# loads each with KDesktopFile (KConfig), which skips a line it cannot
# parse and reads on, takes yes/on as true for Hidden= and has its own
# escapes.  Files with stray lines, broken group headers, CRLF, a NUL
# byte, odd escapes: the Icon= of every entry KDE lists (the KF5 helper
# tests/oracle/kic-desktop) must be the one kde-icon-cache plans for
# (--list), and the entries KDE hides must not be listed.
. "$(dirname "$0")/lib.sh"
DESKTOP_ORACLE=$TOP/tests/oracle/kic-desktop
[ -x "$DESKTOP_ORACLE" ] || skip_all "KF5 helper not built ($DESKTOP_ORACLE; needs libkf5config-dev)"

R=$WORK/root
A=$R/usr/share/applications
mkdir -p "$A"
d () { printf "$2" > "$A/$1.desktop"; }   # d NAME PRINTF-FORMAT
d s01 '[Desktop Entry]\nType=Application\nthis is junk\nIcon=kicstray1\n'
d s02 '[Desktop Entry]\nIcon=kicstray2\njunk after\n'
d s03 'junk before\n[Desktop Entry]\nIcon=kicstray3\n'
d s04 '[Desktop Entry\nIcon=kicstray4\n'
d s05 '[Desktop Entry]\n=value\nIcon=kicstray5\n'
d s06 '[Desktop Entry]\nIcon=kicdup-a\nIcon=kicdup-b\njunk\n'
d s07 '[Desktop Entry]\nIcon=kicspace   \njunk\n'
d s08 '[Desktop Entry]\nIcon=kic\\sesc\n'
d s09 '[Desktop Entry]\nIcon=kicgroup-a\n[Desktop Entry]\nIcon=kicgroup-b\n'
d s10 '[Desktop Entry]\njunk\nHidden=true\nIcon=kichidden\n'
d s11 '[Desktop Entry]\nIcon = kicspaced\njunk\n'
d s12 '[Desktop Entry]\n\377\376 junk\nIcon=kicnonutf\n'
d s13 '[Desktop Entry]\r\nIcon=kiccrlf\r\njunk\r\n'
d s14 '[Desktop Entry]\nName[de]=x\nIcon[de]=kicde\nIcon=kicnotde\njunk\n'
d s15 '[Desktop Entry]\nIcon=kicnul\n\000junk\n'
d s16 '[Desktop Entry]junk\nIcon=kicafter\n'
d s17 'Icon=kicnogroup\n'
d s18 '[Desktop Entry]\n[Other]\nIcon=kicother\n'
d s19 '[Desktop Entry]\nIcon=kicstray19\n[broken\nIcon=kicstray19b\n'
d s20 '[Desktop Entry]\nHidden=yes\nIcon=kichid2\n'
d s21 '[Desktop Entry]\nIcon=kicunterm\\\n'
d s22 '[Desktop Entry]\n  junk with spaces\nIcon=kic22\n'
d s23 '[Desktop Entry]\n#comment\nIcon=kic23\n; not a comment for KConfig\n'
d s24 '[Desktop Entry][Sub]\nIcon=kicsub\n'
d s25 '[Desktop Entry]\nIcon=kic\\qx\n'
d s26 '[Desktop Entry]\nIcon=kic\\x41z\n'
d s27 '[Desktop Entry]\nIcon=kic\\\\back\n'
d s28 '[Desktop Entry]\nHidden=On\njunk\nIcon=kichid3\n'
d s29 '[Desktop Entry]\nIcon=kicplain\n'

# KDE: FILE HIDDEN ICON, in a hermetic environment
T=$WORK/kde-env
mkdir -p "$T/config" "$T/dirs" "$T/home"
env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME="$T/home" XDG_CONFIG_HOME="$T/config" XDG_CONFIG_DIRS="$T/dirs" \
  "$DESKTOP_ORACLE" "$A"/*.desktop 2> /dev/null > "$WORK/kde.raw"
ok $? "the KF5 helper read $(wc -l < "$WORK/kde.raw") files"
# the entries KDE lists with an icon: ID<TAB>ICON
awk -F '\t' -v OFS='\t' '$2 == 0 && $3 != "" { n = split($1, p, "/"); print p[n], $3 }' "$WORK/kde.raw" |
  LC_ALL=C sort > "$WORK/kde"
"$BIN" --root "$R" --list --size 48 > "$WORK/list" 2> "$WORK/err"
ok $? "--list exits 0"
awk -F '\t' -v OFS='\t' '$2 != "" { print $1, $2 }' "$WORK/list" | LC_ALL=C sort > "$WORK/ours"
[ "$(wc -l < "$WORK/kde")" -ge 20 ] && same_answers "$WORK/kde" "$WORK/ours"
ok $? "every entry KDE lists has the Icon= KDE reads ($(wc -l < "$WORK/kde") entries), and no other"
# the hidden ones are not listed at all
awk -F '\t' '$2 == 1 { n = split($1, p, "/"); print p[n] }' "$WORK/kde.raw" | LC_ALL=C sort > "$WORK/kde-hidden"
[ -s "$WORK/kde-hidden" ] && ! cut -f1 "$WORK/list" | grep -qxF -f "$WORK/kde-hidden"
ok $? "the entries KDE hides are not listed ($(paste -sd' ' "$WORK/kde-hidden"))"
# a file with stray lines: one warning naming it, none quoting the line
is "$(grep -c "warning: $A/s01.desktop" "$WORK/err")" 1 "a stray line: one warning naming the file"
! grep -q 'this is junk' "$WORK/err"
ok $? "... without quoting the line"
tap_done
