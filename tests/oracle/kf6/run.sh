#!/bin/sh
# run.sh - ask the real KDE Frameworks 6 (Debian 13, in the root that
# make-root.sh made) which file KIconLoader picks, for a tree on this machine.
#
#   tests/oracle/kf6/run.sh [--app NAME] [--render] [--debug] [--raw]
#                           [--strace FILE] TREE THEME SIZES < names
#
# Output: NAME<TAB>SIZE<TAB>PATH as kic-oracle6 prints it, PATH relative to
# TREE ("/usr/share/icons/..."), "-" when not found; a path from the
# library's own resources (":/icons/breeze/..." when libKF6IconThemes links
# libKF6BreezeIcons) is printed as it is.  SIZES: comma-separated, e.g.
# 16,22,32,48.  THEME may be empty: kdeglobals then has no Theme key.
#
# How: in a private mount namespace (unshare -m; every mount goes away with
# the process, however it ends) TREE is bind-mounted read-only at
# /tmp/kic6.XXXXXX/tree inside the root, /proc is mounted, and kic-oracle6
# runs under chroot with a cleared environment like oracle-env.sh's:
# fresh XDG config/cache/data/runtime dirs, kdeglobals "[Icons] Theme=THEME"
# in XDG_CONFIG_DIRS, XDG_DATA_DIRS=<tree>/usr/local/share:<tree>/usr/share,
# LANG=C.UTF-8, QT_QPA_PLATFORM=offscreen.
# Absolute symbolic links in TREE resolve inside the Debian 13 root, not in
# TREE (as they would resolve on the host with oracle-env.sh): use relative ones.
#
# --raw        keep the in-root tree prefix in paths
# --strace F   run the helper with --markers under strace (the calls
#              probe-count.sh counts, plus openat) and write the trace to F;
#              the tree prefix in it is replaced by $TREE and the XDG data
#              home by $XDG_DATA_HOME
# Environment: KIC_KF6_ROOT (default ~/.cache/kde-icon-cache-tests/kf6-trixie),
# ORACLE_EXTRA_ENV="VAR=value ..." passed on to the helper, ORACLE_SESSION_DIRS
# (space-separated directories of TREE, e.g. /var/lib/flatpak/exports/share)
# put first in XDG_DATA_DIRS, as a login's session has them (oracle-env.sh).
# Needs root (chroot, mount).  Exit 2 when the root is missing.
set -eu
LC_ALL=C.UTF-8
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
ROOT=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-trixie}
app=plasmashell opts='' raw=0 trace=''
while [ $# -gt 0 ]; do
  case $1 in
  --app) app=$2; shift 2 ;;
  --render|--debug) opts="$opts $1"; shift ;;
  --raw) raw=1; shift ;;
  --strace) trace=$2; shift 2 ;;
  --) shift; break ;;
  -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done
[ $# -eq 3 ] || { echo "usage: run.sh [--app NAME] [--render] [--debug] [--raw] [--strace FILE] TREE THEME SIZES < names" >&2; exit 2; }
tree=$(cd "$1" && pwd) theme=$2 sizes=$3
[ -f "$ROOT/.kic-kf6-stamp" ] || { echo "run.sh: no KF6 root at $ROOT (run tests/oracle/kf6/make-root.sh)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "run.sh: needs root (chroot, mount)" >&2; exit 2; }
# the helper built from this checkout's source (make-root.sh builds it
# when the root has none yet; another source's build is left alone)
# shellcheck source=tests/oracle/kf6/helper-id.sh
. "$here/helper-id.sh"
helper=/opt/kic/kic-oracle6-$(kf6_helper_id)
if [ ! -x "$ROOT$helper" ]; then
  KIC_KF6_ROOT=$ROOT "$here/make-root.sh" > "${TMPDIR:-/tmp}/kic-kf6-build.log" 2>&1 ||
    { cat "${TMPDIR:-/tmp}/kic-kf6-build.log" >&2; exit 2; }
fi

run=$(mktemp -d "$ROOT/tmp/kic6.XXXXXX")
trap 'rm -rf --one-file-system "$run"' EXIT
trap 'exit 130' INT TERM HUP
r=${run#"$ROOT"}                         # the run directory as the root sees it
mkdir -p "$run/tree" "$run/config" "$run/cache" "$run/data" "$run/home" "$run/rt"
chmod 700 "$run/rt"
if [ -n "$theme" ]; then
  printf '[Icons]\nTheme=%s\n' "$theme" > "$run/config/kdeglobals"
else
  : > "$run/config/kdeglobals"
fi
cat > "$run/names"
session=
for d in ${ORACLE_SESSION_DIRS:-}; do session=$session$r/tree$d:; done
strace=
[ -n "$trace" ] && strace="strace -f -qq -s 65535 -e trace=access,faccessat,faccessat2,stat,lstat,newfstatat,statx,openat -o $r/trace"
[ -n "$trace" ] && opts="$opts --markers"

# shellcheck disable=SC2016,SC2086
unshare --mount --propagation private sh -c '
  set -e
  ROOT=$1 tree=$2 run=$3; shift 3
  mount --bind "$tree" "$run/tree"
  mount -o remount,bind,ro "$run/tree"
  mount -t proc proc "$ROOT/proc"
  exec chroot "$ROOT" "$@"' sh "$ROOT" "$tree" "$run" \
  env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
    HOME="$r/home" XDG_CONFIG_HOME="$r/config" XDG_CONFIG_DIRS="$r/config" \
    XDG_CACHE_HOME="$r/cache" XDG_DATA_HOME="$r/data" XDG_RUNTIME_DIR="$r/rt" \
    XDG_DATA_DIRS="$session$r/tree/usr/local/share:$r/tree/usr/share" \
    ${ORACLE_EXTRA_ENV:-} \
    $strace $helper --app "$app" --sizes "$sizes" $opts < "$run/names" > "$run/out"

if [ -n "$trace" ]; then
  sed -e "s|\"$r/tree\\([/\"]\\)|\"\$TREE\\1|g" -e "s|\"$r/data\\([/\"]\\)|\"\$XDG_DATA_HOME\\1|g" "$run/trace" > "$trace"
fi
if [ $raw -eq 1 ]; then
  cat "$run/out"
else
  awk -v r="$r/tree" -F '\t' 'BEGIN { OFS = "\t" }
    { if (index($3, r "/") == 1) $3 = substr($3, length(r) + 1); print }' "$run/out"
fi
