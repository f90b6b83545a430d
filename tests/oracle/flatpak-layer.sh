#!/bin/sh
# flatpak-layer.sh - Debian's flatpak, and Flatpak applications of the same
# IDs as .debs of the tree, installed system-wide into a writable root
#
#   flatpak-layer.sh CACHE_DIR TREE ROOT [ID...]
#
# ROOT is a writable view of TREE (tests/view.sh).  The flatpak package of
# the host's release (`apt-get download` into CACHE_DIR unless a .deb of it
# is there) is unpacked into ROOT: /usr/bin/flatpak, its user environment
# generator 60-flatpak and /etc/profile.d/flatpak.sh, which put
# /var/lib/flatpak/exports/share first in every login's XDG_DATA_DIRS.
# Each ID (default: three Debian 12 applications that Flathub has under the
# same ID) is then installed as flatpak lays out a system installation:
# the application's files below /var/lib/flatpak/app/ID/x86_64/stable/
# COMMIT, "active" and "current" links to them, and relative links to its
# exported .desktop file and hicolor icons in /var/lib/flatpak/exports/
# share, with hicolor's index.theme copied there (flatpak's
# gtk-icon-cache.trigger).  The Flatpak's icon at each size TREE's .deb has
# one is another file of that directory (its first other icon of the same
# type): other bytes and other pixels, so that which one KDE loads shows.
# Prints the IDs installed.
set -eu
[ $# -ge 3 ] || { echo "usage: flatpak-layer.sh CACHE_DIR TREE ROOT [ID...]" >&2; exit 2; }
cache=$1 tree=$2 root=$3
shift 3
[ $# -gt 0 ] || set -- org.gnome.Chess io.github.Hexchat org.gnome.Four-in-a-row

mkdir -p "$cache"
deb=$(ls "$cache"/flatpak_*.deb 2>/dev/null | sort -V | tail -n 1)
if [ -z "$deb" ]; then
  (cd "$cache" && apt-get download flatpak >/dev/null 2>&1) ||
    { apt-get update >/dev/null 2>&1 || true; (cd "$cache" && apt-get download flatpak >/dev/null); }
  deb=$(ls "$cache"/flatpak_*.deb | sort -V | tail -n 1)
fi
dpkg-deb -x "$deb" "$root"

fp=/var/lib/flatpak
ex=$fp/exports/share
mkdir -p "$root$ex/icons/hicolor" "$root$ex/applications"
cp "$tree/usr/share/icons/hicolor/index.theme" "$root$ex/icons/hicolor/index.theme"
for id in "$@"; do
  commit=$(printf '%s' "$id" | sha256sum | cut -c1-64)
  app=$fp/app/$id/x86_64/stable/$commit
  mkdir -p "$root$app/export/share/applications" "$root$app/files"
  ln -sfn "$commit" "$root$fp/app/$id/x86_64/stable/active"
  ln -sfn x86_64/stable "$root$fp/app/$id/current"
  found=0
  for f in "$tree"/usr/share/icons/hicolor/*/apps/"$id".*; do
    [ -f "$f" ] || continue
    dir=$(basename "$(dirname "$(dirname "$f")")") ext=${f##*.}
    donor=$(find "$tree/usr/share/icons/hicolor/$dir/apps" -maxdepth 1 -type f -name "*.$ext" ! -name "$id.*" | LC_ALL=C sort | head -n 1)
    [ -n "$donor" ] || continue
    mkdir -p "$root$app/export/share/icons/hicolor/$dir/apps" "$root$ex/icons/hicolor/$dir/apps"
    cp "$donor" "$root$app/export/share/icons/hicolor/$dir/apps/$id.$ext"
    ln -sfn "../../../../../../app/$id/current/active/export/share/icons/hicolor/$dir/apps/$id.$ext" \
      "$root$ex/icons/hicolor/$dir/apps/$id.$ext"
    found=1
  done
  [ $found -eq 1 ] || { echo "flatpak-layer.sh: $id: no hicolor icon in $tree" >&2; exit 1; }
  desktop=$(ls "$tree"/usr/share/applications/"$id".desktop 2>/dev/null || true)
  if [ -n "$desktop" ]; then
    sed "s|^Exec=.*|Exec=/usr/bin/flatpak run --branch=stable --arch=x86_64 $id|" "$desktop" \
      > "$root$app/export/share/applications/$id.desktop"
    ln -sfn "../../../app/$id/current/active/export/share/applications/$id.desktop" "$root$ex/applications/$id.desktop"
  fi
  echo "$id"
done
