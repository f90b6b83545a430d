#!/bin/sh
# make-trees.sh - build the roots the --kde=PROFILE tests run against.
#
#   tests/profiles/make-trees.sh DEST
#
# DEST/all              small themes of every KDE generation in one "/":
#                       breeze (KF5/KF6), oxygen (KDE 4), crystalsvg (KDE 3),
#                       hicolor (disk index.theme, Debian style), pixmaps,
#                       applications, mime/generic-icons
# DEST/detect-*         copies of all plus the library that --kde=auto
#                       detects (see MODEL.md, "Detection"):
#   detect-kf6           libKF6IconThemes.so.6 with DT_NEEDED libKF6BreezeIcons.so.6
#   detect-kf6-nobreeze  libKF6IconThemes.so.6 without it
#   detect-kf6-630       libKF6IconThemes.so.6 -> libKF6IconThemes.so.6.30.0, with it
#   detect-kf6-619       a copy libKF6IconThemes.so.6 beside libKF6IconThemes.so.6.19.1
#                        (and an older 6.9.0 the release must not be taken from)
#   detect-kf5           libKF5IconThemes.so.5
#   detect-kde4-48       libkdeui.so.5 -> libkdeui.so.5.8.4
#   detect-kde4-414      libkdeui.so.5 -> libkdeui.so.5.14.2
#   detect-kde3          libkdecore.so.4 -> libkdecore.so.4.2.0
#   detect-none          no library
#
# What each icon is there for, and what every profile resolves, is in
# expected/*.txt (derived by hand; derive.py holds the reasoning).  No
# kdeglobals: every profile uses its default theme.  Needs a POSIX sh,
# coreutils and, for the two kf6 roots, gcc (without it they are not built).
# Deterministic; every icon file has distinct content (its own path).

set -eu
umask 022
export LC_ALL=C

[ $# -eq 1 ] || { echo "usage: $0 DEST" >&2; exit 2; }
DEST=$1
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)

# 1x1 RGBA PNG: signature + IHDR, a tEXt chunk with the unique tag, a
# fixed IDAT, IEND.
PNG_HEAD='iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ'
PNG_IDAT='AAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

tag() { printf 'kde-icon-cache profile tree:/%s' "$1"; }

mkparent() { mkdir -p "$(dirname "$R/$1")"; }

# crc32: CRC-32 (PNG polynomial) of stdin, in decimal
crc32() {
	c=4294967295
	for b in $(od -An -v -tu1); do
		c=$(( c ^ b ))
		for _ in 1 2 3 4 5 6 7 8; do
			c=$(( (c >> 1) ^ (-(c & 1) & 0xEDB88320) ))
		done
	done
	echo $(( c ^ 4294967295 ))
}

byte() { printf "\\$(printf %03o "$1")"; }
be32() {
	byte $(( ($1 >> 24) & 255 )); byte $(( ($1 >> 16) & 255 ))
	byte $(( ($1 >> 8) & 255 )); byte $(( $1 & 255 ))
}

svg() {
	for f in "$@"; do
		mkparent "$f"
		cat > "$R/$f" <<SVG
<?xml version="1.0" encoding="UTF-8"?>
<!-- $(tag "$f") -->
<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
  <rect x="1" y="1" width="14" height="14" rx="2" fill="#3daee9"/>
</svg>
SVG
	done
}

png() {
	for f in "$@"; do
		mkparent "$f"
		t=$(tag "$f")
		{
			printf '%s\n' "$PNG_HEAD" | base64 -d
			be32 $(( 8 + ${#t} ))
			printf 'tEXtComment\000%s' "$t"
			be32 "$(printf 'tEXtComment\000%s' "$t" | crc32)"
			printf '%s\n' "$PNG_IDAT" | base64 -d
		} > "$R/$f"
	done
}

# svgz: not decompressed by anything here; gzip magic + the tag is enough
svgz() {
	for f in "$@"; do
		mkparent "$f"
		{ printf '\037\213\010\000\000\000\000\000\000\003'; tag "$f"; } > "$R/$f"
	done
}

xpm() {
	for f in "$@"; do
		mkparent "$f"
		cat > "$R/$f" <<XPM
/* XPM */
/* $(tag "$f") */
static char *icon[] = {
"2 2 1 1",
". c #3daee9",
"..",
".."
};
XPM
	done
}

put() { mkparent "$1"; cat > "$R/$1"; }

# section NAME SIZE CONTEXT TYPE [MIN MAX]
section() {
	printf '\n[%s]\nSize=%s\nContext=%s\nType=%s\n' "$1" "$2" "$3" "$4"
	[ $# -lt 6 ] || printf 'MinSize=%s\nMaxSize=%s\n' "$5" "$6"
}

app() { # app ID ICON
	printf '[Desktop Entry]\nType=Application\nName=%s\nExec=true\nIcon=%s\nCategories=Utility;\n' "$1" "$2" |
		put "usr/share/applications/$1.desktop"
}

build_all() {
	R=$DEST/all
	rm -rf "$R"
	mkdir -p "$R"

	# --- breeze (KF5/KF6): .svg only, FollowsColorScheme
	{
		cat <<'IDX'
[Icon Theme]
Name=Breeze
Comment=kde-icon-cache profile test: breeze-like
Inherits=hicolor
FollowsColorScheme=true
DesktopDefault=48
ToolbarDefault=22
MainToolbarDefault=22
SmallDefault=16
PanelDefault=48
DialogDefault=32
KDE-Extensions=.svg
Directories=actions/12,actions/16,actions/22,actions/32,apps/48,actions/symbolic
IDX
		section actions/12 12 Actions Fixed
		section actions/16 16 Actions Fixed
		section actions/22 22 Actions Fixed
		section actions/32 32 Actions Scalable 32 256
		section apps/48 48 Applications Scalable 48 256
		section actions/symbolic 16 Actions Scalable 8 512
	} | put usr/share/icons/breeze/index.theme
	mkdir -p "$R/usr/share/icons/breeze/apps/48" "$R/usr/share/icons/breeze/actions/16"
	svg usr/share/icons/breeze/actions/32/kicbreeze.svg \
	    usr/share/icons/breeze/actions/12/kicbest.svg \
	    usr/share/icons/breeze/actions/22/kicbest.svg \
	    usr/share/icons/breeze/actions/32/text-x-generic.svg \
	    usr/share/icons/breeze/actions/symbolic/kicsym-symbolic.svg
	png usr/share/icons/breeze/actions/32/kicpng.png   # never probed: breeze is .svg only

	# --- hicolor, Debian-style disk index (KDE 3/4 read it; KF5/6 use the
	#     embedded description).  22x22/apps is listed but absent.
	{
		cat <<'IDX'
[Icon Theme]
Name=Hicolor
Comment=Fallback icon theme
Hidden=true
Directories=16x16/apps,22x22/apps,32x32/apps,32x32/filesystems,48x48/apps,scalable/apps
IDX
		section 16x16/apps 16 Applications Threshold
		section 22x22/apps 22 Applications Threshold
		section 32x32/apps 32 Applications Threshold
		section 32x32/filesystems 32 FileSystems Threshold
		section 48x48/apps 48 Applications Threshold
		printf '\n[scalable/apps]\nMinSize=1\nSize=128\nMaxSize=256\nContext=Applications\nType=Scalable\n'
	} | put usr/share/icons/hicolor/index.theme
	png usr/share/icons/hicolor/16x16/apps/kicapp.png \
	    usr/share/icons/hicolor/48x48/apps/kicapp.png \
	    usr/share/icons/hicolor/48x48/apps/kichi.png \
	    usr/share/icons/hicolor/48x48/apps/kicview.png \
	    usr/share/icons/hicolor/32x32/apps/kicpng.png \
	    usr/share/icons/hicolor/32x32/apps/kicpack.png \
	    usr/share/icons/hicolor/32x32/apps/x-kic-x-generic.png \
	    usr/share/icons/hicolor/32x32/filesystems/kicfs.png
	svg usr/share/icons/hicolor/scalable/apps/kichi.svg \
	    usr/share/icons/hicolor/scalable/apps/kicsvg.svg

	# --- oxygen (KDE 4)
	{
		cat <<'IDX'
[Icon Theme]
Name=Oxygen
Comment=kde-icon-cache profile test: KDE4-era oxygen
Inherits=hicolor
DesktopDefault=48
ToolbarDefault=22
MainToolbarDefault=22
SmallDefault=16
PanelDefault=48
DialogDefault=32
Directories=8x8/emblems,16x16/actions,16x16/apps,32x32/actions,32x32/apps,48x48/apps,scalable/apps
IDX
		section 8x8/emblems 8 Emblems Threshold
		section 16x16/actions 16 Actions Threshold
		section 16x16/apps 16 Applications Threshold
		section 32x32/actions 32 Actions Threshold
		section 32x32/apps 32 Applications Threshold
		section 48x48/apps 48 Applications Threshold
		section scalable/apps 128 Applications Scalable 64 256
	} | put usr/share/icons/oxygen/index.theme
	mkdir -p "$R/usr/share/icons/oxygen/8x8/emblems" "$R/usr/share/icons/oxygen/16x16/apps" \
	         "$R/usr/share/icons/oxygen/scalable/apps"
	png usr/share/icons/oxygen/16x16/actions/kicapp.png \
	    usr/share/icons/oxygen/16x16/actions/kicact.png \
	    usr/share/icons/oxygen/32x32/actions/text-x-generic.png \
	    usr/share/icons/oxygen/32x32/apps/kicoxy.png \
	    usr/share/icons/oxygen/48x48/apps/kicext.png
	svgz usr/share/icons/oxygen/32x32/apps/kicext.svgz

	# --- crystalsvg (KDE 3)
	{
		cat <<'IDX'
[Icon Theme]
Name=Crystal SVG
Comment=kde-icon-cache profile test: KDE3 crystalsvg
Inherits=hicolor
DesktopDefault=48
ToolbarDefault=22
MainToolbarDefault=22
SmallDefault=16
PanelDefault=32
Directories=16x16/actions,16x16/apps,22x22/apps,32x32/apps,48x48/apps,scalable/apps
IDX
		section 16x16/actions 16 Actions Threshold
		section 16x16/apps 16 Applications Threshold
		section 22x22/apps 22 Applications Threshold
		section 32x32/apps 32 Applications Threshold
		section 48x48/apps 48 Applications Threshold
		section scalable/apps 128 Applications Scalable 64 256
	} | put usr/share/icons/crystalsvg/index.theme
	mkdir -p "$R/usr/share/icons/crystalsvg/32x32/apps" "$R/usr/share/icons/crystalsvg/scalable/apps"
	png usr/share/icons/crystalsvg/16x16/actions/kiccrys.png \
	    usr/share/icons/crystalsvg/22x22/apps/kicext.png \
	    usr/share/icons/crystalsvg/22x22/apps/kic3best.png \
	    usr/share/icons/crystalsvg/48x48/apps/kic3best.png \
	    usr/share/icons/crystalsvg/16x16/apps/kic3up.png \
	    usr/share/icons/crystalsvg/48x48/apps/kic3up.png
	svgz usr/share/icons/crystalsvg/16x16/apps/kicext.svgz

	# --- pixmaps, mime, applications
	xpm usr/share/pixmaps/kicpix.xpm
	# two mime types, compiled as on a real system: KF5 reads the
	# generic-icons file update-mime-database writes (x-kic/doc:kicpack),
	# KF6 every type of Qt's database, mime.cache (x-kic/sheet ->
	# x-kic-x-generic, the default generic icon)
	cat <<'XML' | put usr/share/mime/packages/kic.xml
<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="x-kic/doc"><comment>kic document</comment><generic-icon name="kicpack"/></mime-type>
  <mime-type type="x-kic/sheet"><comment>kic sheet</comment></mime-type>
</mime-info>
XML
	if command -v update-mime-database > /dev/null; then
		update-mime-database "$R/usr/share/mime"
	else
		printf 'x-kic/doc:kicpack\n' | put usr/share/mime/generic-icons
		printf 'x-kic/doc\nx-kic/sheet\n' | put usr/share/mime/types
		: | put usr/share/mime/mime.cache
	fi
	for n in kicbreeze kicbest kichi kicview-beta text-kicnote x-kic-doc kicpix kicnone \
	         kicpng kicfs kicapp kicsvg kicsym-extra-symbolic kicact kicoxy kicext \
	         kiccrys kic3best kic3up; do
		app "$n" "$n"
	done
	app kichi-png kichi.png
	app kicabs /usr/share/pixmaps/kicpix.xpm
}

# copy_all NAME: DEST/NAME as a copy of DEST/all
copy_all() {
	rm -rf "${DEST:?}/$1"
	cp -a "$DEST/all" "$DEST/$1"
	R=$DEST/$1
}

build_detect() {
	copy_all detect-none

	copy_all detect-kf5
	d=$R/usr/lib/x86_64-linux-gnu
	mkdir -p "$d"
	printf 'not really a library: detection looks at the name\n' > "$d/libKF5IconThemes.so.5"

	copy_all detect-kde4-48
	mkdir -p "$R/usr/lib"
	printf 'fake kdeui 4.8.4\n' > "$R/usr/lib/libkdeui.so.5.8.4"
	ln -s libkdeui.so.5.8.4 "$R/usr/lib/libkdeui.so.5"

	copy_all detect-kde4-414
	mkdir -p "$R/usr/lib"
	printf 'fake kdeui 4.14.2\n' > "$R/usr/lib/libkdeui.so.5.14.2"
	ln -s libkdeui.so.5.14.2 "$R/usr/lib/libkdeui.so.5"

	copy_all detect-kde3
	mkdir -p "$R/usr/lib"
	printf 'fake kdecore 3.5.10\n' > "$R/usr/lib/libkdecore.so.4.2.0"
	ln -s libkdecore.so.4.2.0 "$R/usr/lib/libkdecore.so.4"

	if ! command -v "${CC:-gcc}" > /dev/null 2>&1; then
		echo "$0: no C compiler: detect-kf6 and detect-kf6-nobreeze not built" >&2
		rm -rf "$DEST/detect-kf6" "$DEST/detect-kf6-nobreeze" "$DEST/detect-kf6-630" "$DEST/detect-kf6-619"
		return 0
	fi
	cc=${CC:-gcc}
	tmp=$DEST/.build
	rm -rf "$tmp"
	mkdir -p "$tmp"
	printf 'int kic_stub_breeze (void) { return 6; }\n' > "$tmp/breeze.c"
	printf 'int kic_stub_iconthemes (void) { return 6; }\n' > "$tmp/iconthemes.c"
	"$cc" -shared -fPIC -o "$tmp/libKF6BreezeIcons.so.6" -Wl,-soname,libKF6BreezeIcons.so.6 "$tmp/breeze.c"
	"$cc" -shared -fPIC -o "$tmp/with.so" -Wl,-soname,libKF6IconThemes.so.6 "$tmp/iconthemes.c" \
		-Wl,--no-as-needed "$tmp/libKF6BreezeIcons.so.6"
	"$cc" -shared -fPIC -o "$tmp/without.so" -Wl,-soname,libKF6IconThemes.so.6 "$tmp/iconthemes.c"

	copy_all detect-kf6
	d=$R/usr/lib/x86_64-linux-gnu
	mkdir -p "$d"
	cp "$tmp/with.so" "$d/libKF6IconThemes.so.6"
	cp "$tmp/libKF6BreezeIcons.so.6" "$d/libKF6BreezeIcons.so.6"

	copy_all detect-kf6-nobreeze
	d=$R/usr/lib/x86_64-linux-gnu
	mkdir -p "$d"
	cp "$tmp/without.so" "$d/libKF6IconThemes.so.6"

	copy_all detect-kf6-630
	d=$R/usr/lib/x86_64-linux-gnu
	mkdir -p "$d"
	cp "$tmp/with.so" "$d/libKF6IconThemes.so.6.30.0"
	ln -s libKF6IconThemes.so.6.30.0 "$d/libKF6IconThemes.so.6"
	cp "$tmp/libKF6BreezeIcons.so.6" "$d/libKF6BreezeIcons.so.6"

	copy_all detect-kf6-619
	d=$R/usr/lib/x86_64-linux-gnu
	mkdir -p "$d"
	cp "$tmp/without.so" "$d/libKF6IconThemes.so.6"
	cp "$tmp/without.so" "$d/libKF6IconThemes.so.6.19.1"
	cp "$tmp/without.so" "$d/libKF6IconThemes.so.6.9.0"
	rm -rf "$tmp"
}

build_all
build_detect
