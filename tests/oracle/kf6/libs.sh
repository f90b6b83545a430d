# shellcheck shell=sh
# libs.sh - kf6_copy_libs ROOT DEST: put the KF6 root's libKF6IconThemes
# and libKF6BreezeIcons into DEST/usr/lib/x86_64-linux-gnu as Debian
# installs them: the real file (libKF6IconThemes.so.6.X.Y, whose name
# carries the release the tool reads, src/kde/profile.c) and the soname link
# to it.  A cp -L of the soname alone would lose the release, and the tool
# would plan with its default profile (6.13) whatever KF6 answers (issue 20).
# kf6_release ROOT: the root's KIconThemes release, from the same file name.
# (sourced)
kf6_copy_libs () {
  _kl_root=$1/usr/lib/x86_64-linux-gnu _kl_dest=$2/usr/lib/x86_64-linux-gnu
  mkdir -p "$_kl_dest" || return 1
  for _kl_so in libKF6IconThemes.so.6 libKF6BreezeIcons.so.6; do
    _kl_real=$(readlink -f "$_kl_root/$_kl_so") || _kl_real=
    [ -n "$_kl_real" ] && [ -f "$_kl_real" ] || { echo "kf6_copy_libs: no $_kl_root/$_kl_so" >&2; return 1; }
    _kl_base=${_kl_real##*/}
    rm -f "$_kl_dest/$_kl_so" "$_kl_dest/$_kl_base"
    cp "$_kl_real" "$_kl_dest/$_kl_base" || return 1
    [ "$_kl_base" = "$_kl_so" ] || ln -s "$_kl_base" "$_kl_dest/$_kl_so" || return 1
  done
}
kf6_release () {
  _kl_real=$(readlink -f "$1/usr/lib/x86_64-linux-gnu/libKF6IconThemes.so.6") || return 1
  _kl_rel=${_kl_real##*/libKF6IconThemes.so.}
  case $_kl_rel in 6.*.*) echo "$_kl_rel" ;; *) return 1 ;; esac
}
