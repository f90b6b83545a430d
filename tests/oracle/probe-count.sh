#!/bin/sh
# probe-count.sh [--calls] [--symbolic] [--app NAME] [--trace FILE] [--icon-item] TREE THEME SIZES < names
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
# --icon-item count what Plasma 5's IconItem asks (NAME.svg, NAME.svgz of the
#             current theme alone, kic-oracle --icon-item) instead.
# SIZES: comma-separated pixel sizes, e.g. 16,22,32,48.
# KIC_ORACLE overrides the helper binary (default: kic-oracle next to this script).
#
# The counter: the counts come from the kernel's syscall entry tracepoints
# through bpftrace (count-calls.bt) when that works here (root, bpftrace,
# tracefs), else from strace (count-calls.pl); both apply the same rules and
# give the same lines (tests/integration/probe-model.sh compares them on
# every run).  bpftrace is about twenty times faster: strace stops the
# helper twice per call.  --calls and --trace need each call's path: strace.
# KIC_COUNTER=strace or =bpf forces one (bpf: exit 2 when it cannot run).
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

counter=${KIC_COUNTER:-auto}
case $counter in auto|bpf|strace) ;; *) echo "probe-count.sh: KIC_COUNTER must be auto, bpf or strace" >&2; exit 2 ;; esac
[ "$mode" = count ] && [ -z "$keep" ] || counter=strace

# in_kernel_counts: the count lines by count-calls.bt; fails (saying why
# in $work/bpf.err) when bpftrace cannot run here
in_kernel_counts () {
    [ "$(id -u)" -eq 0 ] && command -v bpftrace > /dev/null || { echo "needs root and bpftrace" > "$work/bpf.err"; return 1; }
    # bpftrace reads the tracepoints' formats from tracefs
    [ -d /sys/kernel/tracing/events/syscalls ] ||
        mount -t tracefs tracefs /sys/kernel/tracing 2> /dev/null || true
    # bpftrace -c splits its command at spaces: the helper's arguments go
    # by the environment
    printf '. "$PC_HERE/oracle-env.sh"\noracle_run "$PC_TREE" "$PC_THEME" "$PC_ORACLE" --markers $PC_ITEM --app "$PC_APP" --sizes "$PC_SIZES" < "$PC_WORK/names" > "$PC_WORK/out"\n' > "$work/run"
    PC_ITEM=$icon_item PC_HERE=$here PC_TREE=$tree PC_THEME=$theme PC_ORACLE=$oracle PC_APP=$app PC_SIZES=$sizes PC_WORK=$work \
        bpftrace -q -o "$work/counts" -c "/bin/sh $work/run" "$here/count-calls.bt" > /dev/null 2> "$work/bpf.err" || return 1
    # every lookup had its window, and the end marker was seen
    awk -v n="$(wc -l < "$work/out")" '$1 == "windows" { ok = $2 == n && $4 == 1 } END { exit !ok }' "$work/counts" ||
        { echo "$(wc -l < "$work/out") lookups, but: $(grep -v '^@' "$work/counts" | tr '\n' ' ')" >> "$work/bpf.err"; return 1; }
    # (a window without a counted call has no @n line: 0)
    sed -n 's/^@n\[\([0-9]*\)\]: \([0-9]*\)$/\1 \2/p' "$work/counts" > "$work/windows"
    awk -F '\t' 'FILENAME == ARGV[1] { split($0, f, " "); n[f[1]] = f[2]; next }
        { w = FNR - 1; print $1 "\t" $2 "\t" ((w in n) ? n[w] : 0) "\t" $3 }' "$work/windows" "$work/out"
}
if [ "$counter" != strace ]; then
    if in_kernel_counts; then exit 0; fi
    why=$(grep -v RLIMIT_MEMLOCK "$work/bpf.err" | grep . | head -n 3)
    if [ "$counter" = bpf ]; then
        echo "probe-count.sh: bpftrace cannot count here: $why" >&2
        exit 2
    fi
    echo "probe-count.sh: note: counting with strace (bpftrace: $why)" >&2
fi

oracle_run "$tree" "$theme" strace -f -qq -s 65535 \
    -e trace=access,faccessat,faccessat2,stat,lstat,newfstatat,statx,openat \
    -o "$work/trace" "$oracle" --markers $icon_item --app "$app" --sizes "$sizes" \
    < "$work/names" > "$work/out"
[ -n "$keep" ] && cp "$work/trace" "$keep"

MODE=$mode SYMBOLIC=$symbolic TREE=$tree perl "$here/count-calls.pl" "$work/out" "$work/trace"
