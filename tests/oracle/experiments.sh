#!/bin/bash
# experiments.sh [EXPERIMENT...]  -- reproduces tests/oracle/FINDINGS.md
# Builds small synthetic trees under a temp dir and shows KF5's per-lookup
# syscalls (probe-count.sh --calls --symbolic).  Experiments: a1 a2 a3 a4 b c d e f g
set -eu
here=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/kic-exp.XXXXXX")
trap 'rm -rf "$W"' EXIT

calls() { # TREE THEME SIZES NAME...
    local t=$1 th=$2 sz=$3; shift 3
    printf '%s\n' "$@" | "$here/probe-count.sh" --calls --symbolic "$t" "$th" "$sz"
}
count() { # TREE THEME SIZES NAME...
    local t=$1 th=$2 sz=$3; shift 3
    printf '%s\n' "$@" | "$here/probe-count.sh" "$t" "$th" "$sz" | sed "s|$t|\$TREE|"
}
# fake breeze: .svg only, 4 dirs; Inherits=hicolor
mk_breeze() { # TREE [BASE=usr/share]
    local b=$1/${2:-usr/share}/icons/breeze
    mkdir -p "$b"/actions/16 "$b"/actions/22 "$b"/actions/32 "$b"/apps/48
    cat > "$b/index.theme" <<'IDX'
[Icon Theme]
Name=Breeze
Inherits=hicolor
KDE-Extensions=.svg
Directories=actions/16,actions/22,actions/32,apps/48
DesktopDefault=48
[actions/16]
Size=16
Type=Fixed
[actions/22]
Size=22
Type=Fixed
[actions/32]
Size=32
MinSize=32
MaxSize=256
Type=Scalable
[apps/48]
Size=48
MinSize=48
MaxSize=256
Type=Scalable
IDX
}
# hicolor skeleton: 3 dirs (the embedded :/icons/hicolor/index.theme is used)
mk_hicolor() { # TREE
    mkdir -p "$1"/usr/share/icons/hicolor/16x16/apps "$1"/usr/share/icons/hicolor/48x48/apps \
        "$1"/usr/share/icons/hicolor/scalable/apps
    printf '[Icon Theme]\nName=Hicolor\nDirectories=\n' > "$1"/usr/share/icons/hicolor/index.theme
}
newtree() { local t; t=$(mktemp -d "$W/tree.XXXX"); mk_breeze "$t"; mk_hicolor "$t"; echo "$t"; }
# summarise a --calls listing as blocks: theme (or USER group) + number of calls;
# a new block starts when the theme changes or its first path comes again
blocks() {
    awk -F'\t' '{ if ($4 ~ /\/icons\/[^\/]+\/.+\//) { split($4, a, "/icons/"); split(a[2], b, "/"); k = b[1] } else k = "USER-group";
           if (k != last || $4 == first) { if (n) printf "%s:%d ", last, c; n++; c = 0; first = $4 } last = k; c++ }
         END { if (n) printf "%s:%d\n", last, c }'
}
hdr() { printf '\n### %s\n' "$*"; }

a1() {
    hdr "a1: hit in the first theme dir (breeze actions/16/first.svg) at 16 and 48"
    local t; t=$(newtree)
    touch "$t"/usr/share/icons/breeze/actions/16/first.svg
    calls "$t" breeze 16,48 first
}
a2() {
    hdr "a2: non-exact hits: breeze actions/16 + actions/22 + apps/48 have two.svg; lookups at 16, 22, 32, 48, 64"
    local t; t=$(newtree)
    touch "$t"/usr/share/icons/breeze/actions/16/two.svg "$t"/usr/share/icons/breeze/actions/22/two.svg \
        "$t"/usr/share/icons/breeze/apps/48/two.svg
    calls "$t" breeze 16,22,32,48,64 two
    count "$t" breeze 16,22,32,48,64 two
    hdr "a2b: a hit with an existing l10n dir (breeze apps/48/l10n/ exists, LANG=C.UTF-8)"
    mkdir -p "$t"/usr/share/icons/breeze/apps/48/l10n
    calls "$t" breeze 48 two
}
a3() {
    hdr "a3: User group: only /usr/share/pixmaps/px.xpm; only /usr/share/icons/ic.png (theme probes left out)"
    local t; t=$(newtree)
    mkdir -p "$t"/usr/share/pixmaps
    touch "$t"/usr/share/pixmaps/px.xpm "$t"/usr/share/icons/ic.png
    calls "$t" breeze 48 px ic | grep -v '/icons/breeze/\|/icons/hicolor/'
    hdr "a3 counts"
    count "$t" breeze 48 px ic
    hdr "a3c: XDG_DATA_HOME that does not exist (ORACLE_DATA_HOME=/nonexistent-kic): still probed?"
    ORACLE_DATA_HOME=/nonexistent-kic calls "$t" breeze 48 px | grep -v '/icons/breeze/\|/icons/hicolor/'
    hdr "a3d: px.xpm in XDG_DATA_HOME/pixmaps AND TREE/usr/share/pixmaps"
    mkdir -p "$W/dh/pixmaps" && touch "$W/dh/pixmaps/px.xpm"
    ORACLE_DATA_HOME=$W/dh calls "$t" breeze 48 px | grep -v '/icons/breeze/\|/icons/hicolor/' | sed "s|$W/dh|\$DH|"
}
a4() {
    hdr "a4: total miss (breeze 4 dirs x .svg x 2 [breeze twice], hicolor 3 dirs x 4 ext)"
    local t; t=$(newtree)
    calls "$t" breeze 48 nothere
    count "$t" breeze 16,48 nothere nothere-at-all
}
b() {
    hdr "b: QIcon::fallbackSearchPaths under offscreen QPA (kic-oracle --debug)"
    local t; t=$(newtree)
    . "$here/oracle-env.sh"
    oracle_run "$t" breeze "$here/kic-oracle" --debug --sizes 48 nothere 2>&1 >/dev/null | sed "s|$t|\$TREE|g"
    hdr "b2: any path outside TREE and the temp XDG dirs during a miss?"
    calls "$t" breeze 48 nothere | awk -F'\t' '$4 !~ /^\$(TREE|XDG_DATA_HOME)/' | head
    echo "(end)"
}
c() {
    local t; t=$(newtree)
    # a fallback-capable real-looking second theme to show order
    for th in hicolor no-such-theme breeze ""; do
        hdr "c: kdeglobals Theme='$th': blocks (theme:calls) of a miss at 48 px"
        . "$here/oracle-env.sh"
        oracle_run "$t" "$th" "$here/kic-oracle" --debug --sizes 48 nothere 2>&1 >/dev/null | grep -i 'current\|Desktop='
        calls "$t" "$th" 48 nothere | blocks
        count "$t" "$th" 48 nothere
    done
    hdr "c2: app-specific hicolor bases: TREE/usr/share/plasmashell/icons/hicolor/48x48/apps exists"
    mkdir -p "$t"/usr/share/plasmashell/icons/hicolor/48x48/apps
    calls "$t" hicolor 48 nothere | awk -F'\t' '$4 ~ /hicolor/' | head -8
}
d() {
    hdr "d1: dash truncation: breeze has foo.svg, hicolor has foo-bar.png -> which wins, order of probes"
    local t; t=$(newtree)
    touch "$t"/usr/share/icons/breeze/apps/48/foo.svg "$t"/usr/share/icons/hicolor/48x48/apps/foo-bar.png
    calls "$t" breeze 48 foo-bar
    hdr "d2: genericFallback carry-over: text-foo; breeze lacks text-x-generic; hicolor has text.png (theme probes shown)"
    t=$(newtree)
    touch "$t"/usr/share/icons/hicolor/48x48/apps/text.png
    calls "$t" breeze 48 text-foo | awk -F'\t' '$4 ~ /\/icons\/(breeze|hicolor)\// {sub(/.*\/icons\//,"",$4); print $3, $4, $5}'
    count "$t" breeze 48 text-foo
    hdr "d3: same with image-viewer-foo, hicolor has image-viewer.png"
    touch "$t"/usr/share/icons/hicolor/48x48/apps/image-viewer.png
    count "$t" breeze 48 image-viewer-foo image-viewer
    hdr "d4: a name whose truncation does not reach a media type: org.kde.foo-bar-baz, hicolor has org.kde.foo.png"
    touch "$t"/usr/share/icons/hicolor/48x48/apps/org.kde.foo.png
    calls "$t" breeze 48 org.kde.foo-bar-baz | awk -F'\t' '{sub(/.*\/icons\//,"",$4); print $3, $4, $5}' | sed 's|/[^/]*/[^/]*/\([^/]*\)$| \1|' | awk '{print $2, $NF, $3}' | uniq -c
    hdr "d5: x-foo-bar (truncation stops at index 1: 'x-foo' -> rindex 1, not > 1)"
    calls "$t" breeze 48 x-foo-bar | awk -F'\t' '$4 ~ /breeze/ {n=split($4,a,"/"); print a[n]}' | uniq -c
}
e() {
    hdr "e: breeze in TREE/usr/local/share/icons (actions/16, actions/32, no index.theme) and TREE/usr/share/icons (all)"
    local t; t=$(newtree)
    mkdir -p "$t"/usr/local/share/icons/breeze/actions/16 "$t"/usr/local/share/icons/breeze/actions/32
    calls "$t" breeze 48 nothere | awk -F'\t' '$4 ~ /breeze/' | head -12
}
f() {
    hdr "f: generic-icons: TREE/usr/share/mime/generic-icons has application/x-kictest:kic-generic and kictest/foo:kic-generic"
    local t; t=$(newtree)
    mkdir -p "$t"/usr/share/mime
    printf 'application/x-kictest:kic-generic\nkictest/foo:kic-generic\n' > "$t"/usr/share/mime/generic-icons
    count "$t" breeze 48 kictest-foo application-x-kictest nothere
    hdr "f2: same, kic-generic.svg present in breeze apps/48"
    touch "$t"/usr/share/icons/breeze/apps/48/kic-generic.svg
    count "$t" breeze 48 kictest-foo application-x-kictest
    calls "$t" breeze 48 kictest-foo | awk -F'\t' '{n=split($4,a,"/"); print $3, a[n]}' | uniq -c
}
g() {
    hdr "g: extensions and absolute names: hicolor 48x48/apps has ext.png; pixmaps has pm.xpm"
    local t; t=$(newtree)
    mkdir -p "$t"/usr/share/pixmaps
    touch "$t"/usr/share/icons/hicolor/48x48/apps/ext.png "$t"/usr/share/pixmaps/pm.xpm
    count "$t" breeze 48 ext ext.png ext.svg ext.xpm ext.svgz ext.jpg ext.PNG pm.xpm pm.png "$t/usr/share/pixmaps/pm.xpm" /nonexistent/abs.png
    calls "$t" breeze 48 ext.jpg | awk -F'\t' '{n=split($4,a,"/"); print a[n]}' | sort | uniq -c | head -4
}
c3() {
    # needs a real tree from make-tree.sh: KIC_TREE=/path/to/tree experiments.sh c3
    [ -n "${KIC_TREE:-}" ] || { echo "c3: set KIC_TREE to a make-tree.sh tree" >&2; return 0; }
    for th in breeze breeze-dark oxygen Papirus Papirus-Dark Adwaita hicolor; do
        hdr "c3: real tree, kdeglobals Theme=$th: blocks of a miss at 48 px"
        calls "$KIC_TREE" "$th" 48 kic-no-such-icon | blocks
        count "$KIC_TREE" "$th" 16,48 kic-no-such-icon | sed "s|$KIC_TREE|\$TREE|"
    done
}

[ $# -gt 0 ] || set -- a1 a2 a3 a4 b c d e f g
for x in "$@"; do "$x"; done
