#!/bin/sh
# bench.sh - kde-icon-cache against KDE itself on the realistic tree
#
# The same lookups both ways: every relative Icon= of the menu at 16, 22,
# 32 and 48 px, breeze current.  The rebuild's gain and floor are the
# default promise's; then the same with UnthemedLinks=true beside them.  For each side: wall time (median of 5
# runs) and file system calls (strace).  KDE's side is the KF5 helper
# (tests/oracle/kic-oracle), which builds its loader once and then looks
# the names up as plasmashell would; its calls are counted per lookup
# between markers, so its start-up is not charged to it.  Ours is one
# `kde-icon-cache --list`, start-up, scan and all.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
ORACLE=$TOP/tests/oracle/kic-oracle
TMP_TOP=${KIC_TEST_TMP:-$TOP/tests/tmp}
mkdir -p "$TMP_TOP"
W=$(mktemp -d "$TMP_TOP/bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
. "$TOP/tests/oracle/oracle-env.sh"

T=${KIC_TREE:-$TMP_TOP/realistic}
"$TOP/tests/oracle/make-tree.sh" "${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}" "$T" >&2
T=$(cd "$T" && pwd)
[ -x "$ORACLE" ] || { echo "bench: $ORACLE not built (make needs libkf5iconthemes-dev)" >&2; exit 1; }

# the names are the tool's own (tests/bench/names.sh)
. "$TOP/tests/bench/names.sh"
tool_names "$BIN" "$T" "$W" --theme breeze

# median wall time in ms of a command, 5 runs
median_ms () {
  for i in 1 2 3 4 5; do
    s=$(date +%s%N); "$@" > /dev/null 2>&1; e=$(date +%s%N)
    echo $(((e - s) / 1000000))
  done | sort -n | sed -n 3p
}
fs_calls='(open|openat|openat2|getdents64|stat|lstat|newfstatat|statx|access|faccessat|faccessat2|readlink|readlinkat)\('

ours_ms=$(median_ms "$BIN" -q --root "$T" --theme breeze --list)
strace -f -qq -o "$W/ours.trace" "$BIN" -q --root "$T" --theme breeze --list > "$W/list"
ours_calls=$(grep -Ec "$fs_calls" "$W/ours.trace")
ours_lookups=$(awk -F '\t' '$2 !~ /^\// && $2 != ""' "$W/list" | wc -l)
for s in 16 22 32 48; do
  "$BIN" -q --root "$T" --theme breeze --explain --size "$s" $(cat "$W/names") < /dev/null
done | awk '/^=> / { n = $0; sub(/.*[(,] ?/, "", n); sub(/ calls?\)$/, "", n); s += n } END { print s }' > "$W/predicted"
ours_predicted=$(cat "$W/predicted")
ours_kb=$(/usr/bin/time -f %M "$BIN" -q --root "$T" --theme breeze --list 2>&1 > /dev/null | tail -n 1)

kde_run () { oracle_run "$T" breeze "$ORACLE" --sizes 16,22,32,48 < "$W/names"; }
kde_ms=$(median_ms kde_run)
"$TOP/tests/oracle/probe-count.sh" "$T" breeze 16,22,32,48 < "$W/names" > "$W/kde" 2>/dev/null
kde_calls=$(awk -F '\t' '{ s += $3 } END { print s }' "$W/kde")
kde_lookups=$(wc -l < "$W/kde")

ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || a == "-") print "-"; else if (a / b < 10) printf "%.2fx\n", a / b; else printf "%.1fx\n", a / b }'; }
nfs () { awk -v c="$1" 'BEGIN { printf "%.1f s\n", c * 0.002 }'; }

echo "kde-icon-cache bench: realistic tree ($n menu icon names x 4 sizes, breeze current)"
tool_names_say "$W"
printf '%-44s %14s %14s %10s\n' "" "KDE (KF5)" "kde-icon-cache" "KDE/ours"
printf '%-44s %14s %14s %10s\n' "lookups (ours: every .desktop file, --list)" "$kde_lookups" "$ours_lookups" ""
printf '%-44s %14s %14s %10s\n' "file system calls (strace)" "$kde_calls" "$ours_calls" "$(ratio "$kde_calls" "$ours_calls")"
printf '%-44s %14s %14s %10s\n' "  at 2 ms per call (NFS round trip)" "$(nfs "$kde_calls")" "$(nfs "$ours_calls")" ""
printf '%-44s %14s %14s %10s\n' "wall time, median of 5 (ms)" "$kde_ms" "$ours_ms" "$(ratio "$kde_ms" "$ours_ms")"
printf '%-44s %14s %14s %10s\n' "peak memory (KiB)" "-" "$ours_kb" ""
printf '%-44s %14s %14s %10s\n' "KDE's calls as our model predicts them" "$ours_predicted" "" ""
[ "$ours_predicted" = "$kde_calls" ] && echo "prediction: exact" || echo "prediction: differs from strace by $((ours_predicted - kde_calls))"
# what a lookup costs by where KDE finds it, as the tool's --list prints it
# (KDE's calls without the links, per menu entry and size): the man page's
# DESCRIPTION quotes this line
awk -F '\t' '$4 ~ /^\/usr\/share\/icons\/hicolor\// { h[++nh] = $6 } $4 == "-" { m[++nm] = $6 }
  function range(v, n,   i, lo, hi) { if (n == 0) return "none"; lo = hi = v[1]
    for (i = 2; i <= n; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
    return lo == hi ? lo : lo " to " hi }
  END { printf "--list, KDE'"'"'s calls per entry and size: found only in hicolor %s (%d), found nowhere %s (%d)\n", range(h, nh), nh, range(m, nm), nm }' "$W/list"

# ---- the rebuild ------------------------------------------------------
# In a writable view of the tree (overlay, or a copy): KDE's calls per
# menu icon before and after, per size, as strace sees the KF5 helper; the
# rebuild's time and memory against gtk-update-icon-cache over the themes
# searched; and a second, no-op rebuild.
. "$TOP/tests/view.sh"
writable_view "$T" "$W"
"$TOP/tests/oracle/probe-count.sh" "$VIEW" breeze 16,22,32,48 < "$W/names" > "$W/kde-before" 2>/dev/null
s=$(date +%s%N)
/usr/bin/time -f %M -o "$W/rebuild-kb" "$BIN" -q --root "$VIEW" --theme breeze
e=$(date +%s%N); rebuild_ms=$(((e - s) / 1000000)); rebuild_kb=$(cat "$W/rebuild-kb")
s=$(date +%s%N)
/usr/bin/time -f %M -o "$W/noop-kb" "$BIN" -q --root "$VIEW" --theme breeze
e=$(date +%s%N); noop_ms=$(((e - s) / 1000000))
touch "$W/stamp"
# the report with each name's floor (a dry run: it writes nothing, and
# plans as the rebuild did, its own links set aside)
"$BIN" --root "$VIEW" --theme breeze --dry-run --json > "$W/report" 2> "$W/report-err"
links=$(grep -c '^link' "$VIEW/var/lib/kde-icon-cache/manifest")
"$TOP/tests/oracle/probe-count.sh" "$VIEW" breeze 16,22,32,48 < "$W/names" > "$W/kde-after" 2>/dev/null
gtk_ms=- gtk_kb=-
if command -v gtk-update-icon-cache > /dev/null; then
  s=$(date +%s%N)
  /usr/bin/time -f %M -o "$W/gtk-kb" sh -c 'for t in "$@"; do gtk-update-icon-cache -q -f -t "$t"; done' sh \
    "$VIEW/usr/share/icons/breeze" "$VIEW/usr/share/icons/hicolor"
  e=$(date +%s%N); gtk_ms=$(((e - s) / 1000000)); gtk_kb=$(cat "$W/gtk-kb")
fi

# min median p90 max of the COUNT column for SIZE, optionally only for
# lookups whose result (before) is an SVG
stats () { # stats FILE SIZE [svg]
  awk -F '\t' -v s="$2" -v svg="${3:-}" -v keep="$W/svg-names" '
    NR == FNR { if ($2 == s && $4 ~ /\.svg$/) want[$1] = 1; next }
    $2 == s && (svg == "" || ($1 in want)) { print $3 }' "$W/kde-before" "$1" |
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- - - -"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      p = v[int(NR * 0.9 + 0.999)]; print v[1], m, p, v[NR] }'
}
echo
echo "rebuild: $links links; KDE's calls per menu icon (strace, KF5 helper), breeze current"
printf '%-6s %-30s %-30s %s\n' "size" "before: min median p90 max" "after: min median p90 max" "median ratio"
for sz in 16 22 32 48; do
  b=$(stats "$W/kde-before" "$sz"); a=$(stats "$W/kde-after" "$sz")
  printf '%-6s %-30s %-30s %s\n' "$sz" "$b" "$a" "$(ratio "$(echo "$b" | cut -d' ' -f2)" "$(echo "$a" | cut -d' ' -f2)")"
done
echo "icons KDE loads as SVG (the ones breeze can take):"
for sz in 16 22 32 48; do
  b=$(stats "$W/kde-before" "$sz" svg); a=$(stats "$W/kde-after" "$sz" svg)
  printf '%-6s %-30s %-30s %s\n' "$sz" "$b" "$a" "$(ratio "$(echo "$b" | cut -d' ' -f2)" "$(echo "$a" | cut -d' ' -f2)")"
done
printf 'sum over the menu at 16-48 px: %s calls before, %s after (%s)\n' \
  "$(awk -F '\t' '{ s += $3 } END { print s }' "$W/kde-before")" \
  "$(awk -F '\t' '{ s += $3 } END { print s }' "$W/kde-after")" \
  "$(ratio "$(awk -F '\t' '{ s += $3 } END { print s }' "$W/kde-before")" "$(awk -F '\t' '{ s += $3 } END { print s }' "$W/kde-after")")"
# the rebuild's own last line (the plan's counts: one lookup per name,
# ExtraNames and absolute Icon= values included), beside KDE's sums
grep "KDE's calls for the menu" "$W/report-err" | sed 's/^kde-icon-cache: /the rebuild says: /'

# How far the promises let the menu go down: the floor of each Icon= at
# each size is the fewest calls any links of its own content could give it
# (the rebuild's report, calls_floor: links only where KDE probes the file
# type and the theme holds no other content under the name; see plan.h),
# whatever they would do to other names.  Measured before and after
# (strace) beside the floor, per size; then the names above their floor
# and why (the report's above_floor).
python3 - "$W/report" "$W/kde-before" "$W/kde-after" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
floor, why = {}, {}
for n in report["names"]:
    for s in n["sizes"]:
        floor[(n["name"], s["size"])] = s["calls_floor"]
        if "above_floor" in s:
            why.setdefault(n["name"], {})[s["size"]] = (s["calls_after"], s["calls_floor"], s["above_floor"])
def lookup_name(icon):
    for ext in (".png", ".xpm", ".svgz", ".svg"):
        if icon.endswith(ext):
            return icon[: -len(ext)]
    return icon
def counts(path):
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        out[(f[0], int(f[1]))] = int(f[2])
    return out
before, after = counts(sys.argv[2]), counts(sys.argv[3])
print("the floor: per size, the menu's calls (strace, KF5) before and after, and the fewest any links the promise allows could give")
print("%-6s %12s %12s %12s %14s %14s" % ("size", "before", "after", "floor", "before/after", "after/floor"))
for size in sorted({k[1] for k in before}):
    keys = [k for k in before if k[1] == size]
    b = sum(before[k] for k in keys)
    a = sum(after[k] for k in keys)
    fl = sum(floor.get((lookup_name(k[0]), size), before[k]) for k in keys)
    print("%-6d %12d %12d %12d %13.2fx %13.1f%%" % (size, b, a, fl, b / a, 100.0 * (a - fl) / fl))
above = sorted(why.items(), key=lambda kv: -sum(v[0] - v[1] for v in kv[1].values()))
reasons = {}
for name, sizes in above:
    reason = next(iter(sizes.values()))[2]
    reasons.setdefault(reason, []).append((name, sum(v[0] - v[1] for v in sizes.values())))
print("names above their floor at some size (%d), by reason; calls above the floor summed over the sizes:" % len(above))
for reason, names in sorted(reasons.items(), key=lambda kv: -sum(x[1] for x in kv[1])):
    total = sum(x[1] for x in names)
    shown = ", ".join("%s (+%d)" % x for x in names[:6]) + (", ..." if len(names) > 6 else "")
    print("  +%d: %d names: %s\n      %s" % (total, len(names), reason, shown))
# names KDE loads with a different file per size: how many, and how many a
# per-size set (links in breeze, one per directory, each to its sizes'
# file) stands for after the proof
ps = report.get("per_size_sets", {"names": 0, "planted": 0})
print("per-size sets: %d names load a different file at different sizes, %d planted as a set" % (ps["names"], ps["planted"]))
PY

# ---- UnthemedLinks=true -------------------------------------------------
# The same rebuild in a second view with the opt-in: names KDE finds only
# outside the themes (pixmaps, pics, a mime generic icon) then get links in
# a theme, and every longer name cut back to one of them that finds
# nothing today shows it (plan-choose.c, theme_forbids).  The gain with and
# without it, and each one's floor, side by side.
drop_view "$W"
writable_view "$T" "$W/optin"
OPT=$VIEW
trap "umount '$OPT' 2>/dev/null; rm -rf '$W'" EXIT
mkdir -p "$OPT/etc"
if [ -f "$OPT/etc/kde-icon-cache.conf" ]; then
  sed -i '/^UnthemedLinks=/d; /^\[kde-icon-cache\]/a UnthemedLinks=true' "$OPT/etc/kde-icon-cache.conf"
else
  printf '[kde-icon-cache]\nUnthemedLinks=true\n' > "$OPT/etc/kde-icon-cache.conf"
fi
"$BIN" -q --root "$OPT" --theme breeze
"$BIN" -q --root "$OPT" --theme breeze --dry-run --json > "$W/report-optin"
optin_links=$(grep -c '^link' "$OPT/var/lib/kde-icon-cache/manifest")
"$TOP/tests/oracle/probe-count.sh" "$OPT" breeze 16,22,32,48 < "$W/names" > "$W/kde-optin" 2>/dev/null
echo
echo "UnthemedLinks (off: the default promise; on: names found only outside the themes planted too): $links links off, $optin_links on"
python3 - "$W/report" "$W/report-optin" "$W/kde-before" "$W/kde-after" "$W/kde-optin" <<'PY'
import json, sys
def floors(path):
    out, unthemed = {}, set()
    for n in json.load(open(path))["names"]:
        if "outside the icon themes" in (n.get("reason") or ""):
            unthemed.add(n["name"])
        for s in n["sizes"]:
            out[(n["name"], s["size"])] = s["calls_floor"]
    return out, unthemed
def lookup_name(icon):
    for ext in (".png", ".xpm", ".svgz", ".svg"):
        if icon.endswith(ext):
            return icon[: -len(ext)]
    return icon
def counts(path):
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        out[(f[0], int(f[1]))] = int(f[2])
    return out
off, unthemed = floors(sys.argv[1])
on, _ = floors(sys.argv[2])
before, after, optin = counts(sys.argv[3]), counts(sys.argv[4]), counts(sys.argv[5])
print("%d menu names KDE finds only outside the themes (no link unless UnthemedLinks=true)" % len(unthemed))
print("%-6s %10s %10s %10s %9s %8s %10s %10s %9s %8s" % ("size", "before", "after off", "floor off", "gain off", "over fl",
                                                          "after on", "floor on", "gain on", "over fl"))
for size in sorted({k[1] for k in before}):
    keys = [k for k in before if k[1] == size]
    b = sum(before[k] for k in keys)
    a0, a1 = sum(after[k] for k in keys), sum(optin[k] for k in keys)
    f0 = sum(off.get((lookup_name(k[0]), size), before[k]) for k in keys)
    f1 = sum(on.get((lookup_name(k[0]), size), before[k]) for k in keys)
    print("%-6d %10d %10d %10d %8.2fx %7.1f%% %10d %10d %8.2fx %7.1f%%" % (
        size, b, a0, f0, b / a0, 100.0 * (a0 - f0) / f0, a1, f1, b / a1, 100.0 * (a1 - f1) / f1))
PY
echo
# the rebuild as a dpkg trigger runs it, against gtk-update-icon-cache
# (tests/bench/rebuild-vs-gtk.sh): in fresh overlay views, needs root
if [ "$(id -u)" -eq 0 ]; then
  . "$TOP/tests/bench/rebuild-vs-gtk.sh"
  trap 'rebuild_vs_gtk_cleanup; umount "$VIEW" 2>/dev/null; rm -rf "$W"' EXIT
  rebuild_vs_gtk_layers
  echo "the rebuild against gtk-update-icon-cache ($(uptime | sed 's/.*load/load/'))"
  rebuild_vs_gtk_header
  rebuild_vs_gtk realistic "$T"
  rebuild_vs_gtk_legend
else
  printf '%-44s %14s %14s %10s\n' "" "gtk-update-icon-cache" "kde-icon-cache" "ours/gtk"
  printf '%-44s %14s %14s %10s\n' "build (breeze + hicolor; ours: whole rebuild), ms" "$gtk_ms" "$rebuild_ms" "$(ratio "$rebuild_ms" "$gtk_ms")"
  printf '%-44s %14s %14s %10s\n' "peak memory (KiB)" "$gtk_kb" "$rebuild_kb" ""
  printf '%-44s %14s %14s %10s\n' "second rebuild, nothing changed (ms)" "" "$noop_ms" ""
  echo "(not root: no overlay views, so no incremental rebuild against gtk on hicolor)"
fi
