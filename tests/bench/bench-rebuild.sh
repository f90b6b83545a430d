#!/bin/sh
# bench-rebuild.sh - only the rebuild against gtk-update-icon-cache, on the
# realistic tree (the row make bench and make bench-scale print; quick, for
# work on the rebuild's speed): the full rebuild against
# gtk-update-icon-cache over the themes KDE searches, the rebuild after one
# application is added against gtk-update-icon-cache on hicolor, the
# no-op, our peak memory (tests/bench/rebuild-vs-gtk.sh).  Needs root.
# KIC_BENCH_RUNS runs (default 5), medians; KIC_BENCH_THEME (breeze);
# KIC_TREE another tree (an overlay lowerdir, "upper:lower" stacks: e.g.
# bench-scale's apps3, "$T3:$T2"), KIC_TREE_NAME its row's name.  The
# views' writable layers go to a fresh ext4 made for the run
# (rebuild-vs-gtk.sh; KIC_BENCH_HOST_FS=1: under KIC_TEST_TMP instead,
# where on ext4 without a journal under churn an inode took 0.5 ms to
# make, measured: the full rebuild, which makes one per link and per copy,
# pays it, and gtk, which makes one file per theme, does not).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
CACHE=${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}
: "${KIC_BENCH_RUNS:=5}"
. "$TOP/tests/bench/rebuild-vs-gtk.sh"
rebuild_vs_gtk_setup bench-rebuild
T=${KIC_TREE:-$TMP_TOP/realistic}
[ -n "${KIC_TREE:-}" ] || "$TOP/tests/oracle/make-tree.sh" "$CACHE" "$T" >&2
echo "the rebuild against gtk-update-icon-cache ($KIC_BENCH_RUNS runs; $(nproc) cores; $(uptime | sed 's/.*load/load/'))"
rebuild_vs_gtk_header
rebuild_vs_gtk "${KIC_TREE_NAME:-realistic}" "$T"
rebuild_vs_gtk_legend
echo "each run (ms): full $(tr '\n' ' ' < "$W/rvg.full")| gtk $(tr '\n' ' ' < "$W/rvg.gtk")| incr $(tr '\n' ' ' < "$W/rvg.incr")| gtk-hi $(tr '\n' ' ' < "$W/rvg.gtkhi")| no-op $(tr '\n' ' ' < "$W/rvg.noop")"
