#!/bin/sh
# install-deps.sh - the Debian 12 packages to build kde-icon-cache and run
# all its tests and benchmarks (as root; apt-get update first)
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  make gcc libc6-dev pkgconf libglib2.0-dev libxdg-basedir-dev \
  perl strace python3 time ca-certificates valgrind \
  g++ libkf5iconthemes-dev libkf5iconthemes-bin shared-mime-info dpkg apt \
  gtk-update-icon-cache \
  debhelper dpkg-dev lintian debootstrap fakeroot clang libclang-rt-14-dev >/dev/null
