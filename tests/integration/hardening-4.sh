#!/bin/sh
# hardening-4.sh - issue 39: root decides nothing on what users cannot
# see, a kept state is never staler than a fresh run, and a user's files
# set no cost beyond a bound.  Each row reproduced on a scratch root:
#   1  a link in a user's theme directory into a 0700 home: where root
#      plants says whether its target exists (an existence oracle); and
#      the same of a theme directory not every user may search, reached
#      without a link;
#   2  root hashes a file no user may read, and where it plants says
#      whether a user's icon has the same bytes (a content oracle);
#   3  a root-owned directory made private (chmod, setfacl) after its
#      icons were copied: every later run, --full included, said nothing
#      to do, and the world-readable copies stayed;
#   4  (part) the fingerprint's look kept a directory open per level of
#      an input's path: a theme directory deep enough exhausts descriptors;
#      and a user's directory of very many names set what a run cost
#      (reading every name, keeping each in the state): past a bound its
#      names are not read;
#   5  a store copy that goes is never written again: rebuild, --check
#      and --full all stopped at the fingerprint;
#   6  the writer leaves out a link the proof counted on (a name over 241
#      bytes): the plan must not count on it;
#   8  postrm purge under DPKG_ROOT (dpkg --root) follows a link in the
#      root's /var and removes the host's files of those names;
#   7  a user with an icon and a menu directory pushes every earlier
#      change out of the change log in three runs (one run's lines were
#      not bounded, and one old generation was kept).
# And the held-out families: a user's tree of every shape the fingerprint's
# look and the run must get through (a FIFO or a device for a directory,
# names with a newline, a tab or bytes not UTF-8, an unreadable directory,
# link loops, links to /dev/zero, huge files, a path past PATH_MAX, the
# tree gone); a user's .desktop file written through a shared mapping
# (on the disk, on a tmpfs), which moves no time; a user's theme directory
# made a link into /proc, whose listing a kept state said was as it was.
# The user is nobody (setpriv).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (setpriv to another user, chown)"
command -v setpriv > /dev/null || skip_all "needs setpriv (util-linux)"
S=/var/lib/kde-icon-cache
fixtures "$WORK/fx" basic
# searchable by nobody, or every "nobody cannot" below would hold for that
# reason alone
chmod 755 "$WORK"
fresh () { rm -rf "$WORK/$1"; cp -a "$WORK/fx/basic" "$WORK/$1"; echo "$WORK/$1"; }
kic () { "$BIN" -q "$@"; }
as_nobody () { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# -- row 8: postrm purge follows no link under DPKG_ROOT -----------------
# The root's /var (then its /var/lib, then /var/log) is a link to a
# directory of the host holding files of the store's and the log's names.
for link in var var/lib var/log; do
  R=$(fresh r8)
  H=$WORK/host8
  rm -rf "$H"
  mkdir -p "$H/var/lib/kde-icon-cache" "$H/var/log" "$H/lib/kde-icon-cache" "$H/log"
  for d in "$H/var/lib/kde-icon-cache" "$H/lib/kde-icon-cache"; do echo host > "$d/manifest"; done
  for d in "$H/var/log" "$H/log"; do echo host > "$d/kde-icon-cache.log"; echo host > "$d/kde-icon-cache.log.1"; done
  rm -rf "${R:?}/var"
  case $link in
  var) ln -s "$H/var" "$R/var" ;;
  var/lib) mkdir -p "$R/var/log"; ln -s "$H/lib" "$R/var/lib" ;;
  var/log) mkdir -p "$R/var/lib"; ln -s "$H/log" "$R/var/log" ;;
  esac
  DPKG_ROOT=$R sh "$TOP/debian/kde-icon-cache.postrm" purge 2> "$WORK/err8"
  is "$(cat "$H/var/lib/kde-icon-cache/manifest" "$H/lib/kde-icon-cache/manifest" \
    "$H/var/log/kde-icon-cache.log" "$H/var/log/kde-icon-cache.log.1" "$H/log/kde-icon-cache.log" \
    "$H/log/kde-icon-cache.log.1" 2>&1 | tr '\n' ' ')" "host host host host host host " \
    "8: DPKG_ROOT's $link a link to the host's: purge removes none of the host's files"
done
# ... and a root with no link is purged as ever
R=$(fresh r8b)
kic --root "$R"
mkdir -p "$R/var/log"
echo log > "$R/var/log/kde-icon-cache.log"; echo log > "$R/var/log/kde-icon-cache.log.1"
DPKG_ROOT=$R sh "$TOP/debian/kde-icon-cache.postrm" purge
[ ! -e "$R$S" ] && [ ! -e "$R/var/log/kde-icon-cache.log" ] && [ ! -e "$R/var/log/kde-icon-cache.log.1" ] &&
  [ -d "$R/var/lib" ]
ok $? "8: ... and a root with no link in /var: purge removes the store and the log"

# -- row 7: three hostile runs keep the last real change in the log -----
# nobody owns an icon directory and a menu directory; each run they make
# it plant 700 other names of 220 characters (a copy and two links each,
# the last run's removed: over 1 MiB of lines a run).
R=$(fresh r7)
mkdir -p "$R/var/log"
chmod 755 "$R/var" "$R/var/log"
LOG=$R/var/log/kde-icon-cache.log
U=/usr/local/share/icons/hicolor/48x48/apps
A=/usr/local/share/applications
mkdir -p "$R$U" "$R$A"
chown nobody "$R$U" "$R$A"
kic --root "$R"
# the real change: a package's icon, planted
cp "$R/usr/share/icons/breeze/apps/48/kate.svg" "$R/usr/share/icons/hicolor/48x48/apps/kicreal.svg" 2> /dev/null ||
  { mkdir -p "$R/usr/share/icons/hicolor/48x48/apps"; cp "$R/usr/share/icons/breeze/apps/48/kate.svg" "$R/usr/share/icons/hicolor/48x48/apps/kicreal.svg"; }
printf '[Desktop Entry]\nType=Application\nName=real\nExec=true\nIcon=kicreal\n' > "$R/usr/share/applications/kicreal.desktop"
kic --root "$R"
grep -q '	copy	.*/kicreal\.svg	' "$LOG"
ok $? "7: the real change is logged"
long=$(printf '%0220d' 0)
png=$(find "$R/usr/share/icons" -name '*.png' -type f | head -n 1)
for run in 1 2 3; do
  as_nobody sh -c 'rm -f "$1"/*.png "$2"/*.desktop
    i=0; while [ $i -lt 700 ]; do i=$((i + 1))
      cp "$3" "$1/r$4u$i$5.png"
      printf "[Desktop Entry]\nType=Application\nName=u%s\nExec=true\nIcon=%s\n" $i "r$4u$i$5" > "$2/u$i.desktop"
    done' sh "$R$U" "$R$A" "$png" "$run" "$long"
  kic --root "$R" 2> /dev/null
  # this run's lines: from its start line on
  awk -F '\t' '$3 == "start" { n = 0; b = 0; more = "" } { n++; b += length($0) + 1 } $3 == "more" { more = $5 }
    END { print b, more }' "$LOG" > "$WORK/run7"
  read bytes more < "$WORK/run7"
  [ "$bytes" -le $((256 * 1024 + 1024)) ] && [ -n "$more" ]
  ok $? "7: hostile run $run: at most 256 KiB of lines, then one 'more' line ($bytes bytes, $more)"
done
cat "$LOG"* | grep -q '	copy	.*/kicreal\.svg	'
ok $? "7: ... and after three, the real change is still in the log's generations ($(ls "$R/var/log" | tr '\n' ' '))"

# -- row 6: the proof plans without what the writer cannot write --------
# A menu name of 240 bytes (its link 244, its store copy's name 247: over
# the 241 a temporary name beside it leaves) beside a shorter one it cuts
# back to.  Every link the plan counts (--json: the planted names' links)
# must be one the writer made; the long name is skipped, saying why; and
# KDE shows both names as before.
R=$(fresh r6)
H=$R/usr/share/icons/hicolor/48x48/apps
N=kicfoo-$(printf '%0236d' 0)
cp "$H/photo.png" "$H/kicfoo.png"
cp "$H/kicchop.png" "$H/$N.png"
printf '[Desktop Entry]\nType=Application\nName=foo\nExec=true\nIcon=kicfoo\n' > "$R/usr/share/applications/kicfoo.desktop"
printf '[Desktop Entry]\nType=Application\nName=long\nExec=true\nIcon=%s\n' "$N" > "$R/usr/share/applications/kiclong.desktop"
if [ -x "$ORACLE" ]; then
  . "$TOP/tests/oracle/oracle-env.sh"
  printf '%s\n' "$N" kicfoo > "$WORK/names6"
  theirs "$R" breeze 16 22 32 48 < "$WORK/names6" | with_content "$R" > "$WORK/kde6.before"
fi
kic --root "$R" --json > "$WORK/r6.json" 2> /dev/null
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for n in d["names"]:
    if n["status"] == "planted":
        for l in n["links"]:
            print(l)
' "$WORK/r6.json" | sort > "$WORK/planned6"
grep '^link	' "$R$S/manifest" | cut -f2 | sort > "$WORK/written6"
is "$(comm -3 "$WORK/planned6" "$WORK/written6" | sed 's/0\{20,\}/0.../' | tr '\n' ' ')" "" \
  "6: every link the plan counts is written ($(wc -l < "$WORK/written6") links)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = [n for n in d["names"] if n["name"] == sys.argv[2]][0]
print(n["status"], "cannot write" in (n["reason"] or ""))
' "$WORK/r6.json" "$N" > "$WORK/status6"
is "$(cat "$WORK/status6")" "skipped True" "6: ... the 240-byte name is skipped, saying why"
if [ -x "$ORACLE" ]; then
  theirs "$R" breeze 16 22 32 48 < "$WORK/names6" | with_content "$R" "$R" > "$WORK/kde6.after"
  [ -s "$WORK/kde6.before" ] && cmp -s "$WORK/kde6.before" "$WORK/kde6.after"
  ok $? "6: ... and KDE (KF5) loads the same bytes for both names at 16-48 px"
else
  skip "needs the KF5 helper"
fi

# -- rows 1 and 2: root decides nothing on what not every user can see ---
# planted NAME: the manifest's lines for NAME (copies and links)
planted () { grep "$2" "$1$S/manifest" | cut -f1,2; }
svg () { printf '<svg xmlns="http://www.w3.org/2000/svg"><!-- %s --></svg>\n' "$1"; }
# row 1: nobody owns a hicolor directory and adds kicpeek-x.svg -> P beside
# the package's kicpeek (a menu name), P in a 0700 home: root's links for
# kicpeek must land in the same place whether P exists or not
row1 () { # row1 CASE TARGET: CASE "exists" makes TARGET
  R=$(fresh "r1$1$(echo "$2" | tr -c 'a-z' _)")
  mkdir -p "$R/usr/local/share/icons/hicolor/48x48/apps" "$R/home/u"
  chmod 700 "$R/home/u"
  svg peek > "$R/usr/share/icons/hicolor/48x48/apps/kicpeek.svg"
  ln -s "/home/u/$2" "$R/usr/local/share/icons/hicolor/48x48/apps/kicpeek-x.svg"
  [ "$1" = exists ] && { mkdir -p "$(dirname "$R/home/u/$2")"; svg private > "$R/home/u/$2"; }
  chown -R nobody "$R/usr/local/share/icons/hicolor" "$R/home/u"
  printf '[Desktop Entry]\nType=Application\nName=peek\nExec=true\nIcon=kicpeek\n' > "$R/usr/share/applications/kicpeek.desktop"
  kic --root "$R" 2> /dev/null
  planted "$R" kicpeek
}
for target in secret.svg deeper/secret.svg; do
  row1 exists "$target" > "$WORK/r1.exists"
  row1 none "$target" > "$WORK/r1.none"
  [ -s "$WORK/r1.exists" ] && cmp -s "$WORK/r1.exists" "$WORK/r1.none"
  ok $? "1: a link to /home/u/$target (home 0700): kicpeek's links land alike whether it exists or not ($(grep -c '^link' "$WORK/r1.none") links, $(grep '^link' "$WORK/r1.none" | head -n 1 | cut -f2 | cut -d/ -f4-5))"
done

# row 2: a root file no user may read (0600), or one with an ACL denying
# nobody, is where KDE's lookup of kicguess-secret ends; nobody's own icon
# kicguess (a menu name) guesses its bytes.  Where kicguess's links land
# must not depend on the guess being right, and the file is never opened.
row2 () { # row2 GUESS PROTECTION
  R=$(fresh "r2$1$2")
  U=$R/usr/local/share/icons/hicolor/48x48/apps
  H=$R/usr/share/icons/hicolor/48x48/apps
  mkdir -p "$U"
  svg "secret 1234" > "$H/kicguess-secret.svg"
  case $2 in
  mode) chmod 600 "$H/kicguess-secret.svg" ;;
  acl) setfacl -m u:nobody:0 "$H/kicguess-secret.svg" ;;
  esac
  svg "secret $1" > "$U/kicguess.svg"
  chown -R nobody "$R/usr/local/share/icons/hicolor"
  printf '[Desktop Entry]\nType=Application\nName=guess\nExec=true\nIcon=kicguess\n' > "$R/usr/share/applications/kicguess.desktop"
  if command -v strace > /dev/null; then
    strace -f -e trace=open,openat -o "$WORK/r2.trace" "$BIN" -q --root "$R" 2> /dev/null
  else
    kic --root "$R" 2> /dev/null; : > "$WORK/r2.trace"
  fi
  planted "$R" kicguess
}
for how in mode acl; do
  if [ $how = acl ] && ! command -v setfacl > /dev/null; then skip "needs setfacl (acl)" 2; continue; fi
  row2 1234 $how > "$WORK/r2.right"
  cp "$WORK/r2.trace" "$WORK/r2.trace.right"
  row2 9999 $how > "$WORK/r2.wrong"
  [ -s "$WORK/r2.right" ] && cmp -s "$WORK/r2.right" "$WORK/r2.wrong"
  ok $? "2: a file others may not read ($how): kicguess's links land alike whether nobody's guess of its bytes is right or not ($(grep '^link' "$WORK/r2.wrong" | head -n 1 | cut -f2 | cut -d/ -f4-5))"
  if [ $how = mode ] && command -v strace > /dev/null; then
    ! grep -q 'kicguess-secret' "$WORK/r2.trace.right" "$WORK/r2.trace"
    ok $? "2: ... and the file is never opened (strace)"
  elif [ $how = mode ]; then
    skip "needs strace"
  fi
done

# row 1, no link: a theme directory not every user may search (0700,
# 0750 with a group, an access ACL denying nobody, or its theme's base
# 0700), reached without a link, beside the package's kichid in
# /usr/share's hicolor.  Users do not find what it holds, its group's
# members do: root's plan must be the same whether it holds kichid, and
# whatever the bytes; nothing of it copied, no link for kichid (every
# lookup of it passes the directory first), its listing never read
# (getdents64) nor the file opened (strace)
hidden () { # hidden CASE HOW: CASE none (nothing there), a or b (the icon, two contents)
  R=$(fresh "r1h$1$2")
  U=/usr/local/share/icons/hicolor/48x48/apps
  mkdir -p "$R$U" "$R/usr/share/icons/hicolor/48x48/apps"
  svg public > "$R/usr/share/icons/hicolor/48x48/apps/kichid.svg"
  [ "$1" = none ] || svg "private $1" > "$R$U/kichid.svg"
  case $2 in
  0700) chmod 700 "$R$U" ;;
  0750) chgrp 4242 "$R$U"; chmod 750 "$R$U" ;;
  acl) setfacl -m u:nobody:0 "$R$U" ;;
  base) chmod 700 "$R/usr/local/share/icons/hicolor" ;;
  esac
  printf '[Desktop Entry]\nType=Application\nName=hid\nExec=true\nIcon=kichid\n' > "$R/usr/share/applications/kichid.desktop"
  if command -v strace > /dev/null; then
    strace -f -y -e trace=open,openat,getdents64 -o "$WORK/h.trace" "$BIN" -q --root "$R" 2> /dev/null
  else
    kic --root "$R" 2> /dev/null; : > "$WORK/h.trace"
  fi
  # the whole plan (but the fingerprint's digest, which differs run to run)
  grep -v '^# inputs:' "$R$S/manifest"
}
# The bytes KDE (KF5) loads for each name on stdin at 16-48 px in ROOT,
# run as nobody, with the supplementary group 4242 for KIND "member"
kde_as () { # kde_as ROOT KIND < names
  . "$TOP/tests/oracle/oracle-env.sh"
  g=--clear-groups; [ "$2" = member ] && g=--groups=4242
  oracle_run "$1" breeze sh -c 'chown -R 65534:65534 "$(dirname "$XDG_CONFIG_HOME")"; g=$1; shift
    exec setpriv --reuid=65534 --regid=65534 $g "$@"' sh $g "$ORACLE" --sizes 16,22,32,48 | with_content "" "$1"
}
for how in 0700 0750 acl base; do
  if [ $how = acl ] && ! command -v setfacl > /dev/null; then skip "needs setfacl (acl)" 4; continue; fi
  H1=/usr/local/share/icons/hicolor/48x48/apps; [ $how = base ] && H1=/usr/local/share/icons/hicolor
  hidden none $how > "$WORK/h.none"
  hidden b $how > "$WORK/h.b"
  hidden a $how > "$WORK/h.a"
  cmp -s "$WORK/h.none" "$WORK/h.a" && cmp -s "$WORK/h.a" "$WORK/h.b" && [ -s "$WORK/h.a" ]
  ok $? "1: $H1 hidden ($how): the plan is the same whether it holds kichid or not, whatever its bytes"
  ! grep -q kichid "$WORK/h.a" && ! grep -q kichid "$WORK/h.none" && ! grep -rqs private "$R$S/files"
  ok $? "1: ... no copy of it, and no link for kichid, whose lookups pass it first"
  if command -v strace > /dev/null; then
    [ -s "$WORK/h.trace" ] && ! grep -q "usr/local/share/icons/hicolor/48x48/apps/kichid" "$WORK/h.trace" &&
      ! grep -q "getdents64([0-9]*<$R$H1>" "$WORK/h.trace"
    ok $? "1: ... nor its listing read nor the file opened (strace)"
  else
    skip "needs strace"
  fi
  if [ $how = 0750 ] || [ $how = acl ]; then
    # a rebuild after the package's kichid.svg became a kichid.png, which
    # looks kichid up again through the directory's listing kept from the
    # state: still nothing planted on it (a run first whose stamps are not
    # racy: stamp.c)
    sleep 0.05
    kic --root "$R" 2> /dev/null
    rm "$R/usr/share/icons/hicolor/48x48/apps/kichid.svg"
    cp "$(find "$R/usr/share/icons" -name '*.png' -type f | head -n 1)" "$R/usr/share/icons/hicolor/48x48/apps/kichid.png"
    sleep 0.05
    kic --root "$R" 2> /dev/null
    grep -v '^# inputs:' "$R$S/manifest" > "$WORK/h.kept"
    kic --root "$R" --full 2> /dev/null
    ! grep -q kichid "$WORK/h.kept" && grep -v '^# inputs:' "$R$S/manifest" | cmp -s - "$WORK/h.kept"
    ok $? "1: ... and a rebuild that keeps its state plans as a full one"
  fi
done
# ... and a run without /proc (a chroot that has none mounted, as a
# package's scripts or an LTSP chroot may be) asks a directory's ACL of
# the directory itself: it takes no directory as hidden, and plans as a
# run with /proc does.  Its /proc/self/fd is covered by an empty tmpfs
# (the rest of /proc stays: AddressSanitizer reads /proc/self/maps)
if command -v unshare > /dev/null; then
  R=$(fresh rnoproc)
  "$BIN" --root "$R" --dry-run > "$WORK/withproc" 2>&1
  unshare --mount --propagation private sh -c 'mount -t tmpfs none "/proc/$$/fd" && exec "$@"' sh \
    "$BIN" --root "$R" --dry-run > "$WORK/noproc" 2>&1
  grep -q 'plant' "$WORK/withproc" && ! grep -q 'not searchable\|has an access ACL' "$WORK/noproc" &&
    cmp -s "$WORK/withproc" "$WORK/noproc"
  ok $? "1: a run without /proc takes no directory as hidden and plans as one with it" ||
    diff "$WORK/withproc" "$WORK/noproc" | head -n 8 | sed 's/^/# /'
else
  skip "needs unshare" 1
fi
# what users see does not change: KF5 as nobody (who may not search the
# 0750 directory) and as a member of its group, before and after
if [ -x "$ORACLE" ] && command -v setpriv > /dev/null; then
  R=$(fresh r1hkde)
  U=/usr/local/share/icons/hicolor/48x48/apps
  mkdir -p "$R$U" "$R/usr/share/icons/hicolor/48x48/apps"
  svg public > "$R/usr/share/icons/hicolor/48x48/apps/kichid.svg"
  svg private > "$R$U/kichid.svg"
  chgrp 4242 "$R$U"; chmod 750 "$R$U"
  printf '[Desktop Entry]\nType=Application\nName=hid\nExec=true\nIcon=kichid\n' > "$R/usr/share/applications/kichid.desktop"
  fixture_names "$R" > "$WORK/names1"
  for who in nobody member; do
    echo kichid | kde_as "$R" $who > "$WORK/kde1.$who.before"
    kde_as "$R" $who < "$WORK/names1" > "$WORK/kde1all.$who.before"
  done
  kic --root "$R" 2> /dev/null
  for who in nobody member; do
    echo kichid | kde_as "$R" $who > "$WORK/kde1.$who.after"
    [ "$(wc -l < "$WORK/kde1.$who.before")" -eq 4 ] && cmp -s "$WORK/kde1.$who.before" "$WORK/kde1.$who.after"
    ok $? "1: KDE (KF5) as $who loads the same bytes for kichid at 16-48 px after the rebuild ($(cut -f3 "$WORK/kde1.$who.after" | sort -u | cut -c1-12 | tr '\n' ' '))"
    kde_as "$R" $who < "$WORK/names1" > "$WORK/kde1all.$who.after"
    [ -s "$WORK/kde1all.$who.before" ] && cmp -s "$WORK/kde1all.$who.before" "$WORK/kde1all.$who.after"
    ok $? "1: ... and the same for every name of the tree ($(wc -l < "$WORK/kde1all.$who.after") lookups, $(grep -c '^link' "$R$S/manifest") links planted)"
  done
  ! cmp -s "$WORK/kde1.nobody.after" "$WORK/kde1.member.after"
  ok $? "1: ... which differ between them for kichid (the directory is hidden from nobody)"
else
  skip "needs the KF5 helper" 5
fi

# -- rows 3 and 5: no kept state outlives what it stands on --------------
# row 3: a root-owned directory whose icons were copied is made private
# (chmod 0750, or an ACL denying nobody, which leaves the mode): its copies
# must go, and --check must say so
D=/usr/share/icons/hicolor/48x48/apps
copies () { find "$1$S/files$D" -type f 2> /dev/null | wc -l; }
for how in chmod acl full; do
  if [ $how = acl ] && ! command -v setfacl > /dev/null; then skip "needs setfacl (acl)" 3; continue; fi
  R=$(fresh "r3$how")
  kic --root "$R"
  # (a second run: stamps no longer racy, nothing to do)
  sleep 0.05
  kic --root "$R"
  before=$(copies "$R")
  sleep 0.05
  case $how in
  acl) setfacl -m u:nobody:0 "$R$D" ;;
  *) chmod 750 "$R$D" ;;
  esac
  if [ $how = full ]; then
    "$BIN" --root "$R" --full > "$WORK/out3" 2>&1
    ! grep -q 'nothing to do' "$WORK/out3" && [ "$before" -gt 0 ] && [ "$(copies "$R")" -eq 0 ]
    ok $? "3: $D made 0750: --full plans again (not 'nothing to do') and removes its $before copies"
    continue
  fi
  "$BIN" -q --root "$R" --check 2> /dev/null
  is $? 1 "3: $D made private ($how): --check says the cache is out of date (1)"
  kic --root "$R" 2> /dev/null
  [ "$before" -gt 0 ] && [ "$(copies "$R")" -eq 0 ]
  ok $? "3: ... and the rebuild removes the $before world-readable copies made from it"
  sleep 0.05
  "$BIN" --root "$R" > "$WORK/out3" 2>&1
  grep -q 'nothing to do' "$WORK/out3"
  ok $? "3: ... after which a run has nothing to do"
done

# row 5: a store copy that goes (a disk error, a partial restore of
# /var/lib) is a change: --check reports it, a rebuild (and --full) writes
# it again
for how in rebuild full; do
  R=$(fresh "r5$how")
  kic --root "$R"
  sleep 0.05
  kic --root "$R"
  sleep 0.05
  F=$(find "$R$S/files" -type f | sort | head -n 1)
  rm "$F"
  "$BIN" --root "$R" --check > /dev/null 2> "$WORK/err5"
  rc=$?
  is "$rc $(grep -c 'store copies: 1 to write' "$WORK/err5")" "1 1" "5: a store copy removed ($how): --check exits 1, saying a copy is to be written"
  if [ $how = full ]; then kic --root "$R" --full 2> /dev/null; else kic --root "$R" 2> /dev/null; fi
  [ -f "$F" ] && grep -q "^file	${F#"$R"}	" "$R$S/manifest"
  ok $? "5: ... and the $how writes it again"
done

# -- row 4 (part): the fingerprint's look keeps a bounded number of
# directories open whatever the depth: a theme directory 121 levels deep
# (breeze's Directories= names it), and a run allowed 64 descriptors (the
# look's two cursors, the state read beside them and the run's own files
# fit in that whatever the order they run in; one descriptor a level
# would not)
R=$(fresh r4deep)
p=deep; i=0; while [ $i -lt 120 ]; do p=$p/d; i=$((i + 1)); done
mkdir -p "$R/usr/share/icons/breeze/$p"
svg deep > "$R/usr/share/icons/breeze/$p/kicdeep.svg"
sed -i "s|^Directories=|Directories=$p,|" "$R/usr/share/icons/breeze/index.theme"
printf '\n[%s]\nSize=48\nContext=Applications\nType=Fixed\n' "$p" >> "$R/usr/share/icons/breeze/index.theme"
printf '[Desktop Entry]\nType=Application\nName=deep\nExec=true\nIcon=kicdeep\n' > "$R/usr/share/applications/kicdeep.desktop"
kic --root "$R"; sleep 0.05; kic --root "$R"; sleep 0.05
(ulimit -n 64; "$BIN" --root "$R" > "$WORK/out4" 2>&1)
grep -c '/d/d/d/d' "$R$S/fingerprint" > "$WORK/n4"
grep -q 'nothing to do' "$WORK/out4"
ok $? "4: a theme directory 121 levels deep, 64 descriptors: the look finds nothing changed ($(cat "$WORK/n4") deep inputs)" ||
  sed 's/^/# /' "$WORK/out4"

# -- row 4: a user's directory past the bound on names read -----------
# junk FROM TO SUFFIX: empty files kicjunk-FROM.SUFFIX ... in the current directory
junk () { seq "$1" "$2" | sed "s/^/kicjunk-/; s/\$/.$3/" | xargs touch; }
# bytes ROOT < answers: KF5's answers with each path's bytes (md5) after it
bytes () { while IFS='	' read -r n z f; do printf '%s\t%s\t%s\t%s\n' "$n" "$z" "$f" "$(md5sum < "$1$f" | cut -d' ' -f1)"; done; }
# nobody owns a hicolor directory of 16 485 names (the bound: 16 384), one
# of them kicfirst-x.png: its names are
# not read, one warning names it, the run plans the rest (kicfirst, which
# KDE finds in breeze, keeps its links), plants nothing a lookup passing
# it could meet (hi48 ends in hicolor, whose directory it is), keeps none
# of its names in the state, and a kept run after a change equals --full
R=$(fresh r4big)
U=/usr/local/share/icons/hicolor/48x48/apps
mkdir -p "$R$U"
(cd "$R$U" && junk 1 16484 png && : > kicfirst-x.png)
chown -R nobody "$R$U"
"$BIN" --root "$R" > "$WORK/out4b" 2>&1
ok $? "4: a user's directory of 16485 names, past the bound of 16384: the run exits 0"
is "$(grep -c "'$R$U' holds more than 16384 names and users may write it" "$WORK/out4b")" 1 \
  "4: ... one warning names the directory"
grep -q "^link	/usr/share/icons/breeze/.*/kicfirst\.svg	" "$R$S/manifest"
ok $? "4: ... a name KDE finds in breeze keeps its links"
is "$(grep -c '^link	.*/\(hi48\|hiscalable\)\.' "$R$S/manifest")" 0 \
  "4: ... names KDE finds in hicolor (hi48, hiscalable), whose lookups pass the directory, get no link"
is "$(grep -c kicjunk "$R$S/state"; grep -c "^D	$U	2\$" "$R$S/state")" "0
1" "4: ... the state keeps none of its names, one line for it"
# a change elsewhere, and one in the directory: kept run and --full alike
for change in "$R/usr/share/icons/hicolor/48x48/apps/kicnew.png" "$R$U/kicjunk-new.png"; do
  sleep 0.05
  cp "$R/usr/share/icons/hicolor/48x48/apps/hi48.png" "$change"
  rm -rf "$WORK/r4full"; cp -a "$R" "$WORK/r4full"
  kic --root "$R" 2> /dev/null; kic --root "$WORK/r4full" --full 2> /dev/null
  is "$(grep -v '^#' "$R$S/manifest" | md5sum)" "$(grep -v '^#' "$WORK/r4full$S/manifest" | md5sum)" \
    "4: ... after ${change#"$R"} came, a kept run plans as --full does"
done
# ... and a kept run after a change elsewhere does not read the directory
# again (its answers cannot have changed: its stamp did not), and says so
if command -v strace > /dev/null; then
  sleep 0.05
  cp "$R/usr/share/icons/hicolor/48x48/apps/hi48.png" "$R/usr/share/icons/hicolor/48x48/apps/kicnew2.png"
  strace -f -qq -e trace=openat,openat2 -o "$WORK/trace4" "$BIN" --root "$R" > "$WORK/out4c" 2>&1
  is "$(grep -c "\"${U#/}\".*O_DIRECTORY\|\"$R$U\".*O_DIRECTORY" "$WORK/trace4"; grep -c "'$R$U' holds more than" "$WORK/out4c")" "0
1" "4: ... a kept run after a change elsewhere opens the directory not at all, and warns of it once"
fi

# ... and a user's directory in a theme between breeze and the one KDE
# finds a name in: kicmid (Inherits=hicolor, .svg only) holds kicmidx.svg
# in scalable/apps, where every lookup of kicmidx ends, before apps48,
# nobody's, of 16 485 names, one of them kicmidx-foo.svg.  KDE looks
# kicmidx-foo up in breeze, then cut back to kicmidx there, then in
# kicmid: a link kicmidx.svg in breeze would end it there instead of at
# its own file, a name the proof cannot know
R=$(fresh r4mid)
M=$R/usr/share/icons/kicmid
mkdir -p "$M/scalable/apps" "$M/apps48"
printf '[Icon Theme]\nName=Mid\nInherits=hicolor\nKDE-Extensions=.svg\nDirectories=scalable/apps,apps48\n\n[scalable/apps]\nSize=48\nMinSize=1\nMaxSize=512\nType=Scalable\n\n[apps48]\nSize=48\nType=Fixed\n' > "$M/index.theme"
svg mid > "$M/scalable/apps/kicmidx.svg"
(cd "$M/apps48" && junk 1 16484 svg && svg foo > kicmidx-foo.svg)
chown -R nobody "$M/apps48"
sed -i 's/^Inherits=.*/Inherits=kicmid,hicolor/' "$R/usr/share/icons/breeze/index.theme"
printf '[Desktop Entry]\nType=Application\nName=mid\nExec=true\nIcon=kicmidx\n' > "$R/usr/share/applications/kicmidx.desktop"
[ -x "$ORACLE" ] && printf 'kicmidx-foo\n' | _theirs_now "$R" breeze 16,48 | bytes "$R" | cut -f1,2,4 > "$WORK/mid-before"
kic --root "$R" 2> /dev/null
if [ -x "$ORACLE" ]; then
  printf 'kicmidx-foo\n' | _theirs_now "$R" breeze 16,48 | bytes "$R" | cut -f1,2,4 > "$WORK/mid-after"
  [ "$(grep -c '^kicmidx-foo	' "$WORK/mid-before")" = 2 ] && [ "$(cut -f3 "$WORK/mid-before" | sort -u)" = "$(md5sum < "$M/apps48/kicmidx-foo.svg" | cut -d' ' -f1)" ] &&
    same_answers "$WORK/mid-before" "$WORK/mid-after"
  ok $? "4: ... KF5 loads kicmidx-foo's own bytes after the rebuild as before"
fi
is "$(grep -c '^link	.*/kicmidx\.svg' "$R$S/manifest")" 0 \
  "4: ... a name KDE finds in kicmid, beside a user's directory there past the bound that may hold its dash forms: no link in breeze"
grep -q '^link	/usr/share/icons/breeze/.*/kicfirst\.svg	' "$R$S/manifest"
ok $? "4: ... a name KDE finds in breeze itself keeps its links there"

# ... and the same with apps48 hidden instead (0750, group 4242: row 1):
# its names are as unknown to root, and a member of the group asks for
# kicmidx-foo, which only they see
if [ -x "$ORACLE" ]; then
  R=$(fresh r1mid)
  M=$R/usr/share/icons/kicmid
  mkdir -p "$M/scalable/apps" "$M/apps48"
  printf '[Icon Theme]\nName=Mid\nInherits=hicolor\nKDE-Extensions=.svg\nDirectories=scalable/apps,apps48\n\n[scalable/apps]\nSize=48\nMinSize=1\nMaxSize=512\nType=Scalable\n\n[apps48]\nSize=48\nType=Fixed\n' > "$M/index.theme"
  svg mid > "$M/scalable/apps/kicmidx.svg"
  svg foo > "$M/apps48/kicmidx-foo.svg"
  chgrp 4242 "$M/apps48"; chmod 750 "$M/apps48"
  sed -i 's/^Inherits=.*/Inherits=kicmid,hicolor/' "$R/usr/share/icons/breeze/index.theme"
  printf '[Desktop Entry]\nType=Application\nName=mid\nExec=true\nIcon=kicmidx\n' > "$R/usr/share/applications/kicmidx.desktop"
  echo kicmidx-foo | kde_as "$R" member > "$WORK/midh-before"
  kic --root "$R" 2> /dev/null
  echo kicmidx-foo | kde_as "$R" member > "$WORK/midh-after"
  [ "$(wc -l < "$WORK/midh-before")" -eq 4 ] && cmp -s "$WORK/midh-before" "$WORK/midh-after"
  ok $? "1: ... a hidden directory in a theme after breeze: KF5 as the group's member loads kicmidx-foo's own bytes after the rebuild as before"
  is "$(grep -c '^link	.*/kicmidx\.svg' "$R$S/manifest")" 0 \
    "1: ... and kicmidx, which KDE finds in that theme, gets no link in breeze"
else
  skip "needs the KF5 helper" 2
fi

# ... and with UnthemedLinks=true (a link in a theme for a name KDE finds
# only outside them), /usr/share/pixmaps made writable by others, past
# the bound, holding pixlocal-foo.png: KDE finds pixlocal in
# /usr/local/share/pixmaps, and pixlocal-foo, cut back, would meet a link
# pixlocal in hicolor before it reached its own file
R=$(fresh r4pix)
mkdir -p "$R/etc"
printf '[kde-icon-cache]\nUnthemedLinks=true\n' > "$R/etc/kde-icon-cache.conf"
(cd "$R/usr/share/pixmaps" && junk 1 16484 png && cp pixpng.png pixlocal-foo.png)
chmod o+w "$R/usr/share/pixmaps"
[ -x "$ORACLE" ] && printf 'pixlocal-foo\n' | _theirs_now "$R" breeze 16,48 | bytes "$R" | cut -f1,2,4 > "$WORK/pix-before"
kic --root "$R" 2> /dev/null
if [ -x "$ORACLE" ]; then
  printf 'pixlocal-foo\n' | _theirs_now "$R" breeze 16,48 | bytes "$R" | cut -f1,2,4 > "$WORK/pix-after"
  [ "$(grep -c '^pixlocal-foo	' "$WORK/pix-before")" = 2 ] && [ "$(cut -f3 "$WORK/pix-before" | sort -u)" = "$(md5sum < "$R/usr/share/pixmaps/pixlocal-foo.png" | cut -d' ' -f1)" ] &&
    same_answers "$WORK/pix-before" "$WORK/pix-after"
  ok $? "4: ... UnthemedLinks=true: KF5 loads pixlocal-foo's own bytes after the rebuild as before"
fi
is "$(grep -c '^link	.*/pixlocal\.' "$R$S/manifest")" 0 \
  "4: ... UnthemedLinks=true: pixlocal, found outside the themes before a \"User\" directory past the bound, gets no link"

# ... and a directory that crosses the bound, one way then the other:
# every name whose lookup passes it is planned again
R=$(fresh r4cross)
mkdir -p "$R$U"
(cd "$R$U" && junk 1 16300 png)
chown -R nobody "$R$U"
kic --root "$R" 2> /dev/null
for step in up down; do
  sleep 0.05
  if [ $step = up ]; then
    (cd "$R$U" && junk 16301 16500 png)
  else
    (cd "$R$U" && seq 16301 16500 | sed 's/^/kicjunk-/; s/$/.png/' | xargs rm -f)
  fi
  rm -rf "$WORK/r4full"; cp -a "$R" "$WORK/r4full"
  kic --root "$R" 2> /dev/null; kic --root "$WORK/r4full" --full 2> /dev/null
  is "$(grep -v '^#' "$R$S/manifest" | md5sum)" "$(grep -v '^#' "$WORK/r4full$S/manifest" | md5sum)" \
    "4: ... the directory went $step past the bound: a kept run plans as --full does"
done

# -- held out: a user's tree that the look and the run must get through ---
# nobody owns a hicolor directory KDE searches and the applications one
# of /usr/local.  After a rebuild (a state kept), each shape below: the
# next run (incremental) exits 0 within a minute, plans as --full, and
# after it a run has nothing to do (the fingerprint made of that tree reads
# back: a name cannot forge a line of it)
shape () { # shape NAME: change $U (hicolor) and $A (applications) so
  case $1 in
  fifo) rm -rf "$U/32x32/apps"; mkfifo "$U/32x32/apps" ;;
  device) rm -rf "$U/32x32/apps"; mknod "$U/32x32/apps" c 1 3 ;;
  names) mkdir -p "$U/32x32/apps/a
d	f	1 2 3 4 5	/etc"; cp "$U/32x32/apps/hilocal32.png" "$U/32x32/apps/x
y.png"; cp "$U/32x32/apps/hilocal32.png" "$U/32x32/apps/$(printf 'b\377c').png"
    printf '[Desktop Entry]\nType=Application\nName=n\nExec=true\nIcon=x\n' > "$A/$(printf 'n\nl\377').desktop" ;;
  unreadable) chmod 0 "$U/32x32/apps" "$A" ;;
  loop) rm -rf "$U/32x32/apps"; ln -s apps "$U/32x32/apps"; ln -s loopb "$U/48x48/apps/loopa.png"
    ln -s loopa.png "$U/48x48/apps/loopb" ;;
  specials) mkfifo "$U/48x48/apps/kate.png" "$A/fifo.desktop"; mkdir -p "$R/dev"; mknod "$R/dev/zero" c 1 5
    ln -s /dev/zero "$U/48x48/apps/hilocal32.png"; ln -s /dev/zero "$A/zero.desktop"; mkfifo "$U/index.theme" ;;
  huge) truncate -s 4G "$U/48x48/apps/hiboth.png" "$A/huge.desktop" ;;
  long) n=$(printf "%0251d" 0 | tr 0 a); cp "$U/32x32/apps/hilocal32.png" "$U/32x32/apps/$n.png"
    p=$(printf "%0200d" 0 | tr 0 d); d=$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p/$p
    (cd "$U" && mkdir -p "$d") ;;
  gone) rm -rf "$U" "$A" ;;
  esac
}
for how in fifo device names unreadable loop specials huge long gone; do
  R=$(fresh "rshape$how")
  U=$R/usr/local/share/icons/hicolor A=$R/usr/local/share/applications
  chown -R nobody "$U" "$A"
  kic --root "$R"
  sleep 0.05
  shape $how
  timeout 60 "$BIN" --root "$R" --dry-run > "$WORK/shape.inc" 2> /dev/null
  rc=$?
  timeout 60 "$BIN" --root "$R" --dry-run --full > "$WORK/shape.full" 2> /dev/null
  timeout 60 "$BIN" -q --root "$R" 2> /dev/null
  rc2=$?
  sleep 0.05
  timeout 60 "$BIN" --root "$R" > "$WORK/shape.out" 2>&1
  [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$WORK/shape.inc" "$WORK/shape.full" && grep -q 'nothing to do' "$WORK/shape.out"
  ok $? "a user's tree ($how): the run exits 0 (got $rc, $rc2), plans as --full, and the next has nothing to do"
done

# -- held out: a write through a shared mapping moves no time ------------
# After the first write to a page of a mapping, Linux moves the file's
# times again only once that page was written back: nobody maps their
# .desktop file, writes its Icon= (the times move), waits while a run reads
# it, then writes it again, the times as they were.  The run that read it
# must have written it back first, or every later run keeps what it read.
# mmap_case WHERE: the scenario, with nobody's applications directory on
# the disk or on a tmpfs (which never writes a page back: there the stamp
# of a file others may write proves nothing).  Each run of one case is in
# one mount namespace (unshare -m), the tmpfs its own.
cat > "$WORK/mmap.sh" << 'EOS'
R=$1 BIN=$2 WORK=$3 WHERE=$4
A=$R/usr/local/share/applications
if [ "$WHERE" = tmpfs ]; then
  cp -a "$A" "$WORK/apps.saved" && mount -t tmpfs -o mode=755 tmpfs "$A" && cp -a "$WORK/apps.saved/." "$A" || exit 9
fi
chown -R nobody "$A"
"$BIN" -q --root "$R"
sleep 0.05
rm -f "$WORK/mm.ready" "$WORK/mm.go"
mkfifo -m 666 "$WORK/mm.ready" "$WORK/mm.go"
# (the system's python: one under root's home is no program of nobody's)
setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c '
import mmap, sys
f = open(sys.argv[1], "r+b"); m = mmap.mmap(f.fileno(), 0); at = m.find(b"kicmma") + 5
m[at:at + 1] = b"a"                      # the first write: the times move
open(sys.argv[2], "w").write("ready\n")
open(sys.argv[3]).read()                 # a run reads the file meanwhile
m[at:at + 1] = b"b"                      # the second: Icon=kicmmb
open(sys.argv[2], "w").write("done\n")' "$A/kicmm.desktop" "$WORK/mm.ready" "$WORK/mm.go" &
timeout 60 cat "$WORK/mm.ready" > /dev/null
sleep 0.05 # (past the racy tick: the run's stamp proves its times)
"$BIN" -q --root "$R" 2> /dev/null
timeout 60 sh -c 'echo go > "$1"' sh "$WORK/mm.go"
timeout 60 cat "$WORK/mm.ready" > /dev/null
wait
sleep 0.05
"$BIN" --root "$R" --dry-run > "$WORK/mm.inc" 2> /dev/null
"$BIN" --root "$R" --dry-run --full > "$WORK/mm.full" 2> /dev/null
grep -q 'Icon=kicmmb' "$A/kicmm.desktop"
EOS
for where in disk tmpfs; do
  if [ ! -x /usr/bin/python3 ] || ! unshare -m true 2> /dev/null; then
    skip "needs /usr/bin/python3 and a mount namespace"
    continue
  fi
  R=$(fresh "rmmap$where")
  H=$R/usr/share/icons/hicolor/48x48/apps
  svg kicmma > "$H/kicmma.svg"
  svg kicmmb > "$H/kicmmb.svg"
  printf '[Desktop Entry]\nType=Application\nName=mm\nExec=true\nIcon=kicmma\n' > "$R/usr/local/share/applications/kicmm.desktop"
  rm -rf "$WORK/apps.saved"
  unshare -m sh "$WORK/mmap.sh" "$R" "$BIN" "$WORK" $where
  rc=$?
  [ $rc -eq 0 ] && grep -q kicmmb "$WORK/mm.full" && cmp -s "$WORK/mm.inc" "$WORK/mm.full"
  ok $? "a .desktop file of nobody's ($where) written again through a mapping, no time moved: the next run plans as --full ($rc; $(grep -c kicmmb "$WORK/mm.full") kicmmb lines)"
done

# -- held out (rows 3-5's family): a kept listing stands on a directory
# whose time tells no change.  nobody turns a hicolor directory of theirs
# into a link to /proc/self/fd: the run follows it (as KDE does) into
# /proc, whose listing changes with every process while its time stays
# the one it was mounted at.  A run that kept /proc's listing looked for
# the last run's process there, found no directory, and planned otherwise
# than --full.  Each run sees a /proc of its own (a mount namespace).
R=$(fresh rproc)
mkdir -p "$R/proc"
printf '#!/bin/sh\nexec unshare -m sh -c %s %s "$@"\n' \
  "'mount --bind /proc \"\$0\" && exec \"\$@\"'" "'$R/proc'" > "$WORK/kic-proc"
chmod +x "$WORK/kic-proc"
if "$WORK/kic-proc" "$BIN" --version > /dev/null 2>&1; then
  U=$R/usr/local/share/icons/hicolor
  chown -R nobody "$U"
  "$WORK/kic-proc" "$BIN" -q --root "$R"
  rm -rf "$U/32x32/apps"
  ln -s /proc/self/fd "$U/32x32/apps"
  "$WORK/kic-proc" "$BIN" -q --root "$R"
  cp "$R/usr/share/icons/breeze/apps/22/kate.svg" "$R/usr/share/icons/breeze/apps/22/kicnew.svg"
  printf '[Desktop Entry]\nType=Application\nName=new\nExec=true\nIcon=kicnew\n' > "$R/usr/share/applications/kicnew.desktop"
  "$WORK/kic-proc" "$BIN" --root "$R" --dry-run > "$WORK/proc.inc" 2> /dev/null
  "$WORK/kic-proc" "$BIN" --root "$R" --dry-run --full > "$WORK/proc.full" 2> /dev/null
  [ -s "$WORK/proc.full" ] && cmp -s "$WORK/proc.inc" "$WORK/proc.full"
  ok $? "a user's hicolor directory made a link to /proc/self/fd: the next run plans as --full ($(wc -l < "$WORK/proc.full") changes)"
  diff "$WORK/proc.inc" "$WORK/proc.full" | head -n 4 | sed 's/^/# /'
else
  skip "needs unshare and a mount namespace"
fi


# -- row 4: the run's budget on the names of all users' directories ----
# nobody owns nine hicolor directories of 14 600 names each (each under
# the bound on one, 16 384; 131 400 in all, past the run's 131 072), one
# of them kicfirst-x.png: one warning names the budget, the run exits 0,
# plans the rest (kicfirst, which KDE finds in breeze, keeps its links),
# plants nothing a lookup passing them could meet (hi48 and hiscalable
# end in hicolor), keeps none of their names in the state, and a kept
# run after a change equals --full
R=$(fresh r4run)
H=/usr/local/share/icons/hicolor
for d in 16x16 22x22 24x24 32x32 48x48 64x64 256x256 scalable symbolic; do
  mkdir -p "$R$H/$d/apps"
  (cd "$R$H/$d/apps" && junk 1 14600 png)
done
: > "$R$H/48x48/apps/kicfirst-x.png"
chown -R nobody "$R$H"
"$BIN" --root "$R" > "$WORK/out4r" 2>&1
ok $? "4: nine users' directories of 14600 names, past the run's budget of 131072: the run exits 0"
is "$(grep -c "directories users may write hold more than 131072 names in all ('$R$H/16x16/apps', .*; 9 directories)" "$WORK/out4r"; grep -c "holds more than" "$WORK/out4r")" "1
0" "4: ... one warning names the budget and the directories"
grep -q "^link	/usr/share/icons/breeze/.*/kicfirst\.svg	" "$R$S/manifest"
ok $? "4: ... a name KDE finds in breeze keeps its links"
is "$(grep -c '^link	.*/\(hi48\|hiscalable\)\.' "$R$S/manifest")" 0 \
  "4: ... names KDE finds in hicolor, whose lookups pass the directories, get no link"
is "$(grep -c kicjunk "$R$S/state"; grep -c "^D	$H/[0-9a-z]*/apps	3\(	[0-9]*\)\{0,1\}\$" "$R$S/state")" "0
9" "4: ... the state keeps none of their names, one line for each (with how many it held, when it was read)"
# kept_then_full ROOT: a kept run, its manifest's sum in kept.md5, then
# --full on the same root (no copy of 131 400 names)
kept_then_full () {
  kic --root "$1" 2> /dev/null
  grep -v '^#' "$1$S/manifest" | md5sum > "$WORK/kept.md5"
  kic --root "$1" --full 2> /dev/null
}
for change in "$R/usr/share/icons/hicolor/48x48/apps/kicnew.png" "$R$H/16x16/apps/kicjunk-new.png"; do
  sleep 0.05
  cp "$R/usr/share/icons/hicolor/48x48/apps/hi48.png" "$change"
  kept_then_full "$R"
  is "$(cat "$WORK/kept.md5")" "$(grep -v '^#' "$R$S/manifest" | md5sum)" \
    "4: ... after ${change#"$R"} came, a kept run plans as --full does"
done
# ... and the sum crossing the budget down (500 names go), then up:
# every name whose lookup passes them is planned again, and the run below
# the budget plants in hicolor as a run without the budget would
for step in down up; do
  sleep 0.05
  if [ $step = down ]; then
    (cd "$R$H/22x22/apps" && seq 1 500 | sed 's/^/kicjunk-/; s/$/.png/' | xargs rm -f)
  else
    (cd "$R$H/22x22/apps" && junk 1 500 png && chown nobody .)
  fi
  kept_then_full "$R"
  is "$(cat "$WORK/kept.md5")" "$(grep -v '^#' "$R$S/manifest" | md5sum)" \
    "4: ... the sum went $step past the run's budget: a kept run plans as --full does"
  is "$(grep -c '^link	.*/\(hi48\|hiscalable\)\.' "$R$S/manifest" | sed 's/^[1-9][0-9]*$/some/')" \
    "$([ $step = down ] && echo some || echo 0)" "4: ... $step: names KDE finds in hicolor get links only below the budget"
done

tap_done
