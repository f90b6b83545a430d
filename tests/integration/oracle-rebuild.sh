#!/bin/sh
# oracle-rebuild.sh - KDE itself before and after --rebuild
#
# On the realistic tree with breeze, oxygen and hicolor current in turn:
# every name of tests/oracle/names.sh (the menu's and the themes' own) at
# 16, 22, 32 and 48 px must load byte-identical content (or, for an XPM
# planted as its PNG twin, that XPM's) and render the same pixels in the
# KF5 helper before and after the rebuild; the calls
# the tool reports for the menu's names before and after must equal what
# strace sees KDE do.
. "$(dirname "$0")/lib.sh"
need_oracle strace

themes=${KIC_REBUILD_THEMES:-breeze oxygen hicolor}
plan $((5 * $(echo $themes | wc -w)))
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
"$TOP/tests/oracle/names.sh" "$T" > "$WORK/names"
icon_names "$T" | grep -v '^/' > "$WORK/menu"
. "$TOP/tests/oracle/oracle-env.sh"

# NAME SIZE CONTENT-SHA256 RENDER-HASH for every name and size, in ROOT
seen_by_kde () { # seen_by_kde ROOT THEME
  oracle_run "$1" "$2" "$ORACLE" --render --sizes 16,22,32,48 < "$WORK/names" | with_content "" "$1"
}

# One theme's five checks, as TAP numbered from 1, on a view of its own.
check_theme () { # check_theme THEME
  theme=$1
  writable_view "$T" "$WORK/$theme"
  V=$VIEW
  seen_by_kde "$V" "$theme" > "$WORK/$theme.before"
  "$TOP/tests/oracle/probe-count.sh" "$V" "$theme" 16,22,32,48 < "$WORK/menu" 2>/dev/null | cut -f1-3 > "$WORK/$theme.kde-before"
  "$BIN" -q --root "$V" --theme "$theme" --json > "$WORK/$theme.report"
  ok $? "$theme: --rebuild exits 0 ($(grep -c '^link' "$V/var/lib/kde-icon-cache/manifest") links)"
  seen_by_kde "$V" "$theme" > "$WORK/$theme.after"
  same_answers "$WORK/$theme.before" "$WORK/$theme.after"
  ok $? "$theme: KDE loads the same bytes and renders the same pixels for all $(wc -l < "$WORK/$theme.after") (name, size) pairs"
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
  ok $? "$theme: the calls reported before the rebuild are what strace sees ($(wc -l < "$WORK/$theme.mb") lookups)"
  same_answers "$WORK/$theme.ka" "$WORK/$theme.ma"
  ok $? "$theme: the calls reported after the rebuild are what strace sees"
  before=$(awk -F '\t' '{ s += $3 } END { print s }' "$WORK/$theme.kb")
  after=$(awk -F '\t' '{ s += $3 } END { print s }' "$WORK/$theme.ka")
  diag "$theme: KDE's calls over the menu at 16-48 px: $before before, $after after"
  [ "$after" -lt "$before" ]
  ok $? "$theme: the rebuild lowers KDE's calls"
  drop_view "$WORK/$theme"
}

# The themes run side by side (KDE's renders and strace runs are most of
# this test's time, one core each); their results are reported in order.
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
