# shellcheck shell=sh
# debian-root.sh - sourced (not run) by the scripts that make a Debian root
# with debootstrap for the tests: tests/oracle/kf6/make-root.sh (trixie,
# KF6) and tests/bench/plasma/make-root.sh (bookworm, Plasma).  What they
# share lives here, so that a fix to how a root is made, mounted, cleaned
# up or swapped in reaches both.
#
# The sourcing script sets, before it calls these functions:
#   ROOT   where the root lives
#   SUITE  the Debian suite to debootstrap
#   STAMP  the file, relative to ROOT, whose presence marks a complete root
# and may set:
#   DEBOOTSTRAP_SCRIPT  the debootstrap script for SUITE when debootstrap
#          has none of that name (Debian 12's has no forky: the sid one)
#   APT_CONF  apt.conf lines written into the root before apt first runs
#          (testing's Release files carry a Valid-Until that a mirror may
#          have passed: Acquire::Check-Valid-Until "false";)
# and calls, in this order:
#   root_args "$@"        --force, and refuse to run without root
#   root_complete PKG...  true when ROOT, made from PKG..., can be reused
#                         (then it exits)
#   root_begin            a fresh minbase ROOT.new, /proc mounted, apt updated
#   root_install PKG...   the packages, then /proc unmounted
#   root_finish SCRIPT WRITER   the stamp, and ROOT.new becomes ROOT
# in_root runs a command inside any root.  Messages say "make-root.sh:"
# because that is the name of the script the user ran.
#
# Environment: KIC_DEBIAN_MIRROR (default http://deb.debian.org/debian).

MIRROR=${KIC_DEBIAN_MIRROR:-http://deb.debian.org/debian}

in_root () { # in_root ROOT CMD...: CMD in ROOT, clean environment
  _r=$1; shift
  chroot "$_r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 HOME=/root \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# root_args "$@": force=1 with --force (remake a complete root); exit 2
# unless run as root, before anything is read or written.
root_args () {
  force=0
  [ "${1:-}" = --force ] && force=1
  [ "$(id -u)" -eq 0 ] || { echo "make-root.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
}

# root_complete PACKAGE...: a root with the stamp is complete (the stamp
# is written last, just before the rename), so it is reused unless --force
# was given or it was made from another package list: the stamp holds a
# digest of the list (root_finish writes it), and a root made before the
# list changed would show the tests something else than they ask for.
root_complete () {
  PACKAGES_LINE="# packages: $(printf '%s\n' "$@" | md5sum | cut -d' ' -f1)"
  [ "$force" -eq 0 ] && [ -f "$ROOT/$STAMP" ] || return 1
  grep -qxF "$PACKAGES_LINE" "$ROOT/$STAMP" && return 0
  echo "make-root.sh: $ROOT was made from another package list: making it again"
  return 1
}

# root_cleanup: the EXIT trap; whatever is still mounted in ROOT.new is
# unmounted (lazily if busy) so that a failed or interrupted run leaves
# no mount behind and the next run can delete ROOT.new.
root_cleanup () {
  for m in $MOUNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
}

# root_begin: NEW=ROOT.new, made from nothing: the root is built beside
# the old one, which stays usable until root_finish swaps them.  Leaves
# /proc mounted in it (apt and maintainer scripts want it) and the package
# lists fetched.
root_begin () {
  command -v debootstrap >/dev/null || { echo "make-root.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
  NEW=$ROOT.new
  MOUNTS=
  trap root_cleanup EXIT
  trap 'exit 130' INT TERM HUP

  t0=$(date +%s)
  mkdir -p "$(dirname "$ROOT")"
  # a run killed hard may have left mounts in ROOT.new: rm --one-file-system
  # would stop at them
  for m in proc dev/pts; do
    if mountpoint -q "$NEW/$m" 2>/dev/null; then umount -l "$NEW/$m"; fi
  done
  rm -rf --one-file-system "$NEW"
  echo "make-root.sh: debootstrap --variant=minbase $SUITE $NEW $MIRROR ${DEBOOTSTRAP_SCRIPT:-}" >&2
  # shellcheck disable=SC2086
  debootstrap --variant=minbase "$SUITE" "$NEW" "$MIRROR" ${DEBOOTSTRAP_SCRIPT:-} >&2
  if [ -n "${APT_CONF:-}" ]; then
    printf '%s\n' "$APT_CONF" > "$NEW/etc/apt/apt.conf.d/90kic-root"
  fi
  # no daemon may start inside the root
  printf '#!/bin/sh\nexit 101\n' > "$NEW/usr/sbin/policy-rc.d"
  chmod 755 "$NEW/usr/sbin/policy-rc.d"
  # /dev: debootstrap made the minimal nodes (null, zero, random, urandom, tty...)
  [ -c "$NEW/dev/null" ] || { echo "make-root.sh: $NEW/dev/null missing" >&2; exit 1; }
  mount -t proc proc "$NEW/proc"
  MOUNTS="$NEW/proc"
  in_root "$NEW" apt-get update >&2
}

# root_install PACKAGE...: installed in ROOT.new without recommends (each
# root names all it needs); the .deb files are not kept (the root does not
# need them once installed) and /proc is unmounted.
root_install () {
  in_root "$NEW" apt-get install -y --no-install-recommends "$@" >&2
  in_root "$NEW" apt-get clean
  umount "$NEW/proc"; MOUNTS=
}

# root_finish SCRIPT WRITER: ROOT.new/STAMP = a line saying that SCRIPT
# made it, when and in how long, then what WRITER (a function of the
# caller) prints about ROOT.new, then root_complete's package-list digest;
# then ROOT.new replaces ROOT, and the stamp is shown.  The stamp is written before the rename, so a root without it
# was never finished.
root_finish () {
  {
    echo "# made by $1 on $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - t0)) s"
    "$2"
    echo "$PACKAGES_LINE"
  } > "$NEW/$STAMP"
  rm -rf --one-file-system "$ROOT"
  mv "$NEW" "$ROOT"
  echo "make-root.sh: $ROOT ready ($(($(date +%s) - t0)) s, $(du -sh "$ROOT" | cut -f1))"
  cat "$ROOT/$STAMP"
}
