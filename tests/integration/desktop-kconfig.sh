#!/bin/sh
# desktop-kconfig.sh - .desktop files read as KDE reads them
#
# KDE's menu reads each .desktop file through KDesktopFile, i.e. KConfig's
# parser, which skips the lines it cannot read; one stray line must not
# drop an entry KDE shows (nor keep one KDE hides).  For odd files made
# here, and every .desktop file of the fixture roots and of the realistic
# tree: the Icon= kde-icon-cache plans for (--list) equals the Icon= KF5
# reads (tests/oracle/kic-desktop: KDesktopFile::readIcon(), Hidden=), and
# nothing is planned for a file KF5 hides or gives no icon.
. "$(dirname "$0")/lib.sh"

HELPER=$TOP/tests/oracle/kic-desktop
[ -x "$HELPER" ] || skip_all "needs tests/oracle/kic-desktop (make, with libkf5config-dev)"
plan 6

R=$WORK/odd
A=$R/usr/share/applications
mkdir -p "$A" "$R/usr/share/icons/hicolor"
put () { printf "$2" > "$A/$1.desktop"; }
put stray        '[Desktop Entry]\nType=Application\nName=Stray\nthis line has no equals sign\nIcon=kic-stray\n'
put stray-first  'not a key file line\n[Desktop Entry]\nName=First\nIcon=kic-stray-first\n'
put badgroup     '[Desktop Entry]\nName=Bad\nIcon=kic-badgroup\n[Desktop Action new\nExec=x\n'
put nogroup      'Icon=kic-nogroup\nName=No group\n'
put brokenhead   '[Desktop Entry\nIcon=kic-brokenhead\n'
put hidden-yes   '[Desktop Entry]\nName=H\nIcon=kic-hidden-yes\nHidden=yes\n'
put hidden-1     '[Desktop Entry]\nName=H\nIcon=kic-hidden-1\nHidden=1\n'
put hidden-on    '[Desktop Entry]\nName=H\nIcon=kic-hidden-on\nHidden=On\n'
put hidden-stray '[Desktop Entry]\nName=H\nIcon=kic-hidden-stray\nstray\nHidden=true\n'
put hidden-junk  '[Desktop Entry]\nName=H\nIcon=kic-hidden-junk\nHidden=maybe\n'
put action-icon  '[Desktop Action a]\nIcon=kic-action\n[Desktop Entry]\nName=A\nIcon=kic-action-main\n'
put twice        '[Desktop Entry]\nIcon=kic-twice-first\n[Other]\nIcon=kic-other\n[Desktop Entry]\nName=T\n'
put localized    '[Desktop Entry]\nName=L\nIcon[de]=kic-de\nIcon=kic-localized\n'
put spaced       '[Desktop Entry]\nName=S\n  Icon  =  kic-spaced  \n'
put crlf         '[Desktop Entry]\r\nName=C\r\nIcon=kic-crlf\r\n'
put comment      '[Desktop Entry]\nName=C\n#Icon=kic-commented\n   # another\nIcon=kic-comment\n'
put eqfirst      '[Desktop Entry]\nName=E\n=value\nIcon=kic-eqfirst\n'
put blankish     '[Desktop Entry]\nName=B\n   \n\t\nIcon=kic-blankish\n'
put tabbed       '[Desktop Entry]\nName=T\n\tIcon=kic-tabbed\n'
put keyspace     '[Desktop Entry]\nName=K\nIcon Name=kic-keyspace-wrong\nIcon=kic-keyspace\n'
put junk-header  '[Desktop Entry]\nName=J\nIcon=kic-junkheader\n[Group] trailing\nIcon=kic-junkheader-2\n'
put nested       '[Desktop Entry]\nName=x\n[Desktop Entry][x]\nIcon=kic-nested\n'
put nested-first '[Desktop Entry][x]\nIcon=kic-nested-first\n[Desktop Entry]\nName=y\n'
put trailing     '[Desktop Entry]  trailing\nIcon=kic-trailing\n'
put escaped      '[Desktop Entry]\nName=E\nIcon=kic\\sescaped\n'
put hidden-empty '[Desktop Entry]\nName=H\nIcon=kic-hidden-empty\nHidden=\n'
put hidden-no    '[Desktop Entry]\nName=H\nIcon=kic-hidden-no\nHidden=No\n'
printf '[Desktop Entry]\nName=N\nstray\nIcon=kic-caf\351\n' > "$A/latin1-icon.desktop"
printf '[Desktop Entry]\nName=N\nComment=caf\351 stray\nthis line has no equals\nIcon=kic-latin1-neighbour\n' > "$A/latin1.desktop"
n_odd=$(ls "$A" | wc -l)

# compare ROOT: every .desktop file under ROOT/usr/share/applications (IDs
# of the files directly there and one directory down, as --list names them)
# compare ROOT NAME: every .desktop file of ROOT's data directories, the
# first for an ID (/usr/local/share before /usr/share, as --list takes
# them); dot files are not menu entries (desktop.c), so not compared
compare () { # compare ROOT NAME
  : > "$WORK/$2.kde"
  for d in usr/local/share/applications usr/share/applications; do
    [ -d "$1/$d" ] || continue
    ( cd "$1/$d" && find . -name '*.desktop' ! -name '.*' \( -type f -o -type l \) ) | sed 's|^\./||' | sort |
      while IFS= read -r f; do printf '%s\t%s\n' "$f" "$1/$d/$f"; done > "$WORK/$2.files"
    cut -f 2 "$WORK/$2.files" | "$HELPER" | paste "$WORK/$2.files" - | cut -f 1,4,5 >> "$WORK/$2.kde"
  done
  "$BIN" -q --root "$1" --list --size 16 > "$WORK/$2.ours" 2> /dev/null
  awk -F '\t' '
    FILENAME ~ /ours$/ { ours[$1] = $2; listed[$1] = 1; next }
    { id = $1; gsub("/", "-", id)
      kde = ($3 == "hidden" || $2 == "-") ? "" : $2
      if (!(id in kde_of)) kde_of[id] = kde; n++ }
    END {
      bad = 0
      for (id in kde_of) {
        o = (id in ours) ? ours[id] : ""
        if (o != kde_of[id]) { printf "# %s: KDE reads \"%s\", kde-icon-cache \"%s\"\n", id, kde_of[id], o; bad++ }
      }
      printf "# %d files compared, %d differ\n", n, bad
      exit (n == 0 || bad > 0)
    }' "$WORK/$2.ours" "$WORK/$2.kde"
}

compare "$R" odd > "$WORK/odd.out"; rc=$?
cat "$WORK/odd.out"
ok $rc "odd .desktop files ($n_odd): Icon= as KF5's KDesktopFile reads it, hidden ones left out"
grep -q "^kic-stray$" "$WORK/odd.ours" 2> /dev/null || cut -f2 "$WORK/odd.ours" | grep -qx kic-stray
ok $? "... a stray line does not drop its entry (kic-stray planned for)"
"$BIN" --root "$R" --list --size 16 2>&1 > /dev/null | grep -c "/stray.desktop:" > "$WORK/n"
is "$(cat "$WORK/n")" 1 "... and is one warning naming the file"
"$BIN" --root "$R" --list --size 16 2>&1 > /dev/null | grep -q "this line has no equals"
is $? 1 "... which quotes no line of it"

fixtures "$WORK/fx"
bad=0; n=0
for root in "$WORK"/fx/*/; do
  root=${root%/}
  [ -d "$root/usr/share/applications" ] || continue
  n=$((n + 1))
  compare "$root" "fx$n" > "$WORK/fx.out" || { bad=$((bad + 1)); cat "$WORK/fx.out"; }
done
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
ok $? "every fixture root ($n): Icon= as KF5 reads it"

. "$TOP/tests/oracle/oracle-env.sh" 2> /dev/null || true
T=${KIC_TREE:-$TMP_TOP/realistic}
"$TOP/tests/oracle/make-tree.sh" "${KIC_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debs}" "$T" >&2
compare "$T" realistic > "$WORK/real.out"; rc=$?
tail -n 1 "$WORK/real.out"; [ $rc -eq 0 ] || cat "$WORK/real.out"
ok $rc "the realistic tree's .desktop files: Icon= as KF5 reads it"
