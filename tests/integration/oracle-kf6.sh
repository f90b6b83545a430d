#!/bin/sh
# oracle-kf6.sh - the kf6 profile against KDE Frameworks 6 itself: Debian
# 13's KIconThemes 6.13, run in the trixie root that
# tests/oracle/kf6/make-root.sh makes (this test never makes it: about a
# minute and 1.3 GB, and the network).
#
# For every fixture root and the profile tree (tests/profiles/make-trees.sh,
# root "all"), names = every Icon= value, every icon file's base name and
# two missing names; sizes 16, 22, 32, 48.  tests/oracle/kf6/compare.sh asks
# KF6 (run.sh: tree bind-mounted read-only in the root) and us
# (--kde=kf6 --resolve, --explain for the call counts), with Debian 13's
# libKF6IconThemes.so.6 copied into the tree so that our detection sees
# what KDE ran with.  Differences the real embedded breeze explains
# (Debian 13's breeze lives in the library, our model mirrors the tree's
# breeze, see tests/oracle/kf6/FINDINGS.md) are counted, not failed; any
# other one fails, except those tests/oracle/kf6/known-differences.tsv
# lists, which are TODO.
# Needs root (chroot, mount) and the root: KIC_KF6_ROOT, default
# ${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-trixie.
. "$(dirname "$0")/lib.sh"

K=$TOP/tests/oracle/kf6
KF6_ROOT=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-trixie}
[ -f "$KF6_ROOT/.kic-kf6-stamp" ] ||
  skip_all "no KF6 root at $KF6_ROOT: run tests/oracle/kf6/make-root.sh (as root; ~1 min, 1.3 GB, needs deb.debian.org) or set KIC_KF6_ROOT"
[ "$(id -u)" -eq 0 ] || skip_all "the KF6 root is run with chroot and mount: needs root"
command -v unshare >/dev/null 2>&1 || skip_all "needs unshare (util-linux)"
export KIC_KF6_ROOT="$KF6_ROOT" KIC_BIN="$BIN" TMPDIR="$WORK"
TAB=$(printf '\t')

# todo TEXT REASON: a known failure (TAP TODO: reported, not counted)
todo () {
  _tap_n=$((_tap_n + 1))
  echo "not ok $_tap_n - $1 # TODO $2"
}

# check LABEL ROOT THEME < names: two tests, paths and call counts
check () {
  _label=$1 _root=$2 _theme=$3
  "$K/compare.sh" --counts "$_root" "$_theme" 16,22,32,48 > "$WORK/$_label.cmp" 2> "$WORK/$_label.sum"
  _st=$?
  sed 's/^compare.sh: /# /' "$WORK/$_label.sum" | grep -v ', 0 vanish when'
  if [ $_st -ne 0 ]; then
    ok 1 "$_label: compare.sh ran (exit $_st)"
    ok 1 "$_label: call counts"
    return
  fi
  for _kind in path count; do
    grep -a "^$_kind${TAB}" "$WORK/$_label.cmp" > "$WORK/$_label.$_kind" || true
    : > "$WORK/$_label.$_kind.known"
    while IFS="$TAB" read -r _tree _name _why; do
      case $_tree in '#'*|'') continue ;; esac
      [ "$_tree" = "$_label" ] || continue
      grep -a "^$_kind${TAB}[^$TAB]*${TAB}$_name${TAB}" "$WORK/$_label.$_kind" >> "$WORK/$_label.$_kind.known" || true
      grep -av "^$_kind${TAB}[^$TAB]*${TAB}$_name${TAB}" "$WORK/$_label.$_kind" > "$WORK/$_label.$_kind.rest" || true
      mv "$WORK/$_label.$_kind.rest" "$WORK/$_label.$_kind"
    done < "$K/known-differences.tsv"
    if [ "$_kind" = path ]; then _what="KF6 and kde-icon-cache --kde=kf6 resolve every (name, size) alike"
    else _what="our call counts equal what strace sees KF6 do"; fi
    [ ! -s "$WORK/$_label.$_kind" ]
    ok $? "$_label: $_what"
    head -n 20 "$WORK/$_label.$_kind" | sed 's/^/#   /'
    if [ -s "$WORK/$_label.$_kind.known" ]; then
      todo "$_label: $(cut -f3 "$WORK/$_label.$_kind.known" | sort -u | tr '\n' ' ')($_kind)" \
        "$(grep -v '^#' "$K/known-differences.tsv" | awk -F "$TAB" -v t="$_label" '$1 == t { print $3; exit }')"
      sed 's/^/#   /' "$WORK/$_label.$_kind.known"
    fi
  done
}

cases="basic oddtheme nobreeze hicolor-current papirus-like empty"
fixtures "$WORK/fx" $cases
for c in $cases; do
  R=$WORK/fx/$c
  fixture_names "$R" > "$WORK/$c.names"
  check "$c" "$R" "$(root_theme "$R")" < "$WORK/$c.names"
done

if "$TOP/tests/profiles/make-trees.sh" "$WORK/trees" > "$WORK/trees.log" 2>&1; then
  R=$WORK/trees/all
  icon_names "$R" > "$WORK/profiles.names"
  check profiles "$R" "" < "$WORK/profiles.names"
else
  sed 's/^/#   /' "$WORK/trees.log"
  ok 1 "tests/profiles/make-trees.sh builds the profile tree"
fi
# The promise under KF6: KDE loads the same bytes (or the same built-in
# icon) for every name at every menu size after a --rebuild.
promise () { # promise LABEL ROOT < names
  cat > "$WORK/$1.pnames"
  "$K/run.sh" "$2" "" 16,22,32,48 < "$WORK/$1.pnames" > "$WORK/$1.before" 2>/dev/null
  "$BIN" -q --root "$2" --rebuild
  _links=$(grep -c '^link' "$2/var/lib/kde-icon-cache/manifest" || true)
  "$K/run.sh" "$2" "" 16,22,32,48 < "$WORK/$1.pnames" > "$WORK/$1.after" 2>/dev/null
  paste "$WORK/$1.before" "$WORK/$1.after" | while IFS="$TAB" read -r n s b _n _s a; do
    [ "$b" = "$a" ] && continue
    # not found, or a built-in icon: only the same answer is the same
    case "$b|$a" in -\|*|*\|-|:*|*\|:*) echo "$n $s: $b -> $a"; continue ;; esac
    cmp -s "$2$b" "$2$a" || echo "$n $s: $b -> $a"
  done > "$WORK/$1.changed"
  [ -s "$WORK/$1.before" ] && [ ! -s "$WORK/$1.changed" ]
  ok $? "$1: after --rebuild ($_links links) KF6 loads the same content for all $(wc -l < "$WORK/$1.before") (name, size) pairs"
  head -n 20 "$WORK/$1.changed" | sed 's/^/#   /'
}
icon_names "$WORK/fx/basic" > "$WORK/basic.icons"
promise basic "$WORK/fx/basic" < "$WORK/basic.icons"
if [ -d "$WORK/trees/all" ]; then
  icon_names "$WORK/trees/all" > "$WORK/profiles.icons"
  promise profiles "$WORK/trees/all" < "$WORK/profiles.icons"
fi

echo "1..$_tap_n"
finish
