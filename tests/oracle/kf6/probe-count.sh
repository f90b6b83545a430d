#!/bin/sh
# probe-count.sh [--calls] [--symbolic] [--app NAME] [--trace FILE] TREE THEME SIZES < names
#
# The KF6 twin of tests/oracle/probe-count.sh: counts the file system calls
# the real KF6 KIconLoader::iconPath(name, -size, true) makes per lookup,
# run inside the Debian 13 root through run.sh (strace runs there too).
# Same options and output as the KF5 script:
#
# Output (default):  NAME<TAB>SIZE<TAB>COUNT<TAB>PATH
# Output (--calls):  NAME<TAB>SIZE<TAB>SYSCALL<TAB>PATH<TAB>RESULT   one line per call
#
# COUNT = access/faccessat/faccessat2/stat/lstat/newfstatat/statx calls on a
# non-empty path, made by the lookup's thread between its marker and the next
# one.  Probes of ":/icons/..." (Qt resources) make no system call and so are
# not counted.  PATH is relative to TREE (":/..." for resource paths).
# --symbolic  prints the tree prefix as $TREE and the data home as
#             $XDG_DATA_HOME (always so in the trace run.sh writes).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../probe-args.sh"
# Plasma 6 draws through Kirigami, which has no search of its own
# (FINDINGS §m): --icon-item is Plasma 5's
[ -z "$icon_item" ] || { echo "probe-count.sh: --icon-item models Plasma 5 (KF5) only" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/kic-probe6.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
"$here/run.sh" --app "$app" --strace "$work/trace" "$tree" "$theme" "$sizes" > "$work/out"
[ -n "$keep" ] && cp "$work/trace" "$keep"

# the parser KF5's probe-count.sh uses too; the trace already has $TREE and
# $XDG_DATA_HOME in place of the in-root prefixes
MODE=$mode SYMBOLIC=$symbolic TREE='$TREE' perl "$here/../count-calls.pl" "$work/out" "$work/trace"
