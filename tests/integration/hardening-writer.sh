#!/bin/sh
# hardening-writer.sh - issue 19's rows of the writer and the planner, each
# reproduced on a copy of the basic fixture: a theme directory that is a
# link out of the themes, a link seen through another theme's directory, a
# private file behind a link, a hostile index.theme, sparse and huge
# icons, a thousand directories under "ulimit -n 1024", an icon that changes
# while it is read, temporary names taken by someone else, a device node
# swapped in, two files for one store copy, and the errors the writer used
# to drop (readdir, the exchange back, futimens, the directory's fsync).
# Races are made deterministic: the run is held still at a call by a hook
# (paused_run, lib.sh) while the other party acts, or strace makes a call
# fail.  Each row's checks failed against the
# binary of main at 15f5baa (36 of the 46; the other ten are the runs and
# set-ups the failing ones rest on, which main passes too).
. "$(dirname "$0")/lib.sh"

command -v strace > /dev/null || skip_all "needs strace"
[ "$(id -u)" = 0 ] || skip_all "needs root (chown, mknod, a store under /var/lib)"
plan 67
S=/var/lib/kde-icon-cache
fixtures "$WORK/fx" basic
fresh () { rm -rf "$WORK/$1"; cp -a "$WORK/fx/basic" "$WORK/$1"; echo "$WORK/$1"; }
kic () { "$BIN" -q "$@"; }
# strace, and LeakSanitizer off in the sanitizer build (it cannot run under
# ptrace; the runs without strace still check for leaks)
traced () { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -qq "$@"; }
# the links a dry run of ROOT would make
planned () { "$BIN" -q --root "$1" --dry-run | awk -F '\t' -v k="${2:-link}" '$1 == k { print $2 }'; }
# what the model finds for NAME at 16, 22, 32 and 48 px, with the content
# (sha256) of the file: the disk as it is, links and all
seen () { # seen ROOT NAME...
  _r=$1; shift
  for _n in "$@"; do
    for _s in 16 22 32 48; do
      _p=$("$BIN" -q --root "$_r" --resolve --size "$_s" "$_n" | cut -f2)
      printf '%s %s %s\n' "$_n" "$_s" "$([ "$_p" = - ] && echo - || sha256sum < "$_r$_p" | cut -c1-16)"
    done
  done
}
desktop () { # desktop ROOT NAME: a menu entry for NAME
  printf '[Desktop Entry]\nType=Application\nName=%s\nIcon=%s\n' "$2" "$2" > "$1/usr/share/applications/$2.desktop"
}
svg () { printf '<svg xmlns="http://www.w3.org/2000/svg"><!-- %s --></svg>\n' "$1"; }
H=/usr/share/icons/hicolor
B=/usr/share/icons/breeze

# -- row 1: a theme directory that is a link out of the themes -----------
R=$(fresh r1)
# breeze's actions/22 holds planted links in the basic fixture
d=$(planned "$R" | grep "^$B/actions/22/" | head -n 1)
[ -n "$d" ]
ok $? "1: the fixture plants in $B/actions/22 (the test can see a change)"
mkdir -p "$R/etc/kicrotate.d"
rmdir "$R$B/actions/22" 2> /dev/null || mv "$R$B/actions/22/"* "$R/etc/kicrotate.d/" 2> /dev/null
rmdir "$R$B/actions/22" 2> /dev/null; ln -s /etc/kicrotate.d "$R$B/actions/22"
seen "$R" hiscalable kicfirst > "$WORK/seen1"
kic --root "$R" 2> "$WORK/err1"; rc=$?
is "$rc" 0 "1: a theme directory that is a link elsewhere: the rebuild succeeds"
is "$(find "$R/etc" -lname '*kde-icon-cache*' | wc -l)" 0 "1: ... and plants nothing where it leads"
seen "$R" hiscalable kicfirst | cmp -s - "$WORK/seen1"
ok $? "1: ... while KDE shows the same icons"
grep -q '^link' "$R$S/manifest"
ok $? "1: ... and the other names are planted"

# -- row 1b: a theme whose top directory its group may write ------------
# The planner asks the writer's check of every candidate directory, each
# component of its path (the parents are walked once and kept: a parent's
# walk starts from the nearest directory above it walked already); so a
# link below breeze is not planned at all, and the writer has nothing to
# refuse.
R=$(fresh r1b)
chmod g+w "$R$B"
"$BIN" --root "$R" --dry-run > "$WORK/out1b" 2> "$WORK/err1b"
! grep -q "^link	$B/" "$WORK/out1b" && ! grep -q 'no link is planted' "$WORK/err1b" && grep -q "^link	" "$WORK/out1b"
ok $? "1b: breeze writable by its group: no link below it is planned, so none is refused"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err1b"; rc=$?
[ "$rc" = 0 ] && ! grep -q 'no link is planted' "$WORK/err1b" && [ -z "$(find "$R$B" -lname "*kde-icon-cache*")" ]
ok $? "1b: ... and the rebuild plants none there, with no refusal"
grep -q "^link	/usr/local/share/icons/hicolor/" "$R$S/manifest"
ok $? "1b: ... while the other themes' links are planted"

# -- held out: a link seen through another theme's directory ------------
# breeze lists a directory that is a link to hicolor's 22x22/apps (main
# plants "kicsym" there).  A link
# planted there is in breeze too: "kicsym-foo" (in hicolor only, other
# content at 16 px than at 48: no link of its own can keep it) would meet
# "kicsym" there by its dash cut, in breeze, before its own files.
R=$(fresh ra)
svg kicsym > "$R$H/scalable/apps/kicsym.svg"
svg kicsym-foo > "$R$H/scalable/apps/kicsym-foo.svg"
cp "$R$H/16x16/apps/breezepng.png" "$R$H/16x16/apps/kicsym-foo.png"
desktop "$R" kicsym
ln -s ../../hicolor/22x22/apps "$R$B/apps/kicalias22"
sed -i 's|^Directories=|Directories=apps/kicalias22,|' "$R$B/index.theme"
printf '\n[apps/kicalias22]\nSize=22\nContext=Applications\nType=Fixed\n' >> "$R$B/index.theme"
seen "$R" kicsym kicsym-foo > "$WORK/seena"
kic --root "$R" 2> /dev/null
is $? 0 "held out: a theme directory that is a link to another's: the rebuild succeeds"
seen "$R" kicsym kicsym-foo | cmp -s - "$WORK/seena"
ok $? "held out: ... and KDE shows the same for a name that would meet the link through it"

# -- row 3: a link to a private file ------------------------------------
# a user's hicolor directory holds a link to a 0644 file in a 0700 home
R=$(fresh r3)
mkdir -p "$R/home/victim"; chmod 700 "$R/home/victim"
svg "the victim's secret" > "$R/home/victim/secret.svg"; chmod 644 "$R/home/victim/secret.svg"
ln -s /home/victim/secret.svg "$R$H/scalable/apps/kicsecret.svg"
desktop "$R" kicsecret
"$BIN" --root "$R" > /dev/null 2> "$WORK/err3"
is $? 0 "3: a link to a file in a private directory: the rebuild succeeds"
! grep -rqs "secret" "$R$S/files" && ! grep -qs victim "$R$S/manifest"
ok $? "3: ... the file is not copied, nor its name recorded in the manifest"
is "$(stat -c %a "$R$S/fingerprint")" 600 "3: ... and the fingerprint, which lists what was read, is 0600"
is "$(grep -c "home/victim' is not searchable by every user (mode 0700)" "$WORK/err3")" 1 "3: ... with one warning naming the directory"
# a file of one's own made private after the plan: refused at the copy
R=$(fresh r3b)
svg kicmine > "$R$H/scalable/apps/kicmine.svg"
desktop "$R" kicmine
# (held at the journal's rename, the first: the plan is made)
paused_run "$WORK/p3b" renameat:1 "$BIN" -q --root "$R" 2> "$WORK/err3b" &
pid=$!
at_pause "$WORK/p3b"; chmod 600 "$R$H/scalable/apps/kicmine.svg"; resume "$WORK/p3b"
wait $pid; rc=$?
is $rc 0 "3: a file made private while the run works: the rebuild goes on (0)"
! grep -rqs kicmine "$R$S/files"
ok $? "3: ... and it is not copied"
# a directory of one's own made private after the plan: the writer checks
# every directory again before its first copy from it (not the plan's
# verdicts), so the copy is refused there too
R=$(fresh r3c)
mkdir -p "$R/srv/kicown"
svg kicowndir > "$R/srv/kicown/kicowndir.svg"
ln -s /srv/kicown/kicowndir.svg "$R$H/scalable/apps/kicowndir.svg"
desktop "$R" kicowndir
[ -n "$(planned "$R" copy | grep kicowndir)" ]
ok $? "3: a file behind a link into a public directory: the plan copies it"
paused_run "$WORK/p3c" renameat:1 "$BIN" -q --root "$R" 2> "$WORK/err3c" &
pid=$!
at_pause "$WORK/p3c"; chmod 700 "$R/srv/kicown"; resume "$WORK/p3c"
wait $pid; rc=$?
is $rc 0 "3: its directory made private while the run works: the rebuild goes on (0)"
! grep -rqs kicowndir "$R$S/files"
ok $? "3: ... and it is not copied"
# ... and made private, or moved into a private one, after the first copy
# from it: every later copy asks the directories again (each is kept open
# for the pass, so without that the second file would come through)
acl_deny () { # acl_deny PATH UID: an access ACL that denies UID everything
  python3 -c 'import os, struct, sys
e = [(1, 7, 0xffffffff), (2, 0, int(sys.argv[2])), (4, 5, 0xffffffff), (0x10, 5, 0xffffffff), (0x20, 5, 0xffffffff)]
os.setxattr(sys.argv[1], "system.posix_acl_access", struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *x) for x in e))' "$1" "$2"
}
for how in chmod-dir chmod-parent move acl; do
  R=$(fresh r3d-$how)
  mkdir -p "$R/srv/kicown" "$R/srv/kicpriv"; chmod 700 "$R/srv/kicpriv"
  for n in kicaaa kicbbb; do
    svg "$n" > "$R/srv/kicown/$n.svg"
    ln -s "/srv/kicown/$n.svg" "$R$H/scalable/apps/$n.svg"
    desktop "$R" $n
  done
  # (held once the second rename, kicaaa's copy into place, is made: the
  # first is the journal's)
  paused_run "$WORK/p3d-$how" renameat:2:after "$BIN" -q --root "$R" 2> "$WORK/err3d" &
  pid=$!
  at_pause "$WORK/p3d-$how"
  case $how in
    chmod-dir) chmod 700 "$R/srv/kicown" ;;
    chmod-parent) chmod 700 "$R/srv" ;;
    move) mv "$R/srv/kicown" "$R/srv/kicpriv/" ;;
    acl) acl_deny "$R/srv/kicown" 65534 ;;
  esac
  resume "$WORK/p3d-$how"
  wait $pid; rc=$?
  is "$rc $(ls "$R$S/files/srv/kicown/" 2> /dev/null | tr '\n' ' ')" "0 kicaaa.svg " \
    "3: $how after the first copy from a directory: that one is copied, the next is not"
done
# a hard link into a user's directory to a file in a private one: with
# fs.protected_hardlinks (Debian's default) only its owner, or one who may
# read and write it, can make it, so it is copied; without, anyone can, so
# it is not.  The setting is the whole machine's: the run sees it off
# through a file bound over it in a mount namespace of its own, so no
# other run on the machine sees it change (a run beside this one, of
# another test, would plan otherwise)
R=$(fresh r3e)
mkdir -p "$R/root/private"; chmod 700 "$R/root/private"
svg "root's secret" > "$R/root/private/kicsecret2.svg"; chmod 644 "$R/root/private/kicsecret2.svg"
ln "$R/root/private/kicsecret2.svg" "$R$H/scalable/apps/kicsecret2.svg"
desktop "$R" kicsecret2
was=$(cat /proc/sys/fs/protected_hardlinks)
[ "$was" = 1 ] && [ -n "$(planned "$R" copy | grep kicsecret2)" ]
ok $? "3: a hard link to a file in a private directory, hard links protected: the plan copies it"
echo 0 > "$WORK/unprotected"
if unshare -m sh -c 'mount --bind "$0" /proc/sys/fs/protected_hardlinks' "$WORK/unprotected" 2> /dev/null; then
  unshare -m sh -c 'mount --bind "$0" /proc/sys/fs/protected_hardlinks && exec "$@"' "$WORK/unprotected" \
    "$BIN" --root "$R" > /dev/null 2> "$WORK/err3e"; rc=$?
  is $rc 0 "3: ... hard links not protected: the rebuild succeeds"
  ! grep -rqs secret "$R$S/files"
  ok $? "3: ... and does not copy it"
  is "$(grep -c "kicsecret2.svg' has 2 names (hard links) and fs.protected_hardlinks is off" "$WORK/err3e")" 1 \
    "3: ... with one warning saying why"
else
  skip "needs unshare and a mount namespace" 3
fi
# readable by others but not by its group, or with an access ACL that
# denies one user: not every user may read it, so it is not copied
R=$(fresh r3g)
mkdir -p "$R/srv/kicgrp" "$R/srv/kicgrpdir" "$R/srv/kicacl" "$R/srv/kicacldir"
svg kicgrp > "$R/srv/kicgrp/kicgrp.svg"; chgrp 4242 "$R/srv/kicgrp/kicgrp.svg"; chmod 604 "$R/srv/kicgrp/kicgrp.svg"
svg kicgrpdir > "$R/srv/kicgrpdir/kicgrpdir.svg"; chgrp 4242 "$R/srv/kicgrpdir"; chmod 705 "$R/srv/kicgrpdir"
svg kicacl > "$R/srv/kicacl/kicacl.svg"
svg kicacldir > "$R/srv/kicacldir/kicacldir.svg"
for n in kicgrp kicgrpdir kicacl kicacldir; do
  ln -s "/srv/$n/$n.svg" "$R$H/scalable/apps/$n.svg"
  desktop "$R" $n
done
if acl_deny "$R/srv/kicacl/kicacl.svg" 65534 2> /dev/null && acl_deny "$R/srv/kicacldir" 65534; then
  "$BIN" --root "$R" > /dev/null 2> "$WORK/err3g"; rc=$?
  is "$rc $(find "$R$S/files" -name 'kicgrp*' -o -name 'kicacl*' | tr '\n' ' ')" "0 " \
    "3: a file or directory its group may not read, or with an ACL denying one user: none is copied"
  grep -q "kicgrp.svg' is not readable by every user" "$WORK/err3g" &&
    grep -q "srv/kicgrpdir' is not searchable by every user (mode 0705)" "$WORK/err3g" &&
    grep -q "kicacl.svg' has an access ACL" "$WORK/err3g" && grep -q "srv/kicacldir' has an access ACL: not every user may search it" "$WORK/err3g"
  ok $? "3: ... each with a warning saying why"
else
  skip "no ACLs on this file system" 2
fi

# a file of a user's own under many names, hard links protected or not:
# each name would be a copy in the store for the cost of one file
R=$(fresh r3f)
mkdir -p "$R/srv/kicmany"
svg kicmany > "$R/srv/kicmany/kicmany0.svg"; chown 65534:65534 "$R/srv/kicmany/kicmany0.svg"
for i in 1 2 3; do
  ln "$R/srv/kicmany/kicmany0.svg" "$R$H/scalable/apps/kicmany$i.svg"
  desktop "$R" "kicmany$i"
done
"$BIN" --root "$R" > /dev/null 2> "$WORK/err3f"; rc=$?
is "$rc $(find "$R$S/files" -name 'kicmany*' | wc -l)" "0 0" \
  "3: a user's file with four names (hard links), each on the menu: none is copied"
is "$(grep -c "has 4 names (hard links) and others than root may link it" "$WORK/err3f")" 3 \
  "3: ... with a warning for each name"

# -- row 7: a sparse icon, a huge one -----------------------------------
R=$(fresh r7)
svg kicsparse > "$R$H/scalable/apps/kicsparse.svg"
truncate -s 16M "$R$H/scalable/apps/kicsparse.svg"
desktop "$R" kicsparse
svg kicholes > "$R$H/scalable/apps/kicholes.svg"
truncate -s 3M "$R$H/scalable/apps/kicholes.svg"
desktop "$R" kicholes
{ svg kichuge; head -c 5000000 /dev/zero | tr '\0' ' '; } > "$R$H/scalable/apps/kichuge.svg"
desktop "$R" kichuge
"$BIN" --root "$R" > /dev/null 2> "$WORK/err7"
is $? 0 "7: a 16 MiB and a 3 MiB sparse svg, and a 5 MB one: the rebuild succeeds"
[ -z "$(find "$R$S/files" -name 'kicsparse*' -o -name 'kicholes*' -o -name 'kichuge*')" ] && [ "$(du -sk "$R$S" | cut -f1)" -lt 1024 ]
ok $? "7: ... and copies none of them (the store stays under 1 MiB)"
grep -q "kicholes.svg' is a sparse file" "$WORK/err7" && grep -q "kicsparse.svg' is larger than an icon may be" "$WORK/err7" \
  && grep -q "kichuge.svg' is larger than an icon may be" "$WORK/err7"
ok $? "7: ... saying why"
# forty icons of almost 4 MiB each, all copied: past the 32 MiB kept for the
# writer their bytes are read again, one at a time, not held together
R=$(fresh r7b)
for i in $(seq 40); do
  { svg "kicbig$i"; head -c 4000000 /dev/zero | tr '\0' ' '; } > "$R$H/scalable/apps/kicbig$i.svg"
  desktop "$R" "kicbig$i"
done
for how in dry-run rebuild; do
  case $how in dry-run) opt=--dry-run ;; rebuild) opt= ;; esac
  # (the sanitizer build's quarantine holds freed memory: none for this run)
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
    /usr/bin/time -f %M -o "$WORK/rss7b" "$BIN" -q --root "$R" $opt > /dev/null 2> /dev/null; rc=$?
  kib=$(tail -n 1 "$WORK/rss7b")
  [ "$rc" = 0 ] && [ "$kib" -lt 102400 ]
  ok $? "7: forty 4 MB icons (160 MB), $how: peak memory under 100 MiB (${kib} KiB)"
done
is "$(find "$R$S/files" -name 'kicbig*.svg' | wc -l)" 40 "7: ... and all forty are copied"

# -- row 6: an index.theme of 8000 empty directories, a proof that never settles
R=$(fresh r6)
T=$R/usr/share/icons/kicbig
mkdir -p "$T"
{ printf '[Icon Theme]\nName=Big\nInherits=breeze,hicolor\nDirectories='
  seq 1 8000 | sed 's/^/d/' | paste -sd, -
  seq 1 8000 | awk '{ printf "[d%d]\nSize=48\nType=Fixed\n", $1 }'; } > "$T/index.theme"
(cd "$T" && seq 1 8000 | sed 's/^/d/' | xargs mkdir)
printf '[Icons]\nTheme=kicbig\n' > "$R/etc/xdg/kdeglobals"
timeout 60 "$BIN" -q --root "$R" > /dev/null 2>&1
is $? 0 "6: a theme of 8000 empty directories of a target size: a rebuild ends within 60 s (it took minutes)"
grep -q "^link	/usr/share/icons/kicbig/d1/" "$R$S/manifest"
ok $? "6: ... and plants in its first directory, as the full pricing does"
# 20 themes, each inheriting the next: a link of "kiccap" in any of them
# changes "kiccap-foo" (two PNGs in hicolor, other content at 16 px than at
# 48: no link of its own can keep it), so each round of the proof takes one theme
# from it, and plans it in the next
R=$(fresh r6b)
svg kiccap > "$R$H/scalable/apps/kiccap.svg"
cp "$R$H/16x16/apps/breezepng.png" "$R$H/16x16/apps/kiccap-foo.png"
cp "$R$H/48x48/apps/hi48.png" "$R$H/48x48/apps/kiccap-foo.png"
desktop "$R" kiccap
for i in $(seq 1 20); do
  mkdir -p "$R/usr/share/icons/t$i/apps/48"
  next=t$((i + 1)); [ $i = 20 ] && next=hicolor
  printf '[Icon Theme]\nName=T%s\nInherits=%s\nDirectories=apps/48\n\n[apps/48]\nSize=48\nType=Fixed\n' $i $next \
    > "$R/usr/share/icons/t$i/index.theme"
done
printf '[Icons]\nTheme=t1\n' > "$R/etc/xdg/kdeglobals"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err6"
is $? 0 "6: a proof that would take 20 rounds: the rebuild succeeds"
is "$(grep -c '^link' "$R$S/manifest" 2> /dev/null)" 0 "6: ... plants nothing"
is "$(grep -c 'the proof did not settle in 16 rounds: nothing is planted' "$WORK/err6")" 1 "6: ... and says so once"

# -- row 8: icons in 1100 directories, 1024 descriptors ---------------------
R=$(fresh r8)
T=$R/usr/share/icons/kicfd
mkdir -p "$T"
{ printf '[Icon Theme]\nName=FD\nDirectories='
  seq 1 1100 | sed 's/^/d/' | paste -sd, -
  seq 1 1100 | awk '{ printf "[d%d]\nSize=48\nType=Fixed\n", $1 }'; } > "$T/index.theme"
for i in $(seq 1 1100); do
  mkdir "$T/d$i"; cp "$R$H/48x48/apps/hi48.png" "$T/d$i/kicfd$i.png"
  printf '[Desktop Entry]\nType=Application\nName=%s\nIcon=kicfd%s\n' $i $i > "$R/usr/share/applications/kicfd$i.desktop"
done
sed -i 's/^Inherits=hicolor/Inherits=kicfd,hicolor/' "$R$B/index.theme"
copies=$(planned "$R" copy | grep -c kicfd)
(ulimit -n 1024; "$BIN" -q --root "$R" 2> "$WORK/err8"); rc=$?
is $rc 0 "8: copies from 1100 directories with 1024 descriptors: the rebuild succeeds"
[ "$copies" -ge 1099 ] && [ "$(find "$R$S/files" -name 'kicfd*.png' | wc -l)" = "$copies" ]
ok $? "8: ... and makes every copy it planned ($copies: kicfd1 is found first anyway)"
touch "$R/usr/share/applications"; rm "$R/usr/share/applications/kicfd"*.desktop
(ulimit -n 1024; "$BIN" -q --root "$R" 2> "$WORK/err8"); rc=$?
[ $rc = 0 ] && [ "$(find "$R$S/files" -name 'kicfd*.png' | wc -l)" = 0 ]
ok $? "8: ... and removes them all again"

# -- row 9: one bad icon never stops the run -------------------------------
# an icon rewritten while the run works (between the plan's read of it and
# the copy: the run waits at the journal's rename)
R=$(fresh r9)
svg kicflux > "$R$H/scalable/apps/kicflux.svg"
desktop "$R" kicflux
paused_run "$WORK/p9" renameat:1 "$BIN" --root "$R" > /dev/null 2> "$WORK/err9" &
pid=$!
at_pause "$WORK/p9"; svg "kicflux, rewritten" > "$R$H/scalable/apps/kicflux.svg"; resume "$WORK/p9"
wait $pid; rc=$?
is $rc 0 "9: an icon rewritten while the run works: the rebuild goes on (0)"
is "$(grep -c "kicflux.svg' changed while kde-icon-cache ran" "$WORK/err9")" 1 "9: ... with one warning naming it"
! grep -q kicflux "$R$S/manifest" && [ "$(grep -c '^link' "$R$S/manifest")" -gt 20 ] && manifest_consistent "$R" > /dev/null
ok $? "9: ... it is left out, every other name is planted, the manifest matches the disk"
# one link that cannot be made (EPERM at the first symlinkat)
R=$(fresh r9b)
traced -o /dev/null -e trace=symlinkat -e inject=symlinkat:error=EPERM:when=1 "$BIN" --root "$R" > /dev/null 2> "$WORK/err9b"
is $? 0 "9: a link that cannot be made: the rebuild goes on (0)"
is "$(grep -c "cannot be planted: Operation not permitted" "$WORK/err9b")" 1 "9: ... with one warning"
[ "$(grep -c '^link' "$R$S/manifest")" = "$(($(planned "$WORK/fx/basic" | wc -l) - 1))" ] && manifest_consistent "$R" > /dev/null
ok $? "9: ... and every other link is planted"
# a temporary name taken: a directory where a copy's would be
R=$(fresh r9c)
copy=$(planned "$R" copy | head -n 1)
mkdir -p "$(dirname "$R$copy")/.$(basename "$copy").kic-tmp"
kic --root "$R" 2> /dev/null
is $? 0 "9: a directory at a copy's temporary name: the rebuild succeeds"
[ -d "$(dirname "$R$copy")/.$(basename "$copy").kic-tmp" ] && [ -f "$R$copy" ]
ok $? "9: ... it is left alone, and the copy made"
# a package's file at a link's temporary name, beside a link that goes
R=$(fresh r9d)
svg kicgone > "$R$H/scalable/apps/kicgone.svg"
desktop "$R" kicgone
kic --root "$R"
link=$(grep '^link' "$R$S/manifest" | grep '/kicgone.svg' | head -n 1 | cut -f2)
echo "a package's file" > "$(dirname "$R$link")/.kicgone.svg.kic-tmp"
rm "$R/usr/share/applications/kicgone.desktop"
kic --root "$R" 2> /dev/null
[ -n "$link" ] && [ ! -e "$R$link" ] && [ "$(cat "$(dirname "$R$link")/.kicgone.svg.kic-tmp" 2> /dev/null)" = "a package's file" ]
ok $? "9: a file of someone else's at a removed link's temporary name stays"
# ... and one beside a journal's entry: a killed run's recovery takes only
# what it would have left there (a link into the store)
R=$(fresh r9e)
kic --root "$R"
link=$(grep '^link' "$R$S/manifest" | head -n 1 | cut -f2)
echo "a package's file" > "$(dirname "$R$link")/.$(basename "$link").kic-tmp"
sed -i '1a # journal: a run was under way; it may have left more than this' "$R$S/manifest"
kic --root "$R" 2> /dev/null
[ "$(cat "$(dirname "$R$link")/.$(basename "$link").kic-tmp" 2> /dev/null)" = "a package's file" ]
ok $? "9: recovery leaves a file of someone else's at a temporary name"

# -- row 10: a device node swapped in for an icon ---------------------------
R=$(fresh r10)
svg kicdev > "$R$H/scalable/apps/kicdev.svg"
desktop "$R" kicdev
(
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  paused_run "$WORK/p10" renameat:1 strace -qq -o "$WORK/trace10" -e trace=openat,openat2,renameat \
    "$BIN" --root "$R" > /dev/null 2> "$WORK/err10"
) &
pid=$!
at_pause "$WORK/p10"; rm "$R$H/scalable/apps/kicdev.svg"; mknod "$R$H/scalable/apps/kicdev.svg" c 1 3; resume "$WORK/p10"
wait $pid; rc=$?
is $rc 0 "10: an icon swapped for a device node while the run works: the rebuild goes on (0)"
sed -n '/renameat(/,$p' "$WORK/trace10" | grep 'kicdev.svg' | grep -v O_PATH > "$WORK/opened10"
[ ! -s "$WORK/opened10" ]
ok $? "10: ... and the node is never opened, only looked at (O_PATH)"
rm -f "$R$H/scalable/apps/kicdev.svg"

# -- held out: two files for one store copy --------------------------------
# an XPM's PNG twin is <store>/files/<X.xpm>.png; a PNG named X.xpm.png,
# reached through a link by another name, would be copied to the same path
R=$(fresh rb)
cp "$R/usr/share/pixmaps/pixxpm.xpm" "$R$H/48x48/apps/kica.xpm" 2> /dev/null || cp "$(find "$R" -name 'pixxpm.xpm' | head -n 1)" "$R$H/48x48/apps/kica.xpm"
cp "$R$H/48x48/apps/hi48.png" "$R$H/48x48/apps/kica.xpm.png"
ln -s ../../48x48/apps/kica.xpm.png "$R$H/32x32/apps/kicb.png"
desktop "$R" kica; desktop "$R" kicb
kic --root "$R" 2> /dev/null
is $? 0 "held out: two sources for one store path: the rebuild succeeds"
png=$(sha256sum < "$R$H/48x48/apps/hi48.png")
bad=0
for l in $(grep '^link' "$R$S/manifest" | cut -f2 | grep -E '/kic[ab]\.png$'); do
  got=$(sha256sum < "$R$l")
  case $l in */kica.png) [ "$got" != "$png" ] || bad=1 ;; */kicb.png) [ "$got" = "$png" ] || bad=1 ;; esac
done
is $bad 0 "held out: ... and each name's links show its own file, not the other's"

# -- review: errors the writer used to drop ---------------------------------
# a listing of the store cut short (EIO at the store's last getdents64, its
# pruning after a copy went): an error naming the directory, not a listing
# taken as complete
R=$(fresh rr)
svg kicgone > "$R$H/scalable/apps/kicgone.svg"
desktop "$R" kicgone
kic --root "$R"
rm "$R/usr/share/applications/kicgone.desktop"
cp -a "$R" "$WORK/rr-count"
# (--full: the copy's every stamp differs, so without it the copy would be
# planned in full and the tree itself from its state, reading fewer
# directories)
# (-y names each descriptor's path: the store's last listing, not the
# writer's check of a theme directory's names after it, which comes later)
traced -y -o "$WORK/count" -e trace=getdents64 "$BIN" -q --full --root "$WORK/rr-count" 2> /dev/null
n=$(grep 'getdents64(' "$WORK/count" | grep -n "$S/files" | tail -n 1 | cut -d: -f1)
traced -o /dev/null -e trace=getdents64 -e inject=getdents64:error=EIO:when=$n "$BIN" -q --full --root "$R" 2> "$WORK/errr"
is $? 3 "review: a readdir error in the store: an error (3)"
grep -q "cannot read directory '$R$S/files" "$WORK/errr"
ok $? "review: ... naming the directory"
# the exchange back after a failed replacement: a package's file put at a
# link while the run replaces it (paused at its first symlinkat, the first
# of the manifest's links of hi48) is exchanged back, and when that fails
# the run says where the file is now
R=$(fresh rx)
kic --root "$R"
link=$(grep '^link' "$R$S/manifest" | grep '/hi48.png' | head -n 1 | cut -f2)
mv "$R$H/48x48/apps/hi48.png" "$R$H/48x48/apps/hi48-real.png"; ln -s hi48-real.png "$R$H/48x48/apps/hi48.png"
(
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  paused_run "$WORK/px" symlinkat:1 strace -qq -o /dev/null -e trace=renameat2 -e inject=renameat2:error=EIO:when=2 \
    "$BIN" -q --root "$R" 2> "$WORK/errx"
) &
pid=$!
# (the new copy is written before the first link: there the run holds)
at_pause "$WORK/px"; rm "$R$link"; echo "dpkg's file" > "$R$link"; resume "$WORK/px"
wait $pid; rc=$?
is $rc 3 "review: the exchange back of a package's file fails: an error (3)"
grep -q "cannot be given its name back: it is '$(dirname "$R$link")/.hi48.png.kic-" "$WORK/errx"
ok $? "review: ... saying where the package's file is now"
# futimens: a directory's time that cannot be put back
R=$(fresh rt)
svg kicgone > "$R$H/scalable/apps/kicgone.svg"
desktop "$R" kicgone
kic --root "$R"
rm "$R/usr/share/applications/kicgone.desktop"
traced -o /dev/null -e trace=utimensat -e inject=utimensat:error=EIO "$BIN" -q --root "$R" 2> "$WORK/errt"
is $? 3 "review: a directory's time that cannot be put back: an error (3)"
grep -q "cannot put back the modification time of '$R/" "$WORK/errt"
ok $? "review: ... naming the directory"
# the directory's fsync after a rename (the journal's)
R=$(fresh rs)
traced -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=2 "$BIN" -q --root "$R" 2> "$WORK/errs"
is $? 3 "review: a directory's fsync that fails: an error (3)"
grep -q "cannot sync directory '$R$S'" "$WORK/errs"
ok $? "review: ... naming it"

finish
