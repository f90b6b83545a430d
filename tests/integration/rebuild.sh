#!/bin/sh
# rebuild.sh - --rebuild, --dry-run, --check, --clean on a fixture root:
# what is written, that a second run writes nothing, that nothing of
# anyone else is touched, and that --clean gives the tree back
. "$(dirname "$0")/lib.sh"

plan 29
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
S=/var/lib/kde-icon-cache
tree_state "$R" > "$WORK/pristine"

icon_names "$R" > "$WORK/names"
loaded_content "$R" < "$WORK/names" > "$WORK/before-resolve"

# --dry-run writes nothing and says what it would do
"$BIN" -q --root "$R" --dry-run > "$WORK/dry"
ok $? "--dry-run exits 0"
tree_state "$R" > "$WORK/after-dry"
cmp -s "$WORK/pristine" "$WORK/after-dry"
ok $? "--dry-run changes nothing on disk"
grep -q "^link	" "$WORK/dry"
ok $? "--dry-run lists the links it would plant"

"$BIN" -q --root "$R" --check; is $? 1 "--check says a fresh tree is out of date (1)"

# the rebuild
"$BIN" -q --root "$R" --json > "$WORK/report"
ok $? "--rebuild exits 0"
links=$(grep -c '^link	' "$R$S/manifest")
[ "$links" -gt 0 ]
ok $? "the manifest lists the planted links ($links)"
is "$(grep -c '^link	' "$WORK/dry")" "$links" "the dry run announced exactly the links planted"
manifest_consistent "$R"
ok $? "every manifest entry is on disk as recorded"
is "$(dangling_links "$R" | wc -l)" 0 "no link into the store dangles"
bad=$(awk -F '\t' '$1 == "link" && $3 ~ /^\// { print }' "$R$S/manifest" | wc -l)
is "$bad" 0 "link targets are relative"
is "$(stat -c %a "$R$S/manifest")" 644 "the manifest is mode 0644"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/report"
ok $? "--json gives a valid report"

# what KDE finds is the same content at every size
loaded_content "$R" < "$WORK/names" > "$WORK/after-resolve"
cmp -s "$WORK/before-resolve" "$WORK/after-resolve"
ok $? "KDE loads the same content for every menu name at 16, 22, 32 and 48 px"
"$BIN" -q --root "$R" --check; is $? 0 "--check says the tree is up to date after a rebuild (0)"

# a second run writes nothing at all
sleep 1.1
touch "$WORK/stamp"
tree_state "$R" > "$WORK/built"
"$BIN" -q --root "$R"
ok $? "a second --rebuild exits 0"
changed=$(find "$R" -newer "$WORK/stamp" | wc -l)
is "$changed" 0 "a second --rebuild writes nothing (find -newer is empty)"
tree_state "$R" > "$WORK/rebuilt"
cmp -s "$WORK/built" "$WORK/rebuilt"
ok $? "a second --rebuild leaves every file, link and time as it was"

# never clobber: a file of someone else's at a planted path
victim=$(awk -F '\t' '$1 == "link" { print $2; exit }' "$R$S/manifest")
rm "$R$victim"
echo "not ours" > "$R$victim"
"$BIN" --root "$R" 2> "$WORK/err"
ok $? "a rebuild with a foreign file in the way exits 0"
is "$(cat "$R$victim")" "not ours" "the foreign file is left alone"
grep -Eq "$victim' (exists and is not|is no longer) a link of ours" "$WORK/err"
ok $? "the foreign file is reported"
rm "$R$victim"
"$BIN" -q --root "$R"

# a removed .desktop file takes its links with it
gone=$(awk -F '\t' '$1 == "link" { print $2; exit }' "$R$S/manifest")
stem=$(basename "$gone"); stem=${stem%.*}
grep -l "^Icon=$stem\$" "$R"/usr/share/applications/*.desktop | xargs rm -f
"$BIN" -q --root "$R"
[ ! -e "$R$gone" ] && [ ! -L "$R$gone" ]
ok $? "links of a removed menu entry are removed ($stem)"
manifest_consistent "$R"
ok $? "the manifest still matches the disk"

# GTK's icon-theme.cache stays valid: GTK compares its time with the
# theme directory's, gtk-update-icon-cache with every file's below it
fixtures "$WORK/fx3" basic
R3=$WORK/fx3/basic
if command -v gtk-update-icon-cache > /dev/null; then
  gtk-update-icon-cache -q -t "$R3/usr/share/icons/breeze"
  find "$R3/usr/share/icons/breeze" -type d -printf '%p %T@\n' | sort > "$WORK/gtk-dirs-before"
  sleep 1.1
  "$BIN" -q --root "$R3"
  find "$R3/usr/share/icons/breeze" -type d -printf '%p %T@\n' | sort > "$WORK/gtk-dirs-after"
  grep -q 'usr/share/icons/breeze/' "$R3$S/manifest" && cmp -s "$WORK/gtk-dirs-before" "$WORK/gtk-dirs-after"
  ok $? "theme directories that got links keep their times (GTK's cache check)"
  cache_time=$(stat -c %Y "$R3/usr/share/icons/breeze/icon-theme.cache")
  gtk-update-icon-cache -q -t "$R3/usr/share/icons/breeze"
  is "$(stat -c %Y "$R3/usr/share/icons/breeze/icon-theme.cache")" "$cache_time" \
    "gtk-update-icon-cache still finds the cache up to date"
else
  ok 0 "# SKIP gtk-update-icon-cache is not installed"
  ok 0 "# SKIP gtk-update-icon-cache is not installed"
fi

# the manifest is readable by a shell loop: the man page's emergency undo
fixtures "$WORK/fx4" basic
R4=$WORK/fx4/basic
"$BIN" -q --root "$R4"
while IFS=$(printf '\t') read -r kind path rest; do
  [ "$kind" = link ] && [ -L "$R4$path" ] && rm "$R4$path"
done < "$R4$S/manifest"
is "$(find "$R4" -type l -lname '*var/lib/kde-icon-cache/*' | wc -l)" 0 \
  "the man page's shell loop over the manifest removes every planted link"

# ... and so do they after an incremental rebuild that plants beside the
# last run's links: the state's listing of such a directory leaves our
# links out, and they must not be taken for someone else's change (the
# time then left as it is would invalidate GTK's cache and make the next
# run plan again)
fixtures "$WORK/fx4" basic
R4=$WORK/fx4/basic
"$BIN" -q --root "$R4"
svg_file "$R4" usr/share/icons/hicolor/scalable/apps/kicincr.svg '#aa0000'
printf '[Desktop Entry]\nType=Application\nName=kicincr\nExec=true\nIcon=kicincr\n' \
  > "$R4/usr/share/applications/kicincr.desktop"
find "$R4/usr/share/icons" "$R4/usr/local/share/icons" -type d -printf '%p %T@\n' | sort > "$WORK/incr-before"
sleep 0.05
"$BIN" -v --root "$R4" > "$WORK/incr.out" 2>&1
find "$R4/usr/share/icons" "$R4/usr/local/share/icons" -type d -printf '%p %T@\n' | sort > "$WORK/incr-after"
grep -q 'planned again' "$WORK/incr.out" && grep -q 'links [1-9][0-9]* added' "$WORK/incr.out" \
  && cmp -s "$WORK/incr-before" "$WORK/incr-after"
ok $? "an incremental rebuild that plants beside the last one's links keeps the directories' times"
sleep 0.05
"$BIN" --root "$R4" > "$WORK/incr2.out" 2>&1
grep -q 'nothing to do' "$WORK/incr2.out"
ok $? "... and the run after it has nothing to do"

# --clean gives the tree back, byte for byte, times included
fixtures "$WORK/fx2" basic
R2=$WORK/fx2/basic
mkdir -p "$R2/var/lib"   # as on any system; the store's parent changes time with it
tree_state "$R2" "$S" | LC_ALL=C grep -av '^\./var/lib d ' > "$WORK/before-clean"
"$BIN" -q --root "$R2"
"$BIN" -q --root "$R2" --clean
ok $? "--clean exits 0"
tree_state "$R2" "$S" | LC_ALL=C grep -av '^\./var/lib d ' > "$WORK/after-clean"
cmp -s "$WORK/before-clean" "$WORK/after-clean"
ok $? "--clean gives the tree back as it was, directory times included"
diff "$WORK/before-clean" "$WORK/after-clean" | head -n 5 | sed 's/^/#   /'
finish
