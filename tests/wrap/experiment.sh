#!/bin/bash
# experiment.sh [TREE]  (root: mounts overlays; TREE default $KIC_TREE or the realistic tree
# of tests/oracle/make-tree.sh, never written)
#
# Can an SVG that only embeds a raster icon (make-wrapper.sh), planted in a
# breeze directory, make KF5 render exactly the pixels it renders today from
# the PNG/XPM?  For every menu entry of TREE that KDE (breeze current) loads
# from a .png/.xpm (kde-icon-cache --list; absolute Icon= paths left out,
# KDE never searches for those), plus every /usr/share/pixmaps/*.xpm that
# KDE finds by its bare name (to have more than one XPM), and for each size
# S in 16 22 32 48:
#   before: hash + ARGB dump of loadIcon(name, Desktop, S) on TREE;
#   after:  on an overlay of TREE holding only breeze/actions/D/<name>.svg
#           (D = 16, 22, 32, 32 for S = 16, 22, 32, 48), the wrapper of the
#           file KDE loaded at S, the same hash and dump;
#   compare: identical, or pixels differing / max channel difference.
# Variants: see make-wrapper.sh, plus "prescaled": a wrapper of KDE's own
# rendering at S (the 'before' dump), i.e. what a wrapper gives when the
# image embedded is already at the size shown.
#
# Env: KIC_WRAP_VARIANTS, KIC_WRAP_SIZES, KIC_WRAP_WORK (default /tmp/kic-wrap),
# KIC_WRAP_THEME (current theme, default breeze; the wrappers still go into breeze).
# Output: per-row results in $WORK/rows (TSV), the summary table on stdout.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TREE=${1:-${KIC_TREE:-$TOP/tests/tmp/realistic}}
"$TOP/tests/oracle/make-tree.sh" "${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}" "$TREE" >&2
TREE=$(cd "$TREE" && pwd)
VARIANTS=${KIC_WRAP_VARIANTS:-"xlink href par-none speed pixelated viewbox noviewbox raw prescaled"}
SIZES=${KIC_WRAP_SIZES:-"16 22 32 48"}
WORK=${KIC_WRAP_WORK:-/tmp/kic-wrap}
THEME=${KIC_WRAP_THEME:-breeze}
TOOL=$HERE/kic-wraptool
export KIC_WRAPTOOL=$TOOL

[ "$(id -u)" = 0 ] || { echo "experiment.sh: needs root (overlay mounts)" >&2; exit 1; }
make -s -C "$HERE" kic-wraptool
[ -x "$TOP/kde-icon-cache" ] || make -s -C "$TOP" kde-icon-cache
# shellcheck source=../oracle/oracle-env.sh
. "$TOP/tests/oracle/oracle-env.sh"

M=$WORK/ov/view
cleanup() { mountpoint -q "$M" 2>/dev/null && umount "$M"; return 0; }
trap cleanup EXIT
cleanup
rm -rf "$WORK"; mkdir -p "$WORK/ov" "$WORK/svg"
comma() { echo "$*" | tr ' ' ','; }

# ---- 1. the cases: NAME SIZE PATH (PATH inside TREE) ----
"$TOP/kde-icon-cache" --root "$TREE" --theme "$THEME" --list 2>/dev/null |
    awk -F'\t' '$2 !~ /^\// && $4 ~ /\.(png|xpm)$/ {print $2 "\t" $3 "\t" $4 "\tmenu"}' | sort -u > "$WORK/cases.menu"
cut -f1 "$WORK/cases.menu" | sort -u > "$WORK/names.menu"
for f in "$TREE"/usr/share/pixmaps/*.xpm; do basename "$f" .xpm; done | sort -u |
    comm -23 - "$WORK/names.menu" > "$WORK/names.xpmcand"
oracle_run "$TREE" "$THEME" "$TOOL" render --sizes "$(comma $SIZES)" < "$WORK/names.xpmcand" |
    awk -F'\t' -v t="$TREE" '$3 == t "/usr/share/pixmaps/" $1 ".xpm" {print $1 "\t" $2 "\t" substr($3, length(t) + 1) "\txpm-extra"}' \
    > "$WORK/cases.extra"
cat "$WORK/cases.menu" "$WORK/cases.extra" | awk -F'\t' -v s=" $SIZES " 'index(s, " " $2 " ")' > "$WORK/cases"
cut -f1 "$WORK/cases" | sort -u > "$WORK/names"

# ---- 2. before ----
oracle_run "$TREE" "$THEME" "$TOOL" render --sizes "$(comma $SIZES)" --dump "$WORK/before" < "$WORK/names" > "$WORK/before.tsv"

# source pixel size of every file used
cut -f3 "$WORK/cases" | sort -u | while read -r p; do
    printf '%s\t%s\n' "$p" "$(QT_QPA_PLATFORM=offscreen "$TOOL" size "$TREE$p" | tr ' ' x)"
done > "$WORK/srcsize"

plantname() { case $1 in *.png|*.xpm|*.svg) echo "${1%.*}" ;; *.svgz) echo "${1%.svgz}" ;; *) echo "$1" ;; esac; }
dirfor() { if [ "$1" -le 16 ]; then echo 16; elif [ "$1" -le 22 ]; then echo 22; else echo 32; fi; }

: > "$WORK/rows"
for V in $VARIANTS; do
    for S in $SIZES; do
        D=$(dirfor "$S")
        U=$WORK/ov/upper; Wd=$WORK/ov/work
        rm -rf "$U" "$Wd"; mkdir -p "$U/usr/share/icons/breeze/actions/$D" "$Wd" "$M"
        awk -F'\t' -v s="$S" '$2 == s' "$WORK/cases" > "$WORK/cur"
        while IFS=$'\t' read -r name size path kind; do
            if [ "$V" = prescaled ]; then
                src="$WORK/before/${name//\//%}@$S.png"; key="pre-$S-${name//\//%}"; mv=xlink
            else
                src=$TREE$path; key="$V-$(echo "$path" | md5sum | cut -c1-16)"; mv=$V
            fi
            svg=$WORK/svg/$key.svg
            [ -f "$svg" ] || "$HERE/make-wrapper.sh" --variant "$mv" "$src" "$svg"
            cp "$svg" "$U/usr/share/icons/breeze/actions/$D/$(plantname "$name").svg"
        done < "$WORK/cur"
        mount -t overlay overlay -o "lowerdir=$TREE,upperdir=$U,workdir=$Wd" "$M"
        cut -f1 "$WORK/cur" | oracle_run "$M" "$THEME" "$TOOL" render --sizes "$S" --dump "$WORK/after/$V" > "$WORK/after-$V-$S.tsv"
        umount "$M"
        # compare
        while IFS=$'\t' read -r name size path kind; do
            b=$(awk -F'\t' -v n="$name" -v s="$S" '$1 == n && $2 == s {print $4}' "$WORK/before.tsv")
            a=$(awk -F'\t' -v n="$name" -v s="$S" '$1 == n && $2 == s {print $3 "\t" $4}' "$WORK/after-$V-$S.tsv")
            apath=${a%%$'\t'*} ahash=${a#*$'\t'}
            src=$(awk -F'\t' -v p="$path" '$1 == p {print $2}' "$WORK/srcsize")
            sw=${src%x*} sh=${src#*x}; big=$sw; [ "$sh" -gt "$big" ] && big=$sh
            if [ "$V" = prescaled ] || [ "$big" = "$S" ]; then scaled=unscaled; else scaled=scaled; fi
            case $apath in
                "$M/usr/share/icons/breeze/actions/$D/"*.svg) ;;
                *) printf '%s\t%s\t%s\t%s\t%s\t%s\tnot-planted\t%s\n' "$V" "$S" "$name" "$kind" "$src" "$scaled" "$apath" >> "$WORK/rows"; continue ;;
            esac
            if [ "$ahash" = "$b" ]; then
                res=identical; det=-
            elif [ "$ahash" = - ]; then
                res=blank; det=-
            else
                res=different
                det=$(QT_QPA_PLATFORM=offscreen "$TOOL" cmp "$WORK/before/${name//\//%}@$S.png" "$WORK/after/$V/${name//\//%}@$S.png")
            fi
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$V" "$S" "$name" "$kind" "$src" "$scaled" "$res" "$det" >> "$WORK/rows"
        done < "$WORK/cur"
    done
done

# ---- 3. summary ----
# rows: VARIANT SIZE NAME KIND SRCWxH SCALED RESULT DETAIL
# DETAIL (different): "WxH WxH ndiff maxStraight maxAlpha maxPremul n(premul>2) meanPremul"
awk -F'\t' -v sizes="$SIZES" '
{
    v = $1; s = $2; k = v SUBSEP s
    if (!(v in seenv)) { seenv[v] = 1; order[++nv] = v }
    tot[k]++; if ($7 == "identical") id[k]++
    t2[k, $6]++; if ($7 == "identical") id2[k, $6]++
    if ($7 == "blank") bl[k]++
    if ($7 == "not-planted") np[k]++
    if ($7 == "different") {
        split($8, d, " ")
        if (d[1] == "size") { sz[k]++; next }
        split(d[1], wh, "x"); nd[k]++; px[k] += d[3]; allpx[k] += wh[1] * wh[2]
        if (d[6] > mp[k]) mp[k] = d[6]
        if (d[5] > ma[k]) ma[k] = d[5]
        if (d[6] <= 2) near[k]++
        mean[k] += d[8]
    }
}
END {
    ns = split(sizes, S, " ")
    printf "%-10s", "variant"
    for (i = 1; i <= ns; i++) printf " | %-26s", S[i] " px ident/all (unsc, sc)"
    printf "\n"
    for (j = 1; j <= nv; j++) {
        v = order[j]; printf "%-10s", v
        for (i = 1; i <= ns; i++) {
            k = v SUBSEP S[i]
            printf " | %-26s", sprintf("%d/%d (%d/%d, %d/%d)", id[k], tot[k], id2[k, "unscaled"], t2[k, "unscaled"], id2[k, "scaled"], t2[k, "scaled"])
        }
        printf "\n"
    }
    printf "\nAmong the different ones (premultiplied = as composited; straight ARGB channel diffs explode at low alpha):\n"
    printf "%-10s %4s %5s %5s %6s %6s %14s %12s %12s %15s\n", "variant", "size", "blank", "unpl.", "sizeΔ", "diff", "%px-differing", "max-alphaΔ", "max-premulΔ", "mean-premulΔ/ch"
    for (j = 1; j <= nv; j++) for (i = 1; i <= ns; i++) {
        v = order[j]; k = v SUBSEP S[i]
        printf "%-10s %4s %5d %5d %6d %6d %14s %12d %12d %15s\n", v, S[i], bl[k], np[k], sz[k], nd[k], \
            (nd[k] ? sprintf("%.1f", 100 * px[k] / allpx[k]) : "-"), ma[k], mp[k], (nd[k] ? sprintf("%.2f", mean[k] / nd[k]) : "-")
    }
}' "$WORK/rows"

# ---- 4. by scaling direction (first variant only, "prescaled" excluded) ----
first=${VARIANTS%% *}
echo
echo "By source size -> shown size ($first):"
awk -F'\t' -v v="$first" '$1 == v {
    split($5, a, "x"); m = a[1] > a[2] ? a[1] : a[2]
    dir = (m == $2) ? "unscaled" : (m > $2 ? "down" : "up"); k = $2 " " dir " " m "->" $2
    t[k]++; if ($7 == "identical") i[k]++; else if ($7 == "different") { split($8, d, " "); if (d[6] > mx[k]) mx[k] = d[6]; me[k] += d[8]; nd[k]++ }
} END { for (k in t) printf "%s %d/%d identical, max premulΔ %d, mean premulΔ/ch %.2f\n", k, i[k], t[k], mx[k], nd[k] ? me[k] / nd[k] : 0 }' "$WORK/rows" |
    sort -k1n -k2 -k3V
