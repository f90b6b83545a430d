#!/bin/sh
# layout.sh - src/ is a directory per layer (the Makefile's LAYERS, lowest
# first): a file includes headers of its own layer and the layers below
# only, a *-private.h only from its own directory and under the file
# that defines each of its functions; no function over 100 lines, no file
# over 720; docs/how-it-works.md's source table names every file of
# src/, and no file that is gone; and no test script writes a setting of
# the whole machine (/proc/sys): the tests run side by side, and a run of
# another test would plan under it (one sees it in a mount namespace of
# its own)
. "$(dirname "$0")/lib.sh"

plan 9
doc=$TOP/docs/how-it-works.md
layers=$(sed -n 's/^LAYERS = //p' "$TOP/Makefile")
ok $([ -n "$layers" ]; echo $?) "the Makefile names the layers ($layers)"

sed -n '/^## Source layout/,$p' "$doc" | sed -n 's/^| `\([a-z]*\/[a-z0-9_-]*\.c\)` |.*/\1/p' | sort > "$WORK/listed"
(cd "$TOP/src" && ls */*.c) | sort > "$WORK/files"
missing=$(comm -13 "$WORK/listed" "$WORK/files" | tr '\n' ' ')
is "$missing" "" "every src/*/*.c is in docs/how-it-works.md's source table"
gone=$(comm -23 "$WORK/listed" "$WORK/files" | tr '\n' ' ')
is "$gone" "" "the table names no file that is not in src/"

# LAYER HEADER lines of every header, then FILE-LAYER FILE HEADER of every
# include; a header found in no layer is named too
rank=0
for l in $layers; do
  rank=$((rank + 1))
  for h in "$TOP/src/$l"/*.h; do [ -e "$h" ] && echo "h $rank $l ${h##*/}"; done
done > "$WORK/headers"
rank=0
for l in $layers; do
  rank=$((rank + 1))
  for f in "$TOP/src/$l"/*.c "$TOP/src/$l"/*.h; do
    [ -e "$f" ] || continue
    sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do echo "i $rank $l $l/${f##*/} $inc"; done
  done
done > "$WORK/includes"
awk '$1 == "h" { rank[$4] = $2; layer[$4] = $3; next }
     !($5 in rank) { printf "%s: %s is in no layer; ", $4, $5; next }
     rank[$5] > $2 { printf "%s includes %s/%s; ", $4, layer[$5], $5 }' \
  "$WORK/headers" "$WORK/includes" > "$WORK/upward"
is "$(cat "$WORK/upward")" "" "no file includes a header of a layer above its own"
awk '$1 == "h" { layer[$4] = $3; next }
     $5 ~ /-private\.h$/ && layer[$5] != $3 { printf "%s includes %s/%s; ", $4, layer[$5], $5 }' \
  "$WORK/headers" "$WORK/includes" > "$WORK/private"
is "$(cat "$WORK/private")" "" "a *-private.h is included only from its own directory"
# a private header groups its declarations under "/* FILE.c */" lines:
# each function under one is defined in that file
python3 - "$TOP/src" > "$WORK/misplaced" <<'PY'
import glob, os, re, sys
for h in sorted(glob.glob(sys.argv[1] + "/*/*-private.h")):
    where = {}
    for c in glob.glob(os.path.dirname(h) + "/*.c"):
        for m in re.finditer(r"^([a-z_][a-z_0-9]*) \(", open(c).read(), re.M):
            where.setdefault(m.group(1), os.path.basename(c))
    section = None
    for line in open(h):
        m = re.match(r"^/\* ([a-z0-9-]+\.c)\b", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"^[A-Za-z][^#(]*?\b([a-z_][a-z_0-9]*) \(", line)
        if m and section and not line.startswith("typedef") and where.get(m.group(1)) != section:
            print("%s: %s() under %s, defined in %s;" % (os.path.basename(h), m.group(1), section,
                                                         where.get(m.group(1), "no file")), end=" ")
PY
is "$(cat "$WORK/misplaced")" "" "each declaration of a *-private.h is under the file that defines it"

# functions short enough to read at once: none over 100 lines (GNU style:
# the name at the start of a line, the body from "{" to "}" at the start
# of a line); and a file holds one job, which no file over 720 lines does
for f in "$TOP"/src/*/*.c; do
  awk -v f="${f#$TOP/src/}" '/^[A-Za-z_][A-Za-z_0-9]* \(/ { name = $1 } /^\{/ { start = NR }
    /^\}/ && start { if (NR - start - 1 > 100) printf "%s: %s() %d lines; ", f, name, NR - start - 1; start = 0 }' "$f"
done > "$WORK/long"
is "$(cat "$WORK/long")" "" "no function over 100 lines"
big=$(cd "$TOP/src" && wc -l */*.c */*.h | awk '$2 != "total" && $1 > 720 { printf "%s (%d) ", $2, $1 }')
is "$big" "" "no source file over 720 lines"

(cd "$TOP" && ls tests/*.sh tests/*/*.sh) > "$WORK/scripts"
[ -s "$WORK/scripts" ] || echo "no test script found" > "$WORK/writes"
(cd "$TOP" && grep -nE '>[[:space:]]*"?/proc/sys/|sysctl[[:space:]]+(-w|--write)' $(cat "$WORK/scripts")) >> "$WORK/writes"
is "$(tr '\n' ' ' < "$WORK/writes")" "" "no test script writes a setting of the whole machine (/proc/sys)"
finish
