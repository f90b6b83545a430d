# rebuild-vs-gtk.sh - the rebuild against gtk-update-icon-cache, side by
# side in one run (sourced by bench.sh and bench-scale.sh)
#
#   rebuild_vs_gtk NAME LOWER   prints one row for the tree LOWER (an
#                               overlay lowerdir, "upper:lower" stacks)
#   rebuild_vs_gtk_header       the header of those rows
#   rebuild_vs_gtk_legend       what the columns mean
#
# What a dpkg trigger does, both ways, each in fresh writable views of the
# tree (overlayfs; so neither side sees the other's files):
#   full   a first --rebuild, against gtk-update-icon-cache over the themes
#          KDE searches (the current theme, its inherits, hicolor: what
#          --explain lists), one run per theme, timed together;
#   incr   after one package adds one application (a .desktop file and a
#          hicolor PNG set, copied from an application of the tree), the
#          --rebuild that follows, against gtk-update-icon-cache on hicolor,
#          which is what that package's own trigger runs;
#   no-op  a --rebuild with nothing changed (ours; gtk has none: it always
#          writes its cache);
#   peak   the largest peak RSS of our runs (KiB), from one more run of
#          each kind under /usr/bin/time, apart from the timed ones.
# Each figure is the median of KIC_BENCH_RUNS runs (default 7), ms of wall
# clock; ratios are ours/gtk (above 1: slower than gtk).  Needs root (the
# overlay mounts) and $BIN, $W (a work directory), $VIEWS (mounts to undo).

#   rebuild_vs_gtk_setup NAME   $W, a fresh work directory under $TMP_TOP,
#                               and $VIEWS, the mounts to undo, both gone
#                               at exit; NAME fails at once without
#                               gtk-update-icon-cache.  The views'
#                               writable layers go to a file system made
#                               for the run: an image under $W with
#                               mkfs.ext4's defaults (a journal, as
#                               Debian's installer makes it), loop-mounted
#                               ($RVG_FS; $RVG_FS_NOTE says which).  On the
#                               host's file system the figures depended on
#                               what ran there in the minutes before: an
#                               ext4 without a journal, as the machines
#                               this was measured on have, skips every
#                               recently deleted inode when it makes one
#                               (tests/README.md), and a rebuild makes
#                               hundreds.  KIC_BENCH_HOST_FS=1, or no loop
#                               device: the layers under $W.

: "${KIC_BENCH_RUNS:=7}"
BENCH_THEME=${KIC_BENCH_THEME:-breeze}

RVG_FS=
RVG_FS_NOTE="writable layers on the host's file system"
VIEWS=

#   rebuild_vs_gtk_layers       that file system, under $W (setup calls it;
#                               a caller with a $W of its own calls it and
#                               rebuild_vs_gtk_cleanup from its EXIT trap)
rebuild_vs_gtk_layers () {
  if [ "${KIC_BENCH_HOST_FS:-0}" != 1 ] && command -v mkfs.ext4 > /dev/null &&
     truncate -s 8G "$W/layers.img" && mkfs.ext4 -q -F "$W/layers.img" 2> /dev/null && mkdir -p "$W/layers" &&
     mount -o loop "$W/layers.img" "$W/layers" 2> /dev/null; then
    RVG_FS=$W/layers
    RVG_FS_NOTE="writable layers on a fresh ext4 (mkfs.ext4 defaults, loop-mounted)"
  fi
}

#   rebuild_vs_gtk_cleanup      the views and that file system unmounted
rebuild_vs_gtk_cleanup () {
  for v in $VIEWS; do umount "$v" 2>/dev/null || true; done
  [ -z "$RVG_FS" ] || umount "$RVG_FS" 2>/dev/null || true
}

rebuild_vs_gtk_setup () {
  command -v gtk-update-icon-cache > /dev/null || { echo "$1: needs gtk-update-icon-cache" >&2; exit 1; }
  mkdir -p "$TMP_TOP"
  W=$(mktemp -d "$TMP_TOP/$1.XXXXXX")
  trap 'rebuild_vs_gtk_cleanup; rm -rf "$W"' EXIT
  rebuild_vs_gtk_layers
}

_rvg_mount () { # _rvg_mount DIR LOWER: a fresh writable view at DIR/view
  _layers=$1
  [ -z "$RVG_FS" ] || _layers=$RVG_FS/$(basename "$1")
  rm -rf "$_layers/up" "$_layers/work"
  mkdir -p "$_layers/up" "$_layers/work" "$1/view"
  mount -t overlay overlay -o "lowerdir=$2,upperdir=$_layers/up,workdir=$_layers/work" "$1/view" ||
    { echo "bench: cannot mount an overlay (needs root)" >&2; exit 1; }
  VIEWS="$VIEWS $1/view"
}

_rvg_umount () {
  umount "$1/view" 2>/dev/null || true
  rm -rf "$1"
  [ -z "$RVG_FS" ] || rm -rf "${RVG_FS:?}/$(basename "$1")"
}

# ms of one command (its output discarded); with KB set, the peak RSS to $KB
_rvg_ms () {
  _s=$(date +%s%N)
  if [ -n "${KB:-}" ]; then
    /usr/bin/time -f %M -o "$KB" "$@" > /dev/null 2>&1 || true
  else
    "$@" > /dev/null 2>&1 || true
  fi
  _e=$(date +%s%N)
  echo $(((_e - _s) / 1000000))
}

_rvg_median () { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
_rvg_max () { sort -n | tail -n 1; }
_rvg_ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f\n", a / b }'; }

# the themes KDE searches in VIEW, one a line
_rvg_searched () {
  "$BIN" -q --root "$1" --theme "$BENCH_THEME" --explain kic-bench-none 2>/dev/null |
    sed -n '1s/.*themes searched: //p' | tr ',' '\n' | sed 's/^ *//' | awk 'NF && !seen[$0]++'
}

# add application number N to VIEW: a .desktop file and a hicolor PNG set
# (every apps directory of hicolor that holds the PNG of the model
# application, MODEL)
_rvg_add_app () { # _rvg_add_app VIEW N MODEL
  _v=$1 _n=$2 _m=$3
  printf '[Desktop Entry]\nType=Application\nName=Kic bench %s\nExec=true\nIcon=kic-bench-app%s\n' "$_n" "$_n" \
    > "$_v/usr/share/applications/kic-bench-app$_n.desktop"
  for _d in "$_v"/usr/share/icons/hicolor/*/apps; do
    if [ -f "$_d/$_m.png" ]; then cp "$_d/$_m.png" "$_d/kic-bench-app$_n.png"; fi
  done
}

# the model application: the hicolor PNG name with the most sizes
_rvg_model () {
  (cd "$1/usr/share/icons/hicolor" && ls -- */apps/*.png 2>/dev/null) | sed 's|.*/||; s/\.png$//' |
    sort | uniq -c | sort -k1,1nr -k2 | awk 'NR == 1 { print $2 }'
}

rvg_gtk () { # rvg_gtk VIEW THEME...: gtk-update-icon-cache over each theme, one run
  _gv=$1; shift
  for _t; do
    if [ -f "$_gv/usr/share/icons/$_t/index.theme" ]; then
      gtk-update-icon-cache -q -f "$_gv/usr/share/icons/$_t" > /dev/null 2>&1 || true
    fi
  done
}

rebuild_vs_gtk_header () {
  printf '%-10s %-16s | %8s %8s %6s | %8s %8s %6s | %8s %7s | %8s\n' tree "themes searched" \
    "full ms" "gtk ms" "o/g" "incr ms" "gtk-hi" "o/g" "no-op ms" "noop/f" "peak KiB"
}

rebuild_vs_gtk_legend () {
  echo "(full: the first --rebuild, against gtk-update-icon-cache over the themes searched, in one run;"
  echo " incr: the --rebuild after one application is added (a .desktop file and a hicolor PNG set),"
  echo " against gtk-update-icon-cache on hicolor; o/g: ours/gtk, above 1 slower; noop/f: the no-op"
  echo " against the full rebuild; medians of $KIC_BENCH_RUNS runs; peak: our largest peak RSS, of one"
  echo " more run of each under /usr/bin/time, whose fork the timed runs, ours and gtk's, do not pay;"
  echo " $RVG_FS_NOTE)"
}

rebuild_vs_gtk () { # rebuild_vs_gtk NAME LOWER
  _name=$1 _lower=$2
  : > "$W/rvg.full" ; : > "$W/rvg.gtk" ; : > "$W/rvg.incr" ; : > "$W/rvg.gtkhi" ; : > "$W/rvg.noop" ; : > "$W/rvg.kb"
  _rvg_mount "$W/rvg-probe" "$_lower"
  _themes=$(_rvg_searched "$W/rvg-probe/view" | tr '\n' ' ')
  _model=$(_rvg_model "$W/rvg-probe/view")
  # the file system's caches warm for both sides alike
  "$BIN" -q --root "$W/rvg-probe/view" --theme "$BENCH_THEME" --list > /dev/null 2>&1 || true
  # shellcheck disable=SC2086
  rvg_gtk "$W/rvg-probe/view" $_themes
  # the peaks, from one run of each kind here: under /usr/bin/time a run
  # pays its fork and exec too (about 1 ms), which the timed runs below,
  # like gtk's, do not
  _v=$W/rvg-probe/view
  KB=$W/kb _rvg_ms "$BIN" -q --root "$_v" --theme "$BENCH_THEME" > /dev/null; cat "$W/kb" >> "$W/rvg.kb"
  KB=$W/kb _rvg_ms "$BIN" -q --root "$_v" --theme "$BENCH_THEME" > /dev/null; cat "$W/kb" >> "$W/rvg.kb"
  _rvg_add_app "$_v" 0 "$_model"
  KB=$W/kb _rvg_ms "$BIN" -q --root "$_v" --theme "$BENCH_THEME" > /dev/null; cat "$W/kb" >> "$W/rvg.kb"
  _rvg_umount "$W/rvg-probe"
  _i=0
  while [ "$_i" -lt "$KIC_BENCH_RUNS" ]; do
    _i=$((_i + 1))
    # ours: full, no-op, then one application added
    _rvg_mount "$W/rvg-ours" "$_lower"
    _v=$W/rvg-ours/view
    _rvg_ms "$BIN" -q --root "$_v" --theme "$BENCH_THEME" >> "$W/rvg.full"
    _rvg_ms "$BIN" -q --root "$_v" --theme "$BENCH_THEME" >> "$W/rvg.noop"
    _rvg_add_app "$_v" "$_i" "$_model"
    _rvg_ms "$BIN" -q --root "$_v" --theme "$BENCH_THEME" >> "$W/rvg.incr"
    _rvg_umount "$W/rvg-ours"
    # gtk: the themes searched, then the same application added
    _rvg_mount "$W/rvg-gtk" "$_lower"
    _g=$W/rvg-gtk/view
    # shellcheck disable=SC2086
    _rvg_ms rvg_gtk "$_g" $_themes >> "$W/rvg.gtk"
    _rvg_add_app "$_g" "$_i" "$_model"
    _rvg_ms rvg_gtk "$_g" hicolor >> "$W/rvg.gtkhi"
    _rvg_umount "$W/rvg-gtk"
  done
  _full=$(_rvg_median < "$W/rvg.full") _gtk=$(_rvg_median < "$W/rvg.gtk")
  _incr=$(_rvg_median < "$W/rvg.incr") _gtkhi=$(_rvg_median < "$W/rvg.gtkhi")
  _noop=$(_rvg_median < "$W/rvg.noop") _kb=$(_rvg_max < "$W/rvg.kb")
  printf '%-10s %-16s | %8s %8s %6s | %8s %8s %6s | %8s %7s | %8s\n' "$_name" "$(echo $_themes | tr ' ' ',')" \
    "$_full" "$_gtk" "$(_rvg_ratio "$_full" "$_gtk")" "$_incr" "$_gtkhi" "$(_rvg_ratio "$_incr" "$_gtkhi")" \
    "$_noop" "$(_rvg_ratio "$_noop" "$_full")" "$_kb"
  # for the chart and the callers
  RVG_FULL=$_full RVG_GTK=$_gtk RVG_INCR=$_incr RVG_GTKHI=$_gtkhi RVG_NOOP=$_noop RVG_KB=$_kb
}
