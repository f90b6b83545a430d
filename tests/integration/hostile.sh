#!/bin/sh
# hostile.sh - trees shaped to hurt: links out of the root, files that are
# not what they say, garbage, huge lines and lists, loops, odd names, a
# full disk and a read-only tree.  Nothing may be read or written outside
# the root, nothing half written, nothing lost, no crash, bounded memory.
. "$(dirname "$0")/lib.sh"

plan 31
S=/var/lib/kde-icon-cache
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
H=$R/usr/share/icons/hicolor
mkdir -p "$R/var/lib"

# -- links that point out of the root ---------------------------------
mkdir -p "$WORK/outside/icons/hicolor/48x48/apps" "$WORK/outside/theme"
printf '<svg xmlns="http://www.w3.org/2000/svg"/>\n' > "$WORK/outside/icons/hicolor/48x48/apps/kicout.svg"
cp "$R/usr/share/icons/breeze/index.theme" "$WORK/outside/theme/index.theme"
ln -s "$WORK/outside/theme" "$R/usr/share/icons/kicabs"            # absolute: means <root>$WORK/...
ln -s ../../../../../../../../../outside/theme "$R/usr/share/icons/kicrel"  # climbs past the root
ln -s / "$R/usr/share/icons/kicroot"                               # the root itself
printf '[Desktop Entry]\nType=Application\nName=Out\nIcon=kicout\n' > "$R/usr/share/applications/kicout.desktop"
printf '[Desktop Entry]\nType=Application\nName=Shadow\nIcon=../../../../etc/kicshadow\n' > "$R/usr/share/applications/kicshadow.desktop"
printf '[Desktop Entry]\nType=Application\nName=Abs\nIcon=/etc/kicshadow.png\n' > "$R/usr/share/applications/kicabs.desktop"
# a name that climbs into a sibling directory, where a link may be planted
printf '[Desktop Entry]\nType=Application\nName=Dot\nIcon=../22/hiscalable\n' > "$R/usr/share/applications/kicdotdot.desktop"
mkdir -p "$R/etc"
printf '\211PNG\r\n\032\nsecret' > "$R/etc/kicshadow.png"; chmod 600 "$R/etc/kicshadow.png"
# an icon only root may read, and one that is not what its name says
cp "$R/usr/share/icons/breeze/apps/48/"*.svg "$H/scalable/apps/kicprivate.svg" 2>/dev/null || true
printf '<svg xmlns="http://www.w3.org/2000/svg"/>\n' > "$H/scalable/apps/kicprivate.svg"; chmod 600 "$H/scalable/apps/kicprivate.svg"
printf 'this is not an svg\n' > "$H/scalable/apps/kicfake.svg"
for n in kicprivate kicfake; do
  printf '[Desktop Entry]\nType=Application\nName=%s\nIcon=%s\n' "$n" "$n" > "$R/usr/share/applications/$n.desktop"
done
find "$WORK/outside" -printf '%p %T@ %s\n' | sort > "$WORK/outside-before"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
ok $? "a rebuild of a tree with links out of the root exits 0"
find "$WORK/outside" -printf '%p %T@ %s\n' | sort > "$WORK/outside-after"
cmp -s "$WORK/outside-before" "$WORK/outside-after"
ok $? "nothing outside the root changed"
is "$("$BIN" -q --root "$R" --resolve kicout)" "kicout	-" "an icon reachable only through a link out of the root is not found"
is "$(for s in 16 22 32 48; do "$BIN" -q --root "$R" --resolve --size $s ../22/hiscalable; done | cut -f2 | sort -u)" "-" \
  "Icon=../22/name finds no planted link (found by fuzzing: the proof now sees it)"
! grep -q "kicshadow" "$R$S/manifest"
ok $? "Icon= with .. or an absolute path is never copied"
! grep -q "kicprivate" "$R$S/manifest"
ok $? "an icon only root may read is never copied"
grep -q "kicprivate.svg' is not readable by every user: not copied" "$WORK/err"
ok $? "... and that is reported"
! grep -q "kicfake" "$R$S/manifest"
ok $? "an .svg that is no SVG is never copied"
is "$(find "$R$S" -newer "$R$S/manifest" -name '.*.kic-*' | wc -l)" 0 "no temporary file is left"
is "$(stat -c %a "$R$S/files")" 755 "store directories are 0755 whatever the umask"
(umask 077; "$BIN" -q --root "$R" --clean; "$BIN" -q --root "$R")
is "$(find "$R$S" -type f ! -perm 0644 ! -name lock ! -name fingerprint | wc -l)" 0 "store files are 0644 under umask 077"
# it names every input the run read, some maybe in directories others
# cannot list (issue 19, row 3)
is "$(stat -c %a "$R$S/fingerprint")" 600 "... but the fingerprint, 0600"

# -- garbage, huge lines, loops, odd names ---------------------------
A=$R/usr/share/applications
head -c 65536 /dev/urandom > "$A/kicgarbage.desktop"
{ printf '[Desktop Entry]\nType=Application\nName='; head -c 10485760 /dev/zero | tr '\0' x; printf '\nIcon=kate\n'; } > "$A/kichuge.desktop"
printf '[Desktop Entry]\nType=Application\nName=NL\nIcon=kic\\nnewline\n' > "$A/kicnewline.desktop"
printf '[Desktop Entry]\nType=Application\nName=Tab\nIcon=kic\\ttab\n' > "$A/kictab.desktop"
ln -s loop2.desktop "$A/loop1.desktop"; ln -s loop1.desktop "$A/loop2.desktop"
mkdir -p "$A/sub"; ln -s .. "$A/sub/up"
ln -s kicloopb "$R/usr/share/icons/kicloopa"; ln -s kicloopa "$R/usr/share/icons/kicloopb"
ln -s kicself.svg "$H/scalable/apps/kicself.svg"
/usr/bin/time -f %M -o "$WORK/mem" "$BIN" --root "$R" > /dev/null 2> "$WORK/err"
ok $? "a rebuild past garbage, a 10 MB line, loops and odd names exits 0"
grep -q "kicgarbage.desktop" "$WORK/err"
ok $? "the garbage file gets a warning naming it"
manifest_consistent "$R"
ok $? "the manifest matches the disk"
awk -F '\t' '!/^#/ && NF != 3 && NF != 4 { bad = 1 } END { exit bad }' "$R$S/manifest" &&
  ! grep -q 'newline' "$R$S/manifest" && ! grep -qP 'kic\ttab' "$R$S/manifest"
ok $? "names with a newline or a tab are never planted; every manifest line splits cleanly"
diag "peak memory with a 10 MB .desktop line: $(cat "$WORK/mem") KiB"
# (AddressSanitizer's shadow memory and quarantine take several times more)
case $BIN in *build-asan*) limit=1000000 ;; *) limit=200000 ;; esac
[ "$(cat "$WORK/mem")" -lt "$limit" ]
ok $? "memory stays bounded (under $limit KiB)"

# -- an index.theme with 10 000 directories, an inherits cycle -------
T=$R/usr/share/icons/kicbig
mkdir -p "$T/d1"
{ printf '[Icon Theme]\nName=Big\nInherits=kicbig,hicolor,kicbig\nDirectories='
  seq 1 10000 | sed 's/^/d/' | paste -sd, -
  seq 1 10000 | awk '{ printf "[d%d]\nSize=%d\nType=Fixed\n", $1, $1 % 300 + 1 }'; } > "$T/index.theme"
/usr/bin/time -f '%e %M' -o "$WORK/big" "$BIN" -q --root "$R" --theme kicbig --list > /dev/null
ok $? "a theme with 10 000 directories and a self-inheriting cycle works"
diag "10 000 directories: $(cut -d' ' -f1 "$WORK/big") s, $(cut -d' ' -f2 "$WORK/big") KiB"

# -- 100 000 .desktop files ------------------------------------------
fixtures "$WORK/many" empty
M=$WORK/many/empty/usr/share/applications
perl -e 'for my $i (1..100000) { open my $f, ">", "$ARGV[0]/kic$i.desktop" or die; print $f "[Desktop Entry]\nType=Application\nName=App $i\nIcon=kicmany$i\n"; }' "$M"
/usr/bin/time -f '%e %M' -o "$WORK/many-time" "$BIN" -q --root "$WORK/many/empty" --list > "$WORK/many-list"
ok $? "100 000 .desktop files are listed"
is "$(grep -c '^kic[0-9]*\.desktop' "$WORK/many-list")" 400000 "... each at four sizes"
diag "100 000 .desktop files: $(cut -d' ' -f1 "$WORK/many-time") s, $(cut -d' ' -f2 "$WORK/many-time") KiB"

# -- a full disk, a read-only tree (root only: mounts) ----------------
if [ "$(id -u)" != 0 ] || ! command -v strace > /dev/null || ! mount -t tmpfs -o size=256k tmpfs "$R$S" 2>/dev/null; then
  for i in 1 2 3 4 5 6 7 8 9 10 11; do ok 0 "# SKIP needs root, strace and tmpfs"; done
  finish; exit
fi
"$BIN" -q --root "$R"
ok $? "a rebuild into a small store works"
tree_state "$R" > "$WORK/full-before"
kde () { for n in kate hiscalable kicplant; do "$BIN" -q --root "$R" --resolve "$n"; done; }
kde > "$WORK/kde-before"
head -c 600000 /dev/urandom | { printf '<svg xmlns="http://www.w3.org/2000/svg"><!-- '; base64 -w0; printf ' --></svg>\n'; } > "$H/scalable/apps/kicbig.svg"
printf '[Desktop Entry]\nType=Application\nName=Big\nIcon=kicbig\n' > "$A/kicbig.desktop"
# the store's budget (issue 19, row 7): a copy that would leave its file
# system less than its reserve free is not written
"$BIN" --root "$R" 2> "$WORK/err"; is $? 0 "a copy its file system has no room for: the rebuild goes on (0)"
grep -q "no more icons are cached in this run" "$WORK/err"
ok $? "... saying so"
! grep -q kicbig "$R$S/manifest" && state_consistent "$R"
ok $? "... and that icon is not cached, the rest is consistent"
# a full disk all the same (the budget is asked before a write): past the
# journal's file and directory, every fsync fails with ENOSPC, as on a
# file system that allocates late
printf '<svg xmlns="http://www.w3.org/2000/svg"/>\n' > "$H/scalable/apps/kicbig.svg"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -qq -o /dev/null -e trace=fsync \
  -e inject=fsync:error=ENOSPC:when=3+ "$BIN" -q --root "$R" 2> "$WORK/err"; is $? 3 "a full disk is an error (3)"
grep -q "No space left on device" "$WORK/err"
ok $? "... saying so"
is "$(find "$R$S" -name '.*.kic-*' | wc -l)" 0 "nothing half written is left"
kde > "$WORK/kde-after"
cmp -s "$WORK/kde-before" "$WORK/kde-after" && state_consistent "$R" && [ "$(dangling_links "$R" | wc -l)" = 0 ]
ok $? "the previous state is intact: same icons, nothing of ours astray, no dangling link"
rm "$A/kicbig.desktop"
mount --bind "$R/usr/share/icons" "$R/usr/share/icons" && mount -o remount,bind,ro "$R/usr/share/icons"
"$BIN" -q --root "$R" --clean 2> "$WORK/err"; is $? 3 "removing links from a read-only tree is an error (3)"
grep -q "Read-only file system" "$WORK/err"
ok $? "... saying so"
umount "$R/usr/share/icons"
state_consistent "$R"
ok $? "and the state it left is consistent"
umount "$R$S"
finish
