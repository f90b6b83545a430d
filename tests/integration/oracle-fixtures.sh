#!/bin/sh
# oracle-fixtures.sh - every fixture root, asked of KF5 and of us
#
# Names: every Icon= value plus the base name of every icon file in the
# root, plus a few derived names; sizes the menus use and a spread of
# others.  Paths must agree exactly, and so must the number of file system
# calls KDE makes (tests/oracle/probe-count.sh on the KF5 helper).
. "$(dirname "$0")/lib.sh"
need_oracle strace

cases="basic oddtheme nobreeze hicolor-current papirus-like empty"
plan 12
fixtures "$WORK/fx" $cases
total=0
for c in $cases; do
  R=$WORK/fx/$c
  theme=$(root_theme "$R")
  fixture_names "$R" > "$WORK/$c.names"
  theirs "$R" "$theme" 8 16 22 24 32 48 64 128 256 < "$WORK/$c.names" > "$WORK/$c.theirs"
  ours "$R" "$theme" 8 16 22 24 32 48 64 128 256 < "$WORK/$c.names" > "$WORK/$c.ours"
  n=$(wc -l < "$WORK/$c.ours")
  total=$((total + n))
  same_answers "$WORK/$c.theirs" "$WORK/$c.ours"
  ok $? "$c: KF5 and kde-icon-cache agree on all $n (name, size) pairs"

  "$TOP/tests/oracle/probe-count.sh" "$R" "$theme" 16,22,32,48 < "$WORK/$c.names" 2>/dev/null |
    cut -f1-3 > "$WORK/$c.kde-counts"
  our_counts "$R" "$theme" 16 22 32 48 < "$WORK/$c.names" > "$WORK/$c.our-counts"
  same_answers "$WORK/$c.kde-counts" "$WORK/$c.our-counts"
  ok $? "$c: our call counts equal the calls KF5 makes ($(wc -l < "$WORK/$c.our-counts") lookups)"
done
diag "compared $total (name, size) pairs over the fixture roots"
finish
