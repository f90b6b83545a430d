#!/bin/sh
# make-root.sh - a Debian root with Plasma and the menu applications of
# tests/oracle/packages.list installed, Xvfb, xdotool, strace and qdbus:
# the desktop that tests/bench/plasma/bench-plasma.sh (make bench-plasma)
# runs headless and measures.  KIC_PLASMA_VERSION=5 (the default): Debian
# 12 (bookworm), Plasma 5.27; KIC_PLASMA_VERSION=6: Debian 13 (trixie),
# Plasma 6.3, where the packages of the list that trixie does not have
# are left out (the stamp names them).
#
#   tests/bench/plasma/make-root.sh [--force]
#
# Root: $KIC_PLASMA_ROOT, default ${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/bookworm-plasma
# (Plasma 5) or .../trixie-plasma (Plasma 6).
# A complete root is marked by ROOT/.kic-plasma-stamp (it lists the KDE
# packages installed and a digest of the package list it was made from); a
# root with the stamp is reused as it is when that list is still the same
# (--force remakes it).
#
# Needs root (debootstrap, chroot, mount), debootstrap and the network to
# $KIC_DEBIAN_MIRROR (default http://deb.debian.org/debian).  Takes some
# minutes and about 3 GB.
set -eu
LC_ALL=C.UTF-8
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../../.." && pwd)
STAMP=.kic-plasma-stamp
case ${KIC_PLASMA_VERSION:-5} in
  5) SUITE=bookworm ;;
  6) SUITE=trixie ;;
  *) echo "make-root.sh: KIC_PLASMA_VERSION is 5 or 6, not ${KIC_PLASMA_VERSION}" >&2; exit 2 ;;
esac
ROOT=${KIC_PLASMA_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/$SUITE-plasma}
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
# Plasma 6: the same, with Qt 6's QML modules and qdbus, the SVG image
# plugin (without it Qt 6 draws no SVG icon: a screenshot of empty
# squares), and kglobalacceld and kactivitymanagerd, which plasma-desktop
# only recommends (without the activity manager plasmashell shows nothing)
if [ "$SUITE" = trixie ]; then DESKTOP="plasma-workspace plasma-desktop plasma-integration breeze breeze-icon-theme
  kde-cli-tools kglobalacceld kactivitymanagerd qt6-svg-plugins
  firefox-esr fonts-noto-core fonts-dejavu-core libgl1-mesa-dri qml6-module-org-kde-kquickcontrolsaddons
  qml6-module-org-kde-kitemmodels qml6-module-org-kde-kcmutils qml6-module-qt-labs-qmlmodels
  qml6-module-qtquick-shapes qml6-module-qtquick-particles qml6-module-org-kde-plasma-plasma5support
  xvfb xdotool x11-apps x11-utils qdbus-qt6 dbus dbus-x11 strace faketime netpbm"; fi
# The menu: the same applications the realistic tree of make bench holds
APPS=$(sed 's/#.*//' "$TOP/tests/oracle/packages.list" | awk 'NF { print $1 }')

# in_root, root_*: debootstrap, mounts, reuse and the stamp, shared with
# tests/oracle/kf6/make-root.sh
# shellcheck source=tests/debian-root.sh
. "$here/../../debian-root.sh"

root_args "$@"

# (a root made before packages.list grew would show another menu than
# make bench's tree: root_complete makes it again)
# shellcheck disable=SC2086
if root_complete $DESKTOP $APPS; then
  echo "make-root.sh: $ROOT is complete (reused)"
  exit 0
fi

root_begin
# the applications the suite has (bookworm: all of them; trixie lacks a
# few, e.g. python3.11): apt-cache of the new root decides
# (a name only some package Provides, such as gnome-dictionary in trixie,
# has no candidate)
# shellcheck disable=SC2086
CAND=$(in_root "$NEW" apt-cache policy $APPS | awk '/^[^ ]/ { p = $1; sub(/:$/, "", p) } $1 == "Candidate:" && $2 != "(none)" { print p }')
MISSING=
HAVE=
for p in $APPS; do
  if printf '%s\n' "$CAND" | grep -qxF "$p"; then HAVE="$HAVE $p"; else MISSING="$MISSING $p"; fi
done
[ -z "$MISSING" ] || echo "make-root.sh: not in $SUITE, left out:$MISSING" >&2
# shellcheck disable=SC2086
root_install $DESKTOP $HAVE

# stamp_lines: what the stamp says about ROOT.new after its first line
stamp_lines () {
  # shellcheck disable=SC2016
  in_root "$NEW" dpkg-query -W -f '${Package}\t${Version}\n' |
    grep -E '^(plasma-workspace|plasma-desktop|breeze-icon-theme|libkf5iconthemes5|libkf6iconthemes6|libqt5gui5|libqt6gui6|firefox-esr)\s'
  echo "# suite $SUITE; packages of tests/oracle/packages.list left out (not in $SUITE):${MISSING:- none}"
  echo "# $(find "$NEW/usr/share/applications" -name '*.desktop' | wc -l) desktop files in /usr/share/applications"
}
root_finish tests/bench/plasma/make-root.sh stamp_lines
