#!/bin/sh
# make-root.sh - a Debian 12 (bookworm) root with Plasma 5.27 and the menu
# applications of tests/oracle/packages.list installed, Xvfb, xdotool,
# strace and qdbus: the desktop that tests/bench/plasma/bench-plasma.sh
# (make bench-plasma) runs headless and measures.
#
#   tests/bench/plasma/make-root.sh [--force]
#
# Root: $KIC_PLASMA_ROOT, default ${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/bookworm-plasma.
# A complete root is marked by ROOT/.kic-plasma-stamp (it lists the KDE
# packages installed); a root with the stamp is reused as it is (--force remakes it).
#
# Needs root (debootstrap, chroot, mount), debootstrap and the network to
# $KIC_DEBIAN_MIRROR (default http://deb.debian.org/debian).  Takes some
# minutes and about 3 GB.
set -eu
LC_ALL=C.UTF-8
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../../.." && pwd)
ROOT=${KIC_PLASMA_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/bookworm-plasma}
MIRROR=${KIC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
STAMP=.kic-plasma-stamp
# The desktop: plasmashell with Kickoff and the default panel (its
# launchers name firefox-esr), breeze, software GL (mesa's llvmpipe) and
# fonts, the QML modules Kickoff imports (recommended, not required, by
# plasma-desktop); the harness: Xvfb, xdotool for keys, xwd for screenshots, qdbus
# to open the launcher, a session bus, strace, faketime (the panel clock
# frozen), netpbm (the screenshots as PNG).
DESKTOP="plasma-workspace plasma-desktop plasma-integration breeze breeze-icon-theme kde-cli-tools
  firefox-esr fonts-noto-core fonts-dejavu-core libgl1-mesa-dri qml-module-org-kde-kquickcontrolsaddons
  qml-module-org-kde-kitemmodels qml-module-org-kde-kcm qml-module-org-kde-kcmutils qml-module-qt-labs-qmlmodels
  qml-module-qtquick-shapes qml-module-qtquick-particles2
  xvfb xdotool x11-apps x11-utils qdbus-qt5 dbus dbus-x11 strace faketime netpbm"
# The menu: the same applications the realistic tree of make bench holds
APPS=$(sed 's/#.*//' "$TOP/tests/oracle/packages.list" | awk 'NF { print $1 }')

force=0
[ "${1:-}" = --force ] && force=1
[ "$(id -u)" -eq 0 ] || { echo "make-root.sh: needs root (debootstrap, chroot)" >&2; exit 2; }

in_root () { # in_root ROOT CMD...: CMD in ROOT, clean environment
  _r=$1; shift
  chroot "$_r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 HOME=/root \
    DEBIAN_FRONTEND=noninteractive "$@"
}

if [ $force -eq 0 ] && [ -f "$ROOT/$STAMP" ]; then
  echo "make-root.sh: $ROOT is complete (reused)"
  exit 0
fi

command -v debootstrap >/dev/null || { echo "make-root.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
NEW=$ROOT.new
MOUNTS=
cleanup () {
  for m in $MOUNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

t0=$(date +%s)
mkdir -p "$(dirname "$ROOT")"
for m in proc dev/pts; do
  if mountpoint -q "$NEW/$m" 2>/dev/null; then umount -l "$NEW/$m"; fi
done
rm -rf --one-file-system "$NEW"
echo "make-root.sh: debootstrap --variant=minbase $SUITE $NEW $MIRROR" >&2
debootstrap --variant=minbase "$SUITE" "$NEW" "$MIRROR" >&2
# no daemon may start inside the root
printf '#!/bin/sh\nexit 101\n' > "$NEW/usr/sbin/policy-rc.d"
chmod 755 "$NEW/usr/sbin/policy-rc.d"
[ -c "$NEW/dev/null" ] || { echo "make-root.sh: $NEW/dev/null missing" >&2; exit 1; }
mount -t proc proc "$NEW/proc"
MOUNTS="$NEW/proc"
in_root "$NEW" apt-get update >&2
# shellcheck disable=SC2086
in_root "$NEW" apt-get install -y --no-install-recommends $DESKTOP $APPS >&2
in_root "$NEW" apt-get clean
umount "$NEW/proc"; MOUNTS=
{
  echo "# made by tests/bench/plasma/make-root.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - t0)) s"
  # shellcheck disable=SC2016
  in_root "$NEW" dpkg-query -W -f '${Package}\t${Version}\n' |
    grep -E '^(plasma-workspace|plasma-desktop|breeze-icon-theme|libkf5iconthemes5|libqt5gui5|firefox-esr)\s'
  echo "# $(find "$NEW/usr/share/applications" -name '*.desktop' | wc -l) desktop files in /usr/share/applications"
} > "$NEW/$STAMP"
rm -rf --one-file-system "$ROOT"
mv "$NEW" "$ROOT"
echo "make-root.sh: $ROOT ready ($(($(date +%s) - t0)) s, $(du -sh "$ROOT" | cut -f1))"
cat "$ROOT/$STAMP"
