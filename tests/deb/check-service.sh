#!/bin/sh
# check-service.sh - run debian/kde-icon-cache.service, sandbox and all,
# under a real systemd (systemd-nspawn --boot of the Debian 12 Plasma root
# that make bench-plasma uses, through an overlay), and compare what it
# planted with a plain chroot run of the same binary on the same root.
#
#   sh tests/deb/check-service.sh [BINARY]
#
# Prints TAP.  Needs root, systemd-container (systemd-nspawn), overlayfs
# and the root ${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/
# bookworm-plasma (tests/bench/plasma/make-root.sh); skips without them.
# The root has no libxdg-basedir1: the host's (Debian 12's) is copied in.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$TOP/kde-icon-cache}
P=${KIC_PLASMA_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/bookworm-plasma}
. "$TOP/tests/tap.sh"
skip_all () { echo "1..0 # SKIP $1"; exit 0; }
[ "$(id -u)" = 0 ] || skip_all "needs root"
command -v systemd-nspawn > /dev/null || skip_all "needs systemd-nspawn (apt-get install systemd-container)"
[ -x "$P/usr/lib/systemd/systemd" ] || skip_all "needs the Plasma root $P (tests/bench/plasma/make-root.sh)"
N=$(mktemp -d "${TMPDIR:-/tmp}/kic-check-service.XXXXXX") || exit 1
cleanup () { for m in "$N"/m1 "$N"/m2; do umount "$m" 2> /dev/null; done; rm -rf --one-file-system "$N"; }
trap cleanup EXIT
overlay () { # overlay NAME: a writable overlay of the root at $N/NAME with the binary in it
  mkdir -p "$N/$1.u" "$N/$1.w" "$N/$1" &&
    mount -t overlay overlay -o "lowerdir=$P,upperdir=$N/$1.u,workdir=$N/$1.w" "$N/$1" &&
    cp "$BIN" "$N/$1/usr/sbin/kde-icon-cache" &&
    cp -a /usr/lib/x86_64-linux-gnu/libxdg-basedir.so.1* "$N/$1/usr/lib/x86_64-linux-gnu/"
}
overlay m1 || skip_all "cannot mount an overlay of $P"
M=$N/m1
cp "$TOP/debian/kde-icon-cache.service" "$M/etc/systemd/system/"
# boot straight into a unit that starts the service twice (the second
# time with nothing changed), writes what systemd says, and powers off
cat > "$M/etc/systemd/system/kic-test.service" << 'EOF'
[Unit]
Wants=kde-icon-cache.service
After=kde-icon-cache.service
[Service]
Type=oneshot
ExecStart=/bin/sh -c '{ systemctl show -p Result -p ExecMainStatus kde-icon-cache.service; systemctl start kde-icon-cache.service; systemctl show -p Result -p ExecMainStatus kde-icon-cache.service; journalctl -b -u kde-icon-cache.service --no-pager -o cat; } > /kic-result.txt 2>&1; systemctl poweroff'
EOF
timeout 300 systemd-nspawn -q -D "$M" -b --register=no --keep-unit systemd.unit=kic-test.service > "$N/boot.log" 2>&1
sed 's/^/# /' "$M/kic-result.txt" 2> /dev/null
is "$(grep -c '^Result=success$' "$M/kic-result.txt" 2> /dev/null)" 2 "the sandboxed service succeeds under systemd, twice"
is "$(grep -c '^ExecMainStatus=0$' "$M/kic-result.txt" 2> /dev/null)" 2 "... exit status 0 both times"
S=$M/var/lib/kde-icon-cache
is "$(stat -c '%a %U' "$S" "$S/lock" 2> /dev/null | tr '\n' ' ')" "755 root 600 root " "... its store is 0755 and its lock 0600, root's"
# the links on disk (with their targets) and the manifest, which a failed
# run leaves as a journal
links () { ( cd "$1" && find usr -type l -lname '*kde-icon-cache/*' -printf '%p %l\n' | sort; grep -v '^#' "var/lib/kde-icon-cache/manifest" | sort ); }
links "$M" > "$N/sandboxed"
n=$(grep -c ' .*kde-icon-cache/files/' "$N/sandboxed")
[ "$n" -gt 0 ]
ok $? "... it planted links ($n)"
overlay m2 || { ok 1 "cannot mount a second overlay"; tap_done; exit; }
chroot "$N/m2" /usr/sbin/kde-icon-cache -q
links "$N/m2" > "$N/plain"
cmp -s "$N/sandboxed" "$N/plain"
ok $? "... the same links and copies as a run outside the sandbox"
tap_done
