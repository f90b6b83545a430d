#!/bin/sh
# bench-nfs.sh - who gains from a rebuild, in round trips and seconds, per
# way a Debian KDE client reaches its icons (make bench-nfs)
#
# KF5 itself (the helper tests/oracle/kic-oracle, one process) resolves
# every relative Icon= of the realistic tree's menu at 48 px, before and
# after `kde-icon-cache --rebuild` in a writable view of the tree, and each
# setup counts what that costs it:
#
#   /usr on NFS          strace of the process, replayed by nfs-model.py as
#                        an NFS client without a negative-lookup cache
#                        (today's worst case) and with the Linux client's
#                        (lookupcache=all, revalidated with the directory's
#                        attributes after KIC_NFS_ACDIRMIN, default 30 s);
#                        this machine has no NFS client, so the model is
#                        checked against the kernel's own caching through
#                        FUSE (slowfs.c) with the same rules
#   squashfs image       the tree made into a squashfs image (mksquashfs),
#                        mounted by the kernel through a loop device whose
#                        file is on a FUSE mount that logs every read: the
#                        requests a block server (NBD) answers, the READs
#                        of a file server (NFS, with the client's page
#                        cache), and the distinct 4 KiB blocks of the
#                        image's metadata (inode, directory, fragment, id
#                        tables) and data
#   home on NFS          the home's paths of the same process, model with
#                        the negative cache, without and with
#                        ~/.local/share/icons/hicolor/48x48/apps
#   local disk           the process's CPU time, median of 5, its start-up
#                        (an empty name list) taken off
#
# Seconds are round trips times 2, 5 and 20 ms, what the client waits on
# the network (one request at a time, as one process's lookups are).
# Then what no rebuild shortens yet (issue 42 item 3): the calls before the
# first lookup, and the names Plasma asks for that no menu file names.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
ORACLE=$TOP/tests/oracle/kic-oracle
SLOWFS=${KIC_SLOWFS:-$TOP/build/slowfs}
ACDIRMIN=${KIC_NFS_ACDIRMIN:-30}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
MODEL=$TOP/tests/bench/nfs-model.py
SIZE=48
fail () { echo "bench-nfs: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (overlay, loop and FUSE mounts)"
[ -c /dev/fuse ] || fail "/dev/fuse is missing"
[ -x "$SLOWFS" ] || fail "$SLOWFS not built (libfuse3-dev)"
[ -x "$ORACLE" ] || fail "$ORACLE not built (libkf5iconthemes-dev)"
command -v mksquashfs > /dev/null || fail "mksquashfs missing (squashfs-tools)"
grep -qw squashfs /proc/filesystems || modprobe squashfs 2> /dev/null || fail "the kernel has no squashfs"
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench-nfs.XXXXXX")
W=$(cd "$W" && pwd -P)
LOOP=
cleanup () {
  for m in "$W/sq" "$W/fuse"; do mountpoint -q "$m" 2> /dev/null && { umount "$m" 2> /dev/null || umount -l "$m"; }; done
  [ -z "$LOOP" ] || losetup -d "$LOOP" 2> /dev/null || true
  for m in "$W/fimg" "$W/view"; do mountpoint -q "$m" 2> /dev/null && { umount "$m" 2> /dev/null || umount -l "$m"; }; done
  rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
. "$TOP/tests/oracle/oracle-env.sh"

T=${KIC_TREE:-$TMP_TOP/realistic}
"$TOP/tests/oracle/make-tree.sh" "${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}" "$T" >&2
T=$(cd "$T" && pwd -P)
find "$T/usr/share/applications" -name '*.desktop' | xargs sed -n 's/^Icon[ ]*=[ ]*//p' | grep -av '^/' | sort -u > "$W/names"
n=$(wc -l < "$W/names")
[ "$n" -gt 0 ] || fail "no menu name in $T"
# The names Plasma asks at every login that no menu file names (Kickoff's
# own and its categories', the panel's; tests/oracle/FINDINGS.md h and j)
printf '%s\n' applications-all search applications-all-symbolic applications-development-symbolic \
  applications-utilities-symbolic user window-pin edit-clear-locationbar-rtl system-log-out bookmarks compass \
  start-here-kde > "$W/plasma-names"

mkdir -p "$W/upper" "$W/work" "$W/view"
mount -t overlay overlay -o "lowerdir=$T,upperdir=$W/upper,workdir=$W/work" "$W/view"
V=$W/view
# the configuration the package installs (ExtraNames=, Sizes=), as a
# client has it
mkdir -p "$V/etc"
cp "$TOP/etc/kde-icon-cache.conf" "$V/etc/kde-icon-cache.conf"

# trace STATE HOME NAMES: strace of KF5 resolving NAMES in the view, the
# data home $W/home-HOME/.local/share (its temporary home and config
# beside it); the trace in $W/STATE-HOME[-NAMES].trace
trace () {
  h=$W/home-$2
  mkdir -p "$h/.local/share" "$h/tmp"
  [ "$2" = plain ] || mkdir -p "$h/.local/share/icons/hicolor/48x48/apps"
  TMPDIR=$h/tmp ORACLE_DATA_HOME=$h/.local/share oracle_run "$V" breeze strace -f -qq -ttt -y -s 4096 \
    -e trace=%file,getdents64,read -o "$W/$1-$2$3.trace" "$ORACLE" --markers --sizes "$SIZE" < "$4" > "$W/$1-$2$3.out"
  # the home's paths: the data home and the helper's temporary HOME,
  # XDG_CONFIG_HOME and XDG_CACHE_HOME (its runtime directory is no home's)
  r=$(grep -o "$h/tmp/kic-oracle\.[A-Za-z0-9]*" "$W/$1-$2$3.trace" | head -n 1)
  [ -n "$r" ] || fail "$1-$2: the helper's home is not in its trace"
  echo "$h/.local $r/home $r/config $r/cache" > "$W/$1-$2$3.homes"
}
# model FILE PREFIX...: the model's lines for a trace
model () { f=$1; shift; python3 "$MODEL" --split --acdirmin "$ACDIRMIN" --rtt 2,5,20 "$f" "$@"; }

# kernel STATE MODE: ops a FUSE mount of the view served to the same
# process, the kernel caching as the model's client does (MODE nocache:
# no negative entry, no attribute; cache: both for ACDIRMIN seconds)
kernel () {
  case $2 in
    # (known directories stay known, as in the model, however long the
    # pass takes on a loaded machine)
    nocache) o="negative_timeout=0,attr_timeout=0,entry_timeout=86400" ;;
    cache) o="negative_timeout=$ACDIRMIN,attr_timeout=$ACDIRMIN,entry_timeout=$ACDIRMIN" ;;
  esac
  mkdir -p "$W/fuse"
  rm -f "$W/fuse-stats"
  # in the foreground, so that its end (when it writes the count) can be
  # waited for
  "$SLOWFS" -f -o "delay_us=0,stats=$W/fuse-stats,$o" "$V" "$W/fuse" &
  fpid=$!
  i=0
  until mountpoint -q "$W/fuse"; do
    i=$((i + 1)); [ $i -lt 100 ] || fail "slowfs did not mount $W/fuse"; sleep 0.1
  done
  oracle_run "$W/fuse" breeze "$ORACLE" --sizes "$SIZE" < "$W/names" > "$W/$1-fuse-$2.out"
  umount "$W/fuse"
  wait "$fpid" || fail "slowfs on $W/fuse failed"
  cat "$W/fuse-stats"
  # the mount's answers are the view's
  sed "s|$W/fuse/|/|" "$W/$1-fuse-$2.out" > "$W/fuse.found"
  sed "s|$V/|/|" "$W/$1-plain.out" | cmp -s - "$W/fuse.found" ||
    fail "$1: KF5 through the FUSE mount found other files than in the view"
}

# squash STATE NAMES: the view as a squashfs image, looped from a FUSE
# mount that logs the reads, mounted fresh (cold) for KF5 resolving NAMES.
# The FUSE file passes each read through as the loop device asks it (no
# page cache between): squashfs reads its metadata blocks with its own
# requests, past any page cache, so these are the requests a block
# device (NBD) serves.  An image served as a file (NFS) has the client's
# page cache under it: one READ per distinct 128 KiB of the image touched
# (the readahead window).  Prints "requests KiB metadata_blocks
# data_blocks chunks": the blocks distinct 4 KiB ones, by the table the
# superblock says they are in
squash () {
  mkdir -p "$W/img" "$W/fimg" "$W/sq"
  [ -f "$W/img/$1.sqfs" ] || mksquashfs "$V" "$W/img/$1.sqfs" -noappend -quiet -no-progress > /dev/null
  : > "$W/reads"
  "$SLOWFS" -o "delay_us=0,readlog=$W/reads,direct_io" "$W/img" "$W/fimg"
  LOOP=$(losetup -f --show -r "$W/fimg/$1.sqfs")
  mount -t squashfs -o ro "$LOOP" "$W/sq"
  oracle_run "$W/sq" breeze "$ORACLE" --sizes "$SIZE" < "$2" > "$W/$1-sq.out"
  umount "$W/sq"; losetup -d "$LOOP"; LOOP=
  # the loop device lets its file go once the kernel has released it
  i=0
  until umount "$W/fimg" 2> /dev/null; do
    i=$((i + 1)); [ $i -lt 100 ] || fail "$W/fimg stays busy after its loop device is gone"; sleep 0.1
  done
  python3 - "$W/img/$1.sqfs" "$W/reads" <<'PY'
import struct, sys
sb = open(sys.argv[1], "rb").read(96)
inode_table = struct.unpack_from("<Q", sb, 64)[0]
meta, data, chunks, n, size = set(), set(), set(), 0, 0
for line in open(sys.argv[2]):
    off, length = map(int, line.split())
    n += 1
    size += length
    for b in range(off // 4096, (off + length - 1) // 4096 + 1):
        (meta if b == 0 or b * 4096 + 4095 >= inode_table else data).add(b)
        chunks.add(b // 32)
print(n, size // 1024, len(meta), len(data), len(chunks))
PY
}

# cpu NAMES: KF5's CPU time (user + system, ms) resolving NAMES in the
# view, median of 5
cpu () {
  for i in 1 2 3 4 5; do
    oracle_run "$V" breeze python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdin=sys.stdin, stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(round((r.ru_utime + r.ru_stime) * 1000))' "$ORACLE" --sizes "$SIZE" < "$1"
  done | sort -n | sed -n 3p
}

: > "$W/empty"
measure () { # measure STATE
  trace "$1" plain "" "$W/names"
  trace "$1" icons "" "$W/names"
  trace "$1" plain -plasma "$W/plasma-names"
  trace "$1" icons -plasma "$W/plasma-names"
  model "$W/$1-plain.trace" "$V" > "$W/$1.usr"
  model "$W/$1-plain.trace" $(cat "$W/$1-plain.homes") > "$W/$1.home-plain"
  model "$W/$1-icons.trace" $(cat "$W/$1-icons.homes") > "$W/$1.home-icons"
  model "$W/$1-plain-plasma.trace" "$V" > "$W/$1.plasma-usr"
  model "$W/$1-icons-plasma.trace" $(cat "$W/$1-icons-plasma.homes") > "$W/$1.plasma-home"
  kernel "$1" nocache > "$W/$1.kernel-nocache"
  kernel "$1" cache > "$W/$1.kernel-cache"
  squash "$1" "$W/names" > "$W/$1.sq"
  squash "$1" "$W/empty" > "$W/$1.sq-start"
  squash "$1" "$W/plasma-names" > "$W/$1.sq-plasma"
  cpu "$W/names" > "$W/$1.cpu"
  cpu "$W/empty" > "$W/$1.cpu-start"
  grep -c "\"$V/" "$W/$1-plain.trace" > "$W/$1.calls" || true
  # what KF5 loads for each name: the bytes of the file it found
  while IFS="$(printf '\t')" read -r name size path; do
    case $path in -) echo "$name -" ;; *) echo "$name $(sha256sum < "$path" | cut -c1-16)" ;; esac
  done < "$W/$1-plain.out" > "$W/$1.found"
}
measure before
s=$(date +%s%N)
"$BIN" -q --root "$V" --theme breeze
rebuild_ms=$((($(date +%s%N) - s) / 1000000))
links=$(grep -c '^link' "$V/var/lib/kde-icon-cache/manifest")
measure after

# ---- the table ------------------------------------------------------------
# get FILE PART CLIENT RTT FIELD: one figure of a model file (field 4: round
# trips, 5: seconds, 6: distinct paths, 7: LOOKUP+GETATTR)
get () { awk -v p="$2" -v c="$3" -v r="$4" -v f="$5" '$1 == p && $2 == c && $3 == r { print $f; found = 1 }
  END { if (!found) exit 1 }' "$1" || fail "$1: no line $2 $3 $4"; }
ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2fx\n", a / b }'; }
secs () { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { printf "%.1f -> %.1f\n", a * r / 1000, b * r / 1000 }'; }
row () { # row LABEL UNIT BEFORE AFTER [NOTE | B2 A2 B5 A5 B20 A20]
  if [ $# -gt 5 ]; then
    printf '%-52s %-14s %8s %8s %7s  %-15s %-15s %s\n' "$1" "$2" "$3" "$4" "$(ratio "$3" "$4")" \
      "$(secs "$5" "$6" 2)" "$(secs "$7" "$8" 5)" "$(secs "$9" "${10}" 20)"
  else
    printf '%-52s %-14s %8s %8s %7s  %s\n' "$1" "$2" "$3" "$4" "$(ratio "$3" "$4")" "${5:-}"
  fi
  rows=$((rows + 1))
}
# modelrow LABEL SUFFIX PART CLIENT: a row of the model's round trips
modelrow () {
  set -- "$1" "$2" "$3" "$4" "$(get "$W/before.$2" "$3" "$4" 2 4)" "$(get "$W/after.$2" "$3" "$4" 2 4)"
  row "$1" "round trips" "$5" "$6" \
    "$5" "$6" "$(get "$W/before.$2" "$3" "$4" 5 4)" "$(get "$W/after.$2" "$3" "$4" 5 4)" \
    "$(get "$W/before.$2" "$3" "$4" 20 4)" "$(get "$W/after.$2" "$3" "$4" 20 4)"
}
sqrow () { # sqrow LABEL SUFFIX: the squashfs image served as a block device, then as a file
  read -r bq bk bm bd bc < "$W/before.$2"; read -r aq ak am ad ac < "$W/after.$2"
  row "$1 as a block device (NBD)" "read requests" "$bq" "$aq" "$bq" "$aq" "$bq" "$aq" "$bq" "$aq"
  row "$1 as a file (NFS, page cache)" "READs" "$bc" "$ac" "$bc" "$ac" "$bc" "$ac" "$bc" "$ac"
  printf '%-52s %-14s %8s %8s %7s  %s\n' "  distinct 4 KiB blocks: metadata" "blocks" "$bm" "$am" "$(ratio "$bm" "$am")" ""
  printf '%-52s %-14s %8s %8s %7s  %s\n' "  distinct 4 KiB blocks: data" "blocks" "$bd" "$ad" "$(ratio "$bd" "$ad")" "(KiB read: $bk -> $ak)"
}

# a setup that saw nothing would print a comparison of nothing
[ "$(get "$W/before.usr" all cache 2 4)" -gt 0 ] || fail "no round trip on /usr: the trace missed the tree"
[ "$(get "$W/before.home-icons" all cache 2 4)" -gt 0 ] || fail "no round trip in the home: the trace missed it"
[ "$(cut -d' ' -f1 "$W/before.sq")" -gt 0 ] || fail "no read of the squashfs image: the FUSE log missed it"
cmp -s "$W/before.found" "$W/after.found" || fail "KF5 loads other bytes after the rebuild (the first promise)"
rows=0
echo "bench-nfs: who gains, per setup: KF5 (one process) resolving the realistic tree's $n menu names at $SIZE px, breeze current,"
echo "before and after kde-icon-cache --rebuild ($links links, $rebuild_ms ms); seconds: what the client waits on the network"
echo "at 2, 5 and 20 ms per round trip (model only for NFS; NFS acdirmin $ACDIRMIN s)"
printf '%-52s %-14s %8s %8s %7s  %-15s %-15s %s\n' "setup" "unit" "before" "after" "ratio" "s at 2 ms" "s at 5 ms" "s at 20 ms"
modelrow "/usr on NFS, no negative cache (worst case)" usr all nocache
modelrow "/usr on NFS, negative cache (lookupcache=all)" usr all cache
sqrow "squashfs image" sq
modelrow "home on NFS, no ~/.local/share/icons" home-plain all cache
modelrow "home on NFS, ~/.local/share/icons/hicolor/48x48/apps" home-icons all cache
bc=$(($(cat "$W/before.cpu") - $(cat "$W/before.cpu-start"))) ac=$(($(cat "$W/after.cpu") - $(cat "$W/after.cpu-start")))
row "local disk (CPU time of the lookups, median of 5)" "CPU ms" "$bc" "$ac" "(start-up $(cat "$W/before.cpu-start") ms apart)"
echo "KF5's file calls on the tree: $(cat "$W/before.calls") before, $(cat "$W/after.calls") after; distinct paths on /usr:" \
  "$(get "$W/before.usr" all cache 2 6) before, $(get "$W/after.usr" all cache 2 6) after"
echo "the same bytes loaded for every name before and after: yes ($(grep -vc ' -$' "$W/after.found") names found, $(grep -c ' -$' "$W/after.found") not)"

# the model against the kernel: LOOKUP+GETATTR the FUSE mount served
echo
echo "the NFS model against the kernel's own caching (a FUSE mount of the view, same rules, no delay): LOOKUP+GETATTR"
for st in before after; do
  for c in nocache cache; do
    k=$(cat "$W/$st.kernel-$c") m=$(get "$W/$st.usr" all "$c" 2 7)
    printf '  %-7s %-8s kernel %7s  model %7s  (%s)\n' "$st" "$c" "$k" "$m" \
      "$(awk -v k="$k" -v m="$m" 'BEGIN { printf "%+.1f%%", 100 * (m - k) / k }')"
  done
done

# ---- what no rebuild shortens yet (issue 42 item 3) -------------------------
echo
echo "what the rebuild does not shorten yet: the calls before KF5's first icon probe (the themes built: their"
echo "directories, index.theme, mime/generic-icons), the start-up with the helper's own first lookup (a name no theme has,"
echo "as a process's first lookup often is), and the names Plasma asks at every login that no menu file names"
echo "($(wc -l < "$W/plasma-names") names at $SIZE px; the shipped ExtraNames= plans two of them)"
printf '%-52s %-14s %8s %8s %7s  %-15s %-15s %s\n' "" "unit" "before" "after" "ratio" "s at 2 ms" "s at 5 ms" "s at 20 ms"
modelrow "themes built: /usr on NFS, negative cache" usr themes cache
modelrow "themes built: home on NFS, no ~/.local/share/icons" home-plain themes cache
modelrow "themes built: home on NFS, ~/.local/share/icons/..." home-icons themes cache
modelrow "start-up (and a first lookup): /usr on NFS, cache" usr startup cache
sqrow "start-up: squashfs" sq-start
modelrow "Plasma's names: /usr on NFS, negative cache" plasma-usr lookups cache
modelrow "Plasma's names: home on NFS, ~/.local/share/icons/..." plasma-home lookups cache
sqrow "Plasma's names (with start-up): squashfs" sq-plasma
echo "menu lookups alone, home on NFS with ~/.local/share/icons/...: $(get "$W/before.home-icons" lookups cache 2 4) round trips before," \
  "$(get "$W/after.home-icons" lookups cache 2 4) after; distinct home paths $(get "$W/before.home-icons" lookups cache 2 6) before," \
  "$(get "$W/after.home-icons" lookups cache 2 6) after"
[ "$rows" -ge 17 ] || fail "only $rows rows printed"
