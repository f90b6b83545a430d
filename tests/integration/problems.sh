#!/bin/sh
# problems.sh - --list --problems: what an admin should fix, and who ships it
. "$(dirname "$0")/lib.sh"

plan 10
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
A=/usr/share/applications
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
printf 'Package: kic-test\nStatus: install ok installed\nArchitecture: all\nVersion: 1\nMaintainer: none\nDescription: test\n\n' > "$R/var/lib/dpkg/status"
printf '/.\n/usr\n%s/missing.desktop\n%s/pixxpm.desktop\n' "$A" "$A" > "$R/var/lib/dpkg/info/kic-test.list"

"$BIN" -q --root "$R" --list --problems > "$WORK/problems"
ok $? "--list --problems exits 0"
row () { awk -F '\t' -v id="$1" '$1 == id { print $3 "\t" $5 }' "$WORK/problems"; }
is "$(row missing.desktop)" "not-found	kic-test" "a missing icon is reported with the package that ships the file"
is "$(row pixxpm.desktop)" "pixmaps-fallback-only	kic-test" "an icon found only in pixmaps is reported"
is "$(row ext-png.desktop)" "has-extension	-" "an Icon= with an extension is reported"
is "$(row abs.desktop)" "absolute-path	-" "an absolute Icon= is reported"
is "$(row absmissing.desktop)" "absolute-path-missing	-" "an absolute Icon= that does not exist is reported as such"
is "$(row kate.desktop)" "" "an icon KDE finds in a theme is not a problem"
calls=$(awk -F '\t' '$1 == "missing.desktop" { print $4 }' "$WORK/problems")
is "$calls" "$("$BIN" -q --root "$R" --explain kic-nonexistent | tail -n 1 | sed 's/.*(\([0-9]*\) calls\?)/\1/')" \
  "the cost given is KDE's cost at the Desktop size"
"$BIN" -q --root "$R" --list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = {x["id"]: x for x in d["problems"]}
assert p["missing.desktop"]["problem"] == "not-found" and p["missing.desktop"]["package"] == "kic-test"
assert "kate.desktop" not in p'
ok $? "--list --json has the same problems in a section"
"$BIN" -q --root "$R" --list --problems --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert sorted(d) == ["problems", "theme"], sorted(d)
print("\n".join("%s\t%s\t%s\t%d\t%s" % (p["id"], p["icon"] or "", p["problem"], p["calls"], p["package"] or "-")
                for p in d["problems"]))' > "$WORK/problems-json"
is "$(cat "$WORK/problems-json")" "$(cat "$WORK/problems")" "--list --problems --json: the problems alone, the same as the text"
finish
