#!/bin/sh
# valgrind.sh - a rebuild and a clean under valgrind: no leak, no error
. "$(dirname "$0")/lib.sh"
command -v valgrind > /dev/null || skip_all "needs valgrind"
case $BIN in *build-asan*) skip_all "the sanitizer build checks this itself" ;; esac

plan 2
fixtures "$WORK/fx" basic
R=$WORK/fx/basic
vg () {
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
    "$BIN" -q --root "$R" "$@" > /dev/null 2> "$WORK/vg"
}
vg; rc=$?
is "$rc" 0 "a rebuild under valgrind: no leak, no error"
[ "$rc" = 0 ] || sed 's/^/# /' "$WORK/vg" | head -n 20
vg --clean; rc=$?
is "$rc" 0 "a clean under valgrind: no leak, no error"
finish
