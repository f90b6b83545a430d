#!/bin/sh
# fingerprint.sh - a rebuild with no input changed stops at the
# fingerprint, and any change of any kind of input leads to a full plan
#
# A full plan prints its summary ("N desktop files, ..."); a stop at the
# fingerprint says "nothing to do".  Each kind of input is changed in turn;
# after each, the run must plan in full, and the run after it stop again.
. "$(dirname "$0")/lib.sh"

plan 59
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
S=/var/lib/kde-icon-cache

run () { "$BIN" --root "$R" "$@" 2>&1; }
planned () { grep -q 'desktop files\?, ' "$WORK/out"; }
stopped () { grep -q 'nothing to do' "$WORK/out" && ! planned; }

# git's racy rule: a stamp within a tick of the file system's clock (4 ms)
# of its read proves nothing and matches nothing, so a change is given a
# few ticks to age before the run that reads it (else the run after that
# plans once more: hardening-3.sh tests that)
tick () { sleep 0.05; }
tick
run > "$WORK/out"
planned
ok $? "the first rebuild plans"
[ -f "$R$S/fingerprint" ]
ok $? "it records a fingerprint in the store"
run > "$WORK/out"
stopped
ok $? "the second rebuild stops at the fingerprint"
"$BIN" -q --root "$R" --check
is $? 0 "--check stops there too, up to date (0)"

# changed DESCRIPTION [OPTION...]: the run after the change plans; the
# next stops
changed () {
  _what=$1; shift
  tick
  run "$@" > "$WORK/out"
  planned
  ok $? "$_what -> a full plan"
  run "$@" > "$WORK/out"
  stopped
  ok $? "$_what, then nothing -> a stop"
}
changed_check () { # --check must not stop on a change either
  "$BIN" -v --root "$R" --check > "$WORK/out" 2>&1
  grep -q "fingerprint: .* changed" "$WORK/out" && ! grep -q 'nothing to do' "$WORK/out"
  ok $? "$1 -> --check plans"
}

# a file added to a theme directory (its listing)
cp "$R/usr/share/icons/breeze/apps/22/kate.svg" "$R/usr/share/icons/breeze/apps/22/kicnew.svg"
changed "an icon added in a theme directory"
# a file removed from one
rm "$R/usr/share/icons/breeze/apps/22/kicnew.svg"
changed "an icon removed from a theme directory"
# a .desktop file written in place (its directory's listing stays)
printf 'X-Kic-Test=1\n' >> "$R/usr/share/applications/kate.desktop"
changed "a .desktop file written in place"
# the same for one whose name the fingerprint writes escaped (a quote, a
# backslash, UTF-8): its stamp is of the file itself
odd="kic \"é\\\\x.desktop"
cp "$R/usr/share/applications/kate.desktop" "$R/usr/share/applications/$odd"
changed "a .desktop file with a name written escaped added"
grep -qF 'kic \"\303\251\\\\x.desktop' "$R$S/fingerprint"
ok $? "the fingerprint names it escaped"
printf 'X-Kic-Test=1\n' >> "$R/usr/share/applications/$odd"
changed "that .desktop file written in place"
# a quote alone is escaped too (the one byte of its name to escape)
cp "$R/usr/share/applications/kate.desktop" "$R/usr/share/applications/kic\"q.desktop"
changed "a .desktop file with a quote in its name added"
grep -qF 'applications/kic\"q.desktop' "$R$S/fingerprint"
ok $? "the fingerprint names it escaped, as g_strescape() writes it"
# a new applications directory appears where there was none
mkdir -p "$R/usr/local/share/applications"
cp "$R/usr/share/applications/kate.desktop" "$R/usr/local/share/applications/kic-local.desktop"
changed "a data directory that did not exist"
# kdeglobals rewritten in place
printf '[Icons]\nTheme=breeze\n\n[General]\nX-Kic=1\n' > "$R/etc/xdg/kdeglobals"
changed "kdeglobals rewritten"
# the configuration file appears, then changes
printf '[kde-icon-cache]\nSizes=16:1,48:4\n' > "$R/etc/kde-icon-cache.conf"
changed "the configuration file created"
printf '[kde-icon-cache]\nSizes=22:1,48:4\n' > "$R/etc/kde-icon-cache.conf"
changed "the configuration file rewritten"
rm "$R/etc/kde-icon-cache.conf"
changed "the configuration file removed"
# an icon whose content the proof compares, rewritten in place
icon=$(awk -F '\t' '$1 == "file" { print $3; exit }' "$R$S/manifest")
[ -n "$icon" ] && [ -f "$R$icon" ]
ok $? "the manifest names a source icon ($icon)"
printf '<!-- kic -->\n' >> "$R$icon"
changed "a source icon rewritten in place"
# the manifest (the store's own state)
printf '# kic\n' >> "$R$S/manifest"
changed "the manifest edited"
# the settings: an option, the environment, the KDE generation
changed "another --size" --size 32
changed "another --kde" --kde kf6
XDG_DATA_DIRS=/usr/share:/usr/local/share
export XDG_DATA_DIRS
changed "another XDG_DATA_DIRS"
unset XDG_DATA_DIRS
run > /dev/null
# --check plans on a change too
touch "$R/usr/share/icons/breeze/apps/22/kicnew2.svg"
tick
changed_check "an icon added, then --check"

# A directory only root may write is stamped by its mode and owner, not
# its change time (the writer plants there); a setfacl moves only the
# change time.  Its state holds, as a sixth number, the change time its
# ACL was known at, and the look asks the ACL only when that moved
# (stamp.c): a setfacl on a directory nothing is planted in, whose ACL the
# look before did not ask, is seen, as on one links are planted in.
if command -v setfacl > /dev/null; then
  tick
  run > /dev/null
  planted=$(awk -F '\t' '$1 == "link" { n = split($2, p, "/"); sub("/" p[n] "$", "", $2); print $2 }' "$R$S/manifest" |
    sort -u)
  six () { awk -F '\t' '$1 == "d" && $3 ~ /^\/usr\/share\/icons\// && split($2, f, " ") == 6 { print $3 }' "$R$S/fingerprint"; }
  U=$(six | grep -vxF "$planted" | head -n 1)
  P=$(six | grep -xF "$planted" | head -n 1)
  [ -n "$U" ] && [ -n "$P" ]
  ok $? "the fingerprint holds the change time a directory's ACL was known at ($U, unplanted; $P, planted)"
  setfacl -m u:nobody:0 "$R$U"
  changed "a setfacl on a directory only root may write, nothing planted in it"
  setfacl -m u:nobody:0 "$R$P"
  changed "a setfacl on one links are planted in"
  setfacl -b "$R$U" "$R$P"
  changed "both ACLs removed"
else
  skip "needs setfacl (acl)" 7
fi

# A fingerprint edited by hand is a reason to skip work at most until the
# next change, never for good: a line dropped, a state rewritten to what
# the input is now, or nothing but the manifest all lead to a full plan,
# which writes what an honest run writes.
F=$R$S/fingerprint
D=/usr/share/icons/breeze/apps/22
tick
run > /dev/null
run > "$WORK/out"
stopped
ok $? "forgeries: the run before them stops"
snapshot () { (cd "$R" && find . -path ./var/lib/kde-icon-cache/fingerprint -prune -o -printf '%y %p %l\n' | LC_ALL=C sort); }
forged () { # forged DESCRIPTION: the run after the forgery plans, with the honest result
  tick
  run > "$WORK/out"
  planned
  ok $? "$1 -> a full plan"
  snapshot > "$WORK/forged.tree"
  rm -f "$F"
  run > /dev/null
  snapshot > "$WORK/honest.tree"
  cmp -s "$WORK/forged.tree" "$WORK/honest.tree"
  ok $? "$1 -> the same links and files as an honest run"
}
# the state of directory $1 (only root's to write, no ACL) as the
# fingerprint writes it: device, inode, modification time, mode, owner
# (and, when one vouches for its ACL, the change time, which a state may
# leave out)
dir_state () {
  printf '%s %s %s %d %s' "$(stat -c %d "$R$1")" "$(stat -c %i "$R$1")" "$(date -r "$R$1" +%s%N)" \
    "0$(stat -c %a "$R$1")" "$(stat -c %u "$R$1")"
}
grep -q "^d	$(dir_state $D)\( [0-9]*\)\{0,1\}	$D\$" "$F"
ok $? "the test writes a directory's state as the fingerprint does"
cp "$R$D/kate.svg" "$R$D/kicforged1.svg"
grep -v "	$D\$" "$F" > "$WORK/fp" && cat "$WORK/fp" > "$F"
forged "an icon added, its directory's line dropped"
cp "$R$D/kate.svg" "$R$D/kicforged2.svg"
awk -F '\t' -v OFS='\t' -v d="$D" -v s="$(dir_state $D)" '$3 == d { $2 = s } { print }' "$F" > "$WORK/fp" &&
  cat "$WORK/fp" > "$F"
grep -q "^d	$(dir_state $D)	$D\$" "$F"
ok $? "(the forged line claims the directory as it is now)"
forged "an icon added, its directory's state rewritten"
cp "$R$D/kate.svg" "$R$D/kicforged3.svg"
sed -n '1,2p; /	\/var\/lib\/kde-icon-cache\/manifest$/p' "$F" > "$WORK/fp" && cat "$WORK/fp" > "$F"
forged "an icon added, nothing but the manifest left"

# A change made while the run waits for the lock, after its first look
# (which takes none) found none: a --clean, a package, another run.  The
# look under the lock sees it, and the run plans as after any change, from
# nothing the first look said: a link of ours removed then is planted
# again (the first look's stamps would have called its directory as the
# last rebuild left it), and the run after it stops.
tick
run > /dev/null
run > "$WORK/out"
L=$(grep '^link	' "$R$S/manifest" | head -n 1 | cut -f 2)
# The lock is held until the run has looked and found it taken (a hook
# holds the run after its first try of the lock); then the link goes, and
# the lock is let go.  (The removal aged a few ticks before, as any change
# here: a run that read its directory within a tick would plan once more.)
flock "$R$S/lock" sh -c 'until [ -e "$1" ]; do sleep 0.01; done' sh "$WORK/release" &
holder=$!
while flock -n "$R$S/lock" true; do sleep 0.01; done
paused_run "$WORK/pf" flock:1:after "$BIN" -v --root "$R" --wait 30 > "$WORK/raced" 2>&1 &
run=$!
at_pause "$WORK/pf"
rm -f "$R$L"; tick
: > "$WORK/release"; wait $holder
resume "$WORK/pf"; wait $run
# (the race as meant: the first look found no change, the second one)
looks=$(sed -n 's/.*fingerprint: [0-9]* inputs, \([0-9]*\) changed.*/\1/p' "$WORK/raced" | tr '\n' ' ')
diag "the looks found: $looks changed"
stopped && [ -n "$L" ] && case $looks in "0 "[1-9]*) true ;; *) false ;; esac &&
  grep -q 'desktop files\?, ' "$WORK/raced" && [ -L "$R$L" ]
ok $? "a link removed while the run waited for the lock is planted again"
tick
run > "$WORK/out"
stopped
ok $? "... and the run after it stops at the fingerprint"

# A directory of inputs moved aside and put back as a link to where it
# went: the look does not follow the link (an input's path is a real path:
# root is not led elsewhere, nor made to wait there), so an input below it
# is nothing there now, though the file the link leads to is the same
tick
run > /dev/null
f=$(awk -F '\t' '$1 == "f" && $3 ~ /^\/usr\/share\/icons\// { print $3; exit }' "$R$S/fingerprint")
d=$(dirname "$f")
mv "$R$d" "$R$d.moved" && ln -s "$(basename "$d").moved" "$R$d"
"$BIN" -v --root "$R" --dry-run > "$WORK/linked" 2>&1
[ -n "$f" ] && grep -qF "fingerprint: '$f' changed (none, was " "$WORK/linked"
ok $? "a directory put back as a link: the input below it ($f) is not looked at through the link"
finish
