#!/bin/sh
# oracle-kf6.sh - the kf6 profile against KDE Frameworks 6 itself, when it
# is installed (kiconfinder6, package kf6-kiconthemes-bin on Debian 13).
#
# kiconfinder6 prints KIconLoader::iconPath(NAME, Desktop) for the tree in
# XDG_DATA_DIRS; we ask the same with --kde=kf6 --resolve (Desktop group
# size).  The embedded breeze of the host's library (kde-lookup.md §2.2)
# is the host's breeze, not the tree's: the host library is copied into
# the tree so that detection sees the same flag, and names the host's
# breeze holds are left out when it is embedded.
. "$(dirname "$0")/lib.sh"

KF6=$(command -v kiconfinder6 || true)
[ -n "$KF6" ] || skip_all "kiconfinder6 not installed (KDE Frameworks 6 is Debian 13's; this system has none), the kf6 profile is checked by profiles.sh only"
lib=$(ls /usr/lib/*-linux-gnu*/libKF6IconThemes.so.6 2>/dev/null | head -n 1)
[ -n "$lib" ] || skip_all "kiconfinder6 found but not libKF6IconThemes.so.6"

cases="basic oddtheme nobreeze hicolor-current papirus-like"
plan 5
fixtures "$WORK/fx" $cases
for c in $cases; do
  R=$WORK/fx/$c
  mkdir -p "$R/usr/lib/x86_64-linux-gnu" && cp "$lib" "$R/usr/lib/x86_64-linux-gnu/"
  embedded=$("$BIN" -v --root "$R" --list 2>&1 >/dev/null | grep -c 'breeze embedded' || true)
  theme=$(root_theme "$R")
  icon_names "$R" | while IFS= read -r name; do
    if [ "$embedded" -gt 0 ] && [ -n "$(find /usr/share/icons/breeze -name "${name%.*}.svg" -print -quit)" ]; then
      continue
    fi
    . "$TOP/tests/oracle/oracle-env.sh"
    theirs=$(oracle_run "$R" "$theme" "$KF6" "$name" 2>/dev/null) || theirs=-
    theirs=${theirs#"$R"}
    ours=$("$BIN" -q --root "$R" ${theme:+--theme "$theme"} --kde=kf6 --resolve "$name" | cut -f2)
    [ "$theirs" = "$ours" ] || printf '%s\t%s\t%s\n' "$name" "$theirs" "$ours"
  done > "$WORK/$c.diff"
  [ ! -s "$WORK/$c.diff" ]
  ok $? "$c: KF6 and kde-icon-cache --kde=kf6 agree on every Icon= name"
  [ -s "$WORK/$c.diff" ] && sed 's/^/# /' "$WORK/$c.diff"
done
finish
