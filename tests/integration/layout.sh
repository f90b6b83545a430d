#!/bin/sh
# layout.sh - docs/how-it-works.md's source table names every file of src/,
# and no file that is gone; no source file grows past the size one job
# takes (about 700 lines: a file over it holds two jobs)
. "$(dirname "$0")/lib.sh"

plan 3
doc=$TOP/docs/how-it-works.md
sed -n '/^## Source layout/,$p' "$doc" | sed -n 's/^| `\([a-z0-9_-]*\.c\)` |.*/\1/p' | sort > "$WORK/listed"
(cd "$TOP/src" && ls *.c) | sort > "$WORK/files"
missing=$(comm -13 "$WORK/listed" "$WORK/files" | tr '\n' ' ')
is "$missing" "" "every src/*.c is in docs/how-it-works.md's source table"
gone=$(comm -23 "$WORK/listed" "$WORK/files" | tr '\n' ' ')
is "$gone" "" "the table names no file that is not in src/"
big=$(cd "$TOP/src" && wc -l *.c *.h | awk '$2 != "total" && $1 > 720 { printf "%s (%d) ", $2, $1 }')
is "$big" "" "no source file over 720 lines"
