#!/bin/sh
# oracle-rebuild.sh - KDE itself before and after --rebuild
#
# On the realistic tree with breeze, oxygen and hicolor current in turn:
# every name of tests/oracle/names.sh (the menu's and the themes' own) at
# 16, 22, 32 and 48 px must load byte-identical content (or, for an XPM
# planted as its PNG twin, that XPM's) in the KF5 helper before and after
# the rebuild, and where the file KDE reads is not the same bytes under the
# same extension (the twins), KDE must render the same pixels.  (The same
# bytes of the same type decode to the same pixels: rendering all 3 156
# pairs twice took half of this test's time.)  The calls the tool reports
# for the menu's names before and after must equal what KDE is seen to do
# (tests/oracle/probe-count.sh).
. "$(dirname "$0")/lib.sh"
need_oracle strace

themes=${KIC_REBUILD_THEMES:-breeze oxygen hicolor}
plan $((6 * $(echo $themes | wc -w)))
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
"$TOP/tests/oracle/names.sh" "$T" > "$WORK/names"
icon_names "$T" | grep -v '^/' > "$WORK/menu"
. "$TOP/tests/oracle/oracle-env.sh"

# NAME SIZE PATH (in ROOT) for every name and size
seen_by_kde () { # seen_by_kde ROOT THEME
  theirs "$1" "$2" 16 22 32 48 < "$WORK/names"
}

# NAME SIZE SHA-256 EXTENSION for each line of PATHS (seen_by_kde's in
# ROOT): pairs with equal lines decode to equal pixels
bytes_and_type () { # bytes_and_type PATHS ROOT
  with_content "$2" < "$1" | awk -F '\t' -v OFS='\t' '
    NR == FNR { f = $3; sub(/.*\//, "", f); e = f ~ /\./ ? f : ""; sub(/.*\./, "", e); ext[FNR] = e; next }
    { print $1, $2, $3, ext[FNR] }' "$1" -
}

# NAME SIZE RENDER-HASH of the names in NAMES-FILE, in ROOT
renders () { # renders ROOT THEME NAMES-FILE
  oracle_run "$1" "$2" "$ORACLE" --render --sizes 16,22,32,48 < "$3" | cut -f1,2,4
}

# One theme's six checks, as TAP numbered from 1, on a view of its own.
check_theme () { # check_theme THEME
  theme=$1
  writable_view "$T" "$WORK/$theme"
  V=$VIEW
  # before: the tree itself, which the view shows as it is until the
  # rebuild (KDE is slower on an overlay; oracle-realistic.sh asks the
  # same of it)
  seen_by_kde "$T" "$theme" > "$WORK/$theme.paths-before"
  bytes_and_type "$WORK/$theme.paths-before" "$T" > "$WORK/$theme.bt-before"
  cut -f1-3 "$WORK/$theme.bt-before" > "$WORK/$theme.before"
  "$TOP/tests/oracle/probe-count.sh" "$T" "$theme" 16,22,32,48 < "$WORK/menu" 2>/dev/null | cut -f1-3 > "$WORK/$theme.kde-before"
  "$BIN" -q --root "$V" --theme "$theme" --json > "$WORK/$theme.report"
  ok $? "$theme: --rebuild exits 0 ($(grep -c '^link' "$V/var/lib/kde-icon-cache/manifest") links)"
  seen_by_kde "$V" "$theme" > "$WORK/$theme.paths-after"
  with_content "$V" "$V" < "$WORK/$theme.paths-after" > "$WORK/$theme.after"
  # (every file KDE named was read: a path taken in the wrong root would
  # be "missing" on both sides, and equal)
  ! grep -q '	missing$' "$WORK/$theme.before" "$WORK/$theme.after" &&
    same_answers "$WORK/$theme.before" "$WORK/$theme.after"
  ok $? "$theme: KDE loads the same bytes (an XPM's: its PNG twin) for all $(wc -l < "$WORK/$theme.after") (name, size) pairs, $(grep -c '	[0-9a-f]\{64\}$' "$WORK/$theme.after") of them found"
  # the pairs whose file is other bytes or of another type now: their
  # pixels, before (in the tree) and after (in the view)
  bytes_and_type "$WORK/$theme.paths-after" "$V" > "$WORK/$theme.bt-after"
  LC_ALL=C sort "$WORK/$theme.bt-before" > "$WORK/$theme.bt-b"
  LC_ALL=C sort "$WORK/$theme.bt-after" | LC_ALL=C comm -13 "$WORK/$theme.bt-b" - | cut -f1 | sort -u > "$WORK/$theme.changed"
  renders "$T" "$theme" "$WORK/$theme.changed" > "$WORK/$theme.px-before"
  renders "$V" "$theme" "$WORK/$theme.changed" > "$WORK/$theme.px-after"
  # (a name whose XPM is now read as its PNG twin is one of them: with
  # twins in the store, an empty list means the byte comparison missed them)
  twins=$(grep -c '^file	[^	]*\.xpm\.png	' "$V/var/lib/kde-icon-cache/manifest")
  { [ "$twins" -eq 0 ] || [ -s "$WORK/$theme.changed" ]; } &&
    ! grep -q '	-$' "$WORK/$theme.px-after" && same_answers "$WORK/$theme.px-before" "$WORK/$theme.px-after"
  ok $? "$theme: KDE renders the same pixels for the $(wc -l < "$WORK/$theme.changed") names whose file is new bytes ($(wc -l < "$WORK/$theme.px-after") pairs)"
  "$TOP/tests/oracle/probe-count.sh" "$V" "$theme" 16,22,32,48 < "$WORK/menu" 2>/dev/null | cut -f1-3 > "$WORK/$theme.kde-after"
  python3 - "$WORK/$theme.report" "$WORK/$theme.menu-before" "$WORK/$theme.menu-after" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as b, open(sys.argv[3], "w") as a:
    for n in d["names"]:
        for s in n["sizes"]:
            b.write("%s\t%d\t%d\n" % (n["name"], s["size"], s["calls_before"]))
            a.write("%s\t%d\t%d\n" % (n["name"], s["size"], s["calls_after"]))
PY
  # the report is per lookup name (Icon= without .png etc.); strace is per Icon= value
  awk -F '\t' 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$WORK/$theme.menu-before" "$WORK/$theme.kde-before" > "$WORK/$theme.kb"
  awk -F '\t' 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$WORK/$theme.menu-after" "$WORK/$theme.kde-after" > "$WORK/$theme.ka"
  awk -F '\t' 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$WORK/$theme.kb" "$WORK/$theme.menu-before" > "$WORK/$theme.mb"
  awk -F '\t' 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$WORK/$theme.ka" "$WORK/$theme.menu-after" > "$WORK/$theme.ma"
  same_answers "$WORK/$theme.kb" "$WORK/$theme.mb"
  ok $? "$theme: the calls reported before the rebuild are what KDE makes ($(wc -l < "$WORK/$theme.mb") lookups)"
  same_answers "$WORK/$theme.ka" "$WORK/$theme.ma"
  ok $? "$theme: the calls reported after the rebuild are what KDE makes"
  before=$(awk -F '\t' '{ s += $3 } END { print s }' "$WORK/$theme.kb")
  after=$(awk -F '\t' '{ s += $3 } END { print s }' "$WORK/$theme.ka")
  diag "$theme: KDE's calls over the menu at 16-48 px: $before before, $after after"
  [ "$after" -lt "$before" ]
  ok $? "$theme: the rebuild lowers KDE's calls"
  drop_view "$WORK/$theme"
}

# The themes run side by side (KDE's lookups and renders are most of this
# test's time, one core each); their results are reported in order.
for theme in $themes; do
  check_theme "$theme" > "$WORK/$theme.tap" 2> "$WORK/$theme.err" &
done
wait
for theme in $themes; do
  cat "$WORK/$theme.err" >&2
  while IFS= read -r line; do
    case $line in
      "ok "*) ok 0 "${line#ok * - }" ;;
      "not ok "*) ok 1 "${line#not ok * - }" ;;
      *) echo "$line" ;;
    esac
  done < "$WORK/$theme.tap"
done
finish
