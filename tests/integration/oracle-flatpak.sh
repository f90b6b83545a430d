#!/bin/sh
# oracle-flatpak.sh - a root with Flatpak applications, in the session a
# login gets there, asked of KDE itself
#
# Debian's flatpak puts /var/lib/flatpak/exports/share first in every
# login's XDG_DATA_DIRS (its user environment generator and
# /etc/profile.d/flatpak.sh); the dpkg trigger and the timer run without
# it.  On the realistic tree with flatpak and three Flatpak applications of
# the same IDs as .debs installed (tests/oracle/flatpak-layer.sh; their
# icons other files than the .debs'), the KF5 helper in that session (the
# exports first) must load the same bytes for every name of
# tests/oracle/names.sh and the Flatpaks' IDs at 16, 22, 32 and 48 px
# before and after a rebuild run as the trigger runs it (no XDG_DATA_DIRS);
# the rebuild must name the exports and their origin (-v), --explain the
# exported file, and an application removed from the exports must make
# --check say out of date (the exports are inputs, stamped).
. "$(dirname "$0")/lib.sh"
need_oracle

plan 6
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
. "$TOP/tests/oracle/oracle-env.sh"
DEBS=${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}

# the root before (flatpak and the applications), and a view of it to rebuild
writable_view "$T" "$WORK/f"
F=$VIEW
"$TOP/tests/oracle/flatpak-layer.sh" "$DEBS" "$T" "$F" > "$WORK/ids" || { echo "Bail out! flatpak-layer.sh failed"; exit 1; }
writable_view "$F" "$WORK/v"
V=$VIEW
trap 'umount "$V" 2>/dev/null; umount "$F" 2>/dev/null; rm -rf "$WORK"' EXIT

{ "$TOP/tests/oracle/names.sh" "$T"; cat "$WORK/ids"; } | LC_ALL=C sort -u > "$WORK/names"
ORACLE_SESSION_DIRS=/var/lib/flatpak/exports/share
export ORACLE_SESSION_DIRS
theirs "$F" breeze 16 22 32 48 < "$WORK/names" > "$WORK/paths-before"
# (the session's KDE loads the Flatpaks' icons, or this test shows nothing)
n_fp=$(grep -c '	/var/lib/flatpak/' "$WORK/paths-before")
[ "$n_fp" -ge "$(($(wc -l < "$WORK/ids") * 4))" ]
ok $? "before: KDE in the session loads a Flatpak's exported icon for $n_fp (name, size) pairs"

env -u XDG_DATA_DIRS "$BIN" --root "$V" -v > "$WORK/rebuild.out" 2> "$WORK/rebuild.err"
rc=$?
grep -q '^kde-icon-cache: data directories: /var/lib/flatpak/exports/share:/usr/local/share:/usr/share (/usr/lib/systemd/user-environment-generators/60-flatpak added /var/lib/flatpak/exports/share)' "$WORK/rebuild.err"
named=$?
[ $rc -eq 0 ] && [ $named -eq 0 ]
ok $? "--rebuild exits 0 ($rc) and -v names the exports and the generator that adds them"
[ $named -eq 0 ] || sed 's/^/#   /' "$WORK/rebuild.err" | head -n 5

theirs "$V" breeze 16 22 32 48 < "$WORK/names" > "$WORK/paths-after"
with_content "$F" < "$WORK/paths-before" > "$WORK/before"
with_content "$V" "$V" < "$WORK/paths-after" > "$WORK/after"
! grep -q '	missing$' "$WORK/before" "$WORK/after" && same_answers "$WORK/before" "$WORK/after"
ok $? "KDE in the session loads the same bytes for all $(wc -l < "$WORK/after") (name, size) pairs after the rebuild ($(grep -c '^link' "$V/var/lib/kde-icon-cache/manifest") links)"

id=$(head -n 1 "$WORK/ids")
env -u XDG_DATA_DIRS "$BIN" --root "$V" --explain --size 48 "$id" > "$WORK/explain" 2>&1
# (its result: a link to the store's copy of the Flatpak's file, or the
# exported file itself)
res=$(sed -n 's/^=> \([^ ]*\) .*/\1/p' "$WORK/explain")
case $res in
  /var/lib/flatpak/exports/*) to=$res ;;
  *) to=$(grep "^link	$res	" "$V/var/lib/kde-icon-cache/manifest" | cut -f3) ;;
esac
grep -q '^data directories: /var/lib/flatpak/exports/share:' "$WORK/explain" &&
  case $to in /var/lib/flatpak/*|*/var/lib/kde-icon-cache/files/var/lib/flatpak/*) true ;; *) false ;; esac
ok $? "--explain $id names the session's directories, and its result is the Flatpak's icon (${res:-none})"
[ $? -eq 0 ] || sed 's/^/#   /' "$WORK/explain" | grep -v '^#  *[0-9]' | head -n 5

env -u XDG_DATA_DIRS "$BIN" --root "$V" --check > /dev/null 2>&1
ok $? "--check: up to date after the rebuild"
# flatpak uninstall: the application's exports go
find "$V/var/lib/flatpak/exports/share" -name "$id.*" -exec rm {} +
env -u XDG_DATA_DIRS "$BIN" --root "$V" --check > /dev/null 2>&1
[ $? -eq 1 ]
ok $? "--check: out of date once $id's exports are removed"
finish
