#!/bin/sh
# icon-item.sh - Plasma 5's IconItem search, asked of KF5 and of us
#
# plasmashell 5.27 searches for a name twice over: KIconLoader's lookup,
# and before it the search of plasma-framework's IconItem: NAME.svg, then
# NAME.svgz, in the current theme alone (tests/oracle/FINDINGS.md §m).
# make bench-plasma prices both with --explain and --explain --icon-item;
# here the second is checked against KF5 itself: kic-oracle --icon-item
# calls the KIconTheme::iconPath() IconItem calls.  Paths and the number
# of file system calls (tests/oracle/probe-count.sh) must agree, on the
# fixture roots and the realistic tree (breeze and oxygen current), and
# both the found and the not-found side must have been compared.
. "$(dirname "$0")/lib.sh"
need_oracle strace

cases="basic oddtheme nobreeze hicolor-current papirus-like"
sizes="16 22 32 48 64"
plan 9
fixtures "$WORK/fx" $cases

# ours_item ROOT THEME < names: NAME<TAB>SIZE<TAB>CALLS<TAB>PATH
ours_item () {
  cat > "$WORK/item.names"
  for s in $sizes; do
    # shellcheck disable=SC2046 # the names: one word each (fixture_names has no blank)
    "$BIN" -q --root "$1" ${2:+--theme "$2"} --explain --icon-item --size "$s" -- $(cat "$WORK/item.names") |
      awk -v s="$s" '/ at [0-9]+ px; themes searched/ { name = $1 }
        /^=> / { n = $0; sub(/.*[(,] ?/, "", n); sub(/ calls?\)$/, "", n)
                 p = $2; if (p == "not") p = "-"; print name "\t" s "\t" n "\t" p }'
  done
}
# theirs_item ROOT THEME < names: the same from KF5
theirs_item () {
  "$TOP/tests/oracle/probe-count.sh" --icon-item "$1" "$2" "$(echo $sizes | tr ' ' ,)" 2> /dev/null |
    awk -v r="$1" -F '\t' '{ p = $4; if (index(p, r) == 1) p = substr(p, length(r) + 1); print $1 "\t" $2 "\t" $3 "\t" p }'
}

found=0 missed=0
compare () { # compare LABEL ROOT THEME < names
  theirs_item "$2" "$3" < "$WORK/names" > "$WORK/theirs"
  ours_item "$2" "$3" < "$WORK/names" > "$WORK/ours"
  n=$(wc -l < "$WORK/ours")
  f=$(awk -F '\t' '$4 != "-"' "$WORK/theirs" | wc -l)
  found=$((found + f)) missed=$((missed + $(wc -l < "$WORK/theirs") - f))
  [ "$n" -gt 0 ] && same_answers "$WORK/theirs" "$WORK/ours"
  ok $? "$1: KF5's IconItem search and ours agree on paths and calls for all $n (name, size) pairs ($f found)"
}
# names of any kind: an icon's own name, its dash cuts (which this search
# does not make), a name with an extension, one nothing has; no absolute
# Icon=, which IconItem loads itself (iconitem.cpp:355-372)
for c in $cases; do
  R=$WORK/fx/$c
  fixture_names "$R" | LC_ALL=C grep -av "^/" | awk '{ print; if (sub(/-[^-]*$/, "")) print }' | LC_ALL=C sort -u > "$WORK/names"
  echo "kic-missing-name.png" >> "$WORK/names"
  compare "$c" "$R" "$(root_theme "$R")"
done
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
"$TOP/tests/oracle/names.sh" "$T" | LC_ALL=C grep -av "^/" | head -n 300 > "$WORK/names"
compare "realistic tree, breeze current" "$T" breeze
compare "realistic tree, oxygen current" "$T" oxygen
diag "$found pairs found, $missed not found, over the fixture roots and the realistic tree"
[ "$found" -ge 100 ] && [ "$missed" -ge 100 ]
ok $? "both sides compared: $found found, $missed not found (100 or more each)"
# the bench's KF6 twin has no such search: probe-count.sh refuses it
"$TOP/tests/oracle/kf6/probe-count.sh" --icon-item "$WORK/fx/basic" breeze 16 < /dev/null > /dev/null 2>&1
[ $? -eq 2 ]
ok $? "tests/oracle/kf6/probe-count.sh refuses --icon-item (exit 2)"
finish
