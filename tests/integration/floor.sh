#!/bin/sh
# floor.sh - the floor the report gives (calls_floor: the fewest calls any
# links of a name's own content could give it) is what KDE itself does
# with those links, and nothing the plan does goes below it
#
# kicfloor (a hicolor SVG) has a -symbolic sibling and a -zeta PNG that a
# breeze link would answer (the PNG cannot have a breeze link of its own),
# so the plan keeps it out of breeze: it stays above its floor, and the
# report says why.  Its floor at 48 px is a link in breeze: planted by
# hand, KDE (the KF5 helper, counted by probe-count.sh) makes exactly that many calls.
. "$(dirname "$0")/lib.sh"
need_oracle strace

plan 6
H=usr/share/icons/hicolor
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
mkdir -p "$R/$H/scalable/apps" "$R/$H/symbolic/apps"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#208020"/></svg>\n' \
  > "$R/$H/scalable/apps/kicfloor.svg"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#bebebe"/></svg>\n' \
  > "$R/$H/symbolic/apps/kicfloor-symbolic.svg"
{ cat "$R/$H/48x48/apps/hi48.png"; printf 'kicfloor-zeta'; } > "$R/$H/48x48/apps/kicfloor-zeta.png"
printf '[Desktop Entry]\nType=Application\nName=kicfloor\nExec=kicfloor\nIcon=kicfloor\n' \
  > "$R/usr/share/applications/kicfloor.desktop"

"$BIN" -q --root "$R" --theme breeze --dry-run --json > "$WORK/report"
ok $? "--dry-run --json exits 0"
python3 - "$WORK/report" > "$WORK/figures" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
for n in d["names"]:
    for s in n["sizes"]:
        if not s["calls_floor"] <= s["calls_after"] <= s["calls_before"] or \
           (s["calls_after"] > s["calls_floor"]) != ("above_floor" in s):
            bad.append("%s %d: %s" % (n["name"], s["size"], s))
        if n["name"] == "kicfloor" and s["size"] == 48:
            print("after", s["calls_after"])
            print("floor", s["calls_floor"])
            print("why", s.get("above_floor", "-"))
for b in bad:
    print("bad", b)
PY
is "$(grep -c '^bad' "$WORK/figures")" 0 "every (name, size): floor <= after <= before, and a reason exactly when above the floor"
grep '^bad' "$WORK/figures" | head -n 5 | sed 's/^/# /'
after=$(sed -n 's/^after //p' "$WORK/figures")
floor=$(sed -n 's/^floor //p' "$WORK/figures")
[ -n "$floor" ] && [ "$floor" -lt "$after" ]
ok $? "kicfloor sits above its floor at 48 px ($after > $floor calls)"
grep -q "^why the proof kept its links out of breeze: .*kicfloor-zeta" "$WORK/figures"
ok $? "the report says why: $(sed -n 's/^why //p' "$WORK/figures" | cut -c1-90)"

# the floor, planted by hand: a link in breeze's first directory exact for 48 px
"$BIN" -q --root "$R" --theme breeze --explain --size 48 kicplant > "$WORK/explain"
exact=$(sed -n 's|^=> \(/usr/share/icons/breeze/[^ ]*\)/kicplant\.svg.*|\1|p' "$WORK/explain")
[ -n "$exact" ] && ln -s "../../../hicolor/scalable/apps/kicfloor.svg" "$R$exact/kicfloor.svg"
ok $? "a link kicfloor.svg planted by hand in $exact"
kde=$(echo kicfloor | "$TOP/tests/oracle/probe-count.sh" "$R" breeze 48 2>/dev/null | cut -f3)
is "$kde" "$floor" "KDE makes exactly the floor's calls at 48 px with it"
finish
