#!/bin/sh
# admin.sh - what the admin is told: each warning once, naming the file;
# bad settings warned about or refused as the man page says
. "$(dirname "$0")/lib.sh"

R=$WORK/demo
cp -R "$TOP/demo" "$R"
CONF=$R/etc/kde-icon-cache.conf

# a junk line in breeze's index.theme: every resolver of the run (one per
# theme the proof takes) reads it, the admin hears of it once
cp -R "$TOP/demo" "$WORK/junk"
printf 'this line is junk\n' >> "$WORK/junk/usr/share/icons/breeze/index.theme"
"$BIN" --root "$WORK/junk" --dry-run > /dev/null 2> "$WORK/err"
is "$(grep -c 'warning: ' "$WORK/err")" 1 "a junk line in breeze/index.theme: one warning in a whole rebuild"
grep 'warning: ' "$WORK/err" | grep -q "$WORK/junk/usr/share/icons/breeze/index.theme"
ok $? "... naming the file"
! grep -q 'this line is junk' "$WORK/err"
ok $? "... without quoting the line"

# bad values: an error naming the file and the key (exit 3: the file, not
# the command line, is wrong), and nothing changes
printf '[kde-icon-cache]\nPerSizeSets=maybe\n' > "$CONF"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
is $? 3 "PerSizeSets=maybe is an error (3)"
grep -q "$CONF: key 'PerSizeSets'" "$WORK/err"
ok $? "... naming the file and the key"
[ ! -e "$R/var/lib/kde-icon-cache" ]
ok $? "... and nothing is written"
# an unknown key or group: a warning naming both, the run goes on
printf '[kde-icon-cache]\nSizez=16\n[Icons]\nTheme=oxygen\n' > "$CONF"
"$BIN" --root "$R" --dry-run > /dev/null 2> "$WORK/err"
is $? 0 "an unknown key is no error"
grep -q "warning: $CONF: unknown key 'Sizez'" "$WORK/err"
ok $? "... but a warning naming the file and the key"
grep -q "warning: $CONF: unknown group '\[Icons\]'" "$WORK/err"
ok $? "an unknown group is a warning naming it"
# a theme that is not installed: KDE would fall back to its default
printf '[kde-icon-cache]\nThemes=breeze,nosuch\n' > "$CONF"
"$BIN" --root "$R" --dry-run > /dev/null 2> "$WORK/err"
is $? 0 "Themes= with a theme that is not installed is no error"
is "$(grep -c "warning: $CONF: key 'Themes': no icon theme 'nosuch'" "$WORK/err")/$(grep -c "'breeze'" "$WORK/err")" "1/0" \
  "... but one warning naming the file, the key and that theme alone"
rm "$CONF"
"$BIN" --root "$R" --theme nosuch --list > /dev/null 2> "$WORK/err"
is $? 0 "--theme with a theme that is not installed is no error"
grep -q "warning: --theme: no icon theme 'nosuch'" "$WORK/err"
ok $? "... but a warning"
"$BIN" --root "$R" --theme breeze --list > /dev/null 2> "$WORK/err"
! grep -q "warning" "$WORK/err"
ok $? "an installed --theme: no warning"
# a theme whose index.theme lists no directory KDE takes (no Size=) is
# one KDE does not use: the same warning
mkdir -p "$R/usr/share/icons/kicnodirs/48x48/apps"
printf '[Icon Theme]\nName=No dirs\nDirectories=48x48/apps\n\n[48x48/apps]\nContext=Applications\n' \
  > "$R/usr/share/icons/kicnodirs/index.theme"
"$BIN" --root "$R" --theme kicnodirs --list > /dev/null 2> "$WORK/err"
grep -q "warning: --theme: no icon theme 'kicnodirs'" "$WORK/err"
ok $? "a theme with no valid directory: the same warning (KDE falls back)"

tap_done
