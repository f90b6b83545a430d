#!/bin/sh
# hardening-4.sh - issue 39: root decides nothing on what users cannot
# see, a kept state is never staler than a fresh run, and a user's files
# set no cost beyond a bound.  Each row reproduced on a scratch root:
#   8  postrm purge under DPKG_ROOT (dpkg --root) follows a link in the
#      root's /var and removes the host's files of those names;
#   7  a user with an icon and a menu directory pushes every earlier
#      change out of the change log in three runs.
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

tap_done
