#!/bin/sh
# mount-hint.sh - -v says how the icon directories are mounted and what a
# rebuild is worth there: real squashfs, overlay and local trees, under
# --root and on the live system (a private mount namespace in which the
# demo's icons are mounted over /usr/share/icons).  NFS: this machine has
# no NFS client; tests/unit/test-fsmount.c injects its statfs answer.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (loop, squashfs and overlay mounts)"
command -v mksquashfs > /dev/null || skip_all "mksquashfs missing (squashfs-tools)"
grep -qw squashfs /proc/filesystems || skip_all "the kernel has no squashfs"
MOUNTS=
LOOP=
cleanup () {
  for m in $MOUNTS; do umount "$m" 2> /dev/null || umount -l "$m" 2> /dev/null; done
  [ -z "$LOOP" ] || losetup -d "$LOOP" 2> /dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
plan 9

cp -R "$TOP/demo" "$WORK/demo"
# old times: squashfs keeps seconds, and an input stamped in the second of
# a rebuild is taken as changed by the next run (fingerprint.h)
find "$WORK/demo" -exec touch -h -d 2020-01-01 {} +
# hint ROOT: the lines -v says about ROOT's /usr/share/icons
hint () {
  "$BIN" -v --root "$1" --resolve org.example.Viewer > /dev/null 2> "$WORK/err"
  grep "^kde-icon-cache: $1/usr/share/icons: " "$WORK/err"
}

out=$(hint "$WORK/demo")
case $out in *": on a local file system ("*"), as this machine sees it: "*"CPU time only"*) r=0 ;; *) r=1 ;; esac
ok $r "a local tree: 'on a local file system', the gain CPU time only"
[ $r = 0 ] || diag "$out"

mksquashfs "$WORK/demo" "$WORK/demo.sqfs" -noappend -quiet -no-progress > /dev/null
mkdir -p "$WORK/sq"
LOOP=$(losetup -f --show -r "$WORK/demo.sqfs")
mount -t squashfs -o ro "$LOOP" "$WORK/sq" && MOUNTS="$WORK/sq"
out=$(hint "$WORK/sq")
case $out in *": in a squashfs-like image (squashfs), "*"the same traffic once the page cache holds them: the gain is CPU time only"*) r=0 ;; *) r=1 ;; esac
ok $r "a squashfs image looped from a file: named, the same traffic, the gain CPU time only"
[ $r = 0 ] || diag "$out"

# an LTSP client's root: a writable layer over the image
mkdir -p "$WORK/up" "$WORK/wk" "$WORK/ov"
mount -t overlay overlay -o "lowerdir=$WORK/sq,upperdir=$WORK/up,workdir=$WORK/wk" "$WORK/ov" && MOUNTS="$WORK/ov $MOUNTS"
out=$(hint "$WORK/ov")
case $out in *": on an overlay (overlay) whose lowest layer is a squashfs-like image (squashfs), "*"CPU time only"*) r=0 ;; *) r=1 ;; esac
ok $r "an overlay over a squashfs image: the overlay and its image named"
[ $r = 0 ] || diag "$out"

# an overlay over a local tree
mkdir -p "$WORK/up2" "$WORK/wk2" "$WORK/ov2"
mount -t overlay overlay -o "lowerdir=$WORK/demo,upperdir=$WORK/up2,workdir=$WORK/wk2" "$WORK/ov2" &&
  MOUNTS="$WORK/ov2 $MOUNTS"
out=$(hint "$WORK/ov2")
case $out in *": on an overlay (overlay) whose lowest layer is a local file system ("*"CPU time only"*) r=0 ;; *) r=1 ;; esac
ok $r "an overlay over a local tree: the overlay and its local layer named"
[ $r = 0 ] || diag "$out"

# a run with nothing to do says it too (the daily case on a live system)
"$BIN" -q --root "$WORK/ov"
"$BIN" -v --root "$WORK/ov" > /dev/null 2> "$WORK/err"
grep -q 'nothing to do' "$WORK/err" &&
  grep -q "^kde-icon-cache: $WORK/ov/usr/share/icons: on an overlay (overlay) whose lowest layer is a squashfs-like" "$WORK/err"
ok $? "a run with nothing to do says it as well"

# without -v: not a word
"$BIN" --root "$WORK/sq" --resolve org.example.Viewer > /dev/null 2> "$WORK/err"
! grep -q 'squashfs' "$WORK/err"
ok $? "without -v nothing is said of the mount"

# the live system: the image's icons over /usr/share/icons in a mount
# namespace of this test alone; no --root, so no "as this machine sees it"
if unshare -m true 2> /dev/null; then
  for what in sq ov demo; do
    unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1/usr/share/icons" /usr/share/icons &&
      exec "$2" -v --resolve org.example.Viewer' sh "$WORK/$what" "$BIN" > /dev/null 2> "$WORK/live-$what"
  done
  line=$(grep '^kde-icon-cache: /usr/share/icons: ' "$WORK/live-sq")
  case $line in *"/usr/share/icons: in a squashfs-like image (squashfs): "*) r=0 ;; *) r=1 ;; esac
  ok $r "the live system, icons in a squashfs image: named, not 'as this machine sees it'"
  [ $r = 0 ] || diag "$line"
  line=$(grep '^kde-icon-cache: /usr/share/icons: ' "$WORK/live-ov")
  case $line in *"/usr/share/icons: on an overlay (overlay) whose lowest layer is a squashfs-like image (squashfs): "*) r=0 ;; *) r=1 ;; esac
  ok $r "the live system, icons on an overlay over the image: both named"
  [ $r = 0 ] || diag "$line"
  line=$(grep '^kde-icon-cache: /usr/share/icons: ' "$WORK/live-demo")
  case $line in *"/usr/share/icons: on a local file system ("*") : "*|*"/usr/share/icons: on a local file system ("*"): "*) r=0 ;; *) r=1 ;; esac
  ok $r "the live system, icons on a local disk: local"
  [ $r = 0 ] || diag "$line"
else
  skip "no mount namespace here (unshare -m)" 3
fi
