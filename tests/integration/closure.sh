#!/bin/sh
# closure.sh - a link that another name's dash cut would reach gets that
# name planted beside it, or none of the set is planted
#
# KDE looks "X-symbolic" up in each theme as "X-symbolic", then as "X"
# (kde-lookup.md §3.1), so a breeze link X.svg would answer it before
# hicolor's own X-symbolic.svg.  With the closure, X-symbolic gets its own
# link in breeze too; when the cut name cannot have one (a PNG: breeze only
# probes .svg), neither gets a breeze link.  Checked against KDE itself
# (the KF5 helper, every size 8-256) and against what was planted.
. "$(dirname "$0")/lib.sh"
need_oracle

plan 10
S=/var/lib/kde-icon-cache
png_copy () { # png_copy ROOT REL: a PNG of its own content (a fixture PNG with a comment after IEND)
  mkdir -p "$(dirname "$1/$2")"
  { cat "$1/usr/share/icons/hicolor/48x48/apps/hi48.png"; printf '/%s' "$2"; } > "$1/$2"
}
H=usr/share/icons/hicolor

# --- a -symbolic sibling: both planted in breeze -------------------------
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
svg_file "$R" $H/scalable/apps/kicclosure.svg '#208020'
svg_file "$R" $H/symbolic/apps/kicclosure-symbolic.svg '#bebebe'
menu_app "$R" kicclosure
kde_content "$R" kicclosure kicclosure-symbolic > "$WORK/sym.before"
"$BIN" -q --root "$R" --theme breeze
ok $? "--rebuild exits 0"
grep -q "^link	/usr/share/icons/breeze/[^	]*/kicclosure\.svg	" "$R$S/manifest"
ok $? "the menu name gets its link in breeze"
grep -q "^link	/usr/share/icons/breeze/[^	]*/kicclosure-symbolic\.svg	" "$R$S/manifest"
ok $? "its -symbolic sibling gets its own link in breeze beside it"
"$BIN" -q --root "$R" --theme breeze --dry-run --json > "$WORK/sym.json"
python3 - "$WORK/sym.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = [n for n in d["closure"] if n["name"] == "kicclosure-symbolic"]
assert len(c) == 1 and c[0]["for"] == "kicclosure" and c[0]["theme"] == "breeze", c
assert any(l.startswith("/usr/share/icons/breeze/") and l.endswith("/kicclosure-symbolic.svg")
           for l in c[0]["links"]), c
assert "kicclosure-symbolic" not in [n["name"] for n in d["names"]]
PY
ok $? "--json lists kicclosure-symbolic in the closure, for kicclosure, with its breeze link"
kde_content "$R" kicclosure kicclosure-symbolic > "$WORK/sym.after"
same_answers "$WORK/sym.before" "$WORK/sym.after"
ok $? "KDE loads the same bytes for both names at every size 8-256"
at48=$("$BIN" -q --root "$R" --theme breeze --resolve --size 48 kicclosure | cut -f2)
case $at48 in /usr/share/icons/breeze/*) true ;; *) false ;; esac
ok $? "KDE's lookup of the menu name at 48 px ends at its breeze link ($at48)"

# --- a cut name that breeze cannot hold: the set is dropped (the proof
# meets kicclosure-symbolic first, so its link is planted, then dropped) --
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
svg_file "$R" $H/scalable/apps/kicclosure.svg '#208020'
svg_file "$R" $H/symbolic/apps/kicclosure-symbolic.svg '#bebebe'
png_copy "$R" $H/48x48/apps/kicclosure-zeta.png
menu_app "$R" kicclosure
kde_content "$R" kicclosure kicclosure-symbolic kicclosure-zeta > "$WORK/png.before"
"$BIN" -q --root "$R" --theme breeze
ok $? "--rebuild exits 0 with a PNG the cut reaches"
grep -q "^link	/usr/share/icons/breeze/[^	]*/kicclosure[^	]*	" "$R$S/manifest"
is $? 1 "no link of the set goes to breeze (the PNG cannot have one there)"
grep -q "^link	[^	]*/icons/hicolor/[^	]*/kicclosure\.svg	" "$R$S/manifest"
ok $? "the menu name is planted in hicolor instead"
kde_content "$R" kicclosure kicclosure-symbolic kicclosure-zeta > "$WORK/png.after"
same_answers "$WORK/png.before" "$WORK/png.after"
ok $? "KDE loads the same bytes for all three names at every size 8-256"
finish
