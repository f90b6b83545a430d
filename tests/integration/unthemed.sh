#!/bin/sh
# unthemed.sh - links that would change names no file carries are not
# planted (plan-choose.c, theme_forbids), and UnthemedLinks=true changes
# exactly what it says
#
# 1. kicpix is only in /usr/share/pixmaps (KDE's "User" group, after the
#    whole theme search).  A link for it in a theme would make every name
#    KDE cuts back to it and finds nothing for today (kicpix-tray,
#    kicpix-symbolic) show it.  By default: no link, its floor is its
#    cost today, and KDE (KF5 helper, every size 8-256) shows the same for
#    it, those names and kicpix-busy (its own pixmap); with
#    UnthemedLinks=true: links in hicolor, and exactly kicpix-tray and
#    kicpix-symbolic change, from nothing to kicpix's file.
# 2. image-kicgen is only in hicolor, and the current breeze has no
#    image-x-generic: KDE's chain for "image-kicgen-foo" ends at
#    image-x-generic in breeze and then tries that name alone in the
#    later themes, finding nothing.  A breeze link for image-kicgen would
#    answer it: image-kicgen gets links in hicolor only.
# 3. KF6 (--kde=kf6): kiccut-beta is found as hicolor's kiccut (a cut);
#    "kiccut-beta-symbolic" tries kiccut-beta before kiccut-symbolic in
#    each theme, so a link for kiccut-beta (here in hicolor: no library,
#    no breeze links) needs one for kiccut-beta-symbolic beside it, which
#    no file carries (the proof looks X-symbolic up for every link X).
#    Checked in the planner's report, and with KF6 itself when a KF6 root
#    is there (tests/oracle/kf6).
. "$(dirname "$0")/lib.sh"
need_oracle

plan 12
S=/var/lib/kde-icon-cache
H=usr/share/icons/hicolor
png_copy () { # png_copy ROOT REL: a PNG of its own content
  mkdir -p "$(dirname "$1/$2")"
  { cat "$1/$H/48x48/apps/hi48.png"; printf '/%s' "$2"; } > "$1/$2"
}
pix_root () { # pix_root: $R, the basic fixture with kicpix
  fixtures "$WORK/fx" basic
  R=$WORK/fx/basic
  png_copy "$R" usr/share/pixmaps/kicpix.png
  png_copy "$R" usr/share/pixmaps/kicpix-busy.png
  menu_app "$R" kicpix
}
pixnames="kicpix kicpix-tray kicpix-symbolic kicpix-busy kicpix-busy-tray"

# --- 1. default ---------------------------------------------------------
pix_root
kde_content "$R" $pixnames > "$WORK/pix.before"
grep -q "^kicpix	48	[0-9a-f]\{64\}\$" "$WORK/pix.before" && grep -q '^kicpix-tray	48	-$' "$WORK/pix.before"
ok $? "before: KDE finds kicpix (in pixmaps) and nothing for kicpix-tray"
"$BIN" -q --root "$R" --theme breeze --dry-run --json > "$WORK/pix.json"
python3 - "$WORK/pix.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = [n for n in d["names"] if n["name"] == "kicpix"][0]
assert n["status"] == "skipped" and not n["links"], n
assert "outside the icon themes" in n["reason"] and "UnthemedLinks=true" in n["reason"], n["reason"]
for s in n["sizes"]:
    assert s["calls_floor"] == s["calls_before"] == s["calls_after"] > 0, s
PY
ok $? "by default kicpix gets no link, says why, and its floor is its cost today"
"$BIN" -q --root "$R" --theme breeze
! grep -q '/kicpix[.-]' "$R$S/manifest"
ok $? "--rebuild plants nothing for kicpix"
kde_content "$R" $pixnames > "$WORK/pix.after"
same_answers "$WORK/pix.before" "$WORK/pix.after"
ok $? "KDE shows the same for $pixnames at every size 8-256"

# --- 1. UnthemedLinks=true ----------------------------------------------
pix_root
printf '[kde-icon-cache]\nUnthemedLinks=true\n' > "$R/etc/kde-icon-cache.conf"
"$BIN" -q --root "$R" --theme breeze --dry-run --json > "$WORK/pixon.json"
python3 - "$WORK/pixon.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = [n for n in d["names"] if n["name"] == "kicpix"][0]
assert n["status"] == "planted", n
for s in n["sizes"]:
    assert s["calls_floor"] <= s["calls_after"] < s["calls_before"], s
PY
ok $? "with UnthemedLinks=true kicpix is planted and costs less"
"$BIN" -q --root "$R" --theme breeze
grep -q "^link	[^	]*/icons/hicolor/[^	]*/kicpix\.png	" "$R$S/manifest"
ok $? "its links are in hicolor"
kde_content "$R" $pixnames > "$WORK/pixon.after"
# what changes: exactly the names that found nothing and cut back to a
# planted one (kicpix-busy has its own pixmap: the proof gives it its own
# link beside kicpix's, and kicpix-busy-tray then cuts back to that)
awk -F '\t' 'FILENAME == ARGV[1] { b[$1 FS $2] = $3; if ($2 == 48) who[$3] = $1; next }
  b[$1 FS $2] != $3 { print $1 "\t" b[$1 FS $2] "\t" (($3 in who) ? who[$3] : $3) }' \
  "$WORK/pix.before" "$WORK/pixon.after" | sort -u > "$WORK/pixon.changed"
printf 'kicpix-busy-tray\t-\tkicpix-busy\nkicpix-symbolic\t-\tkicpix\nkicpix-tray\t-\tkicpix\n' > "$WORK/pixon.want"
same_answers "$WORK/pixon.want" "$WORK/pixon.changed"
ok $? "KDE then shows kicpix for kicpix-tray and kicpix-symbolic, kicpix-busy for kicpix-busy-tray (nothing before), at every size, and nothing else changes"

# --- 2. a name whose cuts reach image-x-generic -------------------------
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
svg_file "$R" $H/scalable/apps/image-kicgen.svg '#802020'
menu_app "$R" image-kicgen
gennames="image-kicgen image-kicgen-foo image-kicgen-foo-symbolic"
kde_content "$R" $gennames > "$WORK/gen.before"
grep -q '^image-kicgen-foo	48	-$' "$WORK/gen.before" && grep -q "^image-kicgen	48	[0-9a-f]\{64\}\$" "$WORK/gen.before"
ok $? "before: KDE finds image-kicgen in hicolor and nothing for image-kicgen-foo"
"$BIN" -q --root "$R" --theme breeze
grep -q "^link	[^	]*/icons/hicolor/[^	]*/image-kicgen\.svg	" "$R$S/manifest" &&
  ! grep -q '^link	/usr/share/icons/breeze/[^	]*/image-kicgen\.svg	' "$R$S/manifest"
ok $? "image-kicgen gets links in hicolor, none in breeze"
kde_content "$R" $gennames > "$WORK/gen.after"
same_answers "$WORK/gen.before" "$WORK/gen.after"
ok $? "KDE shows the same for $gennames at every size 8-256"

# --- 3. KF6: the -symbolic form of a link -------------------------------
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
svg_file "$R" $H/scalable/apps/kiccut.svg '#208080'
svg_file "$R" $H/symbolic/apps/kiccut-symbolic.svg '#bebebe'
menu_app "$R" kiccut-beta
"$BIN" -q --root "$R" --kde=kf6 --theme breeze --dry-run --json > "$WORK/cut.json"
python3 - "$WORK/cut.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def themes(links):
    return {l.split("/icons/")[1].split("/")[0] for l in links}
n = [n for n in d["names"] if n["name"] == "kiccut-beta"][0]
sym = [c for c in d["closure"] if c["name"] == "kiccut-beta-symbolic"]
# a theme with links for kiccut-beta has kiccut-beta-symbolic's too
assert n["status"] == "planted" and sym, (n, sym)
assert themes(n["links"]) <= themes(sym[0]["links"]), (n, sym)
PY
ok $? "kf6: kiccut-beta's links come with kiccut-beta-symbolic's in the same theme (the closure)"
K6=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-trixie}
[ -f "$K6/.kic-kf6-stamp" ] || K6=${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/trixie-kf6
cutnames="kiccut-beta kiccut-beta-symbolic kiccut-beta-foo-symbolic kiccut-symbolic"
kf6_content () { # kf6_content ROOT < names
  KIC_KF6_ROOT=$K6 TMPDIR=$WORK "$TOP/tests/oracle/kf6/run.sh" "$1" breeze "$(seq -s, 8 256)" 2>/dev/null | with_content "$1"
}
if [ -f "$K6/.kic-kf6-stamp" ] && [ "$(id -u)" -eq 0 ]; then
  printf '%s\n' $cutnames | kf6_content "$R" > "$WORK/cut.before"
  "$BIN" -q --root "$R" --kde=kf6 --theme breeze
  printf '%s\n' $cutnames | kf6_content "$R" > "$WORK/cut.after"
  grep -q '^kiccut-beta-symbolic	48	[0-9a-f]\{64\}$' "$WORK/cut.before" && same_answers "$WORK/cut.before" "$WORK/cut.after"
  ok $? "KF6 ($(sed -n 's/^libkf6iconthemes6	//p' "$K6/.kic-kf6-stamp")) shows the same for $cutnames at every size 8-256"
else
  echo "ok $((_tap_n += 1)) - KF6 itself # SKIP no KF6 root ($K6), or not root"
fi
finish
