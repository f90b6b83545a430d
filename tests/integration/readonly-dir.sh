#!/bin/sh
# readonly-dir.sh - a link directory the run may not write, as the
# service's sandbox makes one (ProtectSystem=strict where ReadWritePaths=
# does not reach): emulated with a read-only bind mount in a mount
# namespace of its own (unshare -m).  The basic fixture plants in KDE's
# application base /usr/share/plasmashell/icons/hicolor/48x48/apps, which
# is made read-only: the rebuild warns once naming it, --quiet as the
# timer runs, and plants the rest (exit 0, man page: a directory root may
# not plant in), a link of ours already there that should go stays
# listed, its copy gone so that KDE skips it, the change log gets every
# change, and with --quiet a log that cannot be written is still said.
# Before this test, the first link there stopped the run (exit 3, "cannot
# create link ...: Read-only file system") and --quiet hid the log's
# failure.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (mount)"
unshare -m true 2> /dev/null || skip_all "needs unshare -m (util-linux) and mount namespaces"
plan 17
S=/var/lib/kde-icon-cache
P=/usr/share/plasmashell/icons/hicolor/48x48/apps
LOG=/var/log/kde-icon-cache.log
fixtures "$WORK/fx" basic
fresh () { rm -rf "$WORK/$1"; cp -a "$WORK/fx/basic" "$WORK/$1"; mkdir -p "$WORK/$1/var/log"; echo "$WORK/$1"; }
# ro ROOT DIR CMD...: CMD with ROOT's DIR read-only, in a namespace of its own
ro () {
  _r=$1 _d=$1$2; shift 2
  unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"' sh "$_d" "$@"
}
links () { awk -F '\t' '$1 == "link" { print $2 }' "$1$S/manifest" | sort; }

# -- a new tree: the directory read-only from the start ------------------
R=$(fresh r1)
"$BIN" -q --root "$R" --dry-run | awk -F '\t' '$1 == "link" { print $2 }' | sort > "$WORK/planned"
n=$(grep -c "^$P/" "$WORK/planned")
[ "$n" -gt 0 ] && [ "$(grep -vc "^$P/" "$WORK/planned")" -gt 0 ]
ok $? "the fixture plans links in $P ($n) and elsewhere (the test can see both)"
ro "$R" /usr/share/plasmashell/icons "$BIN" -q --root "$R" > /dev/null 2> "$WORK/err1"
is "$?" 0 "a link directory that is read-only: a quiet rebuild (as the timer's) exits 0"
sed 's/^/# /' "$WORK/err1" | grep -v '\.desktop'
is "$(grep -c "warning: .*'$R$P'.*Read-only file system" "$WORK/err1")" 1 "... with one warning naming it, --quiet as it is"
is "$(wc -l < "$WORK/err1")" 1 "... and nothing else: no error, no warning per link"
is "$(find "$R$P" -lname '*kde-icon-cache*' | wc -l)" 0 "... no link of ours in it"
links "$R" > "$WORK/placed"
grep -v "^$P/" "$WORK/planned" | cmp -s - "$WORK/placed"
ok $? "... every other link of the plan planted ($(wc -l < "$WORK/placed"))"
manifest_consistent "$R"
ok $? "... the manifest lists what is on disk"
awk -F '\t' '$3 == "link" { print $4 }' "$R$LOG" 2> /dev/null | sort | cmp -s - "$WORK/placed"
ok $? "... and the change log every link planted"

# -- links of ours there already, and one of them no longer wanted --------
R=$(fresh r2)
"$BIN" -q --root "$R"
grep -q "^link	$P/kde4sub.png	" "$R$S/manifest" && grep -q "^link	/usr/local/share/icons/hicolor/32x32/apps/kde4sub.png	" "$R$S/manifest"
ok $? "a rebuild with the directory writable plants kde4sub in it and elsewhere"
rm "$R/usr/share/applications/kde4/subapp.desktop"
ro "$R" /usr/share/plasmashell/icons "$BIN" --root "$R" > /dev/null 2> "$WORK/err2"
is "$?" 0 "kde4sub's menu entry removed, the directory read-only: the rebuild exits 0"
is "$(grep -c "warning: .*'$R$P'.*Read-only file system" "$WORK/err2")" 1 "... with one warning naming it"
[ -L "$R$P/kde4sub.png" ] && grep -q "^link	$P/kde4sub.png	" "$R$S/manifest" &&
  ! grep -q "^link	/usr/local/share/icons/hicolor/32x32/apps/kde4sub.png	" "$R$S/manifest" &&
  [ ! -e "$R/usr/local/share/icons/hicolor/32x32/apps/kde4sub.png" ]
ok $? "... the link it cannot remove stays, listed; the one it can is gone"
# (its copy goes with the plan: KDE skips a link that points nowhere, and
# loads what it would without it, not yesterday's icon)
is "$(manifest_consistent "$R"):$(dangling_links "$R")" "# dangling link $P/kde4sub.png:$R$P/kde4sub.png" \
  "... its copy is gone, the one link of ours that dangles; the rest is as the manifest says"
ro "$R" /usr/share/plasmashell/icons "$BIN" -q --root "$R" --clean 2> "$WORK/err3"
is "$?" 3 "--clean that cannot remove a link: exit 3"
[ -L "$R$P/kde4sub.png" ] && grep -q "^link	$P/kde4sub.png	" "$R$S/manifest" && [ -z "$(state_consistent "$R" | grep -v "dangling link $P/kde4sub.png")" ] &&
  [ "$(grep -c '^link' "$R$S/manifest")" -gt 1 ]
ok $? "... and the link, the store and the manifest stay"

# -- the change log read-only, with --quiet ------------------------------
R=$(fresh r3)
ro "$R" /var/log "$BIN" -q --root "$R" > /dev/null 2> "$WORK/err4"
is "$?" 0 "/var/log read-only: a quiet rebuild exits 0"
sed 's/^/# /' "$WORK/err4"
grep -q "warning: .*'$R$LOG'.*Read-only file system.*not logged" "$WORK/err4" && [ "$(wc -l < "$WORK/err4")" = 1 ]
ok $? "... and says, --quiet as it is, that its changes are not logged (that alone)"
finish
