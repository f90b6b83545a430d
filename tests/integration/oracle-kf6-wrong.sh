#!/bin/sh
# oracle-kf6-wrong.sh - oracle-kf6.sh can fail: run against each KF6 root
# with our profile forced to the wrong release (KIC_KF6_VERSION: 6.30 for
# a 6.13 root, 6.13 for a later one, whose lookups differ: disk before the
# library's breeze from 6.14, SVG first in the unthemed fallback from
# 6.19), on the fixture root basic, it must report path or count
# differences and exit non-zero, where it would pass with the detected
# profile.  A root that is not there is skipped by name.
# Needs root (chroot, mount).
. "$(dirname "$0")/lib.sh"

K=$TOP/tests/oracle/kf6
C=${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests
roots=${KIC_KF6_ROOTS:-${KIC_KF6_ROOT:-$C/kf6-trixie $C/kf6-forky}}
[ "$(id -u)" -eq 0 ] || skip_all "the KF6 roots are run with chroot and mount: needs root"
# shellcheck source=tests/oracle/kf6/libs.sh
. "$K/libs.sh"

for r in $roots; do
  if [ ! -f "$r/.kic-kf6-stamp" ]; then
    _tap_n=$((_tap_n + 1))
    _msg="no KF6 root at $r: tests/oracle/kf6/make-root.sh --suite $(echo "${r##*/}" | sed 's/^kf6-//') makes it"
    echo "ok $_tap_n - # SKIP $_msg"
    echo "oracle-kf6-wrong.sh: SKIPPED: $_msg" >&2
    continue
  fi
  rel=$(kf6_release "$r") || { ok 1 "$r: a release in libKF6IconThemes.so.6's file name"; continue; }
  case $rel in 6.[0-9].*|6.1[0-3].*) wrong=6.30 ;; *) wrong=6.13 ;; esac
  KIC_KF6_ROOTS=$r KIC_KF6_VERSION=$wrong KIC_KF6_CASES=basic KIC_TEST_TMP=$WORK \
    sh "$TOP/tests/integration/oracle-kf6.sh" > "$WORK/wrong.tap" 2>&1
  st=$?
  # the differences, not an oracle that did not run
  n=$(grep -c '^not ok .*: \(KF6 and kde-icon-cache --kde=kf6 resolve every\|our call counts equal\)' "$WORK/wrong.tap")
  [ $st -ne 0 ] && [ "$n" -gt 0 ] && ! grep -q 'cannot classify' "$WORK/wrong.tap"
  ok $? "kf6 $rel with the $wrong profile forced: oracle-kf6.sh fails (exit $st, $n path/count checks not ok)"
  grep '^\(not ok\|# [0-9]* \(pairs\|lookups\)\)' "$WORK/wrong.tap" | head -n 8 | sed 's/^/#   /'
done

echo "1..$_tap_n"
finish
