#!/bin/sh
# oracle-kf6-iconcache.sh - the profile of a KIconThemes that reads GTK's
# icon-theme.cache (KDE/kiconthemes a8749c1, branch
# work/chinmoy/icon-loader, in no release) against that library itself.
#
# The root ($KIC_KF6_ICONCACHE_ROOT, default kf6-forky-iconcache beside
# the KF6 roots) is a copy of kf6-forky (tests/oracle/kf6/make-root.sh
# --suite forky) whose libKF6IconThemes.so.6.30.0 was built from 6.30.0
# (09f8556) with a8749c1 applied; no test makes it (KDE's code is not
# part of this project), so without it this test is skipped, saying so.
#
# With gtk-update-icon-cache run on every theme of each tree (as Debian's
# triggers keep them), and the root's libraries copied in:
#   - --kde=auto picks the cache profile (-v: "reads icon-theme.cache");
#   - on the fixture roots (oddtheme with its current theme's cache made
#     stale: older than a directory it lists) and the realistic tree
#     (KIC_TREE), every path and every strace call count of compare.sh
#     --counts at 16, 22, 32, 48 px equals ours;
#   - forced to the released 6.30 rules (--kde-version 6.30), the counts
#     differ: the comparison can fail;
#   - on the realistic tree, --rebuild: KF6 loads the same content for
#     every (name, size), the counts still agree, and the report's calls
#     with the links (--json calls_after) are KDE's, name by name; the
#     same again with breeze's cache removed (a theme with none: links
#     are planted there), and with it made again (it lists the links,
#     which the rebuild removes: none is planted where a cache answers).
# Needs root (chroot, mount) and gtk-update-icon-cache.
. "$(dirname "$0")/lib.sh"

K=$TOP/tests/oracle/kf6
C=${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests
R=${KIC_KF6_ICONCACHE_ROOT:-$C/kf6-forky-iconcache}
TAB=$(printf '\t')
[ "$(id -u)" -eq 0 ] || skip_all "the KF6 roots are run with chroot and mount: needs root"
[ -f "$R/.kic-kf6-stamp" ] ||
  skip_all "no KF6 root with KIconThemes 6.30.0 + a8749c1 at $R (a copy of kf6-forky with that library built in; no test makes it)"
lib=$(readlink -f "$R/usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.6") || lib=
{ [ -n "$lib" ] && grep -q 'icon-theme\.cache' "$lib"; } ||
  skip_all "$R: its libKF6IconThemes.so.6 does not read icon-theme.cache (not a8749c1)"
command -v gtk-update-icon-cache >/dev/null 2>&1 || skip_all "needs gtk-update-icon-cache (tests/install-deps.sh)"
command -v unshare >/dev/null 2>&1 || skip_all "needs unshare (util-linux)"
export KIC_BIN="$BIN" TMPDIR="$WORK" KIC_KF6_ROOT="$R"
# shellcheck source=tests/oracle/kf6/libs.sh
. "$K/libs.sh"

# caches TREE: an icon-theme.cache in every theme of TREE, as GTK's
# trigger makes them
caches () {
  for _t in "$1"/usr/share/icons/*/ "$1"/usr/local/share/icons/*/; do
    [ -f "$_t/index.theme" ] && gtk-update-icon-cache -f -q "$_t" 2> /dev/null
  done
  find "$1/usr/share/icons" "$1/usr/local/share/icons" -mindepth 2 -maxdepth 2 -name icon-theme.cache 2> /dev/null |
    grep -c .
}

# picks LABEL TREE: --kde=auto takes the cache profile there
picks () {
  _p=$("$BIN" --root "$2" -v --resolve --size 16 < /dev/null 2>&1 | sed -n 's/^kde-icon-cache: profile: //p')
  case $_p in *"reads icon-theme.cache"*) _st=0 ;; *) _st=1 ;; esac
  ok $_st "$1: --kde=auto picks the cache profile ($_p)"
}

# agree LABEL TREE THEME [--kde-version V] < names: compare.sh --counts; prints
# the number of path and count differences, or fails when it could not
# classify (a comparison that compared nothing is no agreement)
agree () {
  _l=$1 _t=$2 _th=$3; shift 3
  _f=$WORK/$(echo "$_l" | tr -c 'A-Za-z0-9._\n-' '_')
  "$K/compare.sh" "$@" --counts "$_t" "$_th" 16,22,32,48 > "$_f.cmp" 2> "$_f.sum" || {
    sed 's/^/#   /' "$_f.sum" >&2
    return 1
  }
  sed 's/^compare.sh: /# /' "$_f.sum" | grep -v ', 0 vanish when' >&2
  head -n 10 "$_f.cmp" | sed 's/^/#   /' >&2
  grep -c "^\(path\|count\)$TAB" "$_f.cmp" || :
}

# contents ANSWERS TREE: NAME SIZE and the SHA-256 of the file KF6 named
# (read now: a link the next rebuild removes is read before), or the
# path itself when it is none or a Qt resource
contents () {
  while IFS="$TAB" read -r n s p _rest; do
    case $p in -|:*) h=$p ;; *) h=$(sha256sum < "$2$p" 2> /dev/null | cut -d' ' -f1) || h= ;; esac
    printf '%s\t%s\t%s\n' "$n" "$s" "${h:-unreadable $p}"
  done < "$1"
}

# same_content LABEL BEFORE AFTER: every (name, size) loads the same bytes
same_content () {
  paste "$2" "$3" | awk -F "$TAB" '$1 != $4 || $2 != $5 || $3 != $6 { print $1 " " $2 ": " $3 " -> " $6 }' > "$WORK/changed"
  [ -s "$2" ] && [ "$(wc -l < "$2")" -eq "$(wc -l < "$3")" ] && [ ! -s "$WORK/changed" ]
  ok $? "$1: KF6 loads the same content for all $(wc -l < "$2") (name, size) pairs"
  head -n 10 "$WORK/changed" | sed 's/^/#   /'
}

# truthful LABEL TREE JSON < names: the report's calls with the links
# (JSON: the rebuild's --json, per name and size; an absolute name is
# loaded as it is and not counted) are those strace sees KF6 make
truthful () {
  _l=$1 _t=$2
  cat > "$WORK/t.names"
  perl -MJSON::PP -e 'my $d = decode_json(join "", <STDIN>);
      for my $n (@{$d->{names}}) { next if $n->{status} eq "absolute";
        print "$n->{icon}\t$_->{size}\t$_->{calls_after}\n" for @{$n->{sizes}} }' < "$3" | sort > "$WORK/t.ours"
  "$K/probe-count.sh" "$_t" "" 16,22,32,48 < "$WORK/t.names" | cut -f1-3 | sort > "$WORK/t.kde"
  # each of our (name, size) pairs with KDE's count, "-" when KDE has none
  awk -F "$TAB" 'FILENAME == ARGV[1] { k[$1 "\t" $2] = $3; next }
    { c = ($1 "\t" $2) in k ? k[$1 "\t" $2] : "-"; if (c != $3) print $1 " at " $2 ": KDE " c ", ours " $3 }' \
    "$WORK/t.kde" "$WORK/t.ours" > "$WORK/t.diff"
  _m=$(wc -l < "$WORK/t.ours")
  _s=$(awk -F "$TAB" '{ s += $3 } END { print s + 0 }' "$WORK/t.ours")
  [ "$_m" -gt 0 ] && [ ! -s "$WORK/t.diff" ]
  ok $? "$_l: the report's calls with the links are KDE's for all $_m (name, size) pairs ($_s calls)"
  head -n 10 "$WORK/t.diff" | sed 's/^/#   /'
}

# the fixture roots
fixtures "$WORK/fx" basic oddtheme nobreeze hicolor-current papirus-like
for c in basic oddtheme nobreeze hicolor-current papirus-like; do
  T=$WORK/fx/$c
  kf6_copy_libs "$R" "$T" || { ok 1 "$c: the root's libraries copied in"; continue; }
  n=$(caches "$T")
  if [ "$c" = oddtheme ]; then
    # a stale cache: a directory it lists (one with an icon) changed
    # after it was made
    d=$(find "$T/usr/share/icons/odd" -mindepth 2 -type f -name '*.png' | head -n 1)
    [ -f "$T/usr/share/icons/odd/icon-theme.cache" ] && [ -n "$d" ] && touch -d "@$(($(date +%s) + 120))" "${d%/*}"
    ok $? "oddtheme: odd's cache made stale (${d%/*} newer)"
  fi
  picks "$c ($n caches)" "$T"
  fixture_names "$T" > "$WORK/$c.names"
  d=$(agree "$c" "$T" "$(root_theme "$T")" < "$WORK/$c.names") && [ "$d" -eq 0 ]
  ok $? "$c: paths and call counts equal a8749c1's at 16-48 px (${d:-?} differences)"
done
d=$(agree "basic, 6.30 rules" "$WORK/fx/basic" "$(root_theme "$WORK/fx/basic")" --kde-version 6.30 < "$WORK/basic.names") && [ "$d" -gt 0 ]
ok $? "basic, forced to the released 6.30 rules: the comparison fails (${d:-?} differences)"

# the realistic tree
if T0=$(realistic_tree 2> "$WORK/tree.log"); then
  writable_view "$T0" "$WORK/v"
  T=$VIEW
  kf6_copy_libs "$R" "$T"
  n=$(caches "$T")
  icon_names "$T" > "$WORK/r.names"
  picks "realistic ($n caches)" "$T"
  d=$(agree "realistic" "$T" "" < "$WORK/r.names") && [ "$d" -eq 0 ]
  ok $? "realistic: paths and call counts equal a8749c1's at 16-48 px (${d:-?} differences)"
  for variant in "all caches" "breeze without one" "breeze's made again"; do
    case $variant in
    "breeze without one") rm -f "$T/usr/share/icons/breeze/icon-theme.cache" ;;
    # (it lists the links: they are checked, and a rebuild takes them away)
    "breeze's made again") gtk-update-icon-cache -f -q "$T/usr/share/icons/breeze" ;;
    esac
    "$K/run.sh" "$T" "" 16,22,32,48 < "$WORK/r.names" > "$WORK/before.paths" 2> /dev/null
    contents "$WORK/before.paths" "$T" > "$WORK/before"
    # (the report of this rebuild itself: one that plans again would not
    # show a kept plan's stale figures)
    "$BIN" -q --root "$T" --rebuild --json > "$WORK/rebuild.json" 2> "$WORK/rebuild.err"
    st=$?
    links=$(grep -c '^link' "$T/var/lib/kde-icon-cache/manifest" 2> /dev/null || true)
    "$K/run.sh" "$T" "" 16,22,32,48 < "$WORK/r.names" > "$WORK/after.paths" 2> /dev/null
    contents "$WORK/after.paths" "$T" > "$WORK/after"
    [ $st -eq 0 ]
    ok $? "realistic, $variant: --rebuild exits 0 ($links links)"
    sed 's/^/#   /' "$WORK/rebuild.err" | head -n 5
    same_content "realistic, $variant, after --rebuild" "$WORK/before" "$WORK/after"
    d=$(agree "realistic, $variant, rebuilt" "$T" "" < "$WORK/r.names") && [ "$d" -eq 0 ]
    ok $? "realistic, $variant, after --rebuild: paths and call counts equal a8749c1's (${d:-?} differences)"
    truthful "realistic, $variant" "$T" "$WORK/rebuild.json" < "$WORK/r.names"
  done
  drop_view "$WORK/v"
  trap 'rm -rf "$WORK"' EXIT
else
  sed 's/^/#   /' "$WORK/tree.log" | tail -n 5
  ok 1 "the realistic tree (tests/oracle/make-tree.sh; KIC_TREE)"
fi

echo "1..$_tap_n"
finish
