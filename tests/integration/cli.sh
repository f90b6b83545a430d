#!/bin/sh
# cli.sh - options, exit statuses, output formats
. "$(dirname "$0")/lib.sh"

plan 51

fixtures "$WORK/fx" basic empty
R=$WORK/fx/basic

"$BIN" --version > "$WORK/out" 2>&1
ok $? "--version exits 0"
grep -q '^kde-icon-cache [0-9]' "$WORK/out"
ok $? "--version prints the version"

"$BIN" --help > "$WORK/help" 2>&1
ok $? "--help exits 0"
missing=
for opt in --rebuild --check --clean --resolve --list --explain --size --dry-run --output --wait --problems \
           --icon-item --json --root --theme --kde --kde-version --verbose --quiet --version; do
  grep -q -- "^ *\(-[a-z], \)\?$opt[ =]" "$WORK/help" || missing="$missing $opt"
done
is "$missing" "" "--help names every option"
# NAME goes only with --resolve (optional: standard input) and --explain
is "$(sed -n '/^Usage:/,/^$/p' "$WORK/help" | grep -c NAME)/$(grep -c -e '--resolve.*\[NAME' -e '--explain.*] NAME' "$WORK/help")" \
  "2/2" "--help's synopsis has NAME only on the --resolve and --explain lines"

"$BIN" --root "$R" foo > /dev/null 2> "$WORK/err"; is $? 2 "a NAME without --resolve or --explain is a usage error (2)"
grep -q "Try 'kde-icon-cache --help'" "$WORK/err"
ok $? "a usage error points at --help"
"$BIN" --resolve --list > /dev/null 2>&1; is $? 2 "two modes are a usage error"
"$BIN" --resolve --size 0 foo > /dev/null 2>&1; is $? 2 "size 0 is a usage error"
"$BIN" --resolve --size 12px foo > /dev/null 2>&1; is $? 2 "a size with junk is a usage error"
"$BIN" --bogus > /dev/null 2>&1; is $? 2 "an unknown option is a usage error"
"$BIN" --explain > /dev/null 2>&1; is $? 2 "--explain without NAME is a usage error"
"$BIN" --resolve --icon-item foo > /dev/null 2>&1; is $? 2 "--icon-item without --explain is a usage error"
"$BIN" --list --dry-run > /dev/null 2>&1; is $? 2 "--dry-run without --rebuild or --clean is a usage error"
"$BIN" --output relative/dir --list > /dev/null 2>&1; is $? 2 "a relative --output is a usage error"
"$BIN" --rebuild --size 48:0 > /dev/null 2>&1; is $? 2 "a weight of 0 is a usage error"

"$BIN" --root "$WORK/no-such-dir" --list > /dev/null 2> "$WORK/err"; is $? 3 "a missing root is a runtime error (3)"
grep -q "no-such-dir" "$WORK/err"
ok $? "the error names the root"
"$BIN" --root "$WORK/no-such-dir" --check > /dev/null 2>&1; is $? 3 "--check that cannot tell exits 3, not 1 (out of date)"

# a usage error found at run time is still a usage error, with one wording
"$BIN" --root "$R" --kde-version 4.8 --resolve kate > /dev/null 2> "$WORK/err-auto"
is $? 2 "--kde-version with a detected KDE that is not KDE 4 is a usage error (2)"
"$BIN" --root "$R" --kde=kf5 --kde-version 4.8 --resolve kate > /dev/null 2> "$WORK/err-kf5"
is $? 2 "--kde-version with --kde=kf5 is a usage error (2)"
is "$(sed -n '1s/ (.*//p' "$WORK/err-auto")" "$(sed -n '1p' "$WORK/err-kf5")" "... and both say so in the same words"

# under --root, messages name files by their host path (as update-alternatives
# --root does); a mime file that is there but cannot be read is warned about
cp -a "$R" "$WORK/big"
truncate -s 17M "$WORK/big/usr/share/mime/generic-icons"
"$BIN" --root "$WORK/big" --list > /dev/null 2> "$WORK/err"
grep -q "^kde-icon-cache: warning: $WORK/big/usr/share/applications/broken\.desktop: " "$WORK/err"
ok $? "a warning about a .desktop file names its host path"
grep -q "^kde-icon-cache: warning: '$WORK/big/usr/share/mime/generic-icons' is larger than" "$WORK/err"
ok $? "a mime file that cannot be read is warned about, by its host path"

# --resolve: arguments and standard input give the same lines
"$BIN" --root "$R" --resolve kate kicnothere > "$WORK/args"
printf 'kate\nkicnothere\n' | "$BIN" --root "$R" --resolve > "$WORK/stdin"
cmp -s "$WORK/args" "$WORK/stdin"
ok $? "--resolve reads names from stdin when none are given"
is "$(cut -f2 "$WORK/args" | tail -n 1)" "-" "a name KDE cannot find prints '-'"
long=$(printf '%010000d' 0)
printf '%s\nkate\n' "$long" | "$BIN" --root "$R" --resolve | cut -f1 | awk '{ print length($0) }' > "$WORK/lengths"
is "$(tr '\n' ' ' < "$WORK/lengths")" "10000 4 " "a name of 10000 bytes on stdin is one name, not split"
is "$(cut -f1 "$WORK/args" | head -n 1)" "kate" "the first column is the name as given"

# kdeglobals [DesktopIcons] Size= is read as KConfig's readEntry(key, 0)
# reads it (checked with KF5 5.103): "22px" is no number, so 0, and KDE
# takes the theme's DesktopDefault (48 in the fixture's breeze)
cp -a "$R" "$WORK/kg"
printf '\n[DesktopIcons]\nSize=22px\n' >> "$WORK/kg/etc/xdg/kdeglobals"
is "$("$BIN" -q --root "$WORK/kg" --explain kate | sed -n '1s/.* at \([0-9]*\) px.*/\1/p')" 48 \
  "kdeglobals Size=22px is no size: the theme's default counts"
sed -i 's/^Size=22px$/Size= 22 /' "$WORK/kg/etc/xdg/kdeglobals"
is "$("$BIN" -q --root "$WORK/kg" --explain kate | sed -n '1s/.* at \([0-9]*\) px.*/\1/p')" 22 \
  "kdeglobals Size= 22 is 22"

# --resolve prints paths inside the root
case $(cut -f2 "$WORK/args" | head -n 1) in
  /usr/share/icons/*) ok 0 "paths are as seen inside --root" ;;
  *) ok 1 "paths are as seen inside --root" ;;
esac

# --list: six tab-separated fields, four menu sizes per entry with an icon
"$BIN" -q --root "$R" --list > "$WORK/list"
awk -F '\t' 'NF != 6 { bad = 1 } END { exit bad }' "$WORK/list"
ok $? "--list lines have six fields"
is "$(awk -F '\t' '$2 != "" { print $3 }' "$WORK/list" | sort -u | tr '\n' ' ')" "16 22 32 48 " \
  "--list covers 16, 22, 32 and 48 px"

# --json is valid JSON with the same counts as the text listing
"$BIN" -q --root "$R" --list --json > "$WORK/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(s["calls"] for e in d["desktop_files"] for s in e["sizes"]))' \
  "$WORK/json" > "$WORK/json-sum" 2>&1
ok $? "--list --json is valid JSON"
is "$(cat "$WORK/json-sum")" "$(awk -F '\t' '{ s += $5 } END { print s }' "$WORK/list")" \
  "--json and the text listing report the same calls"
# strings JSON must escape, and a byte that is not UTF-8 (written as U+FFFD)
mkdir -p "$WORK/esc/usr/share/applications"
printf '[Desktop Entry]\nName=x\nIcon=a"b\\\\c\t\n' > "$WORK/esc/usr/share/applications/$(printf 'q"\\\001\377').desktop"
"$BIN" -q --root "$WORK/esc" --list --json > "$WORK/esc.json"
python3 - "$WORK/esc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
e = d["desktop_files"][0]
assert e["id"] == 'q"\\\x01\ufffd.desktop', e["id"]
assert e["icon"] == 'a"b\\c', e["icon"]  # the key file's \\ is one backslash
PY
ok $? "--list --json escapes quotes, backslashes and control characters, and writes U+FFFD for a bad byte"

# json-glib and libXpm are linked the ordinary way: the program names
# them as needed libraries, so dpkg-shlibdeps gives the package its
# dependencies on them (debian/control names none by hand)
needed=$(objdump -p "$BIN" 2>/dev/null | sed -n 's/^ *NEEDED *//p' | tr '\n' ' ')
case " $needed " in
*" libjson-glib-1.0.so.0 "*" libXpm.so.4 "*) ok 0 "the program needs json-glib and libXpm ($needed)" ;;
*) ok 1 "the program needs json-glib and libXpm ($needed)" ;;
esac
! sed -n '/^Package:/,$p' "$TOP/debian/control" | grep -q 'libjson-glib-1.0-0\|libxpm4'
ok $? "debian/control names no library package by hand"
# an XPM that becomes its PNG twin (tests/fixtures: the basic tree has none)
mkdir -p "$WORK/xpm/usr/share/icons/hicolor/16x16/apps" "$WORK/xpm/usr/share/applications"
cp -r "$R/usr/share/icons/hicolor/index.theme" "$WORK/xpm/usr/share/icons/hicolor/"
printf '/* XPM */\nstatic char *x[] = {\n"2 2 1 1",\n". c #ff0000",\n"..",\n".."};\n' \
  > "$WORK/xpm/usr/share/icons/hicolor/16x16/apps/kicxpm.xpm"
printf '[Desktop Entry]\nType=Application\nName=x\nExec=true\nIcon=kicxpm\n' > "$WORK/xpm/usr/share/applications/kicxpm.desktop"
"$BIN" -q --root "$WORK/xpm" --rebuild
grep -q '^file	.*kicxpm\.xpm\.png	' "$WORK/xpm/var/lib/kde-icon-cache/manifest"
ok $? "a rebuild turns an XPM into its PNG twin"

# --explain: numbered calls, the last line gives the same count as --list
line=$(grep -P '^hiall\.desktop\t' "$WORK/list" | awk -F '\t' '$3 == 48')
icon=$(echo "$line" | cut -f2)
"$BIN" -q --root "$R" --explain --size 48 "$icon" > "$WORK/explain"
n=$(grep -c '^ *[0-9][0-9]*  ' "$WORK/explain")
is "$n $(echo "$line" | cut -f5)" "$(echo "$line" | cut -f5) $(echo "$line" | cut -f5)" \
  "--explain numbers exactly as many calls as --list counts"

# what it prints reads as written for a person: one thing is singular, a
# dry run says what it would do, and the terms --explain prints are those
# --help explains
D=$WORK/demo; cp -R "$TOP/demo" "$D"
"$BIN" --root "$D" --dry-run 2> "$WORK/err" > /dev/null
grep -q '; links 2 to add, 0 to replace, 0 to remove, 0 to keep, 0 refused (dry run: nothing changed)$' "$WORK/err"
ok $? "a dry run's summary says what it would do to the links"
"$BIN" -q --root "$D"
"$BIN" --root "$D" --clean --dry-run 2> "$WORK/err" > /dev/null
is "$(cat "$WORK/err")" "kde-icon-cache: would remove 2 links and 1 copy (dry run: nothing removed)" \
  "--clean --dry-run: 'would remove', and '1 copy'"
"$BIN" --root "$D" --clean 2> "$WORK/err" > /dev/null
is "$(cat "$WORK/err")" "kde-icon-cache: removed 2 links and 1 copy" "--clean: 'removed', and '1 copy'"
cp -R "$TOP/demo" "$WORK/one"; find "$WORK/one/usr/share/applications" -name "*.desktop" ! -name oldgame.desktop -delete
"$BIN" --root "$WORK/one" --dry-run 2> "$WORK/err" > /dev/null
grep -q '^kde-icon-cache: 1 desktop file, 1 name: ' "$WORK/err"
ok $? "one desktop file and one name: singular"
printf '[Icon Theme]\nName=C\nDirectories=16x16/actions\n[16x16/actions]\nSize=16\nContext=Actions\nType=Fixed\n' > "$WORK/ct"
mkdir -p "$D/usr/share/icons/crystalsvg/16x16/actions" && mv "$WORK/ct" "$D/usr/share/icons/crystalsvg/index.theme"
: > "$D/usr/share/icons/crystalsvg/16x16/actions/kicone.png"
"$BIN" --root "$D" --kde=kde3 --explain --size 16 kicone > "$WORK/explain" 2>&1
is "$(tail -n 1 "$WORK/explain")" "=> /usr/share/icons/crystalsvg/16x16/actions/kicone.png (theme, 1 call)" \
  "--explain: '1 call'"
"$BIN" --help > "$WORK/help" 2>&1
missing=
for via in theme generic user absolute; do
  grep -q -- "--explain .*[ (]$via (" "$WORK/help" || missing="$missing $via"
done
is "$missing" "" "--help explains each place --explain's last line names (theme, generic, user, absolute)"
grep -q 'A rebuild and --clean$' "$WORK/help" && grep -q '^run as root; --dry-run and the other modes work as any user' "$WORK/help"
ok $? "--help says what needs root"
missing=
for via in theme generic user absolute; do grep -qx ".B $via" "$TOP/man/kde-icon-cache.8" || missing="$missing $via"; done
is "$missing" "" "... and the man page explains them too"
grep -q 'A rebuild and `--clean` run as root' "$TOP/README.md" && grep -q '^change files only root may change' "$TOP/man/kde-icon-cache.8"
ok $? "... and README and the man page say what needs root"
# KDE 4 and 3 on a root without their default theme: nothing, at 0
# calls, and a warning that says why
rm -r "$D/usr/share/icons/crystalsvg"
"$BIN" --root "$D" --kde=kde4 --explain org.example.Paint > "$WORK/explain" 2> "$WORK/err"
is "$(cat "$WORK/err")" "kde-icon-cache: warning: KDE 4 searches no icon theme in this root: its default theme 'oxygen' is not installed (or has no directory it takes), so it finds no icon at all, at 0 calls" \
  "--kde=kde4 on the demo: a warning saying why it finds nothing"
grep -q '; themes searched: none$' "$WORK/explain"
ok $? "... and --explain says 'themes searched: none'"

finish
