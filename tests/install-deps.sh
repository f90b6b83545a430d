#!/bin/sh
# install-deps.sh - the Debian 12 packages to build kde-icon-cache and run
# all its tests and benchmarks (as root; apt-get update first)
#
#   sh tests/install-deps.sh [--kf6 | --kf6-all]
#
# --kf6 also makes the Debian 13 root with KDE Frameworks 6.13 that
# tests/integration/oracle-kf6.sh (and oracle-kf6-wrong.sh, oracle-wide.sh)
# compares the kf6 profile with (tests/oracle/kf6/make-root.sh: about two
# minutes, 1.3 GB, the network); --kf6-all the Debian testing root with
# KF6 6.30 as well (as long again, and every KF6 test twice as long: CI
# runs --kf6, so there those tests name kf6-forky as skipped, on stderr).
# When a root cannot be made the tests skip it, saying why, and the rest
# goes on.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  make gcc libc6-dev pkgconf libglib2.0-dev libjson-glib-dev libxdg-basedir-dev libzstd-dev libxpm-dev libpng-dev nettle-dev \
  perl strace bpftrace python3 time ca-certificates valgrind faketime acl \
  g++ libkf5iconthemes-dev libkf5iconthemes-bin shared-mime-info dpkg apt \
  gtk-update-icon-cache gnuplot-nox fuse3 libfuse3-dev linux-perf \
  debhelper dpkg-dev lintian debootstrap fakeroot clang libclang-rt-14-dev >/dev/null
case ${1:-} in
--kf6|--kf6-all)
  sh "$(dirname "$0")/oracle/kf6/make-root.sh" --suite trixie ||
    echo "install-deps: the KF6 6.13 root could not be made: the KF6 tests will skip it" >&2 ;;
esac
if [ "${1:-}" = "--kf6-all" ]; then
  sh "$(dirname "$0")/oracle/kf6/make-root.sh" --suite forky ||
    echo "install-deps: the KF6 6.30 root could not be made: the KF6 tests will skip it" >&2
fi
