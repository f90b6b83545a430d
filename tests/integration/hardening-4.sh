#!/bin/sh
# hardening-4.sh - issue 39: root decides nothing on what users cannot
# see, a kept state is never staler than a fresh run, and a user's files
# set no cost beyond a bound.  Each row reproduced on a scratch root:
#   6  the writer leaves out a link the proof counted on (a name over 241
#      bytes): the plan must not count on it;
#   8  postrm purge under DPKG_ROOT (dpkg --root) follows a link in the
#      root's /var and removes the host's files of those names;
#   7  a user with an icon and a menu directory pushes every earlier
#      change out of the change log in three runs (one run's lines were
#      not bounded, and one old generation was kept).
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

tap_done
