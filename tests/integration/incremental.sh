#!/bin/sh
# incremental.sh - a rebuild after a change keeps the last rebuild's plan
# where no change reaches, and plans exactly what a full plan plans
#
# After each change: the --dry-run changes, the summary's calls for the
# menu and the --dry-run --json report of a run that keeps what the
# store's state says (state.h) are byte for byte those of --full, which
# plans every name again; the run says it
# kept names (or, for a change of a theme or a setting, that it planned
# them all); then the rebuild itself, after which a full plan would
# change nothing.  Every kind of change fingerprint.sh makes, on the
# basic fixture and on the realistic tree; then a seeded random walk of
# changes on the fixture (KIC_RANDOM_STEPS, default 16; make stress: 300,
# and on the realistic tree too).  A damaged, cut short, foreign or stale
# state is ignored: the run plans every name.
. "$(dirname "$0")/lib.sh"

STEPS=${KIC_RANDOM_STEPS:-16}
[ -n "${KIC_STRESS:-}" ] && STEPS=${KIC_RANDOM_STEPS:-300}
S=/var/lib/kde-icon-cache

# compared ROOT DESCRIPTION KEPT [OPTION...]: incremental against full;
# KEPT is "kept" when names must have been kept, "all" when every name
# must have been planned again, "any" when either may be
compared () {
  _r=$1 _what=$2 _kept=$3; shift 3
  "$BIN" -v --root "$_r" --dry-run "$@" > "$WORK/inc.txt" 2> "$WORK/inc.err"
  "$BIN" --root "$_r" --dry-run --full "$@" > "$WORK/full.txt" 2> "$WORK/full.err"
  "$BIN" -q --root "$_r" --dry-run --json "$@" > "$WORK/inc.json" 2> /dev/null
  "$BIN" -q --root "$_r" --dry-run --json --full "$@" > "$WORK/full.json" 2> /dev/null
  _k=$(sed -n 's/.*plan: \([0-9]*\) names kept from the last rebuild.*/\1/p' "$WORK/inc.err")
  case $_kept in
    kept) [ -n "$_k" ] && [ "$_k" -gt 0 ] ;;
    all) [ -z "$_k" ] || [ "$_k" -eq 0 ] ;;
    *) true ;;
  esac
  _kok=$?
  # the summary's calls for the menu come from the size reports, which a
  # run without --json keeps for the names it keeps (a run that finds no
  # input changed has no summary; --full never stops there)
  grep "KDE's calls for the menu" "$WORK/inc.err" > "$WORK/inc.calls"
  grep "KDE's calls for the menu" "$WORK/full.err" > "$WORK/full.calls"
  cmp -s "$WORK/inc.txt" "$WORK/full.txt" && cmp -s "$WORK/inc.json" "$WORK/full.json" &&
    [ -s "$WORK/full.calls" ] &&
    { cmp -s "$WORK/inc.calls" "$WORK/full.calls" || grep -q "no input changed" "$WORK/inc.err"; } &&
    python3 -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1]))["names"])' "$WORK/full.json" &&
    [ "$_kok" -eq 0 ]
  _rc=$?
  if [ "$_rc" -ne 0 ]; then
    diag "$_what: kept ${_k:-none} (wanted $_kept)"
    diff "$WORK/inc.txt" "$WORK/full.txt" | head -n 5 | sed 's/^/# /'
    diff "$WORK/inc.calls" "$WORK/full.calls" | sed 's/^/# /'
    diff "$WORK/inc.json" "$WORK/full.json" | head -n 5 | cut -c1-300 | sed 's/^/# /'
  fi
  return $_rc
}

# rebuilt ROOT [OPTION...]: the rebuild, then a full plan changes nothing.
# Every other rebuild shows its summary: the state then keeps the names'
# size reports, which the next run keeps for the names it keeps; after a
# --quiet one it has none, and the next run that shows them makes them all
_rebuilds=0
rebuilt () {
  _r=$1; shift
  _rebuilds=$((_rebuilds + 1))
  if [ $((_rebuilds % 2)) -eq 0 ]; then
    "$BIN" -q --root "$_r" "$@" || return 1
  else
    "$BIN" --root "$_r" "$@" > /dev/null 2>&1 || return 1
  fi
  "$BIN" -q --root "$_r" --dry-run --json --full "$@" > "$WORK/after.json" 2> /dev/null || return 1
  python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["links"]
sys.exit(l["added"] + l["replaced"] + l["removed"] != 0)' "$WORK/after.json"
}

# step ROOT DESCRIPTION KEPT [OPTION...]: one change checked, then applied
step () {
  _sr=$1 _sw=$2 _sk=$3; shift 3
  compared "$_sr" "$_sw" "$_sk" "$@"
  ok $? "$_sw: the run that keeps the last plan plans as --full (--dry-run, --json)"
  rebuilt "$_sr" "$@"
  ok $? "$_sw: after the rebuild a full plan changes nothing"
}

# ---- every kind of change fingerprint.sh makes ----------------------------
kinds () { # kinds ROOT THEMEDIR ICON DESKTOP
  R=$1 D=$2 I=$3 A=$4
  "$BIN" -q --root "$R" || return 1
  [ -s "$R$S/state" ]
  ok $? "$(basename "$R"): the rebuild leaves its state in the store"
  cp "$R$D/$I" "$R$D/kicnew.svg"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicnew\n' > "$R/usr/share/applications/kicnew.desktop"
  step "$R" "an application added (a .desktop file and its icon)" kept
  rm "$R$D/kicnew.svg"
  step "$R" "an icon removed from a theme directory" kept
  cp "$R$D/$I" "$R$D/kicnew.svg"
  step "$R" "an icon added in a theme directory" kept
  printf '<!-- kic -->\n' >> "$R$D/kicnew.svg"
  step "$R" "an icon rewritten in place" kept
  # (KDE stats DIR/l10n on a hit in DIR: every hit there costs a call
  # more, a change no icon stem names)
  mkdir "$R$D/l10n"
  step "$R" "an l10n directory added in a theme directory" all
  rmdir "$R$D/l10n"
  step "$R" "an l10n directory removed" all
  icon=$(awk -F '\t' '$1 == "file" { print $3; exit }' "$R$S/manifest")
  printf '<!-- kic -->\n' >> "$R$icon"
  step "$R" "a planted icon's source rewritten in place ($icon)" kept
  printf 'X-Kic-Test=1\n' >> "$R/usr/share/applications/$A"
  step "$R" "a .desktop file written in place" kept
  sed -i 's/^Icon=.*/Icon=kicnew-symbolic/' "$R/usr/share/applications/kicnew.desktop"
  step "$R" "a .desktop file's icon changed to a dash form of another" kept
  rm "$R/usr/share/applications/kicnew.desktop"
  step "$R" "a .desktop file removed" kept
  # a link whose target goes while the link's own directory stays as it was
  cp "$R$D/$I" "$R$D/kictarget.svg"
  mkdir -p "$R/usr/share/pixmaps"
  ln -s "$D/kictarget.svg" "$R/usr/share/pixmaps/kiclinked.svg"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kiclinked\n' > "$R/usr/share/applications/kiclinked.desktop"
  step "$R" "a link to an icon in another directory added" kept
  rm "$R$D/kictarget.svg"
  step "$R" "a link's target removed (the link's directory unchanged)" kept
  # a link in hicolor that no lookup follows yet (the state keeps such a
  # link's kind, not its target: state-changes.c, compare_dir), pointed at
  # another file; then named by a .desktop file (KDE finds it in hicolor
  # only: it is planted), and pointed back while followed, the files it
  # points at unchanged
  H=/usr/share/icons/hicolor/scalable/apps
  cp "$R$D/$I" "$R$H/kicother-a.svg"
  { cat "$R$D/$I"; printf '<!-- kic b -->\n'; } > "$R$H/kicother-b.svg"
  ln -s kicother-a.svg "$R$H/kicfollowed.svg"
  step "$R" "a link no name asks for added" kept
  ln -sfn kicother-b.svg "$R$H/kicfollowed.svg"
  step "$R" "that link pointed at another file" kept
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicfollowed\n' \
    > "$R/usr/share/applications/kicfollowed.desktop"
  step "$R" "a .desktop file naming that link" kept
  grep -q "kicfollowed" "$WORK/full.txt"
  ok $? "... and the plan plants it"
  ln -sfn kicother-a.svg "$R$H/kicfollowed.svg"
  step "$R" "that link, now followed, pointed at the other file again (the files unchanged)" kept
  mkdir -p "$R/usr/local/share/applications"
  cp "$R/usr/share/applications/$A" "$R/usr/local/share/applications/kic-local.desktop"
  step "$R" "a data directory that did not exist" any
  printf '[Icons]\nTheme=breeze\n\n[General]\nX-Kic=1\n' > "$R/etc/xdg/kdeglobals"
  step "$R" "kdeglobals rewritten" any
  printf '[kde-icon-cache]\nSizes=16:1,48:4\n' > "$R/etc/kde-icon-cache.conf"
  step "$R" "the configuration changed" all
  rm "$R/etc/kde-icon-cache.conf"
  step "$R" "the configuration removed" all
  printf '\n# kic\n' >> "$R/usr/share/icons/breeze/index.theme"
  step "$R" "an index.theme rewritten (a comment)" any
  sed -i 's/^Inherits=.*/Inherits=hicolor/; t; s/^\(\[Icon Theme\]\)$/\1\nInherits=hicolor/' \
    "$R/usr/share/icons/breeze/index.theme"
  step "$R" "an index.theme rewritten (its inheritance)" any
  mkdir -p "$R/usr/share/icons/kictheme/apps/48"
  printf '[Icon Theme]\nName=Kic\nDirectories=apps/48\n\n[apps/48]\nSize=48\nType=Fixed\n' \
    > "$R/usr/share/icons/kictheme/index.theme"
  cp "$R$D/$I" "$R/usr/share/icons/kictheme/apps/48/kicnew.svg"
  step "$R" "a theme added" any
  rm -r "$R/usr/share/icons/kictheme"
  step "$R" "a theme removed" any
}

# ---- a change that reaches a name only through another's stems --------------
# "kic-x-thing" (a media type whose generic icon is "kicgeneric") finds
# nothing; "kic-x-thing-more", whose dash cut it is, is planted.  When
# kicgeneric.svg comes, "kic-x-thing" finds it and is planted too, and the
# proof looks up "kic-x-thing-more" against its links.  The change's stem,
# "kicgeneric", is not one of "kic-x-thing-more"'s: that name is reached
# through "kic-x-thing"'s stems, and planned and proved again with it.
chained () { # chained ROOT
  R=$1 H=$1/usr/share/icons/hicolor/scalable/apps
  printf 'kic/x-thing:kicgeneric\n' >> "$R/usr/share/mime/generic-icons"
  for n in kic-x-thing kic-x-thing-more; do
    printf '[Desktop Entry]\nType=Application\nName=%s\nExec=true\nIcon=%s\n' "$n" "$n" \
      > "$R/usr/share/applications/$n.desktop"
  done
  cp "$H/hiall.svg" "$H/kic-x-thing-more.svg"
  "$BIN" -q --root "$R"
  grep -q '/kic-x-thing-more\.svg	' "$R$S/manifest" && ! grep -q '/kic-x-thing\.svg	' "$R$S/manifest"
  ok $? "chained: 'kic-x-thing-more' is planted, 'kic-x-thing' finds nothing"
  cp "$H/svgzicon.svg" "$H/kicgeneric.svg"
  step "$R" "chained: the generic icon of a media type added" kept
}

# ---- a file only compared, rewritten after a run that kept its name --------
# "kictwin" has the same bytes in hicolor's 16x16/apps and 48x48/apps: one
# content, planted (a link to a copy of one of them).  The other file was
# read only to compare.  A run after an unrelated change keeps kictwin's
# plan; the compared file is still an input after it, so rewriting it in
# place (its directory's listing as it was) reaches kictwin, which KDE now
# shows with two files: no longer one content, its links go.
twins () { # twins ROOT THEMEDIR ICON
  R=$1 D=$2 I=$3 H=$1/usr/share/icons/hicolor
  "$BIN" -q --root "$R" || return 1
  mkdir -p "$H/16x16/apps" "$H/48x48/apps"
  cp "$R$D/$I" "$H/16x16/apps/kictwin.svg"
  cp "$R$D/$I" "$H/48x48/apps/kictwin.svg"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kictwin\n' \
    > "$R/usr/share/applications/kictwin.desktop"
  step "$R" "twins: a name of one content in two files added" kept
  grep -q '/kictwin\.svg	' "$R$S/manifest"
  ok $? "twins: 'kictwin' is planted"
  cp "$R$D/$I" "$R$D/kicunrelated.svg"
  step "$R" "twins: an unrelated icon added (the twins' name kept)" kept
  source=$(awk -F '\t' '$1 == "file" && $3 ~ /\/kictwin\.svg$/ { print $3; exit }' "$R$S/manifest")
  case $source in
    */16x16/*) other=$H/48x48/apps/kictwin.svg ;;
    *) other=$H/16x16/apps/kictwin.svg ;;
  esac
  printf '<!-- kic twin -->\n' >> "$other"
  step "$R" "twins: the file only compared rewritten in place" kept
  ! grep -q '/kictwin\.svg	' "$R$S/manifest"
  ok $? "twins: 'kictwin' is no longer planted"
}

# ---- a state that cannot be trusted ------------------------------------------
untrusted () { # untrusted ROOT THEMEDIR ICON
  R=$1 D=$2 I=$3
  cp "$R$S/state" "$WORK/old-state"
  cp "$R$D/$I" "$R$D/kicnew2.svg"
  "$BIN" -q --root "$R"
  cp "$R$D/$I" "$R$D/kicnew3.svg"
  for how in damaged short stale empty; do
    case $how in
      damaged) sed -i '6s/./X/' "$R$S/state"; why="its checksum does not match" ;;
      short) head -c 1000 "$R$S/state" > "$WORK/st" && cat "$WORK/st" > "$R$S/state"; why="cut short" ;;
      stale) cat "$WORK/old-state" > "$R$S/state"; why="not bound to the manifest" ;;
      empty) : > "$R$S/state"; why="cut short" ;;
    esac
    "$BIN" -v --root "$R" --dry-run > "$WORK/inc.txt" 2> "$WORK/inc.err"
    "$BIN" -q --root "$R" --dry-run --full > "$WORK/full.txt" 2> /dev/null
    grep -q "state: ignored ($why" "$WORK/inc.err" && ! grep -q "names kept" "$WORK/inc.err" &&
      cmp -s "$WORK/inc.txt" "$WORK/full.txt"
    ok $? "a $how state is ignored ($why): every name is planned"
    "$BIN" -q --root "$R" --full --dry-run > /dev/null
  done
  "$BIN" -q --root "$R"
  cp "$R$D/$I" "$R$D/kicnew4.svg"
  compared "$R" "after the untrusted states" kept
  ok $? "the rebuild after them leaves a state the next run keeps"
}

# ---- what the run after one change does not read again -------------------------
# After one application is added (its icon outside the themes: no link goes
# where it went), the rebuild opens no .desktop file but the new one (the
# state keeps what each read gave, while the fingerprint finds the file's
# stamp as it was), reads none of our links (the directories they are
# in are as the last rebuild left them: writer.h, settled) and none of the
# store copies (their stamps are as the last rebuild left them:
# store_stamps).  Still seen:
# a .desktop file rewritten in place with its modification time put back
# (its change time moved), a link of ours that someone replaced, and a
# store copy rewritten in place with its size and times put back.
unread () { # unread ROOT
  R=$1
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\n' > "$R/usr/share/applications/kicwarm.desktop"
  sleep 1 # the fixture's files just copied: their stamps would be racy
  "$BIN" -q --root "$R" --full || return 1
  # (a run whose copies were written in the tick it stamps them keeps
  # stamps that prove nothing: the next run reads them, and stamps again)
  rm "$R/usr/share/applications/kicwarm.desktop"
  "$BIN" -q --root "$R" || return 1
  mkdir -p "$R/usr/share/pixmaps"
  src=$(awk -F '\t' '$1 == "file" { print $3; exit }' "$R$S/manifest")
  ext=${src##*.}
  cp "$R$src" "$R/usr/share/pixmaps/kicunread.$ext"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicunread\n' \
    > "$R/usr/share/applications/kicunread.desktop"
  links=$(grep -c '^link	' "$R$S/manifest")
  copies=$(grep -c '^file	' "$R$S/manifest")
  if command -v strace > /dev/null; then
    # (LeakSanitizer cannot run under ptrace: the sanitizer build's leaks
    # are the other tests')
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -y -s 4096 -e trace=openat,openat2,readlinkat,read -o "$WORK/unread.trace" "$BIN" --root "$R" \
      2> "$WORK/unread.err"
    # (the trace must show the run: a count of nothing proves nothing)
    traced=$(grep -c 'kicunread\.desktop"' "$WORK/unread.trace")
    [ "$traced" -gt 0 ] || diag "the trace shows no open of kicunread.desktop: $(head -c 300 "$WORK/unread.err")"
    grep -v O_DIRECTORY "$WORK/unread.trace" | sed -n 's|.*"\([^"]*\.desktop\)".*|\1|p' | sort -u > "$WORK/opened"
    # (a file that gave a warning is read again, to warn again)
    others=$(grep -v '^usr/share/applications/kicunread\.desktop$' "$WORK/opened" | while read -r f; do
               grep -qF "$f" "$WORK/unread.err" || echo "$f"; done | wc -l)
    grep -qx 'usr/share/applications/kicunread\.desktop' "$WORK/opened" && [ "$others" -eq 0 ]
    ok $? "one application added: only its .desktop file is opened (and those that warn: $(wc -l < "$WORK/opened") in all)"
    ours=$(grep '^[0-9]* *readlinkat' "$WORK/unread.trace" | grep -c 'kde-icon-cache/files/')
    [ "$traced" -gt 0 ] && [ "$links" -gt 0 ] && [ "$ours" -eq 0 ]
    ok $? "one application added: none of our $links links is read again ($ours read)"
    read=$(grep '^[0-9]* *read([0-9]*<[^>]*kde-icon-cache/files/' "$WORK/unread.trace" | sed 's/.*read([0-9]*<\([^>]*\)>.*/\1/' |
             sort -u | wc -l)
    [ "$traced" -gt 0 ] && [ "$copies" -gt 0 ] && [ "$read" -eq 0 ]
    ok $? "one application added: none of the $copies store copies is read again ($read read)"
  else
    "$BIN" -q --root "$R"
    ok 0 "# SKIP needs strace"
    ok 0 "# SKIP needs strace"
    ok 0 "# SKIP needs strace"
  fi
  f=$R/usr/share/applications/kicunread.desktop
  touch -d '2001-01-01' "$f"
  sleep 1
  "$BIN" -q --root "$R" || return 1
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicunreae\n' > "$f"
  cp "$R/usr/share/pixmaps/kicunread.$ext" "$R/usr/share/pixmaps/kicunreae.$ext"
  touch -d '2001-01-01' "$f"
  compared "$R" "a .desktop file rewritten in place, its modification time put back" any &&
    grep -q '"kicunreae"' "$WORK/inc.json"
  ok $? "a .desktop file rewritten in place, its modification time put back: its new Icon= is seen"
  "$BIN" -q --root "$R" || return 1
  # a store copy rewritten in place, its size and times put back
  copy=$(awk -F '\t' '$1 == "file" { print $2; exit }' "$R$S/manifest")
  size=$(stat -c %s "$R$copy")
  touch -r "$R$copy" "$WORK/copy-time"
  sleep 1
  { head -c $((size - 1)) "$R$copy"; printf 'X'; } > "$WORK/copy-new"
  cat "$WORK/copy-new" > "$R$copy" && touch -r "$WORK/copy-time" "$R$copy"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicunread\n' \
    > "$R/usr/share/applications/kicunread3.desktop"
  compared "$R" "a store copy rewritten in place" any &&
    grep -q "is in the way and is no copy of ours" "$WORK/inc.err"
  ok $? "a store copy rewritten in place, its size and times put back ($copy): seen, as --full sees it"
  "$BIN" -q --root "$R" 2> /dev/null
  link=$(awk -F '\t' '$1 == "link" { print $2; exit }' "$R$S/manifest")
  rm "$R$link" && printf 'not ours\n' > "$R$link"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicunread\n' \
    > "$R/usr/share/applications/kicunread2.desktop"
  compared "$R" "a link of ours replaced by a file" any
  ok $? "a link of ours replaced by a file ($link): the run plans and writes as --full"
  "$BIN" -q --root "$R" 2> /dev/null
  [ ! -L "$R$link" ] && [ "$(cat "$R$link")" = "not ours" ] && ! grep -q "	$link	" "$R$S/manifest"
  ok $? "... and the file is left as it is, not ours"
}

# ---- a kept plan given up ------------------------------------------------------
# A copied file's directory made unreadable to others, who may still
# search it (0711: not hidden, fsindex.h, so its listing is read and the
# state's comparison finds nothing changed in it) is seen when the plan
# checks the copy: the plan kept cannot be kept safely, and every name is
# planned again, as --full plans them, without a word from GLib about the
# plan given up.  (Made 0700, it hides its names: the state's comparison
# plans every name already.)
given_up () { # given_up ROOT THEMEDIR ICON
  R=$1 D=$2 I=$3
  "$BIN" -q --root "$R" || return 1
  src=$(awk -F '\t' '$1 == "file" { print $3; exit }' "$R$S/manifest")
  chmod 711 "$R${src%/*}"
  cp "$R$D/$I" "$R$D/kicunrelated.svg"
  compared "$R" "a copied file's directory made private" all &&
    grep -q "cannot be kept safely" "$WORK/inc.err" && ! grep -q "CRITICAL" "$WORK/inc.err" "$WORK/full.err"
  ok $? "a copied file's directory made private (${src%/*}): the kept plan is given up, and every name planned"
}

# ---- the kernel's hard-link protection changed -------------------------------
# Without fs.protected_hardlinks any user may give a file of root's a name
# of their own, so a file of two names is not copied (source.h): the
# setting decides the plan as an option does, and a run after it changed
# plans every name, as --full does.  The setting is the whole machine's:
# each run here sees one of its own, a file bound over it in a mount
# namespace of the run's, so no run beside this test sees it change.
hardlinks () { # hardlinks ROOT THEMEDIR ICON
  R=$1 D=$2 I=$3 H=/usr/share/icons/hicolor/scalable/apps
  _bin=$BIN
  for v in 0 1; do
    echo "$v" > "$WORK/hardlinks-$v"
    printf '#!/bin/sh\nexec unshare -m sh -c %s %s %s "$@"\n' \
      "'mount --bind \"\$0\" /proc/sys/fs/protected_hardlinks && exec \"\$@\"'" \
      "'$WORK/hardlinks-$v'" "'$BIN'" > "$WORK/bin-$v"
    chmod +x "$WORK/bin-$v"
  done
  if ! "$WORK/bin-0" --version > /dev/null 2>&1; then
    skip "needs unshare and a mount namespace" 6
    return
  fi
  cp "$R$D/$I" "$R$H/kichard.svg"
  ln "$R$H/kichard.svg" "$R/usr/share/kichard-other-name.svg"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kichard\n' \
    > "$R/usr/share/applications/kichard.desktop"
  BIN=$WORK/bin-0
  "$BIN" -q --root "$R" 2> /dev/null
  ! grep -q '/kichard\.svg	' "$R$S/manifest"
  ok $? "hard links not protected: a file of two names is not planted"
  # (no file changed: the setting alone is the change)
  BIN=$WORK/bin-1
  step "$R" "the kernel's hard-link protection turned on" all
  grep -q '/kichard\.svg	' "$R$S/manifest"
  ok $? "... then it is planted"
  BIN=$WORK/bin-0
  step "$R" "the kernel's hard-link protection turned off again" all
  BIN=$_bin
}

# ---- a random walk of changes ------------------------------------------------
# a tiny generator, the same on every machine: next_random sets RND
RND_STATE=${KIC_RANDOM_SEED:-20261201}
next_random () { RND_STATE=$(( (RND_STATE * 1103515245 + 12345) % 2147483648 )); RND=$(( RND_STATE / 65536 )); }
pick () { # pick FILE: a random line of FILE
  next_random
  _n=$(wc -l < "$1"); [ "$_n" -gt 0 ] || return 1
  sed -n "$(( RND % _n + 1 ))p" "$1"
}

random_walk () { # random_walk ROOT STEPS
  R=$1 n=$2
  "$BIN" -q --root "$R" --full
  find "$R/usr/share/icons" "$R/usr/share/pixmaps" -type d | sed "s|^$R||" | grep -v '/kic' > "$WORK/dirs"
  find "$R/usr/share/icons" "$R/usr/share/pixmaps" -type f \( -name '*.png' -o -name '*.svg' -o -name '*.xpm' \) |
    sed "s|^$R||" | grep -v '/kic' > "$WORK/icons"
  icon_names "$R" | grep -av '^/' | sed 's/\.[a-z]*$//' > "$WORK/menu-names"
  # names near the menu's: its own, dash cuts and forms of them, new ones
  while IFS= read -r nm; do
    echo "$nm"; echo "$nm-kic"; echo "${nm%-*}"; echo "$nm-symbolic"; echo "kic-$nm"
  done < "$WORK/menu-names" | sort -u > "$WORK/names"
  echo 0 > "$WORK/bad"
  i=0
  while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    next_random
    case $((RND % 8)) in
      0|1) # an icon of some name added somewhere
        d=$(pick "$WORK/dirs"); src=$(pick "$WORK/icons"); nm=$(pick "$WORK/names")
        ext=${src##*.}
        cp "$R$src" "$R$d/$nm.$ext" 2>/dev/null
        what="icon $d/$nm.$ext added" ;;
      2) # an icon removed (one of the tree's or one added)
        f=$(find "$R/usr/share/icons" "$R/usr/share/pixmaps" -type f \( -name '*.png' -o -name '*.svg' \) |
              sed "s|^$R||" | sort > "$WORK/now"; pick "$WORK/now")
        rm -f "$R$f"; what="icon $f removed" ;;
      3) # an icon's content changed in place
        f=$(pick "$WORK/icons"); [ -f "$R$f" ] && printf '\n' >> "$R$f"; what="icon $f rewritten" ;;
      4) # a .desktop file added with a name near the menu's
        nm=$(pick "$WORK/names")
        printf '[Desktop Entry]\nType=Application\nName=K%s\nExec=true\nIcon=%s\n' "$i" "$nm" \
          > "$R/usr/share/applications/kic$i.desktop"
        what=".desktop with Icon=$nm added" ;;
      5) # a .desktop file removed
        f=$(ls "$R/usr/share/applications" | sort > "$WORK/apps"; pick "$WORK/apps")
        rm -f "$R/usr/share/applications/$f"; what=".desktop $f removed" ;;
      6) # a link to an icon added, or a link's target removed
        src=$(pick "$WORK/icons"); d=$(pick "$WORK/dirs"); nm=$(pick "$WORK/names")
        ln -sf "$src" "$R$d/$nm.${src##*.}" 2>/dev/null
        what="link $d/$nm.${src##*.} -> $src" ;;
      7) # nothing at all, or only a directory's time
        d=$(pick "$WORK/dirs"); touch "$R$d"; what="$d touched" ;;
    esac
    compared "$R" "step $i: $what" any
    rc=$?
    [ "$rc" -eq 0 ] || { diag "step $i ($what) differs from --full"; echo 1 > "$WORK/bad"; }
    rebuilt "$R" || { diag "step $i ($what): the rebuild left what a full plan changes"; echo 1 > "$WORK/bad"; }
  done
  [ "$(cat "$WORK/bad")" -eq 0 ]
}

# ---- the state's listings after a run that kept the last plan ---------------
# The directories the fingerprint found as they were are written back
# from the last state's text (state-write.c), the others anew: either way
# the lines a --full run writes of the same tree, and the run after it
# keeps that state.
# ---- what a kept state stands on besides the listings (issue 39) ---------
# A directory's mode, owner and ACL, and the store's copies, for KDE
# generation GEN: each change checked as a step (kf6's --json once kept
# half the proof's lookups: row 9).
stands_on () { # stands_on ROOT THEMEDIR GEN
  R=$1 D=$2 G=$3
  "$BIN" -q --root "$R" --kde="$G" || return 1
  sleep 0.05
  chmod 750 "$R$D"
  step "$R" "$G: a theme directory made 0750" any --kde="$G"
  chmod 755 "$R$D"
  step "$R" "$G: ... and 0755 again" any --kde="$G"
  if command -v setfacl > /dev/null; then
    setfacl -m u:nobody:0 "$R$D"
    step "$R" "$G: an ACL denying nobody set on it" any --kde="$G"
    setfacl -b "$R$D"
    step "$R" "$G: ... and removed" any --kde="$G"
  else
    skip "needs setfacl (acl)" 4
  fi
  chown nobody "$R$D"
  step "$R" "$G: the directory given to nobody" any --kde="$G"
  chown root "$R$D"
  step "$R" "$G: ... and back to root" any --kde="$G"
  # (KDE 4 finds none of this root's icons: no copy to damage)
  F=$(find "$R$S/files" -type f 2> /dev/null | sort | head -n 1)
  if [ -n "$F" ]; then
    rm -f "$F"
    step "$R" "$G: a store copy removed" any --kde="$G"
    F=$(find "$R$S/files" -type f | sort | head -n 1)
    printf 'damage' >> "$F"
    step "$R" "$G: a store copy damaged" any --kde="$G"
  else
    skip "$G: no store copy on this root" 4
  fi
  printf '[Desktop Entry]\nType=Application\nName=Kic9\nExec=true\nIcon=kicnew9\n' > "$R/usr/share/applications/kic9.desktop"
  step "$R" "$G: an application added (a state kept: its --json as --full's)" kept --kde="$G"
}

# ---- GTK's icon-theme.cache, for a KIconThemes that reads it ----------------
# (--kde-version 6.30.0+iconcache: kiconthemes a8749c1, theme-gtkcache.c)
# The current theme, kictheme (inheriting hicolor), has a cache: used, the
# links the plan would put in kictheme's directories are names the cache
# does not list, which KDE never sees; unused (older than its directory),
# they are.  A cache is used or not by its time alone: touched, a cache
# older than its directory, which the run never reads, starts to count.
# The caches used and what they list are part of the plan's key: a change
# of either plans every name, any other change keeps the names it does not
# reach (an application whose icon is in pixmaps).
gtkcaches () { # gtkcaches ROOT
  R=$1 K=$1/usr/share/icons/kictheme O="--kde=kf6 --kde-version=6.30.0+iconcache"
  mkdir -p "$K/apps/22" "$K/apps/48"
  printf '[Icon Theme]\nName=Kic\nInherits=hicolor\nDirectories=apps/22,apps/48\n\n[apps/22]\nSize=22\nType=Fixed\n\n[apps/48]\nSize=48\nType=Fixed\n' \
    > "$K/index.theme"
  cp "$R/usr/share/icons/breeze/apps/22/kate.svg" "$K/apps/48/kicown.svg"
  printf '[Icons]\nTheme=kictheme\n' > "$R/etc/xdg/kdeglobals"
  gtk-update-icon-cache -f -q "$K" || return 1
  touch -d 2001-01-01 "$K/icon-theme.cache"
  "$BIN" -q --root "$R" $O || return 1
  links=$(grep -c '^link	/usr/share/icons/kictheme/' "$R$S/manifest")
  sleep 0.05
  touch "$K/icon-theme.cache"
  step "$R" "iconcache: a cache older than its theme directory touched (now used)" any $O
  is "$links $(grep -c '^link	/usr/share/icons/kictheme/' "$R$S/manifest")" "$links 0" \
    "iconcache: ... the links in kictheme's directories go"
  touch -d 2001-01-01 "$K/icon-theme.cache"
  step "$R" "iconcache: the cache made older than its directory (no longer used)" any $O
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicpix\n' > "$R/usr/share/applications/kicpix.desktop"
  cp "$R/usr/share/pixmaps/pixpng.png" "$R/usr/share/pixmaps/kicpix.png"
  step "$R" "iconcache: an application added, its icon in pixmaps" kept $O
  gtk-update-icon-cache -f -q "$K"
  step "$R" "iconcache: the cache made again" any $O
  cp "$K/apps/48/kicown.svg" "$K/apps/22/kicown.svg"
  step "$R" "iconcache: an icon added in kictheme (the cache now older)" any $O
  gtk-update-icon-cache -f -q "$K"
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicpix2\n' > "$R/usr/share/applications/kicpix2.desktop"
  cp "$R/usr/share/pixmaps/pixpng.png" "$R/usr/share/pixmaps/kicpix2.png"
  step "$R" "iconcache: the cache made again, and an application added" any $O
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicpix3\n' > "$R/usr/share/applications/kicpix3.desktop"
  cp "$R/usr/share/pixmaps/pixpng.png" "$R/usr/share/pixmaps/kicpix3.png"
  step "$R" "iconcache: an application added, the cache used" kept $O
  rm "$K/icon-theme.cache"
  step "$R" "iconcache: the cache removed" any $O
  # nobody's hicolor directory gets a cache of their own, then rewrites it
  # in place to list no hilocal32 (a file that stays): no listing and no
  # directory's time moves, only the names the cache lists
  L=$R/usr/local/share/icons/hicolor
  rm -rf "$WORK/ucopy"
  cp -a "$L" "$WORK/ucopy"
  rm "$WORK/ucopy/32x32/apps/hilocal32.png"
  gtk-update-icon-cache -f -q -t "$WORK/ucopy"
  gtk-update-icon-cache -f -q -t "$L"
  chown -R nobody "$L"
  step "$R" "iconcache: a user's hicolor directory given a cache" any $O
  cat "$WORK/ucopy/icon-theme.cache" > "$L/icon-theme.cache"
  step "$R" "iconcache: ... rewritten in place to list one name fewer" any $O
  printf '[Desktop Entry]\nType=Application\nName=Kic\nExec=true\nIcon=kicpix4\n' > "$R/usr/share/applications/kicpix4.desktop"
  cp "$R/usr/share/pixmaps/pixpng.png" "$R/usr/share/pixmaps/kicpix4.png"
  step "$R" "iconcache: an application added, two caches used" kept $O
}

listings_kept () { # listings_kept ROOT
  R=$1
  grep -a '^[DEL]	' "$R$S/state" > "$WORK/kept.lines"
  cp "$R$S/state" "$WORK/kept.state"
  "$BIN" -q --root "$R" --full
  grep -a '^[DEL]	' "$R$S/state" > "$WORK/full.lines"
  [ -s "$WORK/kept.lines" ] && cmp -s "$WORK/kept.lines" "$WORK/full.lines"
  ok $? "after a run that kept the last plan, the state lists the $(wc -l < "$WORK/full.lines") directory lines --full writes"
}

T=$(realistic_tree 2>/dev/null) || T=
n_realistic=0 n_walk=0
[ -n "$T" ] && n_realistic=1
[ -n "$T" ] && [ -n "${KIC_STRESS:-}" ] && n_walk=1
plan $((50 + 5 + 3 + 8 + 7 + 1 + 6 + 1 + 1 + 3 * 18 + 23 + 50 * n_realistic + n_walk))

fixtures "$WORK/fx" basic
kinds "$WORK/fx/basic" /usr/share/icons/breeze/apps/22 kate.svg kate.desktop
untrusted "$WORK/fx/basic" /usr/share/icons/breeze/apps/22 kate.svg
fixtures "$WORK/ch" basic
chained "$WORK/ch/basic"
fixtures "$WORK/tw" basic
twins "$WORK/tw/basic" /usr/share/icons/breeze/apps/22 kate.svg
fixtures "$WORK/un" basic
unread "$WORK/un/basic"
listings_kept "$WORK/un/basic"
for gen in kf5 kf6 kde4; do
  fixtures "$WORK/so$gen" basic
  stands_on "$WORK/so$gen/basic" /usr/share/icons/hicolor/48x48/apps $gen
done
fixtures "$WORK/gu" basic
given_up "$WORK/gu/basic" /usr/share/icons/breeze/apps/22 kate.svg
fixtures "$WORK/gc" basic
if command -v gtk-update-icon-cache > /dev/null; then
  gtkcaches "$WORK/gc/basic"
else
  skip "needs gtk-update-icon-cache" 23
fi
fixtures "$WORK/hl" basic
hardlinks "$WORK/hl/basic" /usr/share/icons/breeze/apps/22 kate.svg
fixtures "$WORK/rw" basic
random_walk "$WORK/rw/basic" "$STEPS"
ok $? "a random walk of $STEPS changes on the fixture: each run plans as --full"

if [ -n "$T" ]; then
  writable_view "$T" "$WORK/rt"
  trap "umount '$VIEW' 2>/dev/null; rm -rf '$WORK'" EXIT
  app=$(ls "$VIEW/usr/share/applications" | grep '\.desktop$' | head -n 1)
  kinds "$VIEW" /usr/share/icons/hicolor/scalable/apps "$(ls "$VIEW/usr/share/icons/hicolor/scalable/apps" | grep '\.svg$' | head -n 1)" "$app"
  if [ -n "${KIC_STRESS:-}" ]; then
    random_walk "$VIEW" "$STEPS"
    ok $? "a random walk of $STEPS changes on the realistic tree: each run plans as --full"
  fi
fi
finish
