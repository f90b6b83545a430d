#!/bin/sh
# install-deps.sh - the Debian 12 packages to build kde-icon-cache and run
# all its tests and benchmarks (as root; apt-get update first)
#
#   sh tests/install-deps.sh [--kf6]
#
# --kf6 also makes the Debian 13 root with KDE Frameworks 6 that
# tests/integration/oracle-kf6.sh compares the kf6 profile with
# (tests/oracle/kf6/make-root.sh: about a minute, 1.3 GB, the network);
# when that fails the test skips, saying why, and the rest goes on.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  make gcc libc6-dev pkgconf libglib2.0-dev libjson-glib-dev libxdg-basedir-dev libzstd-dev libxpm-dev libpng-dev \
  perl strace bpftrace python3 time ca-certificates valgrind \
  g++ libkf5iconthemes-dev libkf5iconthemes-bin shared-mime-info dpkg apt \
  gtk-update-icon-cache gnuplot-nox fuse3 libfuse3-dev linux-perf \
  debhelper dpkg-dev lintian debootstrap fakeroot clang libclang-rt-14-dev >/dev/null
if [ "${1:-}" = "--kf6" ]; then
  sh "$(dirname "$0")/oracle/kf6/make-root.sh" ||
    echo "install-deps: the KF6 root could not be made: oracle-kf6.sh will skip" >&2
fi
