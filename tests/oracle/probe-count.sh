#!/bin/sh
# probe-count.sh [--calls] [--symbolic] [--app NAME] [--trace FILE] TREE THEME SIZES < names
#
# Counts the filesystem calls the real KF5 KIconLoader::iconPath(name, -size, true)
# makes per lookup, in the hermetic environment of oracle-env.sh.
#
# Output (default):  NAME<TAB>SIZE<TAB>COUNT<TAB>PATH
# Output (--calls):  NAME<TAB>SIZE<TAB>SYSCALL<TAB>PATH<TAB>RESULT   one line per call
#
# COUNT = access/faccessat/faccessat2/stat/lstat/newfstatat/statx calls on a
# non-empty path, made by the lookup's thread between its marker and the next
# one (the marker itself excluded).  Calls that are traced but not counted
# (openat, fd-only fstat "", calls of other threads) are listed by --calls with
# the syscall prefixed by "!" and summarised on stderr.
# RESULT is 0 or the errno name (ENOENT, ENOTDIR, ...).
# --symbolic  print TREE's prefix as $TREE and the temporary XDG_DATA_HOME as
#             $XDG_DATA_HOME, so traces from different runs compare equal.
# --trace F   keep the raw strace output in F.
# SIZES: comma-separated pixel sizes, e.g. 16,22,32,48.
# KIC_ORACLE overrides the helper binary (default: kic-oracle next to this script).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe-args.sh"
oracle=${KIC_ORACLE:-$here/kic-oracle}
[ -x "$oracle" ] || { echo "probe-count.sh: $oracle not built (make oracle)" >&2; exit 2; }
command -v strace >/dev/null || { echo "probe-count.sh: strace missing" >&2; exit 2; }

. "$here/oracle-env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/kic-probe.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cat > "$work/names"
oracle_run "$tree" "$theme" strace -f -qq -s 65535 \
    -e trace=access,faccessat,faccessat2,stat,lstat,newfstatat,statx,openat \
    -o "$work/trace" "$oracle" --markers --app "$app" --sizes "$sizes" \
    < "$work/names" > "$work/out"
[ -n "$keep" ] && cp "$work/trace" "$keep"

MODE=$mode SYMBOLIC=$symbolic TREE=$tree perl "$here/count-calls.pl" "$work/out" "$work/trace"
