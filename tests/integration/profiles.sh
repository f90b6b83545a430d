#!/bin/sh
# profiles.sh - the --kde= profiles against hand-derived expectations:
# --explain output for each generation (tests/profiles/expected/*.txt),
# where --rebuild plants (expected/plants.txt), and --kde=auto detection
# from the libraries in the root.  The trees come from
# tests/profiles/make-trees.sh; the expectations were worked out by hand
# from kde-lookup.md and tests/profiles/MODEL.md (tests/profiles/derive.py
# keeps the reasoning), never by running the program.
. "$(dirname "$0")/lib.sh"

# the data and config directories are the XDG defaults inside the root
unset XDG_DATA_DIRS XDG_CONFIG_DIRS XDG_DATA_HOME XDG_CONFIG_HOME

P=$TOP/tests/profiles
EXP=$P/expected
T=$WORK/trees
TAB=$(printf '\t')

"$P/make-trees.sh" "$T" > "$WORK/make-trees.log" 2>&1
st=$?
ok $st "make-trees.sh builds the roots"
[ $st -eq 0 ] || sed 's/^/#   /' "$WORK/make-trees.log"

# The "# run: --root ROOT ARGS..." line of an expected file.
run_root () { sed -n 's/^# run: --root \([^ ]*\) .*/\1/p' "$1"; }
run_args () { sed -n 's/^# run: --root [^ ]* //p' "$1"; }

# --- --explain, block by block --------------------------------------------
for prof in kf5 kf6 kf6-nobreeze kde4-4.8 kde4-4.14 kde3; do
  f=$EXP/$prof.txt
  root=$(run_root "$f")
  args=$(run_args "$f")
  d=$WORK/blocks/$prof
  mkdir -p "$d"
  # one file per block: from a "NAME at N px; themes searched:" header to
  # the line before the next one; comment lines dropped
  awk -v d="$d" '
    /^#/ { next }
    / at [0-9]+ px; themes searched: / { n++; f = sprintf("%s/%03d", d, n) }
    n { print > f }' "$f"
  for b in "$d"/*; do
    head=$(head -n 1 "$b")
    name=${head% at *}
    size=${head#"$name at "}; size=${size%% px;*}
    if [ ! -d "$T/$root" ]; then
      skip "$prof: $name at $size px: root $root not built (no C compiler?)"
      continue
    fi
    # shellcheck disable=SC2086
    "$BIN" -q --root "$T/$root" $args --explain --size "$size" "$name" > "$b.out" 2> "$b.err"
    diff "$b" "$b.out" > "$b.diff" 2>&1
    ok $? "$prof: $name at $size px"
    if [ -s "$b.diff" ]; then
      head -n 40 "$b.diff" | sed 's/^/#   /'
      [ ! -s "$b.err" ] || head -n 5 "$b.err" | sed 's/^/#   stderr: /'
    fi
  done
done

# the probe order differs between generations on one tree
"$BIN" -q --root "$T/all" --kde=kf5 --explain --size 16 kicnone > "$WORK/kf5.kicnone" 2>&1
"$BIN" -q --root "$T/all" --kde=kde3 --explain --size 16 kicnone > "$WORK/kde3.kicnone" 2>&1
! cmp -s "$WORK/kf5.kicnone" "$WORK/kde3.kicnone"
ok $? "--kde=kf5 and --kde=kde3 probe the same tree differently"

# --- where --rebuild plants ------------------------------------------------
for prof in $(grep -v '^#' "$EXP/plants.txt" | cut -f 1 | sort -u); do
  f=$EXP/$prof.txt
  root=$(run_root "$f")
  args=$(run_args "$f")
  grep "^$prof$TAB" "$EXP/plants.txt" > "$WORK/plant-$prof.want"
  if [ ! -d "$T/$root" ]; then
    while IFS="$TAB" read -r _ name link; do
      skip "$prof: $name at $link: root $root not built"
    done < "$WORK/plant-$prof.want"
    continue
  fi
  copy=$WORK/plant-$prof
  cp -a "$T/$root" "$copy"
  # shellcheck disable=SC2086
  "$BIN" -q $args --rebuild --dry-run --root "$copy" > "$WORK/plant-$prof.out" 2> "$WORK/plant-$prof.err"
  st=$?
  ok $st "$prof: --rebuild --dry-run exits 0"
  [ $st -eq 0 ] || head -n 5 "$WORK/plant-$prof.err" | sed 's/^/#   /'
  while IFS="$TAB" read -r _ name link; do
    grep -q "^link$TAB$link$TAB" "$WORK/plant-$prof.out"
    st=$?
    ok $st "$prof: $name is planted at $link"
    [ $st -eq 0 ] || grep "^link$TAB" "$WORK/plant-$prof.out" | grep -F "/$name." | cut -f 2 | sed 's/^/#   got: /'
  done < "$WORK/plant-$prof.want"
done

# KF6 with breeze in a library we cannot read (the test root has
# libKF6IconThemes but no libKF6BreezeIcons): never a link in breeze,
# since its resource copy is unknown; hicolor links only
if [ -d "$T/detect-kf6" ]; then
  cp -a "$T/detect-kf6" "$WORK/kf6-embedded"
  "$BIN" -q --root "$WORK/kf6-embedded" --rebuild --dry-run > "$WORK/kf6-embedded.out"
  ! grep -q "^link$TAB/usr/share/icons/breeze/" "$WORK/kf6-embedded.out" &&
    grep -q "^link$TAB/usr/share/icons/hicolor/" "$WORK/kf6-embedded.out"
  ok $? "kf6, breeze built in but unreadable: links in hicolor, none in breeze"
else
  skip "detect-kf6 not built (no C compiler?)"
fi

# --- detection (--kde=auto) ----------------------------------------------
detect () { # detect ROOT WANT [UNWANTED]
  if [ ! -d "$T/$1" ]; then
    skip "$1 not built (no C compiler?)"
    return
  fi
  "$BIN" --root "$T/$1" -v --list > "$WORK/$1.out" 2> "$WORK/$1.err"
  cat "$WORK/$1.out" "$WORK/$1.err" > "$WORK/$1.all"
  grep -qF "profile: $2" "$WORK/$1.all" && { [ -z "${3:-}" ] || ! grep -qF "$3" "$WORK/$1.all"; }
  st=$?
  ok $st "$1: detected as '$2'"
  [ $st -eq 0 ] || grep 'profile' "$WORK/$1.all" | head -n 3 | sed 's/^/#   got: /'
}
# a library whose file name carries no release: Debian 13's is assumed
detect detect-kf6 "kf6 6.13.0 (taken to be 6.0-6.13, breeze embedded)"
detect detect-kf6-nobreeze "kf6" "breeze embedded"
# the release of the file the soname links to, or of the highest beside a copy
detect detect-kf6-630 "kf6 6.30.0 (6.25 and later, breeze embedded)"
detect detect-kf6-619 "kf6 6.19.1 (6.19-6.22)"
detect detect-kf5 "kf5" "no KDE icon library"
detect detect-kde4-48 "kde4 4.8.4"
detect detect-kde4-414 "kde4 4.14.2"
detect detect-kde3 "kde3"
detect detect-none "kf5 (no KDE icon library found"
grep -q 'note: no KDE icon library in the root (none of libKF6IconThemes.so.6, .*): modelling KDE Frameworks 5' "$WORK/detect-none.err"
ok $? "detect-none: the fallback to kf5 is noted without --verbose too"

# --- the generation is part of the manifest --------------------------------
if [ -d "$T/detect-kf6-630" ]; then
  R=$WORK/manifest-kf6
  cp -a "$T/detect-kf6-630" "$R"
  mkdir -p "$R/var/lib"
  "$BIN" -q --root "$R" --rebuild
  grep -q '^# settings: profile=kf6-6.30.0+breeze ' "$R/var/lib/kde-icon-cache/manifest"
  ok $? "the manifest records KF6's release, read from the library's file name"
  "$BIN" -q --root "$R" --check
  ok $? "--check with the same release: up to date"
  "$BIN" -q --root "$R" --check --kde-version=6.13
  is $? 1 "--check after a change of KF6 release: out of date"
  "$BIN" -q --root "$R" --kde=kf6 --kde-version=4.8 --check 2> "$WORK/kf6-v4.err"
  is $? 2 "--kde=kf6 --kde-version=4.8 is a usage error (2)"
  "$BIN" -q --root "$R" --kde-version=6.30.0 --check
  ok $? "--kde-version=6.30.0 on a 6.30.0 root: up to date"
  "$BIN" -q --root "$R" --clean
else
  skip "detect-kf6-630 not built (no C compiler?)"
fi
if [ -d "$T/detect-kde4-48" ]; then
  R=$WORK/manifest-root
  cp -a "$T/detect-kde4-48" "$R"
  mkdir -p "$R/var/lib" # as on any installed system
  before=$WORK/manifest-before
  cp -a "$R" "$before"
  "$BIN" -q --root "$R" --rebuild
  ok $? "a kde4 root rebuilds"
  grep -q '^# settings: profile=kde4-4.8.4 ' "$R/var/lib/kde-icon-cache/manifest"
  ok $? "the manifest records the detected generation and version"
  "$BIN" -q --root "$R" --check
  ok $? "--check with the same generation: up to date"
  "$BIN" -q --root "$R" --check --kde-version=4.14
  st=$?
  is "$st" 1 "--check after a change of KDE 4 version: out of date"
  "$BIN" -q --root "$R" --kde=kde3 --rebuild && "$BIN" -q --root "$R" --kde=kde3 --check
  ok $? "--kde=kde3 --rebuild re-plans the root for KDE 3, then it is up to date"
  grep -q '^# settings: profile=kde3 ' "$R/var/lib/kde-icon-cache/manifest"
  ok $? "... and the manifest says kde3"
  "$BIN" -q --root "$R" --kde=kde3 --clean && [ ! -e "$R/var/lib/kde-icon-cache" ] &&
    diff -r --no-dereference "$before" "$R" > /dev/null
  ok $? "--clean returns the root to what it was"
else
  skip "kde4 detection root not built"
fi
# app-specific bases come first in hicolor (@v4.14.2 kicontheme.cpp:138-151)
A=$WORK/appbase
cp -a "$T/all" "$A"
mkdir -p "$A/usr/share/kde4/apps/plasma-desktop/icons/hicolor/16x16/apps" \
         "$A/usr/share/apps/kicker/icons/hicolor/16x16/apps"
cp "$A/usr/share/icons/hicolor/16x16/apps/kicapp.png" "$A/usr/share/kde4/apps/plasma-desktop/icons/hicolor/16x16/apps/kicappbase.png"
cp "$A/usr/share/icons/hicolor/16x16/apps/kicapp.png" "$A/usr/share/apps/kicker/icons/hicolor/16x16/apps/kicappbase.png"
is "$("$BIN" -q --root "$A" --kde=kde4 --resolve --size 16 kicappbase | cut -f 2)" \
   /usr/share/kde4/apps/plasma-desktop/icons/hicolor/16x16/apps/kicappbase.png \
   "kde4: plasma-desktop's own hicolor directory is searched"
is "$("$BIN" -q --root "$A" --kde=kde3 --resolve --size 16 kicappbase | cut -f 2)" \
   /usr/share/apps/kicker/icons/hicolor/16x16/apps/kicappbase.png \
   "kde3: kicker's own hicolor directory is searched"
is "$("$BIN" -q --root "$A" --kde=kf5 --resolve --size 16 kicappbase | cut -f 2)" - \
   "kf5: KDE 4's app directories mean nothing to plasmashell"

# KF6's generic icons come from every mime type (kiconloader.cpp:229-240,
# measured: tests/oracle/kf6/FINDINGS.md), KF5's from generic-icons only
is "$("$BIN" -q --root "$T/all" --kde=kf6 --resolve --size 32 x-kic-sheet | cut -f 2)" \
   /usr/share/icons/hicolor/32x32/apps/x-kic-x-generic.png "kf6: x-kic/sheet falls back to x-kic-x-generic"
is "$("$BIN" -q --root "$T/all" --kde=kf5 --resolve --size 32 x-kic-sheet | cut -f 2)" - \
   "kf5: x-kic/sheet has no generic icon (not in mime/generic-icons)"

"$BIN" -q --root "$T/all" --kde=kde5 --list > /dev/null 2> "$WORK/kde5.err"
st=$?
is "$st" 2 "--kde=kde5 is a usage error (exit 2)"
grep -q "unknown KDE generation 'kde5'" "$WORK/kde5.err"
ok $? "... which names the bad value"

tap_done
