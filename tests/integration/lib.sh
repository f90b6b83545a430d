# lib.sh - TAP helpers and shared paths for the integration tests (sourced)
#
# Each test script prints TAP ("1..N", "ok N - ...", "not ok N - ...") so
# that prove runs it beside the GTest unit tests.

# A failing check shows why, however prove is run: the script runs again
# under a filter that passes its TAP on and copies to stderr (which prove
# shows) each "not ok" line with its comments, those since the previous
# result and those after it (the got and expected of "is"), and, when
# anything failed, the command that reruns the script alone, verbosely.
if [ -z "${KIC_TAP_FILTERED:-}" ]; then
  _tap_status=$(mktemp "${TMPDIR:-/tmp}/kic-tap.XXXXXX")
  { KIC_TAP_FILTERED=1 sh "$0" "$@"; echo $? > "$_tap_status"; } | awk -v script="$0" '
    { print; fflush() }
    /^not ok/ { if (!failed) print "# " script ":" > "/dev/stderr"
                failed = 1; for (i = 0; i < n; i++) print kept[i] > "/dev/stderr"
                print > "/dev/stderr"; fflush("/dev/stderr"); n = 0; after = 1; next }
    /^ok/ || /^[0-9]+\.\.[0-9]+/ { n = 0; after = 0; next }
    /^Bail out!/ { failed = 1; print > "/dev/stderr"; next }
    /^#/ { if (after) { print > "/dev/stderr"; fflush("/dev/stderr") }
           else { if (n == 40) { for (i = 1; i < n; i++) kept[i - 1] = kept[i]; n-- } kept[n++] = $0 }
           next }
    END { exit failed }'
  _tap_filter=$?
  _tap_rc=$(cat "$_tap_status"); rm -f "$_tap_status"
  if [ "$_tap_filter" != 0 ] || [ "${_tap_rc:-1}" != 0 ]; then
    echo "# rerun alone: KIC_BIN=${KIC_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/kde-icon-cache} prove -v $0" >&2
  fi
  exit "${_tap_rc:-1}"
fi

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
ORACLE=$TOP/tests/oracle/kic-oracle
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
mkdir -p "$TMP_TOP"
WORK=$(mktemp -d "$TMP_TOP/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$WORK"' EXIT

. "$TOP/tests/tap.sh"

skip_all () { echo "1..0 # SKIP $1"; exit 0; }

diag () { printf '# %s\n' "$@"; }

# The fixture roots: each case is built once per version of
# make-fixtures.sh into $KIC_FIXTURE_CACHE (make check: under the build
# directory) and copied with cp -a, times included, for every test, which
# is free to change its copy.  The lock keeps parallel tests (make -j
# check check-asan) from building the same case twice at once.
fixtures () { # fixtures DEST [CASE...]
  _fx_dest=$1; shift
  _fx_script=$TOP/tests/fixtures/make-fixtures.sh
  _fx_cache=${KIC_FIXTURE_CACHE:-$TMP_TOP/fixtures}/$(cksum < "$_fx_script" | cut -d' ' -f1)
  [ $# -gt 0 ] || set -- $(sed -n 's/^ALL_CASES="\(.*\)"$/\1/p' "$_fx_script")
  mkdir -p "$_fx_cache" "$_fx_dest" || return 1
  for _fx_case in "$@"; do
    (
      flock 9 || exit 1
      [ -d "$_fx_cache/$_fx_case" ] && exit 0
      "$_fx_script" "$_fx_cache/new" "$_fx_case" > /dev/null &&
        mv "$_fx_cache/new/$_fx_case" "$_fx_cache/$_fx_case"
    ) 9> "$_fx_cache/lock" || return 1
    rm -rf "${_fx_dest:?}/$_fx_case"
    cp -a "$_fx_cache/$_fx_case" "$_fx_dest/$_fx_case" || return 1
  done
}

# Icon= values of every .desktop file under ROOT (raw, deduplicated).
icon_names () {
  find "$1/usr/share/applications" "$1/usr/local/share/applications" -name '*.desktop' 2>/dev/null |
    xargs -r sed -n 's/^Icon[ ]*=[ ]*//p' | sort -u
}

# The names an oracle test asks for in a fixture ROOT: every Icon= value,
# the base name of every icon file, and two names nobody has (one a media
# type's dash cut), sorted and unique.
fixture_names () {
  {
    icon_names "$1"
    find "$1/usr" \( -name '*.png' -o -name '*.svg' -o -name '*.svgz' -o -name '*.xpm' \) |
      sed 's|.*/||; s/\.[^.]*$//'
    echo "kic-missing-name"
    echo "text-kic-missing"
  } | LC_ALL=C grep -av '^$' | LC_ALL=C sort -u
}

# The current theme named by ROOT's /etc/xdg/kdeglobals (empty: none).
root_theme () {
  sed -n '/^\[Icons\]/,/^\[/s/^Theme=//p' "$1/etc/xdg/kdeglobals" 2>/dev/null | head -n 1
}

# Our answers: NAME<TAB>SIZE<TAB>PATH for every name on stdin and SIZES.
ours () { # ours ROOT THEME SIZES... < names
  _root=$1 _theme=$2; shift 2
  cat > "$WORK/ours.names"
  for _s in "$@"; do
    "$BIN" -q --root "$_root" ${_theme:+--theme "$_theme"} --resolve --size "$_s" < "$WORK/ours.names" |
      awk -v s="$_s" -F '\t' '{ print $1 "\t" s "\t" $2 }'
  done
}

# KDE's answers, same format, from the KF5 helper in a hermetic session.
# On a built tree (one with make-tree.sh's stamp: no test changes it) the
# answers are kept for the rest of the run in $KIC_ORACLE_MEMO when make
# check sets it: oracle-realistic.sh and oracle-rebuild.sh ask the same
# questions of the realistic tree, and the second waits for the first.
theirs () { # theirs ROOT THEME SIZES... < names
  _root=$1 _theme=$2; shift 2
  _sizes=$(echo "$@" | tr ' ' ',')
  if [ -n "${KIC_ORACLE_MEMO:-}" ] && [ -f "$_root/.kic-tree-stamp" ] && [ -z "${ORACLE_EXTRA_ENV:-}${ORACLE_DATA_HOME:-}${ORACLE_SESSION_DIRS:-}" ]; then
    _tn=$(mktemp "$WORK/theirs.XXXXXX")   # (callers may run side by side)
    cat > "$_tn"
    mkdir -p "$KIC_ORACLE_MEMO"
    _key=$KIC_ORACLE_MEMO/$({ cat "$_root/.kic-tree-stamp"; echo "$_root $_theme $_sizes"; cksum < "$ORACLE"; cat "$_tn"; } | md5sum | cut -d' ' -f1)
    (
      flock 9 || exit 1
      [ -f "$_key" ] || { _theirs_now "$_root" "$_theme" "$_sizes" < "$_tn" > "$_key.new" && mv "$_key.new" "$_key"; }
    ) 9> "$_key.lock" && cat "$_key"
    _rc=$?; rm -f "$_tn"
    return $_rc
  fi
  _theirs_now "$_root" "$_theme" "$_sizes"
}
_theirs_now () { # _theirs_now ROOT THEME SIZES < names
  . "$TOP/tests/oracle/oracle-env.sh"
  oracle_run "$1" "$2" "$ORACLE" --sizes "$3" | awk -v r="$1" -F '\t' '
    { p = $3; if (index(p, r) == 1) p = substr(p, length(r) + 1); print $1 "\t" $2 "\t" p }'
}

finish () {
  [ "$_tap_failed" -eq 0 ]
}

# The realistic Debian 12 tree (icon themes and application packages from
# tests/oracle/packages.list), built once and reused; the .deb files are
# kept in $KIC_DEB_CACHE so that later runs need no network.
realistic_tree () {
  _tree=${KIC_TREE:-$TMP_TOP/realistic}
  _cache=${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}
  "$TOP/tests/oracle/make-tree.sh" "$_cache" "$_tree" >&2 || return 1
  echo "$_tree"
}

# Skip the whole script unless the KF5 helper and its tools are here.
need_oracle () {
  [ -x "$ORACLE" ] || skip_all "KF5 helper not built ($ORACLE; needs libkf5iconthemes-dev)"
  command -v "$@" >/dev/null 2>&1 || [ $# -eq 0 ] || skip_all "needs $*"
}

# Compare two NAME<TAB>SIZE<TAB>PATH lists; print the differences as TAP
# comments; succeed when they agree.
same_answers () { # same_answers THEIRS OURS
  sort "$1" > "$1.sorted"
  sort "$2" > "$2.sorted"
  if cmp -s "$1.sorted" "$2.sorted"; then
    return 0
  fi
  diff "$1.sorted" "$2.sorted" | grep -a '^[<>]' | head -n 20 | sed 's/^/#   /'
  return 1
}

# NAME<TAB>SIZE<TAB>PATH[<TAB>MORE] lines on stdin with PATH replaced by
# the SHA-256 of the file at PREFIX+PATH: '-' stays '-' (nothing found),
# 'missing' for a path that is not a file.  One sha256sum for all the
# distinct files, not a process per line (thousands on the realistic tree).
# With ROOT, the PNG twin of an XPM in ROOT's store counts as the XPM.
with_content () { # with_content PREFIX [ROOT] < lines
  _wc=$(mktemp -d "$WORK/content.XXXXXX")   # (callers may run side by side)
  cat > "$_wc/in"
  cut -f3 "$_wc/in" | LC_ALL=C sort -u |
    while IFS= read -r _p; do
      [ "$_p" != "-" ] && [ -f "$1$_p" ] && printf '%s\0' "$1$_p"
    done | xargs -0 -r sha256sum > "$_wc/sums"
  # An XPM's PNG twin in ROOT's store (pixel-identical, proved by KF5's
  # renders: the callers compare those apart) stands for its XPM: its
  # content counts as the XPM's.
  : > "$_wc/twins"
  if [ -n "${2:-}" ] && [ -d "$2/var/lib/kde-icon-cache/files" ]; then
    find "$2/var/lib/kde-icon-cache/files" -type f -name '*.xpm.png' | while IFS= read -r _t; do
      _x=$2${_t#"$2"/var/lib/kde-icon-cache/files}; _x=${_x%.png}
      [ -f "$_x" ] && printf '%s %s\n' "$(sha256sum < "$_t" | cut -c1-64)" "$(sha256sum < "$_x" | cut -c1-64)"
    done > "$_wc/twins"
  fi
  # sha256sum escapes a name holding a backslash: a leading '\', '\\'
  LC_ALL=C awk -F '\t' -v prefix="$1" -v OFS='\t' '
    FILENAME == ARGV[1] { split($0, t, " "); twin[t[1]] = t[2]; next }
    FILENAME == ARGV[2] {
      esc = substr($0, 1, 1) == "\\"; line = esc ? substr($0, 2) : $0
      p = substr(line, 67); if (esc) gsub(/\\\\/, "\\\\", p)
      sum[p] = substr(line, 1, 64); next
    }
    {
      p = prefix $3
      s = $3 == "-" ? "-" : (p in sum) ? sum[p] : "missing"
      if (s in twin) s = twin[s]
      $3 = s; print
    }
  ' "$_wc/twins" "$_wc/sums" "$_wc/in"
  rm -rf "$_wc"
}

# An SVG at ROOT/REL whose content is its own (REL and COLOUR are in it).
svg_file () { # svg_file ROOT REL COLOUR
  mkdir -p "$(dirname "$1/$2")"
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><!-- /%s --><rect width="16" height="16" fill="%s"/></svg>\n' \
    "$2" "$3" > "$1/$2"
}

# A menu entry NAME.desktop in ROOT with Icon=NAME.
menu_app () { # menu_app ROOT NAME
  printf '[Desktop Entry]\nType=Application\nName=%s\nExec=%s\nIcon=%s\n' "$2" "$2" "$2" > "$1/usr/share/applications/$2.desktop"
}

# NAME SIZE CONTENT for every size 8-256 as KDE (the KF5 helper, breeze
# current) loads each of NAMES in ROOT (with_content).
kde_content () { # kde_content ROOT NAMES...
  _r=$1; shift
  . "$TOP/tests/oracle/oracle-env.sh"
  printf '%s\n' "$@" | oracle_run "$_r" breeze "$ORACLE" --sizes "$(seq -s, 8 256)" | with_content ""
}

# What KDE loads (as our model says) for every name on stdin at the menu
# sizes, by content: NAME<TAB>SIZE<TAB>SHA-256 (with_content).
loaded_content () { # loaded_content ROOT < names
  cat > "$WORK/loaded.names"
  for _s in 16 22 32 48; do
    "$BIN" -q --root "$1" --resolve --size "$_s" < "$WORK/loaded.names" |
      awk -F '\t' -v s="$_s" '{ print $1 "\t" s "\t" $2 }'
  done | with_content "$1" "$1"
}

# Our call counts: NAME<TAB>SIZE<TAB>CALLS, from --explain's result lines.
our_counts () { # our_counts ROOT THEME SIZES... < names
  _root=$1 _theme=$2; shift 2
  cat > "$WORK/counts.names"
  for _s in "$@"; do
    "$BIN" -q --root "$_root" ${_theme:+--theme "$_theme"} --explain --size "$_s" < /dev/null \
      $(cat "$WORK/counts.names") |
      awk -v s="$_s" '/ at [0-9]+ px; themes searched/ { name = $1 }
        /^=> / { n = $0; sub(/.*[(,] ?/, "", n); sub(/ calls?\)$/, "", n); print name "\t" s "\t" n }'
  done
}

# A listing of every path under ROOT but DIR (prefix), with type, mode,
# size, modification time, link target and content hash: two listings are
# equal when nothing changed.
tree_state () { # tree_state ROOT [EXCLUDED-PREFIX]
  ( cd "$1" && find . ${2:+-path "./${2#/}" -prune -o} -printf '%p %y %m %s %T@ %l\n' | LC_ALL=C sort
    find . ${2:+-path "./${2#/}" -prune -o} -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum )
}

# Every link the manifest of ROOT lists, checked: it exists, is a link with
# the recorded target, and does not dangle.  Prints problems; succeeds
# when there are none.
manifest_consistent () { # manifest_consistent ROOT [STORE]
  _m=$1${2:-/var/lib/kde-icon-cache}/manifest
  [ -f "$_m" ] || return 0
  _bad=0
  while IFS="$(printf '\t')" read -r _kind _path _target _sum; do
    case $_kind in
      link)
        if [ ! -L "$1$_path" ]; then echo "# missing link $_path"; _bad=1
        elif [ "$(readlink "$1$_path")" != "$_target" ]; then echo "# link $_path points elsewhere"; _bad=1
        elif [ ! -e "$1$_path" ]; then echo "# dangling link $_path"; _bad=1
        fi ;;
      file)
        if [ "$(sha256sum < "$1$_path" 2>/dev/null | cut -d' ' -f1)" != "$_sum" ]; then
          echo "# store copy $_path is not what the manifest says"; _bad=1
        fi ;;
    esac
  done < "$_m"
  return $_bad
}

# Links below ROOT that point into the store but dangle.
dangling_links () {
  find "$1" -xtype l -lname '*var/lib/kde-icon-cache/*' 2>/dev/null
}

# writable_view TREE DIR, drop_view DIR
. "$TOP/tests/view.sh"

# The weaker promise after a failed or killed run: whatever of ours is on
# disk is as the manifest records it (the manifest may list more: it is
# written first, as a journal), and no link into the store is unlisted.
state_consistent () { # state_consistent ROOT [STORE]
  _s=${2:-/var/lib/kde-icon-cache}
  _m=$1$_s/manifest
  _bad=0
  [ -f "$_m" ] || return 0
  while IFS="$(printf '\t')" read -r _kind _path _target _sum; do
    case $_kind in
      link)
        if [ -L "$1$_path" ]; then
          [ "$(readlink "$1$_path")" = "$_target" ] || { echo "# link $_path points elsewhere"; _bad=1; }
          [ -e "$1$_path" ] || { echo "# dangling link $_path"; _bad=1; }
        fi ;;
      file)
        if [ -e "$1$_path" ] && [ "$(sha256sum < "$1$_path" | cut -d' ' -f1)" != "$_sum" ]; then
          echo "# store copy $_path is not what the manifest says"; _bad=1
        fi ;;
    esac
  done < "$_m"
  # (a killed run's temporary links, ".NAME.kic-tmp", are no name KDE
  # looks up; the next run removes them)
  find "$1" -path "$1$_s" -prune -o -type l -lname "*${_s#/}/*" ! -name '.*.kic-tmp' -printf '/%P\n' 2>/dev/null |
    while read -r _l; do
      grep -q "^link	$_l	" "$_m" || { echo "# link $_l is not in the manifest"; exit 1; }
    done || _bad=1
  return $_bad
}

# A run held still at chosen calls until the test has made its move
# (tests/integration/pause.c): the race happens in the same order however
# loaded the machine is.  In the background:
#   paused_run D SPEC COMMAND... &   (SPEC: "renameat:2", "flock:1:after,symlinkat:1")
#   at_pause D [I]    waits until the run holds at SPEC's Ith point (1);
#                     fails, saying so, when the run ended first
#   resume D [I]      lets it go on
paused_run () {
  _pd=$1 _ps=$2; shift 2
  mkdir -p "$_pd"
  if [ ! -f "$WORK/pause.so" ]; then
    ${CC:-cc} -shared -fPIC -o "$WORK/pause.so.$$" "$TOP/tests/integration/pause.c" -ldl &&
      mv "$WORK/pause.so.$$" "$WORK/pause.so" || { : > "$_pd/exited"; return 99; }
  fi
  env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$WORK/pause.so" \
    KIC_PAUSE="$_ps" KIC_PAUSE_DIR="$_pd" KIC_PAUSE_PROGRAM="$(basename "$BIN")" "$@"
  _rc=$?
  : > "$_pd/exited"
  return $_rc
}
at_pause () {
  until [ -e "$1/paused.${2:-1}" ] || [ -e "$1/exited" ]; do sleep 0.01; done
  [ -e "$1/paused.${2:-1}" ] || { diag "the run ended before its pause ${2:-1} ($1)"; return 1; }
}
resume () { : > "$1/go.${2:-1}"; }
