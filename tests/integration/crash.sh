#!/bin/sh
# crash.sh - kill -9 in the middle of a rebuild, and two rebuilds at once
#
# strace kills the rebuild at the K-th call of each kind that changes the
# disk (rename, symlink, unlink, fsync, syncfs): the first, middle and last, or
# with KIC_STRESS=1 (make stress) every one of them.  After each
# kill: every link on disk is whole and points at a store copy, and every
# menu name still resolves to the same content at 16-48 px; then a normal
# run repairs everything: the manifest matches the disk and equals that of
# an uninterrupted run.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip_all "needs strace"

S=/var/lib/kde-icon-cache
fixtures "$WORK/ref" basic
R=$WORK/ref/basic
icon_names "$R" | grep -av '^/' > "$WORK/names"

# content of what KDE loads for every menu name at the menu sizes: asked
# of KF5 itself in the long form (make stress), of our model otherwise
kde_view () { # kde_view ROOT
  if [ -n "${KIC_STRESS:-}" ] && [ -x "$ORACLE" ]; then
    . "$TOP/tests/oracle/oracle-env.sh"
    oracle_run "$1" breeze "$ORACLE" --sizes 16,22,32,48 < "$WORK/names" | with_content "" "$1"
    return
  fi
  loaded_content "$1" < "$WORK/names"
}
kde_view "$R" > "$WORK/view-before"
"$BIN" -q --root "$R"
grep -v '^#' "$R$S/manifest" > "$WORK/reference"

# one traced rebuild counts every kind of call (LeakSanitizer, in the
# sanitizer build, cannot run under ptrace: off for the traced runs only)
points=""
fixtures "$WORK/c" basic
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=renameat,symlinkat,unlinkat,fsync,syncfs -o "$WORK/count" "$BIN" -q --root "$WORK/c/basic" > /dev/null
for call in renameat symlinkat unlinkat fsync syncfs; do
  n=$(grep -c "^[0-9]* *$call(" "$WORK/count")
  for k in $(if [ -n "${KIC_STRESS:-}" ]; then seq 1 "$n"; else echo 1 $((n / 2 + 1)) "$n"; fi); do
    [ "$k" -ge 1 ] && points="$points $call:$k"
  done
done
points=$(echo "$points" | tr ' ' '\n' | sort -u | grep .)
plan $((3 * $(echo "$points" | wc -l) + 7))

# the copies are made durable at once (one syncfs of the store's file
# system) after the last of them is renamed into place and before the
# first link to any of them: a power cut never leaves a link to a copy
# the disk does not have whole
awk '/ syncfs\(/ { if (!s) s = NR } / renameat\(/ && !/"(manifest|fingerprint|state)"\)/ { r = NR }
     / symlinkat\(/ { if (!l) l = NR }
     END { exit !(s && r && l && r < s && s < l) }' "$WORK/count"
ok $? "one syncfs after the last store copy and before the first link"

# a rebuild that changes no link and no copy (a .desktop file whose icon
# KDE finds nowhere: only the manifest's inputs digest changes) writes the
# manifest once, with no journal before it: killed, it leaves the old
# manifest, which is whole
printf '[Desktop Entry]\nType=Application\nName=Nowhere\nExec=true\nIcon=kic-nowhere\n' \
  > "$WORK/c/basic/usr/share/applications/kic-nowhere.desktop"
cp "$WORK/c/basic$S/manifest" "$WORK/manifest-before"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=renameat -o "$WORK/again" "$BIN" -q --root "$WORK/c/basic" > /dev/null
[ "$(grep -c '"manifest")' "$WORK/again")" -eq 1 ] && ! cmp -s "$WORK/manifest-before" "$WORK/c/basic$S/manifest" &&
  [ "$(grep -v '^# inputs' "$WORK/manifest-before")" = "$(grep -v '^# inputs' "$WORK/c/basic$S/manifest")" ]
ok $? "a rebuild that changes only the manifest's inputs line writes it once, with no journal"

for point in $points; do
  call=${point%:*} k=${point#*:}
  fixtures "$WORK/c" basic
  C=$WORK/c/basic
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -o /dev/null -e trace="$call" -e inject="$call:signal=KILL:when=$k" \
    "$BIN" -q --root "$C" > /dev/null 2>&1
  kde_view "$C" > "$WORK/view-killed"
  bad=$(dangling_links "$C" | wc -l)
  cmp -s "$WORK/view-before" "$WORK/view-killed" && [ "$bad" -eq 0 ] && state_consistent "$C"
  ok $? "killed at $call #$k: KDE still shows the same icons, no link dangles, nothing astray"
  "$BIN" -q --root "$C"
  manifest_consistent "$C" && [ -z "$(find "$C" -name '*.kic-tmp')" ]
  ok $? "killed at $call #$k: the next run leaves the manifest matching the disk, no temporary file"
  grep -v '^#' "$C$S/manifest" | cmp -s - "$WORK/reference"
  ok $? "killed at $call #$k: ... and the same entries as an uninterrupted run"
done

# eight rebuilds at once: each waits for the others
fixtures "$WORK/cc" basic
C=$WORK/cc/basic
pids=
for i in 1 2 3 4 5 6 7 8; do
  "$BIN" -q --root "$C" --wait 120 & pids="$pids $!"
done
rcs=
for p in $pids; do wait "$p"; rcs="$rcs$?"; done
is "$rcs" "00000000" "eight concurrent rebuilds with --wait all succeed"
grep -v '^#' "$C$S/manifest" | cmp -s - "$WORK/reference"
ok $? "the result is the same as one run's"
manifest_consistent "$C"
ok $? "and the manifest matches the disk"

# a held lock: without --wait a clear message and exit 1 (the lock is
# held until the run has ended)
flock "$C$S/lock" sh -c 'until [ -e "$1" ]; do sleep 0.01; done' sh "$WORK/release" & holder=$!
while flock -n "$C$S/lock" true; do sleep 0.01; done
"$BIN" -q --root "$C" 2> "$WORK/err"; rc=$?
: > "$WORK/release"
is "$rc" 3 "a rebuild while another holds the lock exits 3"
grep -q "another kde-icon-cache holds" "$WORK/err"
ok $? "... and says why"
wait $holder
finish
