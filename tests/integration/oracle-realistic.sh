#!/bin/sh
# oracle-realistic.sh - a real Debian 12 system, asked of KF5 and of us
#
# The tree is unpacked from real packages (five icon themes and about a
# hundred applications, tests/oracle/packages.list).  The names are every
# Icon= of those packages plus a sample of what the themes hold
# (tests/oracle/names.sh).  Every (name, size) must resolve to the same path
# with breeze, oxygen, Papirus and hicolor as the current theme.
. "$(dirname "$0")/lib.sh"
need_oracle

themes="breeze oxygen Papirus hicolor"
plan 5
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
"$TOP/tests/oracle/names.sh" "$T" > "$WORK/names"
total=0
for theme in $themes; do
  theirs "$T" "$theme" 16 22 32 48 < "$WORK/names" > "$WORK/$theme.theirs"
  ours "$T" "$theme" 16 22 32 48 < "$WORK/names" > "$WORK/$theme.ours"
  n=$(wc -l < "$WORK/$theme.ours")
  total=$((total + n))
  same_answers "$WORK/$theme.theirs" "$WORK/$theme.ours"
  ok $? "$theme current: KF5 and kde-icon-cache agree on all $n (name, size) pairs"
done
diag "compared $total (name, size) pairs: $(wc -l < "$WORK/names") names, 4 sizes, 4 current themes"
[ "$total" -ge 2000 ]
ok $? "at least 2000 pairs compared ($total)"
finish
