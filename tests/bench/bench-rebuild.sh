#!/bin/sh
# bench-rebuild.sh - only the rebuild against gtk-update-icon-cache, on the
# realistic tree (the row make bench and make bench-scale print; quick, for
# work on the rebuild's speed): the full rebuild against
# gtk-update-icon-cache over the themes KDE searches, the rebuild after one
# application is added against gtk-update-icon-cache on hicolor, the
# no-op, our peak memory (tests/bench/rebuild-vs-gtk.sh).  Needs root.
# KIC_BENCH_RUNS runs (default 5), medians; KIC_BENCH_THEME (breeze).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
CACHE=${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}
: "${KIC_BENCH_RUNS:=5}"
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench-rebuild.XXXXXX")
VIEWS=
cleanup () {
  for v in $VIEWS; do umount "$v" 2>/dev/null || true; done
  rm -rf "$W"
}
trap cleanup EXIT
command -v gtk-update-icon-cache > /dev/null || { echo "bench-rebuild: needs gtk-update-icon-cache" >&2; exit 1; }
. "$TOP/tests/bench/rebuild-vs-gtk.sh"
T=${KIC_TREE:-$TMP_TOP/realistic}
[ -n "${KIC_TREE:-}" ] || "$TOP/tests/oracle/make-tree.sh" "$CACHE" "$T" >&2
echo "the rebuild against gtk-update-icon-cache ($KIC_BENCH_RUNS runs; $(nproc) cores; $(uptime | sed 's/.*load/load/'))"
rebuild_vs_gtk_header
rebuild_vs_gtk realistic "$T"
rebuild_vs_gtk_legend
echo "each run (ms): full $(tr '\n' ' ' < "$W/rvg.full")| gtk $(tr '\n' ' ' < "$W/rvg.gtk")| incr $(tr '\n' ' ' < "$W/rvg.incr")| gtk-hi $(tr '\n' ' ' < "$W/rvg.gtkhi")| no-op $(tr '\n' ' ' < "$W/rvg.noop")"
