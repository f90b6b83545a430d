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
# For each, in a fresh writable view: a full --rebuild, a second one with
# nothing changed (the no-op), --check, and the peak memory of each;
# against gtk-update-icon-cache over every theme of the tree, all of them
# in one run (one command per theme, timed together), in the same view.
# For scale, also gtk-update-icon-cache over the two themes KDE searches
# here (breeze and hicolor), the anchor of `make bench`.
# Times are one run each (ms, wall clock); memory is the peak RSS (KiB,
# for gtk the largest of its runs).  A chart of time against the number
# of icon files goes to build/scale.png (gnuplot).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
CACHE=${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}
CHART=${KIC_SCALE_CHART:-$TOP/build/scale.png}
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench-scale.XXXXXX")
VIEWS=
cleanup () {
  for v in $VIEWS; do umount "$v" 2>/dev/null || true; done
  rm -rf "$W"
}
trap cleanup EXIT
command -v gtk-update-icon-cache > /dev/null || { echo "bench-scale: needs gtk-update-icon-cache" >&2; exit 1; }

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

# ms and KiB of one command: "MS KB"
measure () {
  s=$(date +%s%N)
  /usr/bin/time -f %M -o "$W/kb" "$@" > /dev/null 2>&1 || true
  e=$(date +%s%N)
  echo "$(((e - s) / 1000000)) $(tail -n 1 "$W/kb")"
}

# gtk-update-icon-cache over every theme of ROOT (or the THEMES), one
# run: "MS KB"
gtk_all () { # gtk_all ROOT [THEME...]
  root=$1; shift
  if [ $# -eq 0 ]; then set -- "$root"/usr/share/icons/*/; else
    for th; do set -- "$@" "$root/usr/share/icons/$th/"; shift; done
  fi
  s=$(date +%s%N)
  max=0
  for d; do
    [ -f "$d/index.theme" ] || continue
    /usr/bin/time -f %M -o "$W/kb" gtk-update-icon-cache -q -f "$d" > /dev/null 2>&1 || true
    kb=$(tail -n 1 "$W/kb"); [ "$kb" -gt "$max" ] && max=$kb
  done
  e=$(date +%s%N)
  echo "$(((e - s) / 1000000)) $max"
}

ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f\n", a / b }'; }

: > "$W/chart.dat"
printf '%-10s %6s %5s %7s | %8s %8s %8s %8s | %8s %8s | %8s %6s %7s | %10s\n' tree themes desk icons \
  "full ms" "no-op ms" "check ms" "peak KiB" "gtk ms" "gtk KiB" "full/gtk" "noop/f" "check/f" "gtk b+h ms"
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
  # the file system's caches warm for both sides alike
  "$BIN" -q --root "$v" --theme breeze --list > /dev/null 2>&1 || true
  read -r full_ms full_kb <<EOF
$(measure "$BIN" -q --root "$v" --theme breeze --rebuild)
EOF
  read -r noop_ms noop_kb <<EOF
$(measure "$BIN" -q --root "$v" --theme breeze --rebuild)
EOF
  read -r check_ms check_kb <<EOF
$(measure "$BIN" -q --root "$v" --theme breeze --check)
EOF
  peak=$full_kb
  for k in $noop_kb $check_kb; do [ "$k" -gt "$peak" ] && peak=$k; done
  # gtk in a view of its own, so that neither side sees the other's files
  fresh_view "$t-gtk" "$lower"; g=$W/$t-gtk/view
  gtk-update-icon-cache -q -f "$g/usr/share/icons/hicolor" > /dev/null 2>&1 || true
  read -r gtk_ms gtk_kb <<EOF
$(gtk_all "$g")
EOF
  read -r searched_ms searched_kb <<EOF
$(gtk_all "$g" breeze hicolor)
EOF
  printf '%-10s %6s %5s %7s | %8s %8s %8s %8s | %8s %8s | %8s %6s %7s | %10s\n' "$t" "$themes" "$desk" "$icons" \
    "$full_ms" "$noop_ms" "$check_ms" "$peak" "$gtk_ms" "$gtk_kb" \
    "$(ratio "$full_ms" "$gtk_ms")" "$(ratio "$noop_ms" "$full_ms")" "$(ratio "$check_ms" "$full_ms")" "$searched_ms"
  echo "$icons $full_ms $noop_ms $check_ms $gtk_ms $t $desk" >> "$W/chart.dat"
done
echo "(full/gtk: a full --rebuild against gtk-update-icon-cache over every theme; noop/f, check/f:"
echo " against the full --rebuild; gtk b+h: gtk-update-icon-cache over breeze and hicolor alone)"

if command -v gnuplot > /dev/null && mkdir -p "$(dirname "$CHART")"; then
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
plot "$W/chart.dat" using 1:(\$5/1000) with linespoints lw 2 title "gtk-update-icon-cache, every theme", \
     "" using 1:(\$2/1000) with linespoints lw 2 title "kde-icon-cache --rebuild", \
     "" using 1:(\$3/1000) with linespoints lw 2 title "kde-icon-cache, no-op", \
     "" using 1:(\$4/1000) with linespoints lw 2 title "kde-icon-cache --check", \
     "" using 1:(\$2/1000):(sprintf("%s (%d .desktop)", stringcolumn(6), \$7)) with labels left offset 1,0 notitle
GP
  echo "chart: $CHART"
fi
