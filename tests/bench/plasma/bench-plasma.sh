#!/bin/sh
# bench-plasma.sh - what a rebuild does for Plasma itself (make bench-plasma)
#
# Plasma 5.27 of Debian 12 (KIC_PLASMA_VERSION=5, the default) or Plasma
# 6.3 of Debian 13 (KIC_PLASMA_VERSION=6), in the root
# tests/bench/plasma/make-root.sh makes (made on the first run, then
# reused), run headless under Xvfb by
# session.sh: plasmashell start-up, the launcher (Kickoff) opened, All
# Applications shown, then scrolled to the end; strace counts the file
# system calls of each phase, on icon paths and in total.  States: before
# (twice: two runs of one state must agree), after "kde-icon-cache --root
# ROOT" (with the configuration file of etc/, as the package installs
# it), after "--clean".  The screenshots of each phase are compared
# pixel for pixel (xwd dumps, byte for byte) with the first run's.
#
# Needs root (chroot, mount).  Environment: KIC_PLASMA_ROOT (the root),
# KIC_BIN, KIC_TEST_TMP, KIC_PLASMA_KEEP=1 (keep the traces and shots),
# KIC_PLASMA_ONE=1 (one session only), KIC_PLASMA_ALL_XY="X Y" (where
# All Applications is).
set -eu
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$TOP/tests/bench/plasma
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
V=${KIC_PLASMA_VERSION:-5}
case $V in
  5) SUITE=bookworm ;;
  6) SUITE=trixie ;;
  *) echo "bench-plasma: KIC_PLASMA_VERSION is 5 or 6, not $V" >&2; exit 2 ;;
esac
ROOT=${KIC_PLASMA_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/$SUITE-plasma}
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
[ "$(id -u)" -eq 0 ] || { echo "bench-plasma: needs root (chroot, mount)" >&2; exit 2; }
# One bench at a time on this machine, whichever shell: every session's
# Xvfb is display :7, and X's abstract socket is shared by all chroots, so
# a second Xvfb fails and its plasmashell draws on the first one's screen
# (seen: the other session's launcher then opened on nothing).
mkdir -p "$(dirname "$ROOT")"
exec 9> "$(dirname "$ROOT")/.bench-plasma.lock"
flock -n 9 || { echo "bench-plasma: another bench-plasma runs; waiting for it" >&2; flock 9; }
# (made on the first run; made again when the package list changed)
KIC_PLASMA_VERSION=$V KIC_PLASMA_ROOT=$ROOT "$HERE/make-root.sh" >&2
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench-plasma.XXXXXX")
MOUNTS=
cleanup () {
  # the processes of the session still running in the root (D-Bus
  # activated services): ours, each ended by its id
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && kill -9 "${p#/proc/}" 2>/dev/null
  done
  for m in $MOUNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  if [ "${KIC_PLASMA_KEEP:-0}" = 1 ]; then echo "bench-plasma: traces and screenshots kept in $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
ROOT=$(cd "$ROOT" && pwd -P)
for m in proc dev dev/pts dev/shm sys; do
  mountpoint -q "$ROOT/$m" && continue
  case $m in
    proc) mount -t proc proc "$ROOT/proc" ;;
    sys) mount -t sysfs sysfs "$ROOT/sys" ;;
    dev/shm) mkdir -p "$ROOT/dev/shm"; mount -t tmpfs tmpfs "$ROOT/dev/shm" ;;
    dev/pts) mkdir -p "$ROOT/dev/pts"; mount -t devpts -o newinstance devpts "$ROOT/dev/pts" ;;
    dev) mount -t tmpfs -o mode=755 tmpfs "$ROOT/dev"
         for d in null zero full random urandom tty; do cp -a "/dev/$d" "$ROOT/dev/$d"; done ;;
  esac
  MOUNTS="$ROOT/$m $MOUNTS"
done
mkdir -p "$ROOT/opt/kic" "$ROOT/tmp/.X11-unix"
chmod 1777 "$ROOT/tmp" "$ROOT/tmp/.X11-unix"
cp "$HERE/session.sh" "$ROOT/opt/kic/session.sh"
chmod 755 "$ROOT/opt/kic/session.sh"

# session LABEL: one measured session; its files in $W/LABEL
session () {
  rm -rf "$ROOT/tmp/kic-out"
  # shellcheck disable=SC2086 # KIC_PLASMA_ALL_XY: two words, X Y
  chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root KIC_PLASMA_VERSION="$V" \
    dbus-run-session -- /opt/kic/session.sh /tmp/kic-out ${KIC_PLASMA_ALL_XY:-} > "$W/$1.log" 2>&1 ||
    { echo "bench-plasma: the $1 session failed:" >&2; tail -n 20 "$W/$1.log" >&2; exit 1; }
  mv "$ROOT/tmp/kic-out" "$W/$1"
  awk -v marks="$(paste -sd' ' "$W/$1/marks")" -f "$HERE/count.awk" "$W/$1/trace" > "$W/$1/counts"
}
# col LABEL PHASE FIELD: a figure of the counts (FIELD 2: icon paths, 3: all)
col () { awk -F '\t' -v p="$2" -v f="$3" '$1 == p { print $f }' "$W/$1/counts"; }
same_shots () { # same_shots A B: every screenshot of A equal to B's
  for s in opened all scrolled; do cmp -s "$W/$1/$s.xwd" "$W/$2/$s.xwd" || { echo "$s differs"; return 0; }; done
  echo "identical"
}

# predict LABEL: the tool's figures (--explain on the root as it is now)
# for the lookups of the first session before the rebuild: predict.py
# (Plasma 6), events5.py (Plasma 5: KIconLoader's lookups and IconItem's
# own search, tests/oracle/FINDINGS.md §m)
predict () {
  if [ "$V" = 5 ]; then python3 "$HERE/events5.py" --predict "$BIN" "$ROOT" "$W/events" > "$W/predicted.$1"
  else python3 "$HERE/predict.py" "$BIN" "$ROOT" "$W/lookups" > "$W/predicted.$1"; fi
}

t0=$(date +%s)
session before
# the lookups Plasma made in it, found by the path of a lookup's first
# probe (call 1 of --explain for a name nothing has)
first=$("$BIN" -q --root "$ROOT" --explain -s 32 kicnosuchname | awk '$2 == "access" { print $3; exit }' | sed 's/kicnosuchname/NAME/')
[ -n "$first" ] || { echo "bench-plasma: --explain shows no first probe" >&2; exit 1; }
# names first, then the lookups again with the model's order of the
# names each one probes FIRST with (its dash cuts, a second breeze pass)
python3 "$HERE/lookups.py" "$first" "$W/before/marks" "$W/before/trace" > "$W/lookups.names"
python3 "$HERE/predict.py" --cuts "$BIN" "$ROOT" "$first" "$W/lookups.names" > "$W/cuts"
python3 "$HERE/lookups.py" "$first" "$W/before/marks" "$W/before/trace" "$W/cuts" > "$W/lookups"
if [ "$V" = 5 ]; then
  # KF5: the trace cut into the model's own call lists (events5.py)
  python3 "$HERE/events5.py" --seqs "$BIN" "$ROOT" "$W/lookups.names" > "$W/seqs.json"
  python3 "$HERE/events5.py" --events "$ROOT" "$first" "$W/before/marks" "$W/before/trace" "$W/seqs.json" > "$W/events"
fi
predict before
if [ "${KIC_PLASMA_ONE:-0}" = 1 ]; then # one session, to try the harness
  cat "$W/before/counts"; exit 0
fi
session before2
# the configuration file the package ships, as dpkg would install it
[ -e "$ROOT/etc/kde-icon-cache.conf" ] && { echo "bench-plasma: $ROOT/etc/kde-icon-cache.conf exists: not ours" >&2; exit 1; }
cp "$TOP/etc/kde-icon-cache.conf" "$ROOT/etc/kde-icon-cache.conf"
# what our model predicts for this root's own menu (every name the plan
# takes, at the menu sizes), to set beside what Plasma does
"$BIN" -q --root "$ROOT" --dry-run --json > "$W/predicted.json"
s=$(date +%s%N)
"$BIN" --root "$ROOT" 2> "$W/rebuild.log"
rebuild_ms=$((($(date +%s%N) - s) / 1000000))
links=$(grep -c '^link' "$ROOT/var/lib/kde-icon-cache/manifest" || true)
predict after
session after
"$BIN" -q --root "$ROOT" --clean
rm "$ROOT/etc/kde-icon-cache.conf"
session clean

if [ "$V" = 6 ]; then shell="Plasma 6.3 of Debian 13"; else shell="Plasma 5.27 of Debian 12"; fi
echo "kde-icon-cache bench-plasma: $shell under Xvfb, fresh home, breeze"
grep -E '^(plasma-workspace|plasma-desktop|libkf5iconthemes5|libkf6iconthemes6|breeze-icon-theme)\s' "$ROOT/.kic-plasma-stamp" | tr '\t' ' ' | paste -sd, | sed 's/,/, /g'
sed -n 's/^# \([0-9]* desktop files.*\)/\1/p; s/^# \(suite .*\)/\1/p' "$ROOT/.kic-plasma-stamp"
echo "rebuild: $(sed -n 's/^kde-icon-cache: //p' "$W/rebuild.log" | head -n 1) ($links links, $rebuild_ms ms)"
echo
echo "file system calls on icon paths (all file calls), strace -f of plasmashell:"
printf '%-44s %16s %16s %8s %16s\n' phase before "after rebuild" ratio "after --clean"
p=1
for phase in "plasmashell start-up" "open the launcher (favourites, categories)" "show All Applications" "scroll All Applications to the end"; do
  b=$(col before $p 2); a=$(col after $p 2); c=$(col clean $p 2)
  printf '%-44s %16s %16s %8s %16s\n' "$phase" "$b ($(col before $p 3))" "$a ($(col after $p 3))" \
    "$(awk -v a="$b" -v b="$a" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')" "$c ($(col clean $p 3))"
  p=$((p + 1))
done
echo
if [ "$V" = 5 ]; then
echo "the tool's prediction beside Plasma's count, calls on icon paths (the first session before cut into"
echo "the lookups --explain lists at 16/22/32/48 px: KIconLoader's, and --icon-item, the .svg/.svgz search of"
echo "breeze alone Plasma 5's IconItem makes first; each priced by --explain on the root as it is (events5.py);"
echo "the calls made outside any lookup, in brackets, added as measured to both states):"
else
echo "the tool's prediction beside Plasma's count, calls on icon paths (--explain for the lookups the first"
echo "session before made, names and numbers from its trace, in pairs at 48 px and the drawn size: 32 for"
echo "an application's icon, 16 for search, 22 for the rest (predict.py); the calls it made outside any"
echo "lookup, in brackets, added as measured to both states):"
fi
printf '%-44s %7s %16s %7s %7s %16s %7s\n' phase before predicted error after predicted error
p=1
for phase in "plasmashell start-up" "open the launcher (favourites, categories)" "show All Applications" "scroll All Applications to the end"; do
  b=$(col before $p 2); a=$(col after $p 2)
  pb=$(awk -F '\t' -v p=$p '$1 == p { print $2 + $3 }' "$W/predicted.before")
  pa=$(awk -F '\t' -v p=$p '$1 == p { print $2 + $3 }' "$W/predicted.after")
  o=$(awk -F '\t' -v p=$p '$1 == p { print $3 }' "$W/predicted.before")
  printf '%-44s %7s %16s %7s %7s %16s %7s\n' "$phase" "$b" "$pb ($o)" \
    "$(awk -v m="$b" -v p="$pb" 'BEGIN { if (m > 0) printf "%+.1f%%", 100 * (p - m) / m; else print "-" }')" \
    "$a" "$pa ($o)" "$(awk -v m="$a" -v p="$pa" 'BEGIN { if (m > 0) printf "%+.1f%%", 100 * (p - m) / m; else print "-" }')"
  p=$((p + 1))
done
if [ "$V" = 5 ]; then
  echo "lookups in the first session before: $(awk -F '\t' '$3 == "full" || $3 == "item" { n[$1] += $5 } END { for (k = 1; k <= 4; k++) printf "%s%d", (k > 1 ? "/" : ""), n[k] }' "$W/events")" \
    "(IconItem's: $(awk -F '\t' '$3 == "item" { n[$1] += $5 } END { for (k = 1; k <= 4; k++) printf "%s%d", (k > 1 ? "/" : ""), n[k] }' "$W/events"))" \
    "of $(awk -F '\t' '$3 == "full" || $3 == "item"' "$W/events" | cut -f2 | sort -u | wc -l) names;" \
    "probes of a lookup's first file no list of the model repeats: $(cut -f4 "$W/predicted.before" | paste -sd/)"
else
echo "lookups in the first session before: $(awk -F '\t' '$2 != "-" { n[$1] += $3 } END { for (k = 1; k <= 4; k++) printf "%s%d", (k > 1 ? "/" : ""), n[k] }' "$W/lookups")" \
  "of $(awk -F '\t' '$2 != "-"' "$W/lookups" | cut -f2 | sort -u | wc -l) names; names --explain could not tell: $(cut -f4 "$W/predicted.before" | paste -sd/)"
fi
echo
echo "kde-icon-cache's prediction for this menu (--dry-run --json, every name the plan takes, summed):"
python3 - "$W/predicted.json" <<'PY'
import json, sys
sums = {}
for n in json.load(open(sys.argv[1]))["names"]:
    for s in n["sizes"]:
        b, a = sums.get(s["size"], (0, 0))
        sums[s["size"]] = (b + s["calls_before"], a + s["calls_after"])
print("  " + ", ".join("%d px %d -> %d (%.2fx)" % (k, b, a, b / a if a else 0) for k, (b, a) in sorted(sums.items())))
PY
echo
echo "two runs before the rebuild, calls on icon paths: $(cut -f2 "$W/before/counts" | paste -sd/) and $(cut -f2 "$W/before2/counts" | paste -sd/)"
echo "screenshots (launcher open, All Applications, scrolled): before vs before again: $(same_shots before before2);" \
  "before vs after rebuild: $(same_shots before after); before vs after --clean: $(same_shots before clean)"
echo "after --clean equal to before, phase by phase: $(paste "$W/before/counts" "$W/clean/counts" |
  awk -F '\t' '{ printf "%s%s", (NR > 1 ? ", " : ""), ($2 == $5 ? "yes" : "no (" $5 - $2 " calls)") }')"
echo "($(($(date +%s) - t0)) s)"
