#!/bin/sh
# probe-model.sh - our count of KDE's file system calls against strace
#
# On the realistic tree with breeze current: every Icon= of the menu at 16,
# 22, 32 and 48 px, and names of each kind (in the current theme, only in
# hicolor, only in pixmaps, missing, dashed); with oxygen current a sample
# at 48 px.  strace counts the KF5 helper's access/stat calls per lookup
# (tests/oracle/probe-count.sh); --explain must give the same number.
# probe-count.sh counts in the kernel (bpftrace) where it can, about
# twenty times faster than strace: the two counters must give the same
# lines, here on every run.
. "$(dirname "$0")/lib.sh"
need_oracle strace

plan 8
T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
icon_names "$T" | grep -v '^/' > "$WORK/menu"
# one name of each kind, chosen from the tree itself
kind () { # kind DESCRIPTION NAME
  if [ -n "$2" ]; then echo "$2" >> "$WORK/kinds"; ok 0 "has a name $1: $2"; else ok 1 "has a name $1"; fi
}
: > "$WORK/kinds"
kind "in breeze" "$(ls "$T/usr/share/icons/breeze/apps/48" | head -n 1 | sed 's/\.svg$//')"
kind "only in hicolor" "$(cd "$T/usr/share/icons/hicolor/48x48/apps" && for f in *.png; do n=${f%.png}; [ -e "$T/usr/share/icons/breeze/apps/48/$n.svg" ] || { echo "$n"; break; }; done)"
kind "only in pixmaps" "$(cd "$T/usr/share/pixmaps" && for f in *.xpm; do n=${f%.xpm}; [ -z "$(find "$T/usr/share/icons" -name "$n.*" | head -n 1)" ] && { echo "$n"; break; }; done)"
echo "kic-no-such-icon" >> "$WORK/kinds"
echo "org.example.kic-no-such-icon" >> "$WORK/kinds"
sort -u "$WORK/menu" "$WORK/kinds" > "$WORK/names"

"$TOP/tests/oracle/probe-count.sh" "$T" breeze 16,22,32,48 < "$WORK/names" 2>/dev/null | cut -f1-3 > "$WORK/kde"
our_counts "$T" breeze 16 22 32 48 < "$WORK/names" > "$WORK/ours"
n=$(wc -l < "$WORK/ours")
same_answers "$WORK/kde" "$WORK/ours"
ok $? "breeze: --explain counts equal the calls KF5 makes on all $n lookups"
[ "$n" -ge 80 ]
ok $? "at least 20 names at 4 sizes ($n lookups)"
diag "KDE's calls over these lookups: $(awk -F '\t' '{ s += $3 } END { print s }' "$WORK/kde")"

head -n 40 "$WORK/names" > "$WORK/sample"
"$TOP/tests/oracle/probe-count.sh" "$T" oxygen 48 < "$WORK/sample" 2>/dev/null | cut -f1-3 > "$WORK/kde-oxygen"
our_counts "$T" oxygen 48 < "$WORK/sample" > "$WORK/ours-oxygen"
same_answers "$WORK/kde-oxygen" "$WORK/ours-oxygen"
ok $? "oxygen: --explain counts equal the calls KF5 makes on $(wc -l < "$WORK/ours-oxygen") lookups"

# the in-kernel counter against strace, on a sample with a name of each
# kind at three sizes (strace costs about 120 us a call), the first an
# absolute path: a lookup without a counted call
{ echo /kic/absolute.png; cat "$WORK/kinds"; head -n 20 "$WORK/menu"; } > "$WORK/both"
KIC_COUNTER=strace "$TOP/tests/oracle/probe-count.sh" "$T" breeze 16,32,48 < "$WORK/both" > "$WORK/by-strace" 2>/dev/null
if KIC_COUNTER=bpf "$TOP/tests/oracle/probe-count.sh" "$T" breeze 16,32,48 < "$WORK/both" > "$WORK/by-bpf" 2> "$WORK/bpf.err"; then
  [ -s "$WORK/by-strace" ] && same_answers "$WORK/by-strace" "$WORK/by-bpf"
  ok $? "bpftrace and strace count the same calls for $(wc -l < "$WORK/by-strace") lookups ($(awk -F '\t' '{ s += $3 } END { print s }' "$WORK/by-strace") calls)"
else
  echo "ok $((_tap_n += 1)) # SKIP the in-kernel counter cannot run here: $(cat "$WORK/bpf.err")"
fi

# the call sequence itself, not only its length, for one name of each kind
"$TOP/tests/oracle/probe-count.sh" --calls --symbolic "$T" breeze 48 < "$WORK/kinds" 2>/dev/null |
  awk -F '\t' '$3 !~ /^!/ { print $1 "\t" $4 }' | sed 's|\$XDG_DATA_HOME|$XDG_DATA_HOME|' > "$WORK/kde-seq"
"$BIN" -q --root "$T" --theme breeze --explain --size 48 $(cat "$WORK/kinds") |
  awk '/ at [0-9]+ px; themes searched/ { name = $1; next } /^ *[0-9]+  / { print name "\t$TREE" $3 }' |
  sed 's|\$TREE\$XDG_DATA_HOME|$XDG_DATA_HOME|; s|\$TREE\$LANG|$LANG|' > "$WORK/our-seq"
same_answers "$WORK/kde-seq" "$WORK/our-seq"
ok $? "--explain lists the same paths in the same order as strace"
finish
