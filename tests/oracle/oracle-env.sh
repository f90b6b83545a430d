# Sourceable: hermetic environment for asking KF5 (see /work/shared/docs/oracle.md).
#
#   . tests/oracle/oracle-env.sh
#   oracle_run TREE THEME cmd [args...]
#
# Runs cmd with a cleared environment: fresh XDG config/cache/data/runtime dirs
# (removed afterwards), kdeglobals "[Icons] Theme=THEME" reachable through
# XDG_CONFIG_DIRS (so /etc/xdg/kdeglobals stays out), and
# XDG_DATA_DIRS=TREE/usr/local/share:TREE/usr/share.  THEME may be empty: then
# kdeglobals has no Theme key (KF5 default: breeze).
# Extra variables can be passed with ORACLE_EXTRA_ENV="VAR=value VAR2=value".
# ORACLE_DATA_HOME, when set, is used as XDG_DATA_HOME instead of an empty one.
# ORACLE_SESSION_DIRS, when set, lists directories of TREE (space-separated,
# e.g. /var/lib/flatpak/exports/share) that a login puts first in
# XDG_DATA_DIRS (flatpak's environment generator).
# Returns cmd's exit status.

oracle_run() {
    if [ $# -lt 3 ]; then
        echo "usage: oracle_run TREE THEME cmd [args...]" >&2
        return 2
    fi
    _or_tree=$1 _or_theme=$2
    shift 2
    case $_or_tree in /*) ;; *) _or_tree=$(cd "$_or_tree" && pwd) || return 2 ;; esac
    _or_r=$(mktemp -d "${TMPDIR:-/tmp}/kic-oracle.XXXXXX") || return 2
    mkdir -p "$_or_r/config" "$_or_r/cache" "$_or_r/data" "$_or_r/home" "$_or_r/rt"
    chmod 700 "$_or_r/rt"
    if [ -n "$_or_theme" ]; then
        printf '[Icons]\nTheme=%s\n' "$_or_theme" > "$_or_r/config/kdeglobals"
    else
        : > "$_or_r/config/kdeglobals"
    fi
    _or_first=
    for _or_d in ${ORACLE_SESSION_DIRS:-}; do _or_first=$_or_first$_or_tree$_or_d:; done
    # shellcheck disable=SC2086
    env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
        HOME="$_or_r/home" \
        XDG_CONFIG_HOME="$_or_r/config" XDG_CONFIG_DIRS="$_or_r/config" \
        XDG_CACHE_HOME="$_or_r/cache" XDG_DATA_HOME="${ORACLE_DATA_HOME:-$_or_r/data}" \
        XDG_RUNTIME_DIR="$_or_r/rt" \
        XDG_DATA_DIRS="$_or_first$_or_tree/usr/local/share:$_or_tree/usr/share" \
        ${ORACLE_EXTRA_ENV:-} \
        "$@" && _or_rc=0 || _or_rc=$?   # (no errexit abort: temp dirs must go)
    rm -rf "$_or_r"
    unset _or_tree _or_theme _or_r _or_first _or_d
    return $_or_rc
}
