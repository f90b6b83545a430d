#!/bin/sh
# make-root.sh - a Debian root with KDE Frameworks 6 KIconThemes, the KF6
# oracle helper built inside it, and strace: the KF6 oracle that
# tests/oracle/kf6/run.sh and tests/integration/oracle-kf6.sh use.
#
#   tests/oracle/kf6/make-root.sh [--suite trixie|forky] [--force]
#
# trixie (the default) is Debian 13, KIconThemes 6.13; forky is Debian
# testing (KIconThemes 6.30 when this was written), debootstrapped with the
# sid script (Debian 12's debootstrap has none for forky) and with apt's
# Valid-Until check off (testing's Release files expire within a week).
# Root: $KIC_KF6_ROOT, default ${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-SUITE.
# A complete root is marked by ROOT/.kic-kf6-stamp (it lists the packages
# installed and a digest of the package list it was made from); a root with
# the stamp is reused as it is when that list is still the same (--force
# remakes it).
# The helper is rebuilt when tests/oracle/kic-oracle.cpp changed (run.sh does the same).
#
# Needs root (debootstrap, chroot, mount), debootstrap with the trixie
# keys (Debian 12's debian-archive-keyring has them) and the network to
# $KIC_DEBIAN_MIRROR (default http://deb.debian.org/debian).  The .deb
# files are kept in ROOT/var/cache/apt/archives only until the end.
set -eu
LC_ALL=C.UTF-8
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
SUITE=trixie
if [ "${1:-}" = --suite ]; then SUITE=${2:-}; shift 2 || true; fi
case $SUITE in
trixie) ;;
forky)
  DEBOOTSTRAP_SCRIPT=/usr/share/debootstrap/scripts/sid
  APT_CONF='Acquire::Check-Valid-Until "false";' ;;
*) echo "make-root.sh: --suite trixie or --suite forky, not '$SUITE'" >&2; exit 2 ;;
esac
ROOT=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-$SUITE}
STAMP=.kic-kf6-stamp
# g++ and pkg-config to build the helper; qt6-base-dev and the KIconThemes
# development package for its headers; strace for probe counts; binutils
# (g++ brings it) for readelf; qt6-svg-plugins, without which Qt renders
# every SVG as a null image (run.sh --render; issue 20).
PACKAGES="g++ pkg-config make qt6-base-dev libkf6iconthemes-dev strace binutils qt6-svg-plugins"
# in_root, root_*: debootstrap, mounts, reuse and the stamp, shared with
# tests/bench/plasma/make-root.sh
# shellcheck source=tests/debian-root.sh
. "$here/../../debian-root.sh"
# shellcheck source=tests/oracle/kf6/helper-id.sh
. "$here/helper-id.sh"

root_args "$@"

# build_helper ROOT: build /opt/kic/kic-oracle6-ID inside ROOT from the
# source next to this script (ID: the source's cksum, kf6_helper_id in
# helper-id.sh), once.  Each source has its own build, made under a lock
# and renamed into place whole: runs side by side (make check's) and
# checkouts of another source sharing the root never see a half-written
# helper or one another's.  /opt/kic/kic-oracle6 links to the last built.
build_helper () {
  _id=$(kf6_helper_id)
  mkdir -p "$1/opt/kic"
  [ -x "$1/opt/kic/kic-oracle6-$_id" ] && return 0
  (
    flock 9
    [ -x "$1/opt/kic/kic-oracle6-$_id" ] && exit 0
    cp "$here/../kic-oracle.cpp" "$1/opt/kic/kic-oracle6-$_id.cpp"
    # shellcheck disable=SC2016
    in_root "$1" sh -c 'cd /opt/kic && g++ -O1 -fPIC -std=c++17 $(pkg-config --cflags Qt6Gui Qt6Core) \
        -I/usr/include/KF6/KIconThemes -o "kic-oracle6-$1.new" -x c++ "kic-oracle6-$1.cpp" -x none \
        -lKF6IconThemes $(pkg-config --libs Qt6Gui Qt6Core)' sh "$_id" &&
      mv "$1/opt/kic/kic-oracle6-$_id.new" "$1/opt/kic/kic-oracle6-$_id" &&
      ln -sfn "kic-oracle6-$_id" "$1/opt/kic/kic-oracle6.new" && mv -T "$1/opt/kic/kic-oracle6.new" "$1/opt/kic/kic-oracle6"
  ) 9> "$1/opt/kic/.build.lock"
}

# shellcheck disable=SC2086
if root_complete $PACKAGES; then
  build_helper "$ROOT"
  echo "make-root.sh: $ROOT is complete (reused)"
  cat "$ROOT/$STAMP"
  exit 0
fi

root_begin
# kiconfinder6 (KIconLoader::iconPath from the command line): Debian 13
# ships it in libkf6iconthemes-bin
extra=
for p in libkf6iconthemes-bin kf6-kiconthemes-bin; do
  if in_root "$NEW" apt-cache show "$p" >/dev/null 2>&1; then extra="$extra $p"; break; fi
done
# the KDE platform theme (QT_QPA_PLATFORMTHEME=kde, what a Plasma session
# loads): run.sh --platform-theme measures what it changes
if in_root "$NEW" apt-cache show plasma-integration >/dev/null 2>&1; then extra="$extra plasma-integration"; fi
# shellcheck disable=SC2086
root_install $PACKAGES $extra
build_helper "$NEW"

# stamp_lines: what the stamp says about ROOT.new after its first line
stamp_lines () {
  # shellcheck disable=SC2016
  in_root "$NEW" dpkg-query -W -f '${Package}\t${Version}\n' | grep -E '^(libkf6iconthemes|libkf6breezeicons|qt6-base-dev|libqt6core6|libqt6gui6|libqt6svg6|qt6-svg-plugins|plasma-integration|strace|g\+\+)'
  if in_root "$NEW" readelf -d /usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.6 | grep -q 'NEEDED.*\[libKF6BreezeIcons\.so\.6\]'; then
    echo "# libKF6IconThemes.so.6 DT_NEEDED lists libKF6BreezeIcons.so.6: yes (breeze embedded)"
  else
    echo "# libKF6IconThemes.so.6 DT_NEEDED lists libKF6BreezeIcons.so.6: no"
  fi
}
root_finish tests/oracle/kf6/make-root.sh stamp_lines
