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

# a root without KDE's icon library: the commands that model KDE say so
# once, with what was looked for; --clean, which models nothing, does not
cp -R "$TOP/demo" "$WORK/nolib"; rm -r "$WORK/nolib/usr/lib"
"$BIN" --root "$WORK/nolib" > /dev/null 2> "$WORK/err"
is "$(grep -c 'note: no KDE icon library in the root (none of libKF6IconThemes.so.6, libKF5IconThemes.so.5, libkdeui.so.5, libkdecore.so.4 in /usr/lib, /lib or their multiarch directories): modelling KDE Frameworks 5' "$WORK/err")" 1 \
  "no icon library: a rebuild notes it once, naming what it looked for and where"
"$BIN" --root "$WORK/nolib" --clean > /dev/null 2> "$WORK/err"
! grep -q 'icon library' "$WORK/err"
ok $? "... --clean does not"

# a user's run of what only root may do: one line that says so, and what
# works without; those do work
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
  cp -R "$TOP/demo" "$WORK/user"; "$BIN" -q --root "$WORK/user"
  chmod -R a+rX "$WORK/user"; chmod o+rx "$WORK"
  as_user () { setpriv --reuid 65534 --regid 65534 --clear-groups "$BIN" --root "$WORK/user" "$@"; }
  for cmd in --rebuild --clean; do
    as_user $cmd > /dev/null 2> "$WORK/err"
    st=$?
    [ $st -eq 3 ] && [ "$(wc -l < "$WORK/err")" -eq 1 ] &&
      grep -q "^kde-icon-cache: error: .*Permission denied (run as root to change the cache; --dry-run, --check, --list, --explain and --resolve work as any user)$" "$WORK/err"
    ok $? "$cmd as a user: exit 3 and one line saying to run it as root, and what works without"
    [ $? -eq 0 ] || sed 's/^/#   /' "$WORK/err"
  done
  st=0
  for cmd in --dry-run --check "--clean --dry-run" --list "--explain org.example.Viewer-beta" "--resolve kate"; do
    as_user $cmd > /dev/null 2> "$WORK/err" || { st=1; diag "as a user, $cmd failed: $(cat "$WORK/err")"; }
  done
  ok $st "... and what it says works as any user does"
  cp -R "$TOP/demo" "$WORK/closed"; chmod 700 "$WORK/closed"
  setpriv --reuid 65534 --regid 65534 --clear-groups "$BIN" --root "$WORK/closed" --list > /dev/null 2> "$WORK/err"
  is "$?/$(grep -c 'Permission denied' "$WORK/err")/$(grep -c 'run as root' "$WORK/err")" "3/1/0" \
    "a user's --list of a root it cannot read: the error, without 'run as root'"
else
  for i in 1 2 3 4; do skip "needs root and setpriv (a run as another user)"; done
fi

# bad values: an error naming the file and the key (exit 3: the file, not
# the command line, is wrong), and nothing changes
printf '[kde-icon-cache]\nPerSizeSets=maybe\n' > "$CONF"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
is $? 3 "PerSizeSets=maybe is an error (3)"
grep -q "$CONF: key 'PerSizeSets'" "$WORK/err"
ok $? "... naming the file and the key"
[ ! -e "$R/var/lib/kde-icon-cache" ]
ok $? "... and nothing is written"
printf '[kde-icon-cache]\nPerSizeSets=ture\n' > "$CONF"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
grep -q "$CONF: key 'PerSizeSets': 'ture' is not a boolean: give true, false, on, off, yes, no, 1 or 0" "$WORK/err"
ok $? "PerSizeSets=ture: the error quotes the value and names every spelling taken"
# a theme installed under another case: KDE would not find it, and every
# link would move to the fallback's places; an error naming the file and
# the installed spelling, before anything is planted
printf '[kde-icon-cache]\nThemes=Breeze\n' > "$CONF"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
is $? 3 "Themes=Breeze with breeze installed is an error (3)"
grep -q "error: $CONF: key 'Themes': no icon theme 'Breeze' in the root: the installed one is spelled 'breeze'" "$WORK/err"
ok $? "... naming the file and the installed spelling"
[ ! -e "$R/var/lib/kde-icon-cache" ]
ok $? "... and nothing is written"
"$BIN" --root "$R" --check > /dev/null 2>&1
is $? 3 "... and --check cannot tell (3)"
# a list split with another separator than the comma: one name, and a
# warning naming the key
printf '[kde-icon-cache]\nExtraNames=applications-all search\nThemes=breeze;oxygen\n' > "$CONF"
"$BIN" --root "$R" --dry-run > /dev/null 2> "$WORK/err"
is $? 0 "ExtraNames= with a space is no error"
grep -q "warning: $CONF: key 'ExtraNames': 'applications-all search' is taken as one name: separate names with commas" "$WORK/err"
ok $? "... but a warning naming the file, the key and the value"
grep -q "warning: $CONF: key 'Themes': 'breeze;oxygen' is taken as one name" "$WORK/err"
ok $? "Themes= split with ';': the same warning"
printf '[kde-icon-cache]\nSizes=16;48\n' > "$CONF"
"$BIN" --root "$R" --dry-run > /dev/null 2> "$WORK/err"
is "$?/$(grep -c "error: $CONF: key 'Sizes': invalid size '16;48': .* (separate sizes with commas: Sizes=16,48:4)$" "$WORK/err")" "3/1" \
  "Sizes=16;48: the error says the separator is the comma"
printf '[kde-icon-cache]\nExtraNames=applications-all,search\n' > "$CONF"
"$BIN" --root "$R" --dry-run > /dev/null 2> "$WORK/err"
! grep -q "taken as one name" "$WORK/err"
ok $? "ExtraNames= split with commas: no warning"
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
"$BIN" --root "$R" --theme Breeze --list > /dev/null 2> "$WORK/err"
grep -q "warning: --theme: no icon theme 'Breeze' in the root (the installed one is spelled 'breeze')" "$WORK/err"
ok $? "--theme Breeze: the warning names the installed spelling"
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
