#!/bin/sh
# self-strace.sh - kde-icon-cache itself never probes per candidate
#
# Under strace on the realistic tree: each directory is opened at most
# once, there is no access() storm and no stat() per candidate, and the
# total number of system calls does not grow with the number of names.
# A full rebuild opens (and so reads and hashes) every icon file at most
# once: the planner's comparisons and the writer's copies share one read
# (content.h).
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip_all "needs strace"

plan 12
# LeakSanitizer cannot run under ptrace: in the sanitizer build, leave leak
# checks to the other tests
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }

strace -f -qq -o "$WORK/list.trace" "$BIN" -q --root "$T" --list > "$WORK/list"
ok $? "--list under strace exits 0"
lookups=$(wc -l < "$WORK/list")
kde_calls=$(awk -F '\t' '{ s += $5 } END { print s }' "$WORK/list")
# files are opened with openat2 from the root (safeopen.c), or openat
opens='openat2\?(.*O_DIRECTORY'
dirs=$(grep -c "$opens" "$WORK/list.trace")
[ "$dirs" -gt 0 ] || echo "# no directory opens seen: the trace patterns are out of date"
dup=$(grep "$opens" "$WORK/list.trace" | sed 's/.*openat2\?([^,]*, "\([^"]*\)".*/\1/' | sort | uniq -d | wc -l)
[ "$dirs" -gt 0 ] && [ "$dup" -eq 0 ]
ok $? "--list opens no directory twice ($dirs directories for $lookups lookups)"
# the dynamic loader's /etc/ld.so.preload and libselinux's constructor
# (linked through json-glib's GIO: /etc/selinux/config) are not ours
access=$(grep '^[0-9]* *access(' "$WORK/list.trace" | grep -vc '"/etc/ld.so.preload"\|"/etc/selinux/config"')
[ "$access" -eq 0 ]
ok $? "--list makes no access() calls of its own ($access besides the loader's and libselinux's)"
stats=$(grep -cE '^[0-9]* *(stat|lstat|newfstatat|statx)\(' "$WORK/list.trace")
files=$(grep -c 'openat2\?(.*O_RDONLY' "$WORK/list.trace")
# (and one more per directory read: --list keeps no stamp, whose fstat
# says who may search it, so the listing's descriptor is asked: fsindex.h)
[ "$stats" -le $((files + dirs + 20)) ]
ok $? "stat calls ($stats) stay within one per file or directory opened ($files), and one per directory read ($dirs)"
total=$(wc -l < "$WORK/list.trace")
[ "$total" -lt $((kde_calls / 20)) ]
ok $? "--list: $total system calls, against KDE's $kde_calls for the same lookups"

"$TOP/tests/oracle/names.sh" "$T" > "$WORK/names" 2>/dev/null || icon_names "$T" > "$WORK/names"
printf 'kic-missing-%s\n' 1 2 3 4 5 > "$WORK/few"
strace -f -qq -o "$WORK/few.trace" "$BIN" -q --root "$T" --resolve < "$WORK/few" > /dev/null
strace -f -qq -o "$WORK/many.trace" "$BIN" -q --root "$T" --resolve < "$WORK/names" > /dev/null
# A symbolic link is read once, when a lookup first meets it (KDE treats a
# dangling link as a miss); everything else is per directory.
fs_calls='^[0-9]* *(open|openat|openat2|getdents64|stat|lstat|newfstatat|statx|access|faccessat|faccessat2)\('
# (a link is read with readlinkat in its directory, opened with O_PATH
# once for the links there: not a read of the directory)
few=$(grep -E "$fs_calls" "$WORK/few.trace" | grep -vc O_PATH)
many=$(grep -E "$fs_calls" "$WORK/many.trace" | grep -vc O_PATH)
links=$(grep -Ec '^[0-9]* *readlink(at)?\(' "$WORK/many.trace")
n=$(wc -l < "$WORK/names")
diag "file system calls (link reads aside): 5 names $few, $n names $many; $links links read"
# (more names walk through more of the tree's directories, each asked
# once whether every user may search it, SECURITY.md rows 1 and 2: a
# few dozen calls on this tree, bounded by its directories; a call per
# name or per candidate would be hundreds or thousands)
[ "$many" -le $((few + few / 20)) ]
ok $? "the total does not grow with the number of names"
dup=$(grep "$opens" "$WORK/many.trace" | sed 's/.*openat2\?([^,]*, "\([^"]*\)".*/\1/' | sort | uniq -d | wc -l)
is "$dup" 0 "--resolve of every name opens no directory twice"
[ "$links" -le "$n" ]
ok $? "links read ($links) stay below one per name looked up ($n)"

# every icon file a full rebuild reads, opened once (O_PATH opens only read
# a link): in a fresh view, then once more in the same view after an input
# changed, with the store copies in place
# (strace -y: the path each descriptor opened for reading is, whether it
# was opened by name or reopened from an O_PATH one through /proc, as
# source.c does; the store's own copies aside)
icon_opens () { # icon_opens TRACE: "COUNT PATH" per icon file opened for reading, PATH from the root
  grep -E '^[0-9]* *openat2?\(' "$1" | grep -v O_PATH |
    sed -n 's/.*= [0-9]*<\(.*\.\(png\|svg\|svgz\|xpm\)\)>$/\1/p' | grep -v '/var/lib/kde-icon-cache/' |
    sed "s|^$VIEW/||" | sort | uniq -c
}
writable_view "$T" "$WORK/rb"
trap "umount '$VIEW' 2>/dev/null; rm -rf '$WORK'" EXIT
strace -f -qq -y -e trace=openat,openat2 -o "$WORK/rebuild.trace" "$BIN" -q --root "$VIEW" --theme breeze
icon_opens "$WORK/rebuild.trace" > "$WORK/opens"
files=$(wc -l < "$WORK/opens")
links=$(grep -c '^link' "$VIEW/var/lib/kde-icon-cache/manifest")
twice=$(awk '$1 > 1' "$WORK/opens" | wc -l)
diag "a full rebuild: $files icon files opened, $links links planted; opened more than once: $twice"
awk '$1 > 1' "$WORK/opens" | head -n 3 | sed 's/^/# /'
[ "$files" -gt 0 ] && [ "$links" -gt 0 ] && [ "$twice" -eq 0 ]
ok $? "a full rebuild opens every icon file it reads once ($files files, $links links)"
# a run with no change stops at the fingerprint: the store's state (most of
# a megabyte on a large tree) is read only when some input changed
strace -f -qq -y -e trace=openat,openat2 -o "$WORK/noop.trace" "$BIN" -v --root "$VIEW" --theme breeze 2> "$WORK/noop.err"
fp_opens=$(grep -c 'kde-icon-cache/fingerprint"' "$WORK/noop.trace")
state_opens=$(grep -c 'kde-icon-cache/state"' "$WORK/noop.trace")
grep -q 'nothing to do' "$WORK/noop.err" && [ "$fp_opens" -gt 0 ] && [ "$state_opens" -eq 0 ]
ok $? "a run with no change reads the fingerprint ($fp_opens opens), not the state ($state_opens)"
touch "$VIEW/usr/share/applications"
# (--full: a rebuild that keeps the last plan reads no icon file at all)
strace -f -qq -y -e trace=openat,openat2 -o "$WORK/again.trace" "$BIN" -q --full --root "$VIEW" --theme breeze
icon_opens "$WORK/again.trace" > "$WORK/opens-again"
again=$(wc -l < "$WORK/opens-again")
twice=$(awk '$1 > 1' "$WORK/opens-again" | wc -l)
[ "$again" -gt 0 ] && [ "$twice" -eq 0 ]
ok $? "a rebuild over its own store opens every icon file it reads once ($again files)"
# the sources of the copies are among them: each copied from that one read
grep '^file' "$VIEW/var/lib/kde-icon-cache/manifest" | cut -f3 | sed 's|^/||' | sort -u > "$WORK/sources"
missing=$(awk '{ print $2 }' "$WORK/opens" | sort -u | comm -13 - "$WORK/sources" | wc -l)
[ -s "$WORK/sources" ] && [ "$missing" -eq 0 ]
ok $? "every store copy's source is one of the files read once ($missing not)"
finish
