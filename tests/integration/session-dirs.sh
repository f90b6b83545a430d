#!/bin/sh
# session-dirs.sh - the data directories a login on the root gets
#
# On the demo root (kde-icon-cache(8), DATA DIRECTORIES):
#   1. systemd's environment.d: a line XDG_DATA_DIRS=/opt/share:${XDG_DATA_DIRS:-...}
#      in /etc/environment.d puts /opt/share first, its icons are found;
#   2. flatpak's generator puts /var/lib/flatpak/exports/share and an
#      installation of /etc/flatpak/installations.d before the rest, -v
#      and --explain name them and the file that added each;
#   3. another package's generator naming XDG_DATA_DIRS is one warning
#      naming it;
#   4. with hicolor current and the exports holding hicolor's first
#      directories, no link is planted below /var/lib/flatpak (flatpak's);
#   5. flatpak installed after a rebuild (its profile.d script, binary):
#      --check says out of date (the files are stamped inputs);
#   6. an environment.d line that names $XDG_DATA_DIRS with no default, on
#      a user manager that has none: that line's directories alone;
#   7. an entry of $HOME is a user's, never the root's /.local/share;
#   8. flatpak's generator masked (a link to /dev/null): it adds nothing.
. "$(dirname "$0")/lib.sh"
plan 9
R=$WORK/root
cp -R "$TOP/demo" "$R"
gen=$R/usr/lib/systemd/user-environment-generators
mkdir -p "$gen" "$R/etc/environment.d" "$R/opt/share/icons/hicolor/scalable/apps"
: > "$gen/30-systemd-environment-d-generator"
echo 'XDG_DATA_DIRS=/opt/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}' > "$R/etc/environment.d/50-opt.conf"
svg_file "$R" opt/share/icons/hicolor/scalable/apps/kic-opt-only.svg '#102030'
run () { env -u XDG_DATA_DIRS "$BIN" --root "$R" "$@"; }

run --resolve --size 48 kic-opt-only > "$WORK/out" 2> "$WORK/err"
is "$(cat "$WORK/out")" "kic-opt-only	/opt/share/icons/hicolor/scalable/apps/kic-opt-only.svg" \
  "environment.d: /opt/share is a data directory, its icon found"

mkdir -p "$R/usr/bin" "$R/etc/flatpak/installations.d" "$R/var/lib/flatpak/exports/share/icons/hicolor/32x32/apps" \
  "$R/var/lib/flatpak/exports/share/icons/hicolor/48x48/apps"
: > "$R/usr/bin/flatpak"
: > "$gen/60-flatpak"
printf '[Installation "extra"]\nPath=/srv/flatpak\n' > "$R/etc/flatpak/installations.d/extra.conf"
svg_file "$R" var/lib/flatpak/exports/share/icons/hicolor/32x32/apps/org.other.App.svg '#203040'
run -v --explain --size 48 kic-opt-only > "$WORK/out" 2> "$WORK/err"
want="data directories: /var/lib/flatpak/exports/share:/srv/flatpak/exports/share:/opt/share:/usr/local/share:/usr/share (/etc/environment.d/50-opt.conf set XDG_DATA_DIRS; /usr/lib/systemd/user-environment-generators/60-flatpak added /var/lib/flatpak/exports/share; /usr/lib/systemd/user-environment-generators/60-flatpak added /srv/flatpak/exports/share); a login also searches, unseen by root: ~/.local/share/flatpak/exports/share"
is "$(head -n 1 "$WORK/out")" "$want" "--explain names the session's directories in order and what added each"
grep -qxF "kde-icon-cache: $want" "$WORK/err"
ok $? "-v names them too"

printf '#!/bin/sh\necho XDG_DATA_DIRS=/snap/share:$XDG_DATA_DIRS\n' > "$gen/80-other"
run --resolve kic-opt-only > /dev/null 2> "$WORK/err"
is "$(grep -c "80-other: a session's environment generator that may change XDG_DATA_DIRS" "$WORK/err")" 1 \
  "another generator that names XDG_DATA_DIRS: one warning naming it"
rm "$gen/80-other"

run -q --theme hicolor > /dev/null 2>&1
n=$(grep -c '^link	' "$R/var/lib/kde-icon-cache/manifest")
[ "$n" -gt 0 ] && ! grep -q '^link	/var/lib/flatpak/' "$R/var/lib/kde-icon-cache/manifest"
ok $? "hicolor current, the exports holding its first directories: $n links, none below /var/lib/flatpak"

# (a login shell's script counts where the user manager sets no
# XDG_DATA_DIRS of its own: startplasma imports that one over the shell's)
rm -f "$gen/60-flatpak" "$R/usr/bin/flatpak" "$R/etc/environment.d/50-opt.conf"
run -q > /dev/null 2>&1
run --check > /dev/null 2>&1 || { echo "Bail out! --check after a rebuild"; exit 1; }
# flatpak and a Flatpak of org.example.Viewer, its own icon
: > "$R/usr/bin/flatpak"
mkdir -p "$R/etc/profile.d"
printf 'if command -v flatpak > /dev/null; then :; fi\n' > "$R/etc/profile.d/flatpak.sh"
svg_file "$R" var/lib/flatpak/exports/share/icons/hicolor/scalable/apps/org.example.Viewer.svg '#304050'
run --check > /dev/null 2>&1
is $? 1 "flatpak and an application installed after the rebuild (profile.d/flatpak.sh): --check says out of date"

rm -f "$R/etc/profile.d/flatpak.sh"
echo 'XDG_DATA_DIRS=/opt/share:${XDG_DATA_DIRS}' > "$R/etc/environment.d/50-opt.conf"
run -v --resolve kic-opt-only 2>&1 > /dev/null | grep '^kde-icon-cache: data directories:' > "$WORK/err"
is "$(cat "$WORK/err")" "kde-icon-cache: data directories: /opt/share (/etc/environment.d/50-opt.conf set XDG_DATA_DIRS)" \
  "environment.d's \${XDG_DATA_DIRS} unset in the user manager: /opt/share alone, as systemd and Qt make it"

echo 'XDG_DATA_DIRS=$HOME/.local/share:/opt/share:${XDG_DATA_DIRS}' > "$R/etc/environment.d/50-opt.conf"
run -v --resolve kic-opt-only 2>&1 > /dev/null | grep '^kde-icon-cache: data directories:' > "$WORK/err"
case $(cat "$WORK/err") in
"kde-icon-cache: data directories: /opt/share (/etc/environment.d/50-opt.conf set XDG_DATA_DIRS); a login also searches, unseen by root: "*) ok 0 "an entry of \$HOME is the user's, not the root's /.local/share" ;;
*) ok 1 "an entry of \$HOME is the user's, not the root's /.local/share"; sed 's/^/#   /' "$WORK/err" ;;
esac

rm "$R/etc/environment.d/50-opt.conf"
: > "$gen/60-flatpak"
mkdir -p "$R/etc/systemd/user-environment-generators"
ln -s /dev/null "$R/etc/systemd/user-environment-generators/60-flatpak"
run -v --resolve kic-opt-only 2>&1 > /dev/null | grep '^kde-icon-cache: data directories:' > "$WORK/err"
! grep -q 'flatpak' "$WORK/err"
ok $? "flatpak's generator masked by a link to /dev/null in /etc: it adds no directory"
sed 's/^/#   /' "$WORK/err"
finish
