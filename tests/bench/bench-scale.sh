#!/bin/sh
# bench-scale.sh - kde-icon-cache against gtk-update-icon-cache as the
# tree grows to the size of a real school server
#
# Three Debian 12 trees (breeze current, the default configuration):
#   realistic  tests/oracle/packages.list
#   themes     the same plus every icon-theme package of Debian 12 that
#              installs (tests/bench/scale-themes.list)
#   apps3      themes with 3x the applications: every .desktop file twice
#              more under a new name (kic2.<name>, kic3.<name>), each with
#              copies of its hicolor and pixmaps icons under that name
# For each, side by side in one run (tests/bench/rebuild-vs-gtk.sh): the
# full rebuild against gtk-update-icon-cache over the themes KDE searches,
# the rebuild after one application is added against gtk-update-icon-cache
# on hicolor, the no-op, and our peak memory; then --check.  A chart of
# time against the number of icon files goes to build/scale.png (gnuplot;
# KIC_SCALE_CHART).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
CACHE=${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}
CHART=${KIC_SCALE_CHART:-$TOP/build/scale.png}
. "$TOP/tests/bench/rebuild-vs-gtk.sh"
rebuild_vs_gtk_setup bench-scale

# ---- the trees -------------------------------------------------------
T1=$TMP_TOP/realistic
"$TOP/tests/oracle/make-tree.sh" "$CACHE" "$T1" >&2
cat "$TOP/tests/oracle/packages.list" "$TOP/tests/bench/scale-themes.list" > "$W/themes.list"
T2=$TMP_TOP/scale-themes
"$TOP/tests/oracle/make-tree.sh" "$CACHE" "$T2" "$W/themes.list" >&2
# the extra applications live in a layer of their own over T2
T3=$TMP_TOP/scale-apps3
stamp=$(cat "$T2/.kic-tree-stamp")
if [ "$(cat "$T3/.kic-apps3-stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$T3"
  mkdir -p "$T3/usr/share/applications"
  for f in "$T2"/usr/share/applications/*.desktop; do
    name=$(sed -n 's/^Icon[ ]*=[ ]*//p' "$f" | head -n 1)
    base=$(basename "$f" .desktop)
    for n in 2 3; do
      case $name in
        ''|/*) new=$name ;;
        *) new=kic$n.$name ;;
      esac
      sed "s|^Icon[ ]*=.*|Icon=$new|" "$f" > "$T3/usr/share/applications/kic$n.$base.desktop"
    done
    case $name in ''|/*) continue ;; esac
    stem=${name%.png}; stem=${stem%.svg}; stem=${stem%.xpm}; stem=${stem%.svgz}
    (cd "$T2" && find usr/share/icons/hicolor usr/share/pixmaps \( -name "$stem.png" -o -name "$stem.svg" \
       -o -name "$stem.svgz" -o -name "$stem.xpm" \) 2>/dev/null) | while IFS= read -r icon; do
      dir=$(dirname "$icon") file=$(basename "$icon")
      mkdir -p "$T3/$dir"
      for n in 2 3; do cp -L "$T2/$icon" "$T3/$dir/kic$n.$file" 2>/dev/null || true; done
    done
  done
  echo "$stamp" > "$T3/.kic-apps3-stamp"
fi

# mount a fresh writable view of LOWER at $W/NAME/view (overlayfs;
# "upper:lower" stacks)
fresh_view () { # fresh_view NAME LOWER
  mkdir -p "$W/$1/up" "$W/$1/work" "$W/$1/view"
  mount -t overlay overlay -o "lowerdir=$2,upperdir=$W/$1/up,workdir=$W/$1/work" "$W/$1/view" ||
    { echo "bench-scale: cannot mount an overlay (needs root)" >&2; exit 1; }
  VIEWS="$VIEWS $W/$1/view"
}

echo "kde-icon-cache bench-scale ($KIC_BENCH_RUNS runs of each; $(uptime | sed 's/.*load/load/'))"
: > "$W/chart.dat"
: > "$W/stats"
rebuild_vs_gtk_header
for t in realistic themes apps3; do
  case $t in
    realistic) lower=$T1 ;;
    themes) lower=$T2 ;;
    apps3) lower=$T3:$T2 ;;
  esac
  fresh_view "$t" "$lower"; v=$W/$t/view
  themes=$(ls -d "$v"/usr/share/icons/*/index.theme 2>/dev/null | wc -l)
  desk=$(find "$v/usr/share/applications" -name '*.desktop' | wc -l)
  icons=$(find "$v/usr/share/icons" "$v/usr/share/pixmaps" \( -type f -o -type l \) \
    \( -name '*.png' -o -name '*.svg' -o -name '*.svgz' -o -name '*.xpm' \) | wc -l)
  "$BIN" -q --root "$v" --theme breeze > /dev/null 2>&1 || true
  check_ms=$(_rvg_ms "$BIN" -q --root "$v" --theme breeze --check)
  umount "$v"
  rebuild_vs_gtk "$t" "$lower"
  printf '%-10s %7s %9s %8s %9s\n' "$t" "$themes" "$desk" "$icons" "$check_ms" >> "$W/stats"
  echo "$icons $RVG_FULL $RVG_GTK $RVG_INCR $RVG_GTKHI $RVG_NOOP $t $desk" >> "$W/chart.dat"
done
rebuild_vs_gtk_legend
echo
printf '%-10s %7s %9s %8s %9s\n' tree themes .desktop icons "check ms"
cat "$W/stats"

if command -v gnuplot > /dev/null; then
  mkdir -p "$(dirname "$CHART")"
  gnuplot <<GP
set terminal pngcairo size 800,500 font ",11"
set output "$CHART"
set title "Rebuild time against the number of icon files (Debian 12 trees, breeze current)"
set xlabel "icon files in the tree"
set ylabel "seconds (log scale)"
set key below
set format x "%.0s%c"
set logscale y
set xrange [0:650000]
plot "$W/chart.dat" using 1:(\$3/1000) with linespoints lw 2 title "gtk-update-icon-cache, the themes KDE searches", \
     "" using 1:(\$2/1000) with linespoints lw 2 title "kde-icon-cache, full rebuild", \
     "" using 1:(\$5/1000) with linespoints lw 2 title "gtk-update-icon-cache on hicolor, one app added", \
     "" using 1:(\$4/1000) with linespoints lw 2 title "kde-icon-cache, one app added", \
     "" using 1:(\$6/1000) with linespoints lw 2 title "kde-icon-cache, no-op"
GP
  echo "chart: $CHART"
fi
