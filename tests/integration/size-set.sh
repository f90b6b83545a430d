#!/bin/sh
# size-set.sh - a name whose files differ per size is planted as a set in
# the current theme, each link to the file KDE loads at its directory's
# sizes, or not at all
#
# hicolor holds kicsizes.svg in 16x16 and 48x48, each of its own content:
# KDE loads the first at 8-18 px, the second above.  One link cannot stand
# for both (KDE's MatchBest takes any hit of a theme, kde-lookup.md §1.2);
# links in breeze directories, each to its sizes' file, can.  With a
# scalable/ file besides 22x22 and 32x32 ones no breeze set can: KDE's
# hicolor answers 19 px from scalable/, breeze would answer from the
# closest link.  Checked against KDE itself (the KF5 helper, every size
# 8-256) and against what was planted.
. "$(dirname "$0")/lib.sh"
need_oracle

plan 13
S=/var/lib/kde-icon-cache
H=usr/share/icons/hicolor
sizes_set () { # sizes_set ROOT DIR...: kicsizes.svg, one content per hicolor directory
  _r=$1; shift
  for d in "$@"; do
    svg_file "$_r" $H/$d/apps/kicsizes.svg "#$(printf '%s' "$d" | sha256sum | cut -c1-6)"
  done
}

# --- an SVG per size: planted in breeze as a set ---------------------------
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
sizes_set "$R" 16x16 48x48
menu_app "$R" kicsizes
kde_content "$R" kicsizes > "$WORK/set.before"
# off by default: part of a set (a killed run) is not safe
"$BIN" -q --root "$R" --theme breeze --dry-run --json > "$WORK/set.json"
python3 - "$WORK/set.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = [n for n in d["names"] if n["name"] == "kicsizes"][0]
assert n["status"] == "skipped" and n["per_size"] and not n["links"], n
assert "PerSizeSets=true" in n["reason"], n
PY
ok $? "without PerSizeSets=true a per-size set is not planted; the reason says how to have it"
"$BIN" --root "$R" --theme breeze --dry-run 2>&1 > /dev/null | grep -q '^kde-icon-cache: 1 name loads .*set PerSizeSets=true'
ok $? "... and the rebuild's summary gives the hint for that one name"
mkdir -p "$R/etc"
printf '[kde-icon-cache]\nPerSizeSets=true\n' > "$R/etc/kde-icon-cache.conf"
"$BIN" -q --root "$R" --theme breeze --dry-run --json > "$WORK/set.json"
ok $? "--dry-run --json exits 0"
python3 - "$WORK/set.json" "$R" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
n = [n for n in d["names"] if n["name"] == "kicsizes"][0]
assert n["status"] == "planted" and n["per_size"], n
assert d["per_size_sets"]["names"] >= 1 and d["per_size_sets"]["planted"] >= 1, d["per_size_sets"]
assert all(l.startswith("/usr/share/icons/breeze/") for l in n["links"]), n["links"]
PY
ok $? "--json: kicsizes is a per-size set, planted in breeze, and counted"
"$BIN" -q --root "$R" --theme breeze
ok $? "--rebuild exits 0"
n_links=$(grep -c "^link	/usr/share/icons/breeze/[^	]*/kicsizes\.svg	" "$R$S/manifest")
[ "$n_links" -ge 2 ]
ok $? "more than one breeze link for kicsizes ($n_links)"
# each link points at a copy of the hicolor file KDE loads at its sizes
bad=0
grep "^link	/usr/share/icons/breeze/[^	]*/kicsizes\.svg	" "$R$S/manifest" | cut -f2 > "$WORK/links"
while read -r link; do
  dir_size=$(basename "$(dirname "$link")")
  got=$(sha256sum < "$R$link" | cut -d' ' -f1)
  want=$(awk -F'\t' -v s="$dir_size" '$2 == s {print $3}' "$WORK/set.before")
  [ "$got" = "$want" ] || { diag "$link: $got, KDE loads $want at $dir_size px"; bad=1; }
done < "$WORK/links"
is "$bad" 0 "each link is a copy of the file KDE loaded at its directory's size"
kde_content "$R" kicsizes > "$WORK/set.after"
same_answers "$WORK/set.before" "$WORK/set.after"
ok $? "KDE loads the same bytes for kicsizes at every size 8-256"
at48=$("$BIN" -q --root "$R" --theme breeze --resolve --size 48 kicsizes | cut -f2)
case $at48 in /usr/share/icons/breeze/*) true ;; *) false ;; esac
ok $? "KDE's lookup at 48 px ends in breeze ($at48)"

# --- a set no breeze links can give each size its file: none planted ----
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
sizes_set "$R" 16x16 22x22 32x32 48x48 scalable
menu_app "$R" kicsizes
"$BIN" --root "$R" --theme breeze --dry-run --json 2> "$WORK/no.err" > "$WORK/no.json"
python3 - "$WORK/no.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = [n for n in d["names"] if n["name"] == "kicsizes"][0]
assert n["status"] == "skipped" and n["per_size"] and "PerSizeSets" not in n["reason"], n
PY
[ $? -eq 0 ] && ! grep -q 'PerSizeSets' "$WORK/no.err"
ok $? "without PerSizeSets=true: no hint to it where a set would not help"
mkdir -p "$R/etc"
printf '[kde-icon-cache]\nPerSizeSets=true\n' > "$R/etc/kde-icon-cache.conf"
kde_content "$R" kicsizes > "$WORK/no.before"
"$BIN" -q --root "$R" --theme breeze
ok $? "--rebuild exits 0 with a scalable/ file in the set"
grep -q "^link	[^	]*/kicsizes\.svg	" "$R$S/manifest"
is $? 1 "no link for kicsizes"
kde_content "$R" kicsizes > "$WORK/no.after"
same_answers "$WORK/no.before" "$WORK/no.after"
ok $? "KDE loads the same bytes for kicsizes at every size 8-256"
finish
