#!/bin/sh
# save.sh - run a benchmark and keep what it printed
#
#   sh tests/bench/save.sh NAME COMMAND [ARG]...
#
# COMMAND's standard output goes to the terminal and to build/bench/NAME.txt;
# when COMMAND succeeds it becomes tests/bench/results/NAME.txt, under a line
# saying which code and machine printed it.  README.md's table of figures is
# made from those files (tests/readme-figures.py), so a figure there is one
# a `make bench*` run printed; a failed run leaves the saved one alone.
set -eu
[ $# -ge 2 ] || { echo "usage: save.sh NAME COMMAND [ARG]..." >&2; exit 2; }
name=$1; shift
TOP=$(cd "$(dirname "$0")/../.." && pwd)
out=$TOP/build/bench/$name.txt
mkdir -p "$TOP/build/bench" "$TOP/tests/bench/results"
rc=$TOP/build/bench/$name.rc
# the code is read before the run: a tree edited while it ran is marked so
code=$(git -C "$TOP" describe --always --dirty 2> /dev/null || echo unknown)
{ "$@"; echo $? > "$rc"; } | tee "$out"
status=$(cat "$rc"); rm -f "$rc"
[ "$status" = 0 ] || { echo "save.sh: $name failed ($status): tests/bench/results/$name.txt kept as it was" >&2; exit "$status"; }
[ "$(git -C "$TOP" describe --always --dirty 2> /dev/null || echo unknown)" = "$code" ] || code=$code-edited-during-the-run
load=$(cut -d ' ' -f 1-3 /proc/loadavg 2> /dev/null || echo unknown)
{
  echo "# make $name: code $code, $(date -u +%Y-%m-%d), $(nproc) cores, load average at the end $load"
  cat "$out"
} > "$TOP/tests/bench/results/$name.txt.tmp"
mv "$TOP/tests/bench/results/$name.txt.tmp" "$TOP/tests/bench/results/$name.txt"
