#!/bin/sh
# bench-hostile.sh - a rebuild over trees shaped to make the plan costly
# (issue 19, row 6), against its target: under 10 s each on this machine
#
#   dirs     the basic fixture, its current theme an index.theme listing
#            100 000 empty directories of a target size (48 px) on disk:
#            every one is a candidate for every name
#   mixed    the same with the four target sizes in turn (16, 22, 32, 48):
#            a link in one leaves the MatchBest scan probing on
#   icons    100 000 icon files in 10 000 directories of a theme breeze
#            inherits (sizes 16-256, ten files each, names with dashes),
#            200 of them on the menu (the realistic tree has 190 .desktop
#            files); then the same with 2 000 on the menu, for scale (the
#            plan's cost grows with the names times the directories a name
#            is looked up in: that line is not held to the 10 s)
#   user     300 000 empty files in a hicolor directory a user owns
#            (/usr/local/share/icons/hicolor/48x48/apps), then 300 000
#            empty .desktop files in a menu directory a user owns
#            (/usr/local/share/applications): a full rebuild and a kept
#            one after one icon came elsewhere, each beside the same run
#            on the basic fixture without that directory, and the ratio
#            (issue 39, row 4: within 2x in time and peak RSS); with
#            KIC_TREE (a tree to start from instead of the basic fixture:
#            the realistic tree) on overlays of it; then 40 directories
#            of 16 000 empty files each (under the bound on one), listed
#            by the index.theme of a breeze under /usr/local a user owns
#            (the run's budget on users' names)
#
# KIC_HOSTILE_ONLY=user runs the "user" rows alone.
#
# For each: a full --rebuild (wall clock, peak RSS), the links it
# planted, and its CPU seconds (user + sys: what a loaded machine changes
# least; the target is wall clock on an idle one).  With KIC_ANCHOR_BIN
# (a binary of before issue 19, e.g. main at 15f5baa) the same rebuild
# of the "dirs" tree cut to 2 000 directories is timed with it too, for scale: at 100 000 it would take
# hours (its pricing is quadratic).  Figures from a shared machine are noisy:
# say so when quoting them.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
N=${KIC_HOSTILE_DIRS:-100000}
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench-hostile.XXXXXX")
trap 'for v in "$W/without/view" "$W/with/view"; do umount "$v" 2> /dev/null || true; done; rm -rf "$W"' EXIT
S=/var/lib/kde-icon-cache

sh "$TOP/tests/fixtures/make-fixtures.sh" "$W/fx" basic > /dev/null
BASIC=$W/fx/basic

# big ROOT N MODE: a copy of the basic fixture whose current theme lists N
# empty directories (MODE same: all 48 px; mixed: 16, 22, 32, 48 in turn)
big () {
  rm -rf "$1"; cp -a "$BASIC" "$1"
  t=$1/usr/share/icons/kicbig
  mkdir -p "$t"
  { printf '[Icon Theme]\nName=Big\nInherits=breeze,hicolor\nDirectories='
    seq 1 "$2" | sed 's/^/d/' | paste -sd, -
    if [ "$3" = same ]; then seq 1 "$2" | awk '{ printf "[d%d]\nSize=48\nType=Fixed\n", $1 }'
    else seq 1 "$2" | awk 'BEGIN { split("16 22 32 48", s, " ") } { printf "[d%d]\nSize=%d\nType=Fixed\n", $1, s[$1 % 4 + 1] }'; fi
  } > "$t/index.theme"
  (cd "$t" && seq 1 "$2" | sed 's/^/d/' | xargs mkdir)
  printf '[Icons]\nTheme=kicbig\n' > "$1/etc/xdg/kdeglobals"
}

# icons ROOT STEP: 100 000 icons in 10 000 directories of a theme breeze
# inherits, one directory in STEP on the menu
icons () {
  rm -rf "$1"; cp -a "$BASIC" "$1"
  t=$1/usr/share/icons/kicwide
  mkdir -p "$t"
  perl -e '
    my ($t, $png) = @ARGV;
    open my $in, "<", $png or die; binmode $in; local $/; my $data = <$in>; close $in;
    my @sizes = (16, 22, 24, 32, 48, 64, 96, 128, 256);
    open my $idx, ">", "$t/index.theme" or die;
    print $idx "[Icon Theme]\nName=Wide\nInherits=hicolor\nDirectories=", join (",", map { "d$_" } 1 .. 10000), "\n";
    for my $d (1 .. 10000) {
      my $s = $sizes[$d % @sizes];
      print $idx "\n[d$d]\nSize=$s\nType=Fixed\n";
      mkdir "$t/d$d" or die;
      for my $f (1 .. 10) {
        open my $o, ">", "$t/d$d/kicw$d-$f.png" or die; binmode $o;
        # a unique tEXt chunk after the signature: every file its own content
        print $o substr ($data, 0, 8), pack ("N", 12), "tEXt", sprintf ("%-12s", "$d-$f"), pack ("N", 0), substr ($data, 8);
        close $o;
      }
    }' "$t" "$BASIC/usr/share/icons/hicolor/48x48/apps/hi48.png"
  sed -i 's/^Inherits=hicolor/Inherits=kicwide,hicolor/' "$1/usr/share/icons/breeze/index.theme"
  seq 1 "$2" 10000 | awk -v a="$1/usr/share/applications" '{
    f = a "/kicw" $1 ".desktop"; printf "[Desktop Entry]\nType=Application\nName=W%d\nIcon=kicw%d-%d\n", $1, $1, $1 % 10 + 1 > f; close (f) }'
}

# rebuild LABEL ROOT [BIN]: one timed rebuild
rebuild () {
  b=${3:-$BIN}
  # (the tree was just written: its dirty pages are flushed first, or the
  # writer's syncfs would wait for them inside the timed run)
  sync
  /usr/bin/time -f '%e %M %U %S' -o "$W/time" "$b" -q --root "$2" > /dev/null 2> "$W/err" || { cat "$W/err" >&2; echo "bench-hostile: $1: the rebuild failed" >&2; exit 1; }
  links=$(grep -c '^link' "$2$S/manifest" || true)
  cpu=$(awk '{ printf "%.2f", $3 + $4 }' "$W/time")
  set -- "$1" "$(cut -d' ' -f1 "$W/time")" "$(cut -d' ' -f2 "$W/time")" "$links"
  verdict=$(awk -v t="$2" 'BEGIN { print (t < 10 ? "under 10 s" : "OVER 10 s") }')
  printf '%-34s %8s s %9s KiB %6s links %7s s   %s\n' "$1" "$2" "$3" "$4" "$cpu" "$verdict"
}

# tree NAME: a fresh copy of the tree the "user" rows start from, at
# $W/NAME/view: the basic fixture, or with KIC_TREE (the realistic tree,
# say) a writable overlay of it (needs root; unmounted by untree)
tree () {
  rm -rf "${W:?}/$1"; mkdir -p "$W/$1/up" "$W/$1/work" "$W/$1/view"
  if [ -n "${KIC_TREE:-}" ]; then
    mount -t overlay overlay -o "lowerdir=$KIC_TREE,upperdir=$W/$1/up,workdir=$W/$1/work" "$W/$1/view" ||
      { echo "bench-hostile: cannot mount an overlay of $KIC_TREE (needs root)" >&2; exit 1; }
  else
    rmdir "$W/$1/view"; cp -a "$BASIC" "$W/$1/view"
  fi
}
untree () { [ -z "${KIC_TREE:-}" ] || umount "$W/$1/view"; }

# timed ROOT [ARGS]: "MS KIB" of one rebuild: its wall clock in ms (the
# clock read around it: /usr/bin/time says hundredths, as long as such a
# run), its peak RSS
timed () {
  r=$1; shift
  sync
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$W/time" "$BIN" -q --root "$r" "$@" > /dev/null 2> "$W/err" || { cat "$W/err" >&2; echo "bench-hostile: the rebuild of $r failed" >&2; exit 1; }
  t1=$(date +%s%N)
  echo "$(((t1 - t0) / 1000000)) $(cat "$W/time")"
}

# many THEME SUFFIX N: THEME (a theme directory, breeze under
# /usr/local, whose index.theme KDE reads before /usr/share's) gets in
# both trees an index.theme listing N more directories u1 ... uN (48 px)
# beside breeze's own, and in the tree
# "with" each of them holds KIC_HOSTILE_MANY_NAMES (16 000: under the
# bound on one directory) empty files kicjunk-I.SUFFIX
many () {
  for t in without with; do
    mkdir -p "$W/$t/view$1"
    { sed "s/^Directories=.*/&$(seq 1 "$3" | sed 's/^/,u/' | tr -d '\n')/" "$BASIC/usr/share/icons/breeze/index.theme"
      seq 1 "$3" | sed 's/.*/\n[u&]\nSize=48\nType=Fixed/'; } > "$W/$t/view$1/index.theme"
  done
  for i in $(seq 1 "$3"); do
    mkdir -p "$W/with/view$1/u$i"
    (cd "$W/with/view$1/u$i" && seq 1 "${KIC_HOSTILE_MANY_NAMES:-16000}" | sed "s/^/kicjunk-/; s/\$/.$2/" | xargs touch)
  done
}

# pair LABEL DIR SUFFIX [N]: a full rebuild, then a kept one after an icon
# came elsewhere, on the tree without DIR and with DIR holding
# KIC_HOSTILE_USER_NAMES (300 000) empty files kicjunk-I.SUFFIX that
# nobody owns
pair () {
  label=$1
  tree without; tree with
  if [ -n "${4:-}" ]; then
    many "$2" "$3" "$4"
  else
    mkdir -p "$W/with/view$2"
    (cd "$W/with/view$2" && seq 1 "${KIC_HOSTILE_USER_NAMES:-300000}" | sed "s/^/kicjunk-/; s/\$/.$3/" | xargs touch)
  fi
  chown -R nobody "$W/with/view$2"
  for run in full kept; do
    for t in without with; do
      if [ $run = kept ]; then
        mkdir -p "$W/$t/view/usr/share/icons/hicolor/48x48/apps"
        cp "$BASIC/usr/share/icons/hicolor/48x48/apps/hi48.png" "$W/$t/view/usr/share/icons/hicolor/48x48/apps/kicnew-bench.png"
        sleep 0.05
        set -- "$(timed "$W/$t/view")"
      else
        set -- "$(timed "$W/$t/view" --full)"
      fi
      eval "$t=\"\$1\""
    done
    # shellcheck disable=SC2154
    echo "$without $with" | awk -v l="$label, $run" '{ printf "%-34s %6d ms %8d KiB  %6d ms %8d KiB   x%.2f time, x%.2f RSS\n", l, $1, $2, $3, $4, $3 / ($1 > 0 ? $1 : 1), $4 / $2 }'
  done
  untree without; untree with
}

echo "kde-icon-cache: $("$BIN" --version 2>/dev/null || echo "$BIN"); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %10s %13s %12s %9s\n' "tree" "rebuild" "peak RSS" "planted" "user+sys"
if [ "${KIC_HOSTILE_ONLY:-}" != user ]; then
big "$W/dirs" "$N" same
rebuild "dirs: $N empty dirs of 48 px" "$W/dirs"
big "$W/mixed" "$N" mixed
rebuild "mixed: $N dirs, 16/22/32/48 px" "$W/mixed"
icons "$W/icons" 50
rebuild "icons: 100000 in 10000 dirs, 200" "$W/icons"
icons "$W/icons" 5
rebuild "icons: ... 2000 on the menu" "$W/icons"
echo "(the last line for scale only: not held to 10 s)"
fi
printf '%-34s %18s %18s   %s\n' "user's directory (${KIC_TREE:+on $KIC_TREE, }issue 39 row 4)" "without it" "with it" "ratio (target: 2x)"
pair "icons: ${KIC_HOSTILE_USER_NAMES:-300000} in hicolor" /usr/local/share/icons/hicolor/48x48/apps png
pair "menu: ${KIC_HOSTILE_USER_NAMES:-300000} .desktop" /usr/local/share/applications desktop
pair "many: 40 x ${KIC_HOSTILE_MANY_NAMES:-16000} in breeze" /usr/local/share/icons/breeze png 40
if [ -n "${KIC_ANCHOR_BIN:-}" ]; then
  big "$W/anchor" 2000 same
  rebuild "anchor, dirs at 2000: this binary" "$W/anchor"
  rm -rf "$W/anchor$S"
  rebuild "anchor, dirs at 2000: $(basename "$KIC_ANCHOR_BIN")" "$W/anchor" "$KIC_ANCHOR_BIN"
fi
