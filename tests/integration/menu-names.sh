#!/bin/sh
# menu-names.sh - the names beyond the applications' Icon=: the menu's
# categories (.directory files of desktop-directories and of a .menu
# file's <DirectoryDir>) and ExtraNames= of /etc/kde-icon-cache.conf
. "$(dirname "$0")/lib.sh"

plan 10
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
P=usr/share/icons/breeze/places/64

# svg NAME: an icon in breeze's places/64 only (no target size fits it, so
# a lookup at 16-48 px scans the whole theme), with its own content
svg () {
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><!-- %s --><rect width="64" height="64" fill="#%s"/></svg>\n' \
    "$1" "$2" > "$R/$P/$1.svg"
}
svg kic-category 113355; svg kic-menudir 224466; svg kic-extra 335577; svg kic-unnamed 446688; svg kic-hiddencat 557799
# a category icon with another drawing at 16 px: links would change it
svg kic-twocat 6688aa
sed 's/6688aa/77aa00/' "$R/$P/kic-twocat.svg" > "$R/usr/share/icons/breeze/apps/16/kic-twocat.svg"
mkdir -p "$R/usr/share/desktop-directories" "$R/opt/kicmenu/sub" "$R/etc/xdg/menus"
printf '[Desktop Entry]\nType=Directory\nName=Category\nIcon=kic-category\n' > "$R/usr/share/desktop-directories/kic-cat.directory"
printf '[Desktop Entry]\nType=Directory\nName=Two\nIcon=kic-twocat\n' > "$R/usr/share/desktop-directories/kic-two.directory"
printf '[Desktop Entry]\nType=Directory\nName=Gone\nIcon=kic-hiddencat\nHidden=true\n' > "$R/usr/share/desktop-directories/kic-gone.directory"
printf '[Desktop Entry]\nType=Directory\nName=Sub\nIcon=kic-menudir\n' > "$R/opt/kicmenu/sub/kic-sub.directory"
cat > "$R/etc/xdg/menus/kic-applications.menu" <<'MENU'
<!DOCTYPE Menu PUBLIC "-//freedesktop//DTD Menu 1.0//EN"
 "http://www.freedesktop.org/standards/menu-spec/1.0/menu.dtd">
<Menu>
  <Name>Applications</Name>
  <DefaultAppDirs/>
  <DefaultDirectoryDirs/>
  <Menu>
    <Name>Sub</Name>
    <DirectoryDir>/opt/kicmenu</DirectoryDir>
    <Directory>sub/kic-sub.directory</Directory>
  </Menu>
</Menu>
MENU
# a .menu file that is not XML is a warning, not a failure
echo '<Menu><DirectoryDir>' > "$R/etc/xdg/menus/broken.menu"
printf '[kde-icon-cache]\nExtraNames=kic-extra, kic-extra.svg\n' > "$R/etc/kde-icon-cache.conf"
printf '%s\n' kic-category kic-menudir kic-extra kic-unnamed kic-hiddencat kic-twocat > "$WORK/names"

if [ -x "$ORACLE" ]; then
  # shellcheck disable=SC2046
  theirs "$R" breeze $(seq 8 256) < "$WORK/names" > "$WORK/kde-before"
fi
"$BIN" --root "$R" --json > "$WORK/report" 2> "$WORK/err"
ok $? "a rebuild with .directory files, a .menu file and ExtraNames= exits 0"
status () { # status NAME: the planner's verdict, "absent" when not planned
  python3 -c 'import json,sys
names = {n["name"]: n["status"] for n in json.load(open(sys.argv[1]))["names"]}
print(names.get(sys.argv[2], "absent"))' "$WORK/report" "$1"
}
is "$(status kic-category)" planted "the Icon= of a desktop-directories .directory file is planted"
is "$(status kic-menudir)" planted "the Icon= of a .directory file in a .menu file's <DirectoryDir> is planted"
is "$(status kic-extra)" planted "an ExtraNames= name is planted"
is "$(status kic-twocat)" unchanged "a category icon breeze itself draws at 16 px is the theme's own: left unchanged, not planted"
is "$(status kic-unnamed)" absent "a name nothing names is not planned"
is "$(status kic-hiddencat)" absent "a Hidden=true .directory file is left out"
grep -q 'broken.menu' "$WORK/err"
ok $? "a broken .menu file is named in a warning"
"$BIN" -q --root "$R" --check
ok $? "--check right after says the cache is current"
if [ -x "$ORACLE" ]; then
  # shellcheck disable=SC2046
  theirs "$R" breeze $(seq 8 256) < "$WORK/names" > "$WORK/kde-after"
  paste "$WORK/kde-before" "$WORK/kde-after" | awk -F '\t' -v r="$R" '$3 != $6 { print r $3 "\t" r $6 }' |
    while IFS="$(printf '\t')" read -r b a; do cmp -s "$b" "$a" || echo "# $b -> $a"; done > "$WORK/changed"
  [ ! -s "$WORK/changed" ] && [ -s "$WORK/kde-after" ]
  ok $? "KF5 loads the same content for these names at every size 8-256 after the rebuild"
  cat "$WORK/changed"
else
  skip "KF5 helper not built" 1
fi
finish
