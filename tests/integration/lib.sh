# lib.sh - TAP helpers and shared paths for the integration tests (sourced)
#
# Each test script prints TAP ("1..N", "ok N - ...", "not ok N - ...") so
# that prove runs it beside the GTest unit tests.

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

# The fixture roots, built once per test run (make-fixtures.sh is quick
# but each test wants its own copy to be free to change it).
fixtures () { # fixtures DEST [CASE...]
  "$TOP/tests/fixtures/make-fixtures.sh" "$@" >/dev/null
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
theirs () { # theirs ROOT THEME SIZES... < names
  _root=$1 _theme=$2; shift 2
  _sizes=$(echo "$@" | tr ' ' ',')
  . "$TOP/tests/oracle/oracle-env.sh"
  oracle_run "$_root" "$_theme" "$ORACLE" --sizes "$_sizes" | awk -v r="$_root" -F '\t' '
    { p = $3; if (index(p, r) == 1) p = substr(p, length(r) + 1); print $1 "\t" $2 "\t" p }'
}

# The SHA-256 of what KDE shows for PATH (inside ROOT, as a path inside
# it or a host path): the file's bytes, or for the PNG twin of an XPM in
# the store (<store>/files/<xpm>.png, same pixels) the XPM's.
shown_sum () { # shown_sum ROOT PATH
  _r=$(realpath "$1")
  case $2 in "$1"/*|"$_r"/*) _p=$(realpath "$2") ;; *) _p=$(realpath "$1$2") ;; esac
  case $_p in
    "$_r"/var/lib/kde-icon-cache/files/*.xpm.png)
      _p=$_r${_p#"$_r"/var/lib/kde-icon-cache/files}; _p=${_p%.png} ;;
  esac
  sha256sum < "$_p" | cut -d' ' -f1
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

# Our call counts: NAME<TAB>SIZE<TAB>CALLS, from --explain's result lines.
our_counts () { # our_counts ROOT THEME SIZES... < names
  _root=$1 _theme=$2; shift 2
  cat > "$WORK/counts.names"
  for _s in "$@"; do
    "$BIN" -q --root "$_root" ${_theme:+--theme "$_theme"} --explain --size "$_s" < /dev/null \
      $(cat "$WORK/counts.names") |
      awk -v s="$_s" '/ at [0-9]+ px; themes searched/ { name = $1 }
        /^=> / { n = $0; sub(/.*[(,] ?/, "", n); sub(/ calls\)$/, "", n); print name "\t" s "\t" n }'
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
