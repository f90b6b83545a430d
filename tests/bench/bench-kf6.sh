#!/bin/sh
# bench-kf6.sh - what a rebuild does for KDE Frameworks 6 (Debian 13's
# KIconThemes 6.13, in the root tests/oracle/kf6/make-root.sh makes)
#
# The realistic tree, seen through an overlay (or a copy) with Debian 13's
# libKF6IconThemes.so.6 and libKF6BreezeIcons.so.6 added, so that --kde=auto
# models what KDE runs: every relative Icon= of the menu at 16, 22, 32 and
# 48 px, breeze current.  KF6's calls per lookup (strace) before and after
# --rebuild, side by side with what our model predicts, and whether KF6
# loads the same content for every pair afterwards.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
K=$TOP/tests/oracle/kf6
ROOT=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-trixie}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
[ -f "$ROOT/.kic-kf6-stamp" ] || { echo "bench-kf6: no KF6 root at $ROOT: run tests/oracle/kf6/make-root.sh" >&2; exit 1; }
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench-kf6.XXXXXX")
trap 'rm -rf "$W"' EXIT
TAB=$(printf '\t')

T=${KIC_TREE:-$TMP_TOP/realistic}
"$TOP/tests/oracle/make-tree.sh" "${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}" "$T" >&2
T=$(cd "$T" && pwd)
. "$TOP/tests/view.sh"
writable_view "$T" "$W"
V=$VIEW
# the real library files and their soname links: the file name carries
# the release whose profile --kde=auto picks (a cp -L of the soname would
# model 6.13 whatever the root runs)
# shellcheck source=tests/oracle/kf6/libs.sh
. "$K/libs.sh"
kf6_copy_libs "$ROOT" "$V"
# the names are the tool's own (tests/bench/names.sh)
. "$TOP/tests/bench/names.sh"
tool_names "$BIN" "$V" "$W"

# ours: NAME SIZE CALLS, from --explain's last line
ours () {
  for s in 16 22 32 48; do
    while IFS= read -r name; do
      c=$("$BIN" -q --root "$V" --explain --size "$s" "$name" | sed -n 's/.*(\([0-9]*\) calls\?)$/\1/p; s/.*, \([0-9]*\) calls\?)$/\1/p' | tail -n 1)
      printf '%s\t%s\t%s\n' "$name" "$s" "$c"
    done < "$W/names"
  done
}
sum () { awk -F "$TAB" -v s="$2" '$2 == s { t += $3 } END { print t + 0 }' "$1"; }

# paths and counts compared pair by pair (the libraries are in place)
"$K/compare.sh" --no-lib --counts "$V" "" 16,22,32,48 < "$W/names" > /dev/null 2> "$W/compare"
"$K/run.sh" "$V" "" 16,22,32,48 < "$W/names" > "$W/paths-before" 2>/dev/null
"$K/probe-count.sh" "$V" "" 16,22,32,48 < "$W/names" > "$W/kde-before" 2>/dev/null
ours > "$W/ours-before"
s=$(date +%s%N)
"$BIN" -q --root "$V" --rebuild
rebuild_ms=$((($(date +%s%N) - s) / 1000000))
links=$(grep -c '^link' "$V/var/lib/kde-icon-cache/manifest" || true)
"$K/run.sh" "$V" "" 16,22,32,48 < "$W/names" > "$W/paths-after" 2>/dev/null
"$K/probe-count.sh" "$V" "" 16,22,32,48 < "$W/names" > "$W/kde-after" 2>/dev/null
ours > "$W/ours-after"
changed=$(paste "$W/paths-before" "$W/paths-after" | while IFS="$TAB" read -r nm sz b _n _s a; do
  [ "$b" = "$a" ] && continue
  case "$b|$a" in -\|*|*\|-|:*|*\|:*) echo "$nm $sz"; continue ;; esac
  cmp -s "$V$b" "$V$a" || echo "$nm $sz"
done | wc -l)

echo "kde-icon-cache bench-kf6: realistic tree ($n menu icon names), KDE Frameworks 6 of Debian 13, breeze current"
tool_names_say "$W"
grep -E '^libkf6(iconthemes6|breezeicons6)' "$ROOT/.kic-kf6-stamp" | tr '\t' ' ' | paste -sd, | sed 's/,/, /g'
printf '%-6s %16s %16s %16s %16s %10s\n' size "KF6 before" "ours predicted" "KF6 after" "ours predicted" before/after
for s in 16 22 32 48; do
  b=$(sum "$W/kde-before" "$s"); a=$(sum "$W/kde-after" "$s")
  printf '%-6s %16s %16s %16s %16s %10s\n' "$s" "$b" "$(sum "$W/ours-before" "$s")" "$a" "$(sum "$W/ours-after" "$s")" \
    "$(awk -v a="$b" -v b="$a" 'BEGIN { printf "%.2fx", a / b }')"
done
sed -n 's/^compare.sh: \([0-9]* pairs, [0-9]* agree\).*/before the rebuild, KF6 against --explain: \1 in path/p
         s/^compare.sh: \([0-9]* lookups counted, [0-9]* equal counts\).*/before the rebuild, KF6 against --explain: \1/p' "$W/compare"
echo "rebuild: $links links in $rebuild_ms ms; (name, size) pairs whose content KF6 loads changed: $changed of $(wc -l < "$W/paths-before")"
