#!/bin/sh
# gain.sh - what the admin is told KDE gains, checked against KDE itself:
# the rebuild's last line (KDE's calls for the menu without the links and
# with them, from the plan's own counts) and --list's two call columns
# equal what the KF5 helper makes (probe-count.sh) before and after;
# --check with no store says there is no cache yet
. "$(dirname "$0")/lib.sh"
need_oracle strace

R=$WORK/demo
cp -R "$TOP/demo" "$R"
icon_names "$R" > "$WORK/names"
kde_sum () { # kde_sum FILE: the calls of probe-count.sh's lines
  awk -F '\t' '{ s += $3 } END { print s + 0 }' "$1"
}
"$TOP/tests/oracle/probe-count.sh" "$R" breeze 16,22,32,48 < "$WORK/names" > "$WORK/kde-before" 2> /dev/null
ok $? "KDE's calls before (probe-count.sh)"

# --check before any rebuild: no cache yet, out of date (1)
"$BIN" --root "$R" --check > /dev/null 2> "$WORK/check-err"
is $? 1 "--check with no store: out of date (1)"
grep -q "there is no cache yet" "$WORK/check-err"
ok $? "... saying there is no cache yet"
! grep -q "0 links to add" "$WORK/check-err"
ok $? "... not '0 links to add'"

# --list without a store: the two columns agree
"$BIN" -q --root "$R" --list > "$WORK/list-none"
awk -F '\t' 'NF != 6 || $5 != $6 { bad++ } END { exit bad > 0 }' "$WORK/list-none"
ok $? "--list with no links: six fields, the calls with and without the links the same"

"$BIN" --root "$R" > /dev/null 2> "$WORK/rebuild-err"
ok $? "--rebuild exits 0"
tail -n 1 "$WORK/rebuild-err" > "$WORK/line"
"$TOP/tests/oracle/probe-count.sh" "$R" breeze 16,22,32,48 < "$WORK/names" > "$WORK/kde-after" 2> /dev/null
b=$(kde_sum "$WORK/kde-before") a=$(kde_sum "$WORK/kde-after")
[ "$a" -lt "$b" ]
ok $? "the rebuild makes KDE faster ($b -> $a calls)"
is "$(sed -n 's/^kde-icon-cache: KDE.s calls for the menu at 16, 22, 32 and 48 px: \([0-9]*\) without the links, \([0-9]*\) with them (.*)$/\1 \2/p' "$WORK/line")" \
  "$b $a" "the rebuild's last line: KDE's calls for the menu without and with the links, as KDE makes them"
diag "$(cat "$WORK/line")"

# --list: the fifth column is KDE's calls now, the sixth without the links
"$BIN" -q --root "$R" --list > "$WORK/list"
awk -F '\t' -v OFS='\t' '$2 != "" { print $2, $3, $5 }' "$WORK/list" | sort -u > "$WORK/list-now"
awk -F '\t' -v OFS='\t' '$2 != "" { print $2, $3, $6 }' "$WORK/list" | sort -u > "$WORK/list-without"
cut -f1-3 "$WORK/kde-after" | sort -u > "$WORK/kde-now"
cut -f1-3 "$WORK/kde-before" | sort -u > "$WORK/kde-without"
[ -s "$WORK/list-now" ] && same_answers "$WORK/kde-now" "$WORK/list-now"
ok $? "--list: the calls now are KDE's with the links ($(wc -l < "$WORK/list-now") lookups)"
[ -s "$WORK/list-without" ] && same_answers "$WORK/kde-without" "$WORK/list-without"
ok $? "--list: the calls without the links are KDE's before the rebuild"
"$BIN" -q --root "$R" --list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = sum(1 for e in d["desktop_files"] for s in e["sizes"] if s["calls_without_links"] > s["calls"])
sys.exit(0 if n > 0 else 1)'
ok $? "--list --json: calls_without_links beside calls"

# --check with the store up to date: 0, and nothing about a missing cache
"$BIN" --root "$R" --check > /dev/null 2> "$WORK/check-err"
is $? 0 "--check after the rebuild: up to date (0)"
tap_done
