#!/bin/sh
# per-user.sh - what a root run cannot see: a user's own icons
#
# SECURITY.md and kde-icon-cache(8) say what can change for a user who
# keeps icon files of their own (~/.local/share/icons, their own Flatpak
# installation's exports): a name the tool plants that such a file also
# carries is found for them in the planted link first.  Shown with KF5
# itself on the realistic tree, a user with their own org.gnome.Chess at
# 16-48 px (hicolor, in their data home inside the root):
#   1. before the rebuild KDE loads the user's own file for them;
#   2. after it, the link's at 48 px: the documented limit is true;
#   3. --shadowed, run as that user (nobody), names org.gnome.Chess with
#      the link and their own file, and nothing that is not theirs;
#   4. with ExcludeNames=org.gnome.Chess the rebuild plants no link for it,
#      and KDE loads the user's own file again at every size;
#   5. --shadowed then lists nothing of org.gnome.Chess;
# and the same for a user's own Flatpak installation (flatpak installed on
# the root, so that their login has ~/.local/share/flatpak/exports/share
# first): their Flatpak's org.gnome.Calculator before, the link after,
# named by --shadowed.
. "$(dirname "$0")/lib.sh"
need_oracle setpriv
[ "$(id -u)" -eq 0 ] || skip_all "needs root (a view of the tree, a run as nobody)"
plan 9
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
. "$TOP/tests/oracle/oracle-env.sh"
writable_view "$T" "$WORK/v"
V=$VIEW
chmod 755 "$WORK"
name=org.gnome.Chess
u=/home/user/.local/share
for s in 16 22 32 48; do
  mkdir -p "$V$u/icons/hicolor/${s}x$s/apps"
  donor=$(find "$T/usr/share/icons/hicolor/${s}x$s/apps" -name '*.png' | LC_ALL=C sort | head -n 1)
  cp "$donor" "$V$u/icons/hicolor/${s}x$s/apps/$name.png"
done
# flatpak on the root, and the user's own Flatpak of org.gnome.Calculator
mkdir -p "$V/usr/bin" "$V/usr/lib/systemd/user-environment-generators"
: > "$V/usr/bin/flatpak"
: > "$V/usr/lib/systemd/user-environment-generators/60-flatpak"
fpname=org.gnome.Calculator
fx=$u/flatpak/exports/share
for s in 16 22 32 48; do
  mkdir -p "$V$fx/icons/hicolor/${s}x$s/apps"
  donor=$(find "$T/usr/share/icons/hicolor/${s}x$s/apps" -name '*.png' | LC_ALL=C sort | sed -n 2p)
  cp "$donor" "$V$fx/icons/hicolor/${s}x$s/apps/$fpname.png"
done
chmod -R a+rX "$V/home"
echo "$name" > "$WORK/name"
echo "$fpname" > "$WORK/fpname"
# KDE for that user: their data home first, their own Flatpak's exports
# first of the data directories
as_user () { ORACLE_DATA_HOME=$1$u ORACLE_SESSION_DIRS=$fx theirs "$1" breeze 16 22 32 48 < "${2:-$WORK/name}"; }

as_user "$V" > "$WORK/before"
is "$(cut -f3 "$WORK/before" | sed "s|^$u/icons/hicolor/[0-9x]*/apps/$name.png$|own|" | sort -u)" "own" \
  "before the rebuild KDE loads the user's own $name at 16-48 px"

as_user "$V" "$WORK/fpname" > "$WORK/fp-before"
"$BIN" -q --root "$V" > "$WORK/rebuild.out" 2>&1
as_user "$V" > "$WORK/after"
as_user "$V" "$WORK/fpname" > "$WORK/fp-after"
now48=$(awk -F '\t' '$2 == 48 { print $3 }' "$WORK/after")
grep -q "^link	$now48	" "$V/var/lib/kde-icon-cache/manifest"
ok $? "after it KDE loads the planted link for them at 48 px ($now48): the limit SECURITY.md states"

shadowed () { setpriv --reuid 65534 --regid 65534 --clear-groups env -u XDG_DATA_DIRS HOME=/home/user \
  XDG_DATA_HOME=$u "$BIN" --root "$V" --shadowed > "$WORK/shadowed" 2> "$WORK/shadowed.err"; }
shadowed
rc=$?
grep -q "^$name	48	$now48	$u/icons/hicolor/48x48/apps/$name.png\$" "$WORK/shadowed" && [ $rc -eq 0 ] &&
  [ "$(cut -f1 "$WORK/shadowed" | sort -u | paste -sd' ')" = "$fpname $name" ]
ok $? "--shadowed, run as the user, names $name, the link and their own file ($(wc -l < "$WORK/shadowed") lines, exit $rc)"
fpnow=$(awk -F '\t' '$2 == 48 { print $3 }' "$WORK/fp-after")
is "$(cut -f3 "$WORK/fp-before" | sed "s|^$fx/icons/hicolor/[0-9x]*/apps/$fpname.png$|own|" | sort -u):$(grep -c "^link	$fpnow	" "$V/var/lib/kde-icon-cache/manifest")" "own:1" \
  "their own Flatpak's $fpname: KDE loaded it at 16-48 px before the rebuild, the link at 48 px after"
grep -q "^$fpname	48	$fpnow	$fx/icons/hicolor/48x48/apps/$fpname.png\$" "$WORK/shadowed"
ok $? "... and --shadowed names it with their Flatpak's file"
sed 's/^/#   /' "$WORK/shadowed" "$WORK/shadowed.err" | head -n 8
# --size asks those sizes only: one of them here, no other size looked up
# (under ASan a read past the sizes given is an error)
setpriv --reuid 65534 --regid 65534 --clear-groups env -u XDG_DATA_DIRS HOME=/home/user \
  XDG_DATA_HOME=$u "$BIN" --root "$V" --shadowed --size 48 > "$WORK/shadowed48" 2> "$WORK/shadowed48.err"
is "$?:$(cut -f2 "$WORK/shadowed48" | sort -u | paste -sd' '):$(grep -c "^$name	48	" "$WORK/shadowed48")" "0:48:1" \
  "--shadowed --size 48 lists the name at 48 px and at no other size"

printf '[kde-icon-cache]\nExcludeNames=%s\n' "$name" > "$V/etc/kde-icon-cache.conf"
"$BIN" -q --root "$V" > "$WORK/rebuild.out" 2>&1
rc=$?
! grep -q "^link	[^	]*/$name\.[a-z]*	" "$V/var/lib/kde-icon-cache/manifest" && [ $rc -eq 0 ]
ok $? "ExcludeNames=$name: the rebuild (exit $rc) leaves no link for it"
as_user "$V" > "$WORK/excluded"
same_answers "$WORK/before" "$WORK/excluded"
ok $? "... and KDE loads the user's own file again at 16-48 px"
shadowed
is "$?:$(grep -c "^$name	" "$WORK/shadowed")" "0:0" "--shadowed then lists nothing of $name"
finish
