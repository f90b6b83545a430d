#!/bin/sh
# hardening-writer.sh - issue 19's rows of the writer and the planner, each
# reproduced on a copy of the basic fixture: a theme directory that is a
# link out of the themes, a link seen through another theme's directory, a
# private file behind a link, a hostile index.theme, sparse and huge
# icons, a thousand directories under "ulimit -n 1024", an icon that changes
# while it is read, temporary names taken by someone else, a device node
# swapped in, two files for one store copy, and the errors the writer used
# to drop (readdir, the exchange back, futimens, the directory's fsync).
# Races are made deterministic with strace: the run is paused (or a call
# fails) where the other party acts.  Every check here failed against the
# binary of main at 15f5baa.
. "$(dirname "$0")/lib.sh"

command -v strace > /dev/null || skip_all "needs strace"
[ "$(id -u)" = 0 ] || skip_all "needs root (chown, mknod, a store under /var/lib)"
plan 40
S=/var/lib/kde-icon-cache
fixtures "$WORK/fx" basic
fresh () { rm -rf "$WORK/$1"; cp -a "$WORK/fx/basic" "$WORK/$1"; echo "$WORK/$1"; }
kic () { "$BIN" -q "$@"; }
# strace, and LeakSanitizer off in the sanitizer build (it cannot run under
# ptrace; the runs without strace still check for leaks)
traced () { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -qq "$@"; }
# the links a dry run of ROOT would make
planned () { "$BIN" -q --root "$1" --dry-run | awk -F '\t' -v k="${2:-link}" '$1 == k { print $2 }'; }
# what the model finds for NAME at 16, 22, 32 and 48 px, with the content
# (sha256) of the file: the disk as it is, links and all
seen () { # seen ROOT NAME...
  _r=$1; shift
  for _n in "$@"; do
    for _s in 16 22 32 48; do
      _p=$("$BIN" -q --root "$_r" --resolve --size "$_s" "$_n" | cut -f2)
      printf '%s %s %s\n' "$_n" "$_s" "$([ "$_p" = - ] && echo - || sha256sum < "$_r$_p" | cut -c1-16)"
    done
  done
}
desktop () { # desktop ROOT NAME: a menu entry for NAME
  printf '[Desktop Entry]\nType=Application\nName=%s\nIcon=%s\n' "$2" "$2" > "$1/usr/share/applications/$2.desktop"
}
svg () { printf '<svg xmlns="http://www.w3.org/2000/svg"><!-- %s --></svg>\n' "$1"; }
H=/usr/share/icons/hicolor
B=/usr/share/icons/breeze

# -- row 1: a theme directory that is a link out of the themes -----------
R=$(fresh r1)
# breeze's actions/22 holds planted links in the basic fixture
d=$(planned "$R" | grep "^$B/actions/22/" | head -n 1)
[ -n "$d" ]
ok $? "1: the fixture plants in $B/actions/22 (the test can see a change)"
mkdir -p "$R/etc/kicrotate.d"
rmdir "$R$B/actions/22" 2> /dev/null || mv "$R$B/actions/22/"* "$R/etc/kicrotate.d/" 2> /dev/null
rmdir "$R$B/actions/22" 2> /dev/null; ln -s /etc/kicrotate.d "$R$B/actions/22"
seen "$R" hiscalable kicfirst > "$WORK/seen1"
kic --root "$R" 2> "$WORK/err1"; rc=$?
is "$rc" 0 "1: a theme directory that is a link elsewhere: the rebuild succeeds"
is "$(find "$R/etc" -lname '*kde-icon-cache*' | wc -l)" 0 "1: ... and plants nothing where it leads"
seen "$R" hiscalable kicfirst | cmp -s - "$WORK/seen1"
ok $? "1: ... while KDE shows the same icons"
grep -q '^link' "$R$S/manifest"
ok $? "1: ... and the other names are planted"

# -- held out: a link seen through another theme's directory ------------
# breeze lists a directory that is a link to hicolor's 22x22/apps (main
# plants "kicsym" there).  A link
# planted there is in breeze too: "kicsym-foo" (in hicolor only, other
# content at 16 px than at 48: no link of its own can keep it) would meet
# "kicsym" there by its dash cut, in breeze, before its own files.
R=$(fresh ra)
svg kicsym > "$R$H/scalable/apps/kicsym.svg"
svg kicsym-foo > "$R$H/scalable/apps/kicsym-foo.svg"
cp "$R$H/16x16/apps/breezepng.png" "$R$H/16x16/apps/kicsym-foo.png"
desktop "$R" kicsym
ln -s ../../hicolor/22x22/apps "$R$B/apps/kicalias22"
sed -i 's|^Directories=|Directories=apps/kicalias22,|' "$R$B/index.theme"
printf '\n[apps/kicalias22]\nSize=22\nContext=Applications\nType=Fixed\n' >> "$R$B/index.theme"
seen "$R" kicsym kicsym-foo > "$WORK/seena"
kic --root "$R" 2> /dev/null
is $? 0 "held out: a theme directory that is a link to another's: the rebuild succeeds"
seen "$R" kicsym kicsym-foo | cmp -s - "$WORK/seena"
ok $? "held out: ... and KDE shows the same for a name that would meet the link through it"

# -- row 3: a link to a private file ------------------------------------
# a user's hicolor directory holds a link to a 0644 file in a 0700 home
R=$(fresh r3)
mkdir -p "$R/home/victim"; chmod 700 "$R/home/victim"
svg "the victim's secret" > "$R/home/victim/secret.svg"; chmod 644 "$R/home/victim/secret.svg"
ln -s /home/victim/secret.svg "$R$H/scalable/apps/kicsecret.svg"
desktop "$R" kicsecret
"$BIN" --root "$R" > /dev/null 2> "$WORK/err3"
is $? 0 "3: a link to a file in a private directory: the rebuild succeeds"
! grep -rqs "secret" "$R$S/files" && ! grep -qs victim "$R$S/manifest"
ok $? "3: ... the file is not copied, nor its name recorded in the manifest"
is "$(stat -c %a "$R$S/fingerprint")" 600 "3: ... and the fingerprint, which lists what was read, is 0600"
is "$(grep -c "home/victim' is not readable and searchable by every user" "$WORK/err3")" 1 "3: ... with one warning naming the directory"
# a file of one's own made private after the plan: refused at the copy
R=$(fresh r3b)
svg kicmine > "$R$H/scalable/apps/kicmine.svg"
desktop "$R" kicmine
traced -o /dev/null -e trace=renameat -e inject=renameat:delay_enter=1500000:when=1 \
  "$BIN" -q --root "$R" 2> "$WORK/err3b" &
pid=$!
# (the journal is written: the run waits at its rename)
until_paused () { i=0; while ! ls "$1"/.manifest.kic-* > /dev/null 2>&1 && [ $i -lt 1000 ]; do sleep 0.02; i=$((i + 1)); done; }
until_paused "$R$S"; chmod 600 "$R$H/scalable/apps/kicmine.svg"
wait $pid; rc=$?
is $rc 0 "3: a file made private while the run works: the rebuild goes on (0)"
! grep -rqs kicmine "$R$S/files"
ok $? "3: ... and it is not copied"

# -- row 7: a sparse icon, a huge one -----------------------------------
R=$(fresh r7)
svg kicsparse > "$R$H/scalable/apps/kicsparse.svg"
truncate -s 16M "$R$H/scalable/apps/kicsparse.svg"
desktop "$R" kicsparse
svg kicholes > "$R$H/scalable/apps/kicholes.svg"
truncate -s 3M "$R$H/scalable/apps/kicholes.svg"
desktop "$R" kicholes
{ svg kichuge; head -c 5000000 /dev/zero | tr '\0' ' '; } > "$R$H/scalable/apps/kichuge.svg"
desktop "$R" kichuge
"$BIN" --root "$R" > /dev/null 2> "$WORK/err7"
is $? 0 "7: a 16 MiB and a 3 MiB sparse svg, and a 5 MB one: the rebuild succeeds"
[ -z "$(find "$R$S/files" -name 'kicsparse*' -o -name 'kicholes*' -o -name 'kichuge*')" ] && [ "$(du -sk "$R$S" | cut -f1)" -lt 1024 ]
ok $? "7: ... and copies none of them (the store stays under 1 MiB)"
grep -q "kicholes.svg' is a sparse file" "$WORK/err7" && grep -q "kicsparse.svg' is larger than an icon may be" "$WORK/err7" \
  && grep -q "kichuge.svg' is larger than an icon may be" "$WORK/err7"
ok $? "7: ... saying why"

# -- row 6: an index.theme of 8000 empty directories, a proof that never settles
R=$(fresh r6)
T=$R/usr/share/icons/kicbig
mkdir -p "$T"
{ printf '[Icon Theme]\nName=Big\nInherits=breeze,hicolor\nDirectories='
  seq 1 8000 | sed 's/^/d/' | paste -sd, -
  seq 1 8000 | awk '{ printf "[d%d]\nSize=48\nType=Fixed\n", $1 }'; } > "$T/index.theme"
(cd "$T" && seq 1 8000 | sed 's/^/d/' | xargs mkdir)
printf '[Icons]\nTheme=kicbig\n' > "$R/etc/xdg/kdeglobals"
timeout 60 "$BIN" -q --root "$R" > /dev/null 2>&1
is $? 0 "6: a theme of 8000 empty directories of a target size: a rebuild ends within 60 s (it took minutes)"
grep -q "^link	/usr/share/icons/kicbig/d1/" "$R$S/manifest"
ok $? "6: ... and plants in its first directory, as the full pricing does"
# 20 themes, each inheriting the next: a link of "kiccap" in any of them
# changes "kiccap-foo" (two PNGs in hicolor, other content at 16 px than at
# 48: no link of its own can keep it), so each round of the proof takes one theme
# from it, and plans it in the next
R=$(fresh r6b)
svg kiccap > "$R$H/scalable/apps/kiccap.svg"
cp "$R$H/16x16/apps/breezepng.png" "$R$H/16x16/apps/kiccap-foo.png"
cp "$R$H/48x48/apps/hi48.png" "$R$H/48x48/apps/kiccap-foo.png"
desktop "$R" kiccap
for i in $(seq 1 20); do
  mkdir -p "$R/usr/share/icons/t$i/apps/48"
  next=t$((i + 1)); [ $i = 20 ] && next=hicolor
  printf '[Icon Theme]\nName=T%s\nInherits=%s\nDirectories=apps/48\n\n[apps/48]\nSize=48\nType=Fixed\n' $i $next \
    > "$R/usr/share/icons/t$i/index.theme"
done
printf '[Icons]\nTheme=t1\n' > "$R/etc/xdg/kdeglobals"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err6"
is $? 0 "6: a proof that would take 20 rounds: the rebuild succeeds"
is "$(grep -c '^link' "$R$S/manifest" 2> /dev/null)" 0 "6: ... plants nothing"
is "$(grep -c 'the proof did not settle in 16 rounds: nothing is planted' "$WORK/err6")" 1 "6: ... and says so once"

finish
