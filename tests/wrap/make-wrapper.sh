#!/bin/sh
# make-wrapper.sh [--variant V] IN OUT.svg
#
# Writes OUT.svg: an SVG document whose only content is the raster image IN
# (PNG, or XPM converted losslessly to PNG first), embedded as a base64 data:
# URI, at its own pixel size (W x H), so that KDE's breeze lookup (which only
# probes .svg) can load it.
#
# Variants (default: xlink):
#   xlink      <svg width=W height=H viewBox="0 0 W H"><image width=W height=H xlink:href=data:...>
#   href       as xlink but SVG 2 'href' instead of 'xlink:href'
#   par-none   as xlink + preserveAspectRatio="none" on <image>
#   speed      as xlink + image-rendering="optimizeSpeed" on <image>
#   pixelated  as xlink + image-rendering="pixelated" on <image>
#   viewbox    as xlink, but no width/height on <svg> (only viewBox)
#   noviewbox  as xlink, but no viewBox on <svg> (only width/height)
#   raw        as xlink, but the file is embedded as it is (XPM not converted;
#              data:image/x-xpixmap)
#
# XPM conversion uses, in this order: $KIC_WRAPTOOL (tests/wrap/kic-wraptool,
# Qt's own XPM reader), ImageMagick 'convert' (if it is the real one).
set -eu
variant=xlink
if [ "${1:-}" = --variant ]; then variant=$2; shift 2; fi
[ $# -eq 2 ] || { echo "usage: make-wrapper.sh [--variant V] IN OUT.svg" >&2; exit 2; }
in=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
tool=${KIC_WRAPTOOL:-$here/kic-wraptool}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kic-wrap.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# 8 bytes PNG signature, then the IHDR chunk: length(4) "IHDR"(4) W(4) H(4)
is_png() { [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]; }
png_dim() { od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'; }

mime=image/png
if is_png "$in"; then
    png=$in
elif [ "$variant" = raw ]; then
    png=
    mime=image/x-xpixmap
else
    png=$tmp/conv.png
    if [ -x "$tool" ]; then
        QT_QPA_PLATFORM=offscreen "$tool" topng "$in" "$png"
    elif convert -version 2>/dev/null | grep -q ImageMagick; then
        convert "$in" "PNG32:$png"
    else
        echo "make-wrapper.sh: no XPM converter (build tests/wrap/kic-wraptool or install imagemagick)" >&2
        exit 1
    fi
fi
if [ -n "$png" ]; then
    set -- $(png_dim "$png")
    data=$png
else
    set -- $(QT_QPA_PLATFORM=offscreen "$tool" size "$in")
    data=$in
fi
w=$1 h=$2
case $variant in
    xlink)     svgattr="width=\"$w\" height=\"$h\" viewBox=\"0 0 $w $h\""; imgattr=""; href=xlink:href ;;
    href)      svgattr="width=\"$w\" height=\"$h\" viewBox=\"0 0 $w $h\""; imgattr=""; href=href ;;
    par-none)  svgattr="width=\"$w\" height=\"$h\" viewBox=\"0 0 $w $h\""; imgattr=' preserveAspectRatio="none"'; href=xlink:href ;;
    speed)     svgattr="width=\"$w\" height=\"$h\" viewBox=\"0 0 $w $h\""; imgattr=' image-rendering="optimizeSpeed"'; href=xlink:href ;;
    pixelated) svgattr="width=\"$w\" height=\"$h\" viewBox=\"0 0 $w $h\""; imgattr=' image-rendering="pixelated"'; href=xlink:href ;;
    viewbox)   svgattr="viewBox=\"0 0 $w $h\""; imgattr=""; href=xlink:href ;;
    noviewbox) svgattr="width=\"$w\" height=\"$h\""; imgattr=""; href=xlink:href ;;
    raw)       svgattr="width=\"$w\" height=\"$h\" viewBox=\"0 0 $w $h\""; imgattr=""; href=xlink:href ;;
    *) echo "make-wrapper.sh: unknown variant $variant" >&2; exit 2 ;;
esac
{
    printf '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" %s>' "$svgattr"
    printf '<image width="%s" height="%s"%s %s="data:%s;base64,' "$w" "$h" "$imgattr" "$href" "$mime"
    base64 -w0 "$data"
    printf '"/></svg>\n'
} > "$tmp/out.svg"
mv "$tmp/out.svg" "$out"
