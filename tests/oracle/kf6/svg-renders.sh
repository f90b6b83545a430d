#!/bin/sh
# svg-renders.sh ROOT - does KF6 in ROOT render an SVG icon, pixel for
# pixel?  Before any KF6 pixel comparison counts (oracle-kf6.sh,
# oracle-wide.sh): without qt6-svg-plugins Qt renders every SVG as a null
# image, and "the same pixels" would compare null with null (issue 20).
#
# A tree with one hicolor icon, an opaque red 16x16 SVG square, asked at 16
# and 48 px with run.sh --render: each render must be the size asked for
# and its ARGB32 bytes those of a red square of that size (0xffff0000 a
# pixel, little-endian), hashed here, not taken from KDE.
# Exit 0: it does; 1: it does not (what it rendered is printed); 2: no
# root, not root, or run.sh failed.
set -eu
LC_ALL=C.UTF-8
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: svg-renders.sh ROOT" >&2; exit 2; }
ROOT=$1
[ -f "$ROOT/.kic-kf6-stamp" ] || { echo "svg-renders.sh: no KF6 root at $ROOT" >&2; exit 2; }
t=$(mktemp -d "${TMPDIR:-/tmp}/kic-svg6.XXXXXX")
trap 'rm -rf "$t"' EXIT
d=$t/usr/share/icons/hicolor
mkdir -p "$d/scalable/apps"
printf '[Icon Theme]\nName=Hicolor\nDirectories=scalable/apps\n\n[scalable/apps]\nSize=48\nMinSize=8\nMaxSize=512\nType=Scalable\n' > "$d/index.theme"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect x="0" y="0" width="16" height="16" fill="#ff0000"/></svg>\n' \
  > "$d/scalable/apps/kic-svg-probe.svg"
echo kic-svg-probe | KIC_KF6_ROOT=$ROOT "$here/run.sh" --render "$t" hicolor 16,48 > "$t/out" 2> "$t/err" ||
  { cat "$t/err" >&2; echo "svg-renders.sh: run.sh failed in $ROOT" >&2; exit 2; }
bad=0
for n in 16 48; do
  want="${n}x$n:$(perl -e "print \"\\x00\\x00\\xff\\xff\" x ($n * $n)" | sha1sum | cut -d' ' -f1)"
  got=$(awk -F '\t' -v n="$n" '$2 == n { print $3 " " $4 }' "$t/out")
  if [ "$got" != "/usr/share/icons/hicolor/scalable/apps/kic-svg-probe.svg $want" ]; then
    echo "svg-renders.sh: $ROOT: a red ${n}px SVG square renders as '${got:-nothing}' (want $want; '-' is a null image: qt6-svg-plugins missing?)" >&2
    bad=1
  fi
done
exit $bad
