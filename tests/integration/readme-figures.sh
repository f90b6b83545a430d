#!/bin/sh
# readme-figures.sh - README.md says what the programs print
#
# The table of figures equals what tests/readme-figures.py reads out of the
# benchmarks' saved output (tests/bench/results/), and a README whose
# figure was changed by hand, or a saved output that lost a line the table
# needs, fails the check.  The `make demo` excerpt is what make demo
# prints today.
. "$(dirname "$0")/lib.sh"

command -v python3 > /dev/null || skip_all "needs python3"
git -C "$TOP" rev-parse --verify -q HEAD > /dev/null || skip_all "needs a git checkout (the saved output names a commit)"
plan 21
FIG=$TOP/tests/readme-figures.py

python3 "$FIG" --check > "$WORK/out" 2>&1
ok $? "README.md's table equals the saved bench output"
[ $? -eq 0 ] || sed 's/^/# /' "$WORK/out"

# a figure edited by hand: one digit of the table changed
cp "$TOP/README.md" "$WORK/README.md"
awk -v b="$(sed -n 's/^BEGIN = "\(.*\)"$/\1/p' "$FIG")" '
  $0 == b { inside = 1 } inside && !done && /\| `make / { sub(/[0-9]/, "0"); done = 1 } { print }' \
  "$TOP/README.md" > "$WORK/README.md"
! cmp -s "$TOP/README.md" "$WORK/README.md"
ok $? "(the mutant README differs from README.md)"
KIC_README=$WORK/README.md python3 "$FIG" --check > /dev/null 2>&1
is $? 1 "a figure changed by hand in README.md fails the check"

# a saved output without the line a row is read from
mkdir -p "$WORK/results"; cp "$TOP"/tests/bench/results/*.txt "$WORK/results/"
grep -v '^prediction:' "$TOP/tests/bench/results/bench.txt" > "$WORK/results/bench.txt"
KIC_BENCH_RESULTS=$WORK/results python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is $? 1 "a bench output that lost a line the table reads fails the check"
grep -q "no line for" "$WORK/err"
ok $? "... naming what it missed"

# a saved output from a tree with uncommitted changes, or from a commit
# not in the history of the tree checked, is refused
stamp () { # stamp CODE: the results, their first line naming CODE
  rm -rf "$WORK/stamped"; mkdir -p "$WORK/stamped"; cp "$TOP"/tests/bench/results/*.txt "$WORK/stamped/"
  sed -i "1s/: code [^,]*,/: code $1,/" "$WORK/stamped/bench.txt"
  sed "s/\(\`make bench: code \)[^,]*,/\1$1,/" "$TOP/README.md" > "$WORK/README.stamped"
}
head=$(git -C "$TOP" rev-parse --short HEAD)
stamp "$head"
KIC_README=$WORK/README.stamped KIC_BENCH_RESULTS=$WORK/stamped python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is $? 0 "a saved output of the commit checked out passes"
stamp "v0.2-3-g$head"
KIC_README=$WORK/README.stamped KIC_BENCH_RESULTS=$WORK/stamped python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is $? 0 "... named as git describe names it once a tag is there"
stamp "$head-dirty"
KIC_README=$WORK/README.stamped KIC_BENCH_RESULTS=$WORK/stamped python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is $? 1 "a saved output of a tree with uncommitted changes is refused"
grep -q "bench.txt: refused: .*$head-dirty, not a committed tree" "$WORK/err"
ok $? "... naming the file and the code"
# (a shallow clone holds no history to check a commit against: there the
# check says so and passes, and these two cannot be asked)
if [ "$(git -C "$TOP" rev-parse --is-shallow-repository)" = true ]; then
  skip "a shallow clone: no history to tell a commit off it by" 2
else
  root=$(git -C "$TOP" rev-list --max-parents=0 HEAD | tail -n 1)
  stamp "$head"
  KIC_FIGURES_REF=$root KIC_README=$WORK/README.stamped KIC_BENCH_RESULTS=$WORK/stamped python3 "$FIG" --check > /dev/null 2> "$WORK/err"
  is $? 1 "a saved output of a commit not in the history of the tree checked is refused"
  grep -q "bench.txt: refused: .*$head, which is not in the history of $root" "$WORK/err"
  ok $? "... saying so"
fi

# the man page's and docs/' figures are the bench's, and a figure nothing
# checks is an error
sed 's/costs KDE \([0-9]*\) to /costs KDE 1\1 to /' "$TOP/man/kde-icon-cache.8" > "$WORK/man.8"
! cmp -s "$TOP/man/kde-icon-cache.8" "$WORK/man.8"
ok $? "(the mutant man page differs)"
KIC_MAN=$WORK/man.8 python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is $? 1 "a figure of the man page that is not the bench's fails the check"
grep -q "man/kde-icon-cache.8: DESCRIPTION's cost of a lookup: says 1" "$WORK/err"
ok $? "... naming the page and both figures"
mkdir -p "$WORK/docs"; cp "$TOP"/docs/*.md "$WORK/docs/"
sed -i 's/^\(.*\)\*\*\([0-9]*\) names\*\* load different/\1**1\2 names** load different/' "$WORK/docs/how-it-works.md"
KIC_DOCS=$WORK/docs python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is $? 1 "a figure of docs/ that is not the bench's fails the check"
sed 's/^is on NFS every failed call/is on NFS (about 2 ms each) every failed call/' "$TOP/man/kde-icon-cache.8" > "$WORK/man.8"
KIC_MAN=$WORK/man.8 python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is $? 1 "a figure of the man page that no bench prints fails the check"
grep -q "man/kde-icon-cache.8:[0-9]*: 'about 2' is a figure no bench or test checks" "$WORK/err"
ok $? "... naming the line"

# the same for the "Who gains" section (make bench-nfs)
awk -v b="$(sed -n 's/^WHO_BEGIN = "\(.*\)"$/\1/p' "$FIG")" '
  $0 == b { inside = 1 } inside && !done && /\| `make bench-nfs` / { sub(/[0-9]/, "0"); done = 1 } { print }' \
  "$TOP/README.md" > "$WORK/README.md"
KIC_README=$WORK/README.md python3 "$FIG" --check > /dev/null 2>&1
is $? 1 "a Who gains figure changed by hand fails the check"
cp "$TOP"/tests/bench/results/bench.txt "$WORK/results/"
grep -v "^squashfs image as a file" "$TOP/tests/bench/results/bench-nfs.txt" > "$WORK/results/bench-nfs.txt"
KIC_BENCH_RESULTS=$WORK/results python3 "$FIG" --check > /dev/null 2> "$WORK/err"
is "$?/$(grep -c 'bench-nfs.txt: no line for a squashfs image' "$WORK/err")" 1/1 \
  "a bench-nfs output that lost the squashfs row fails the check, naming it"

# the demo excerpt: each of its lines is one make demo prints (the same
# commands on a fresh copy of demo/)
cp -R "$TOP/demo" "$WORK/demo"
{ "$BIN" --root "$WORK/demo" --list > "$WORK/before" 2>&1
  "$BIN" --root "$WORK/demo" --dry-run
  "$BIN" --root "$WORK/demo" --verbose
  "$BIN" --root "$WORK/demo" --list; } > "$WORK/demo.out" 2>&1
awk '/^\$ make demo/ { inside = 1; next } inside && /^```/ { exit } inside { print }' "$TOP/README.md" > "$WORK/excerpt"
missing=0; n=0
while IFS= read -r line; do
  n=$((n + 1))
  case $line in
    *...) grep -qF -- "${line%...}" "$WORK/demo.out" ;;
    *) grep -qxF -- "$line" "$WORK/demo.out" ;;
  esac || { missing=$((missing + 1)); diag "not printed by make demo: $line"; }
done < "$WORK/excerpt"
[ "$n" -gt 0 ] && [ "$missing" -eq 0 ]
ok $? "README's make demo excerpt ($n lines) is what make demo prints"
cost=$(sed -n 's/^(`org.example.Viewer-beta` cost KDE \([0-9]*\) calls at every size before.)$/\1/p' "$TOP/README.md")
awk -F '\t' -v c="$cost" '$2 == "org.example.Viewer-beta" && $5 != c { bad = 1 } $2 == "org.example.Viewer-beta" { n++ }
  END { exit (n == 0 || bad || c == "") }' "$WORK/before"
ok $? "... and org.example.Viewer-beta cost KDE ${cost:-?} calls at every size before"
