#!/bin/sh
# bench-nfs.sh - what kde-icon-cache means on a slow network file system
#
# slowfs (a FUSE passthrough that delays every LOOKUP/GETATTR/ACCESS by
# KIC_NFS_DELAY_US, default 2000 = 2 ms, and caches no negative entry) is
# mounted over a writable view of the realistic tree.  The KF5 helper
# resolves every menu icon at 16, 22, 32 and 48 px through it, before and
# after `kde-icon-cache --rebuild` (itself timed on the mount): wall time
# and the operations the file system served.  Prints a table and writes
# a chart (gnuplot) to build/nfs.png.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
ORACLE=$TOP/tests/oracle/kic-oracle
SLOWFS=${KIC_SLOWFS:-$TOP/build/slowfs}
DELAY=${KIC_NFS_DELAY_US:-2000}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
CHART=${KIC_NFS_CHART:-$TOP/build/nfs.png}
[ -c /dev/fuse ] || { echo "bench-nfs: skipped: /dev/fuse is missing"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "bench-nfs: skipped: needs root (mounts)"; exit 0; }
[ -x "$SLOWFS" ] || { echo "bench-nfs: skipped: $SLOWFS not built (libfuse3-dev)"; exit 0; }
[ -x "$ORACLE" ] || { echo "bench-nfs: skipped: $ORACLE not built (libkf5iconthemes-dev)"; exit 0; }
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench-nfs.XXXXXX")
cleanup () {
  fusermount3 -u "$W/nfs" 2>/dev/null || umount -l "$W/nfs" 2>/dev/null || true
  umount "$W/view" 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT INT TERM
. "$TOP/tests/oracle/oracle-env.sh"

T=${KIC_TREE:-$TMP_TOP/realistic}
"$TOP/tests/oracle/make-tree.sh" "${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}" "$T" >&2
T=$(cd "$T" && pwd)
# the names are the tool's own (tests/bench/names.sh)
. "$TOP/tests/bench/names.sh"
tool_names "$BIN" "$T" "$W" --theme breeze

mkdir -p "$W/upper" "$W/work" "$W/view" "$W/nfs"
mount -t overlay overlay -o "lowerdir=$T,upperdir=$W/upper,workdir=$W/work" "$W/view"
"$SLOWFS" -o "delay_us=$DELAY,stats=$W/stats,allow_other" "$W/view" "$W/nfs"
ops () { kill -USR1 "$(pgrep -f "slowfs -o delay_us=$DELAY,stats=$W/stats")"; sleep 0.3; cat "$W/stats"; }
ms () { echo $(($(date +%s%N) / 1000000)); }

# KDE: every menu icon at one size, one process per size (start-up, which
# is the same before and after, measured apart and taken off)
kde () { # kde SIZE -> "ms ops"
  o0=$(ops); t0=$(ms)
  oracle_run "$W/nfs" breeze "$ORACLE" --sizes "$1" < "$W/names" > /dev/null
  t1=$(ms); o1=$(ops)
  echo "$((t1 - t0)) $((o1 - o0))"
}
o0=$(ops); t0=$(ms); oracle_run "$W/nfs" breeze "$ORACLE" --sizes 48 < /dev/null > /dev/null; t1=$(ms); o1=$(ops)
start_ms=$((t1 - t0)) start_ops=$((o1 - o0))
for s in 16 22 32 48; do kde "$s" > "$W/before.$s"; done
o0=$(ops); t0=$(ms)
"$BIN" -q --root "$W/nfs" --theme breeze
t1=$(ms); o1=$(ops)
rebuild_ms=$((t1 - t0)) rebuild_ops=$((o1 - o0))
for s in 16 22 32 48; do kde "$s" > "$W/after.$s"; done

echo "bench-nfs: $n menu icons, slowfs delay $DELAY us per LOOKUP/GETATTR/ACCESS, breeze current"
tool_names_say "$W"
echo "(KDE process start-up, the same before and after: $start_ms ms, $start_ops operations; taken off below)"
printf '%-6s %16s %16s %16s %16s %8s\n' size "ms before" "ms after" "ops before" "ops after" "ops/x"
: > "$W/chart.dat"
for s in 16 22 32 48; do
  read -r bm bo < "$W/before.$s"; read -r am ao < "$W/after.$s"
  bm=$((bm - start_ms)) bo=$((bo - start_ops)) am=$((am - start_ms)) ao=$((ao - start_ops))
  printf '%-6s %16s %16s %16s %16s %8s\n' "$s" "$bm" "$am" "$bo" "$ao" \
    "$(awk -v a="$bo" -v b="$ao" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }')"
  echo "$s $bm $am" >> "$W/chart.dat"
done
echo "kde-icon-cache --rebuild on the mount: $rebuild_ms ms, $rebuild_ops operations"
if command -v gnuplot > /dev/null && mkdir -p "$(dirname "$CHART")"; then
  gnuplot <<GP
set terminal pngcairo size 800,450 font ",11"
set output "$CHART"
set title "KDE resolving $n menu icons over a $(awk -v d="$DELAY" 'BEGIN { print d / 1000 }') ms-per-call network file system"
set ylabel "seconds"
set xlabel "icon size (px)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set yrange [0:*]
plot "$W/chart.dat" using (\$2/1000):xtic(1) title "before", "" using (\$3/1000) title "after kde-icon-cache --rebuild"
GP
  echo "chart: $CHART"
fi
