#!/bin/sh
# make-root.sh - a Debian 13 (trixie) root with KDE Frameworks 6 KIconThemes,
# the KF6 oracle helper built inside it, and strace: the KF6 oracle that
# tests/oracle/kf6/run.sh and tests/integration/oracle-kf6.sh use.
#
#   tests/oracle/kf6/make-root.sh [--force]
#
# Root: $KIC_KF6_ROOT, default ${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/trixie-kf6.
# A complete root is marked by ROOT/.kic-kf6-stamp (it lists the packages
# installed); a root with the stamp is reused as it is (--force remakes it).
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
ROOT=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/trixie-kf6}
MIRROR=${KIC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie
STAMP=.kic-kf6-stamp
# g++ and pkg-config to build the helper; qt6-base-dev and the KIconThemes
# development package for its headers; strace for probe counts; binutils
# (g++ brings it) for readelf.
PACKAGES="g++ pkg-config make qt6-base-dev libkf6iconthemes-dev strace binutils"

force=0
[ "${1:-}" = --force ] && force=1
[ "$(id -u)" -eq 0 ] || { echo "make-root.sh: needs root (debootstrap, chroot)" >&2; exit 2; }

in_root () { # in_root ROOT CMD...: CMD in ROOT, clean environment
  _r=$1; shift
  chroot "$_r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 HOME=/root \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# build_helper ROOT: (re)build /opt/kic/kic-oracle6 inside ROOT from the
# source next to this script, unless the copy there is the same.
build_helper () {
  mkdir -p "$1/opt/kic"
  if [ -x "$1/opt/kic/kic-oracle6" ] && cmp -s "$here/../kic-oracle.cpp" "$1/opt/kic/kic-oracle6.cpp"; then
    return 0
  fi
  cp "$here/../kic-oracle.cpp" "$1/opt/kic/kic-oracle6.cpp.new"
  # shellcheck disable=SC2016
  in_root "$1" sh -c 'cd /opt/kic && g++ -O1 -fPIC -std=c++17 $(pkg-config --cflags Qt6Gui Qt6Core) \
      -I/usr/include/KF6/KIconThemes -o kic-oracle6 -x c++ kic-oracle6.cpp.new -x none \
      -lKF6IconThemes $(pkg-config --libs Qt6Gui Qt6Core)' &&
    mv "$1/opt/kic/kic-oracle6.cpp.new" "$1/opt/kic/kic-oracle6.cpp"
}

if [ $force -eq 0 ] && [ -f "$ROOT/$STAMP" ]; then
  build_helper "$ROOT"
  echo "make-root.sh: $ROOT is complete (reused)"
  cat "$ROOT/$STAMP"
  exit 0
fi

command -v debootstrap >/dev/null || { echo "make-root.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
NEW=$ROOT.new
PROC=
cleanup () {
  if [ -n "$PROC" ]; then umount "$PROC" 2>/dev/null || umount -l "$PROC" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

t0=$(date +%s)
mkdir -p "$(dirname "$ROOT")"
if mountpoint -q "$NEW/proc" 2>/dev/null; then umount -l "$NEW/proc"; fi
rm -rf --one-file-system "$NEW"
echo "make-root.sh: debootstrap --variant=minbase $SUITE $NEW $MIRROR" >&2
debootstrap --variant=minbase "$SUITE" "$NEW" "$MIRROR" >&2
# no daemon may start inside the root
printf '#!/bin/sh\nexit 101\n' > "$NEW/usr/sbin/policy-rc.d"
chmod 755 "$NEW/usr/sbin/policy-rc.d"
# /dev: debootstrap made the minimal nodes (null, zero, random, urandom, tty...)
[ -c "$NEW/dev/null" ] || { echo "make-root.sh: $NEW/dev/null missing" >&2; exit 1; }
mount -t proc proc "$NEW/proc"
PROC=$NEW/proc
in_root "$NEW" apt-get update >&2
# kiconfinder6 (KIconLoader::iconPath from the command line): Debian 13
# ships it in libkf6iconthemes-bin
extra=
for p in libkf6iconthemes-bin kf6-kiconthemes-bin; do
  if in_root "$NEW" apt-cache show "$p" >/dev/null 2>&1; then extra="$extra $p"; break; fi
done
# shellcheck disable=SC2086
in_root "$NEW" apt-get install -y --no-install-recommends $PACKAGES $extra >&2
in_root "$NEW" apt-get clean
umount "$PROC"; PROC=
build_helper "$NEW"
{
  echo "# made by tests/oracle/kf6/make-root.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - t0)) s"
  # shellcheck disable=SC2016
  in_root "$NEW" dpkg-query -W -f '${Package}\t${Version}\n' | grep -E '^(libkf6iconthemes|libkf6breezeicons|qt6-base-dev|libqt6core6|libqt6gui6|libqt6svg6|strace|g\+\+)'
  if in_root "$NEW" readelf -d /usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.6 | grep -q 'NEEDED.*\[libKF6BreezeIcons\.so\.6\]'; then
    echo "# libKF6IconThemes.so.6 DT_NEEDED lists libKF6BreezeIcons.so.6: yes (breeze embedded)"
  else
    echo "# libKF6IconThemes.so.6 DT_NEEDED lists libKF6BreezeIcons.so.6: no"
  fi
} > "$NEW/$STAMP"
rm -rf --one-file-system "$ROOT"
mv "$NEW" "$ROOT"
echo "make-root.sh: $ROOT ready ($(($(date +%s) - t0)) s, $(du -sh "$ROOT" | cut -f1))"
cat "$ROOT/$STAMP"
