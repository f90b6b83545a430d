#!/bin/sh
# hardening.sh - the ten defects of issue 13 and its "Also" list, each
# reproduced: a user owning part of the tree, a hostile manifest, a package
# install racing the run, FIFOs, link loops, a --clean racing a --wait run,
# long names, a damaged manifest, a killed run.  Races are made
# deterministic by a hook that holds the run at the call where the other
# party acts, until it has (paused_run, lib.sh).
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || skip_all "needs strace"
[ "$(id -u)" = 0 ] || skip_all "needs root (store under /var/lib of a root, flock, mknod)"
plan 49
S=/var/lib/kde-icon-cache
fixtures "$WORK/fx" basic
# a fresh copy of the basic fixture (it has no /var: the store's parents
# are made by the run)
fresh () { rm -rf "$WORK/$1"; cp -a "$WORK/fx/basic" "$WORK/$1"; echo "$WORK/$1"; }
kic () { "$BIN" -q "$@"; }
# strace, and LeakSanitizer off in the sanitizer build: it cannot run
# under ptrace (the runs without strace still check for leaks)
traced () { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"; }
# a run that must not hang: 124 when it did
bounded () { timeout 20 "$BIN" "$@"; }
# the store copies and links a rebuild of ROOT would make (dry run)
planned () { "$BIN" -q --root "$1" --dry-run | awk -F '\t' -v k="$2" '$1 == k { print $2 }'; }

# -- 1: a directory swapped for a link after mkdirat ------------------
R=$(fresh r1)
mkdir -p "$R/var/lib" "$WORK/outside"
echo secret > "$WORK/outside/victim"; chmod 600 "$WORK/outside/victim"
# (held once its third mkdirat, the store's, has returned: var and lib
# were there)
paused_run "$WORK/p1" mkdirat:3:after "$BIN" -q --root "$R" 2> "$WORK/err1" &
pid=$!
at_pause "$WORK/p1"; rmdir "$R$S" && ln -s "$WORK/outside/victim" "$R$S"; resume "$WORK/p1"
wait $pid
is "$(stat -c %a "$WORK/outside/victim")" 600 "1: a store directory swapped for a link to a host file: its mode is not changed"
grep -q "symbolic link" "$WORK/err1"
ok $? "1: ... and the run says a link is in the way"

# -- 2: removal trusts only the disk ---------------------------------
R=$(fresh r2)
kic --root "$R"
H=$R/usr/share/icons/hicolor
echo "precious" > "$R/etc/precious.conf"
ln -s ../../scalable/apps/hiscalable.svg "$H/48x48/apps/pkglink.svg"
sum=$(sha256sum < "$R/etc/precious.conf" | cut -d' ' -f1)
printf 'file\t/etc/precious.conf\t/etc/precious.conf\t%s\nlink\t/usr/share/icons/hicolor/48x48/apps/pkglink.svg\t../../scalable/apps/hiscalable.svg\n' \
  "$sum" >> "$R$S/manifest"
kic --root "$R" 2> /dev/null
kic --root "$R" --clean 2> /dev/null
[ -f "$R/etc/precious.conf" ] && [ -L "$H/48x48/apps/pkglink.svg" ]
ok $? "2: a manifest naming a file outside the store or a package's link removes neither"
is "$(find "$R" -lname '*kde-icon-cache*' | wc -l)" 0 "2: ... while --clean removes our own links"
R=$(fresh r2b)
kic --root "$R"
ln -s ../../scalable/apps/hiscalable.svg "$R/usr/share/icons/hicolor/48x48/apps/pkglink.svg"
printf 'link\t/usr/share/icons/hicolor/48x48/apps/pkglink.svg\t../../scalable/apps/hiscalable.svg\n' >> "$R$S/manifest"
# (the package's removal: the prerm's --clean removes the links; the postrm
# no longer walks the manifest, issue 19 row 5, hardening-lock.sh)
mkdir -p "$WORK/bin2"; ln -sf "$BIN" "$WORK/bin2/kde-icon-cache"
PATH=$WORK/bin2:$PATH DPKG_ROOT=$R sh "$TOP/debian/kde-icon-cache.prerm" remove
DPKG_ROOT=$R sh "$TOP/debian/kde-icon-cache.postrm" remove
[ -L "$R/usr/share/icons/hicolor/48x48/apps/pkglink.svg" ] && [ "$(find "$R" -lname '*kde-icon-cache*' | wc -l)" = 0 ]
ok $? "2: the package's prerm, too, removes our links and not a package's link the manifest names"

# -- 3: a file a package creates at a planted path during the run -------
R=$(fresh r3)
planned "$R" link > "$WORK/links3"
copies=$(planned "$R" copy | wc -l)
# the copies are written before the first link: there the run holds
paused_run "$WORK/p3" symlinkat:1 "$BIN" -q --root "$R" 2> /dev/null &
pid=$!
at_pause "$WORK/p3"
[ "$(find "$R$S/files" -type f | wc -l)" = "$copies" ] || diag "held with $(find "$R$S/files" -type f | wc -l) of $copies copies made"
# (set -C: created only where nothing is, as dpkg unpacks a new file)
while read -r l; do ( set -C; echo "dpkg's file" > "$R$l" ); done < "$WORK/links3"
resume "$WORK/p3"
wait $pid
is "$(while read -r l; do cat "$R$l"; done < "$WORK/links3" | sort -u)" "dpkg's file" \
  "3: files a package put at planted paths during the run are all still there"

# -- 4: a lock that is a hard link to another file -------------------
R=$(fresh r4)
mkdir -p "$R$S"
echo "root:x" > "$R/etc/shadow"; chmod 600 "$R/etc/shadow"
ln "$R/etc/shadow" "$R$S/lock"
kic --root "$R" 2> "$WORK/err4"
is "$(stat -c %a "$R/etc/shadow")" 600 "4: a lock that is a hard link to another file keeps that file's mode"
grep -q "not a lock file of ours" "$WORK/err4"
ok $? "4: ... and the run says why it stops"

# -- 5: --list --problems and a link at var/lib/dpkg -----------------
R=$(fresh r5)
mkdir -p "$WORK/hostdpkg/info" "$WORK/hostdpkg/updates" "$R/var/lib"
printf 'Package: kic-host\nStatus: install ok installed\nArchitecture: all\nVersion: 1\nMaintainer: none\nDescription: host\n\n' > "$WORK/hostdpkg/status"
printf '/.\n/usr/share/applications/missing.desktop\n' > "$WORK/hostdpkg/info/kic-host.list"
ln -s "$WORK/hostdpkg" "$R/var/lib/dpkg"
kic --root "$R" --list --problems > "$WORK/problems5"
is "$(awk -F '\t' '$1 == "missing.desktop" { print $5 }' "$WORK/problems5")" "-" \
  "5: a link at <root>/var/lib/dpkg to a host directory shows no host package"
mkdir -p "$R/srv/dpkg"; cp -a "$WORK/hostdpkg/." "$R/srv/dpkg/"; rm "$R/var/lib/dpkg"
ln -s /srv/dpkg "$R/var/lib/dpkg"
kic --root "$R" --list --problems > "$WORK/problems5"
is "$(awk -F '\t' '$1 == "missing.desktop" { print $5 }' "$WORK/problems5")" "kic-host" \
  "5: ... and a link there resolves inside the root"

# -- 6: FIFOs as the manifest and at a store copy path ----------------
R=$(fresh r6)
kic --root "$R"
rm "$R$S/manifest"; mkfifo "$R$S/manifest"
bounded --root "$R" 2> "$WORK/err6"; is $? 3 "6: a FIFO as the manifest: the rebuild stops (3), it does not hang"
grep -q "manifest' is not a regular file" "$WORK/err6"
ok $? "6: ... saying what is wrong"
bounded --root "$R" --check 2> /dev/null; is $? 3 "6: ... so does --check"
bounded --root "$R" --clean 2> /dev/null; is $? 3 "6: ... and --clean"
R=$(fresh r6b)
copy=$(planned "$R" copy | head -n 1)
mkdir -p "$(dirname "$R$copy")"; mkfifo "$R$copy"
bounded --root "$R" 2> "$WORK/err6"; is $? 0 "6: a FIFO at a store copy path: the rebuild goes on (0)"
[ -p "$R$copy" ] && grep -q "is in the way" "$WORK/err6"
ok $? "6: ... leaves it alone and says so"

# -- 7: links to . in applications/ ----------------------------------
R=$(fresh r7)
for l in l1 l2 l3; do ln -s . "$R/usr/share/applications/$l"; done
timeout 30 "$BIN" -q --root "$R" --dry-run > /dev/null 2>&1
ok $? "7: three links to . in applications/: a dry run ends in time"

# -- 8: --clean while a --wait run waits on the lock ------------------
R=$(fresh r8)
kic --root "$R"
# --clean holds the lock (held at its first unlinkat); a --wait run
# queues behind it (held after its first try of the lock, which fails),
# then holds again at its first link: the lock is tried there
# (--clean waits too: the probe below takes the lock for an instant, and
# a --clean that tried it then would fail, leave the store, and let the
# waiter find nothing to do)
paused_run "$WORK/p8c" unlinkat:1 "$BIN" -q --root "$R" --clean --wait 30 2> "$WORK/err8c" &
clean=$!
at_pause "$WORK/p8c"
paused_run "$WORK/p8w" flock:1:after,symlinkat:1 "$BIN" -q --root "$R" --wait 30 2> "$WORK/err8" &
waiter=$!
at_pause "$WORK/p8w" 1; resume "$WORK/p8w" 1
resume "$WORK/p8c"
wait $clean; is $? 0 "8: a --clean while the lock is probed removes the store (it waits its turn)"
at_pause "$WORK/p8w" 2
flock -n -E 99 "$R$S/lock" true; rc=$?
is $rc 99 "8: after a --clean, the run that waited holds the store's lock (no second writer)"
resume "$WORK/p8w" 2
wait $waiter; is $? 0 "8: ... and finishes its rebuild"
manifest_consistent "$R"
ok $? "8: ... consistently"

# -- 9: a name too long for its temporary name ------------------------
R=$(fresh r9)
long=$(printf 'k%.0s' $(seq 1 250))
cp "$R/usr/share/icons/hicolor/48x48/apps/hi48.png" "$R/usr/share/icons/hicolor/48x48/apps/$long.png"
printf '[Desktop Entry]\nType=Application\nName=Long\nIcon=%s\n' "$long" > "$R/usr/share/applications/kiclong.desktop"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err9"; is $? 0 "9: a 250-byte icon name: the rebuild succeeds"
is "$(grep -c 'too long' "$WORK/err9")" 1 "9: ... with one warning"
grep -q '^link' "$R$S/manifest" && ! grep -q "$long" "$R$S/manifest"
ok $? "9: ... and the other icons are cached"
kic --root "$R"; is $? 0 "9: ... on the next run too"

# -- 10: a manifest cut short, or with a NUL byte ---------------------
for damage in cut nul; do
  R=$(fresh r10$damage)
  kic --root "$R"
  size=$(stat -c %s "$R$S/manifest")
  if [ $damage = cut ]; then
    # keep the first third: the links (listed after the copies) are lost
    truncate -s $((size / 3)) "$R$S/manifest"
  else
    printf '\000' | dd of="$R$S/manifest" bs=1 seek=$((size / 3)) conv=notrunc 2> /dev/null
  fi
  kic --root "$R" --check 2> /dev/null
  is $? 1 "10: --check says a damaged manifest ($damage) is out of date"
  kic --root "$R" 2> /dev/null
  [ "$(dangling_links "$R" | wc -l)" = 0 ] && manifest_consistent "$R" > /dev/null && state_consistent "$R" > /dev/null
  ok $? "10: a manifest $([ $damage = cut ] && echo "cut short" || echo "with a NUL byte"): no link dangles after a rebuild"
  kic --root "$R" --clean 2> /dev/null
  [ "$(find "$R" -lname '*kde-icon-cache*' | wc -l)" = 0 ] && [ ! -e "$R$S" ]
  ok $? "10: ... and --clean removes every link and the store"
done

# -- Also --------------------------------------------------------------
# a run killed after its first link: the next run puts the directory's
# time back
R=$(fresh ra)
dir_times () { find "$R/usr" -type d -printf '%p %T@\n' | sort; }
dir_times > "$WORK/times-before"
traced -qq -o /dev/null -e trace=symlinkat -e inject=symlinkat:signal=KILL:when=2 "$BIN" -q --root "$R" 2> /dev/null
dir_times > "$WORK/times-killed"
! cmp -s "$WORK/times-before" "$WORK/times-killed"
ok $? "also: a killed run left a directory's time changed (the test can see it)"
kic --root "$R"
dir_times > "$WORK/times-after"
cmp -s "$WORK/times-before" "$WORK/times-after"
ok $? "also: the next run puts the times of the directories the killed run changed back"
# --clean after a run killed while it removed a link: the link already
# moved aside to its temporary name (".<name>.kic-tmp"), not yet unlinked.
# The link itself is gone, so removing the manifest's links does not reach
# that directory: only the recovery of a killed run removes the name and
# puts the directory's time back.
R=$(fresh ra2)
dir_times > "$WORK/times-before"
traced -qq -o /dev/null -e trace=symlinkat -e inject=symlinkat:signal=KILL:when=2 "$BIN" -q --root "$R" 2> /dev/null
planted=$(find "$R/usr" -lname '*kde-icon-cache*' | head -n 1)
[ -n "$planted" ] && mv "$planted" "$(dirname "$planted")/.$(basename "$planted").kic-tmp"
ok $? "also: a killed run left a link moved aside to its temporary name"
kic --root "$R" --clean
dir_times > "$WORK/times-after"
cmp -s "$WORK/times-before" "$WORK/times-after"
ok $? "also: ... a --clean after it puts the directories' times back"
[ -z "$(find "$R/usr" -name '*.kic-tmp')" ]
ok $? "also: ... and removes the temporary name"

# --clean removes the var/ and var/lib/ a run made, and nothing else
R=$(fresh rb)
kic --root "$R" && kic --root "$R" --clean
[ ! -e "$R/var" ]
ok $? "also: --clean removes the var/lib/ a rebuild created"
mkdir -p "$R/var/lib"
kic --root "$R" && kic --root "$R" --clean
[ -d "$R/var/lib" ]
ok $? "also: ... but not one that was there before"

# a no-op run changes nothing, not even the lock's ctime
R=$(fresh rc)
kic --root "$R"
before=$(stat -c %z "$R$S/lock")
kic --root "$R"
is "$(stat -c %z "$R$S/lock")" "$before" "also: a no-op run leaves the lock's ctime"

# --root ''
kic --root '' --list > /dev/null 2>&1; is $? 2 "also: --root '' is a usage error (2), not the current directory"

# a file, a link, a socket, a directory at store copy paths
R=$(fresh rd)
planned "$R" copy | head -n 4 > "$WORK/copies"
set -- $(cat "$WORK/copies")
for c in "$@"; do mkdir -p "$(dirname "$R$c")"; done
echo "not ours" > "$R$1"
ln -s /etc/hostname "$R$2"
# (bound by its name in its directory: a socket path is short)
python3 -c 'import os, socket, sys; os.chdir(os.path.dirname(sys.argv[1]))
socket.socket(socket.AF_UNIX).bind(os.path.basename(sys.argv[1]))' "$R$3"
mkdir "$R$4"
find "$R$S" -printf '%p %y %s %l\n' | sort > "$WORK/foreign-before"
# (each run draws its own key for its hash tables: two plans of this root
# say the same, warnings and debug lines included)
for i in 1 2; do "$BIN" -v --root "$R" --dry-run > "$WORK/keyed$i" 2>&1; done
bounded --root "$R" 2> "$WORK/errd"; is $? 0 "also: things not ours at store copy paths: the rebuild succeeds"
[ "$(cat "$R$1")" = "not ours" ] && [ "$(readlink "$R$2")" = /etc/hostname ] && [ -S "$R$3" ] && [ -d "$R$4" ]
ok $? "also: ... a file, a link, a socket and a directory there are left alone"
is "$(grep -c 'is in the way' "$WORK/errd")" 4 "also: ... each with a warning"
# (the first quoted path of each warning: the copy's)
grep 'is in the way' "$WORK/errd" | sed "s|^[^']*'\([^']*\)'.*|\1|" > "$WORK/errd.order"
[ "$(wc -l < "$WORK/errd.order")" -eq 4 ] && LC_ALL=C sort -c "$WORK/errd.order"
ok $? "also: ... the warnings in the order of their paths, whatever the order of a hash table"
[ "$(grep -c 'is in the way' "$WORK/keyed1")" -eq 4 ] && cmp -s "$WORK/keyed1" "$WORK/keyed2"
ok $? "also: ... two dry runs before it, each with its own hash key, print the same ($(wc -l < "$WORK/keyed1") lines)"
[ "$(dangling_links "$R" | wc -l)" = 0 ] && manifest_consistent "$R"
ok $? "also: ... and no link points at them"

# a symlinked store
R=$(fresh re)
mkdir -p "$R/var/lib" "$R/srv/store"
ln -s /srv/store "$R$S"
kic --root "$R" 2> "$WORK/erre"; is $? 3 "also: a store that is a symbolic link is an error (3)"
grep -q "'$S' is a symbolic link" "$WORK/erre"
ok $? "also: ... saying so, not 'Not a directory'"

# issue 14: a flock error that is not contention says what it is
R=$(fresh rf)
traced -qq -o /dev/null -e trace=flock -e inject=flock:error=ENOLCK "$BIN" -q --root "$R" 2> "$WORK/errf"
grep -q "No locks available" "$WORK/errf" && ! grep -q "another kde-icon-cache" "$WORK/errf"
ok $? "a flock error other than contention is reported as itself"
finish
