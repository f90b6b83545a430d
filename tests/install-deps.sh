#!/bin/sh
# install-deps.sh - the Debian 12 packages kde-icon-cache needs, by need
# (as root; apt-get update first)
#
#   sh tests/install-deps.sh [--tests | --kf6 | --kf6-all]
#
# With no option: what the build needs (make, make demo): the compiler,
# pkg-config and the libraries' -dev packages (json-glib and libXpm are
# linked like the others).
# --tests adds what the test suite and the benchmarks need (make
# check-unit, check-fast, check, check-asan, check-deb, bench*): prove,
# strace, bpftrace, valgrind,
# faketime, KDE Frameworks 5's development files for the KF5 helper,
# clang for the fuzz targets, the Debian packaging tools, debootstrap.
# --kf6 is --tests and the Debian 13 root with KDE Frameworks 6.13 that
# tests/integration/oracle-kf6.sh (and oracle-kf6-wrong.sh, oracle-wide.sh)
# compares the kf6 profile with (tests/oracle/kf6/make-root.sh: the
# network, 1.3 GB); --kf6-all the Debian testing root with KF6 6.30 as
# well (as long again, and every KF6 test twice as long: CI runs --kf6, so
# there those tests name kf6-forky as skipped, on stderr).  When a root
# cannot be made the tests skip it, saying why, and the rest goes on.
#
# apt's locks (held by apt-daily in a fresh machine's first minutes, or by
# another install) are waited for, ten minutes at most, rather than failing.
set -eu
export DEBIAN_FRONTEND=noninteractive
BUILD="make gcc libc6-dev pkgconf libglib2.0-dev libjson-glib-dev libxdg-basedir-dev libzstd-dev libxpm-dev
  libpng-dev nettle-dev"
TESTS="perl strace bpftrace python3 time ca-certificates valgrind faketime acl
  g++ libkf5iconthemes-dev libkf5iconthemes-bin shared-mime-info dpkg apt
  gtk-update-icon-cache gnuplot-nox fuse3 libfuse3-dev squashfs-tools linux-perf
  debhelper dpkg-dev lintian debootstrap fakeroot systemd-container clang libclang-rt-14-dev"
case ${1:-} in
"") want=$BUILD ;;
--tests|--kf6|--kf6-all) want="$BUILD $TESTS" ;;
*) echo "usage: sh tests/install-deps.sh [--tests | --kf6 | --kf6-all]" >&2; exit 2 ;;
esac
LOCK="-o DPkg::Lock::Timeout=600"
# apt's timeout covers dpkg's locks only (apt 2.6): apt-get update waits
# for the package lists' lock (apt-daily's) here, as long
lists_held () { # another process holds /var/lib/apt/lists/lock (/proc/locks)
  [ -e /var/lib/apt/lists/lock ] &&
    grep -q " $(printf '%02x:%02x:%s' $(stat -c '%Hd %Ld %i' /var/lib/apt/lists/lock)) " /proc/locks
}
update () {
  waited=0
  while :; do
    while lists_held && [ $waited -lt 600 ]; do
      [ $waited -gt 0 ] || echo "install-deps: another apt holds /var/lib/apt/lists/lock: waiting for it" >&2
      sleep 1; waited=$((waited + 1))
    done
    apt-get $LOCK update -qq && return 0
    lists_held && [ $waited -lt 600 ] || return 1
  done
}
update
# shellcheck disable=SC2086 # (the lists are words)
apt-get $LOCK install -y -qq --no-install-recommends $want > /dev/null
case ${1:-} in
--kf6|--kf6-all)
  sh "$(dirname "$0")/oracle/kf6/make-root.sh" --suite trixie ||
    echo "install-deps: the KF6 6.13 root could not be made: the KF6 tests will skip it" >&2 ;;
esac
if [ "${1:-}" = "--kf6-all" ]; then
  sh "$(dirname "$0")/oracle/kf6/make-root.sh" --suite forky ||
    echo "install-deps: the KF6 6.30 root could not be made: the KF6 tests will skip it" >&2
fi
