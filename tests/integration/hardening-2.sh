#!/bin/sh
# hardening-2.sh - issue 19 outside the writer: a root that cannot be
# opened, a listing cut short by a readdir error, standard output that
# cannot be written, a warning that would quote a line of /etc/shadow.
# The readdir error is made deterministic with strace's fault injection.
. "$(dirname "$0")/lib.sh"

plan 8
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
S=/var/lib/kde-icon-cache

# -- a root that cannot be opened is an error, not an empty system ------
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
  mkdir -p "$WORK/closed" && cp -a "$R/." "$WORK/closed/" && chmod 700 "$WORK/closed"
  chmod o+rx "$WORK"
  setpriv --reuid 65534 --regid 65534 --clear-groups "$BIN" --root "$WORK/closed" --list \
    > "$WORK/out-closed" 2> "$WORK/err-closed"
  is $? 3 "an unreadable --root: --list exits 3"
  grep -q "cannot open the root '$WORK/closed'" "$WORK/err-closed"
  ok $? "... naming the root"
else
  skip "needs root and setpriv (a root another user cannot open)"
  skip "needs root and setpriv"
fi

# -- a readdir error does not end a listing taken as complete -----------
if command -v strace > /dev/null; then
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -qq -o /dev/null -e trace=getdents64 \
    -e inject=getdents64:error=EIO:when=3 "$BIN" --root "$R" --list > /dev/null 2> "$WORK/err-eio"
  is $? 3 "a readdir error: --list exits 3"
  grep -q "error: cannot read directory '$R/.*': Input/output error" "$WORK/err-eio"
  ok $? "... naming the directory"
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -qq -o /dev/null -e trace=getdents64 \
    -e inject=getdents64:error=EIO:when=3 "$BIN" -q --root "$R" 2> /dev/null
  rc=$?
  [ $rc = 3 ] && [ ! -e "$R$S/manifest" ]
  ok $? "a readdir error: a rebuild exits 3 ($rc) and writes nothing"
else
  skip "needs strace"; skip "needs strace"; skip "needs strace"
fi

# -- standard output that cannot be written ------------------------------
"$BIN" -q --root "$R" --list > /dev/full 2> "$WORK/err-full"
is $? 3 "--list > /dev/full exits 3"
grep -q "cannot write to standard output" "$WORK/err-full"
ok $? "... saying so"

# -- no warning quotes a line of a file ----------------------------------
printf 'root:$6$kicSECRETkicSECRET$hash:19000:0:99999:7:::\n' > "$R/etc/shadow"
ln -s /etc/shadow "$R/usr/share/applications/kicshadow.desktop"
mkdir -p "$R/etc/xdg/menus"
printf '<Menu><kicSECRETmenu' > "$R/etc/xdg/menus/kic.menu"
"$BIN" --root "$R" --dry-run > /dev/null 2> "$WORK/err-quote"
! grep -q kicSECRET "$WORK/err-quote" && grep -q "kicshadow.desktop" "$WORK/err-quote" \
  && grep -q "kic.menu" "$WORK/err-quote"
ok $? "a .desktop file linked to a shadow file, a broken .menu: the warnings name them, quote nothing"
finish
