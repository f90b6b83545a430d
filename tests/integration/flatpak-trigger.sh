#!/bin/sh
# flatpak-trigger.sh - the Flatpak trigger the package ships
#
# flatpak runs $datadir/flatpak/triggers/*.trigger after every change of
# an installation, with its directory as the argument, as root for the
# system installation (in bubblewrap, every file system read-only but
# that directory) and as the user for a user's.  The shipped script
# (flatpak/kde-icon-cache.trigger, its paths pointed at a test root as
# `make install` points kic= at SBINDIR) must, on the demo root with a
# Flatpak application installed:
#   1. as root with a writable store: run the tool with --quiet --wait 300,
#      which plants the Flatpak's icon for the session (the exports come
#      first there);
#   2. as root with the store read-only (the sandbox) on a systemd system:
#      ask systemd to start kde-icon-cache.service without waiting, and
#      run nothing itself;
#   3. read-only without systemd: do nothing, exit 0;
#   4. for a user's installation (not root): do nothing;
#   5. exit 0 when the rebuild fails (a speed-up never fails flatpak).
# And `make install` puts it in FLATPAKTRIGGERDIR with kic= at SBINDIR.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (a store made read-only, a user's run)"
command -v unshare > /dev/null 2>&1 || skip_all "needs unshare"
plan 7

# a world-readable place: case 4 runs as nobody
D=$(mktemp -d /tmp/kic-fptrigger.XXXXXX)
chmod 755 "$D"
trap 'rm -rf "$D" "$WORK"' EXIT
R=$D/root
cp -R "$TOP/demo" "$R"
mkdir -p "$R/var/lib" "$R/usr/bin" "$R/usr/lib/systemd/user-environment-generators"
: > "$R/usr/bin/flatpak"
printf '#!/bin/sh\nexport GIO_USE_VFS=local\nexec flatpak --print-updated-env\n' \
  > "$R/usr/lib/systemd/user-environment-generators/60-flatpak"
chmod 755 "$R/usr/bin/flatpak" "$R/usr/lib/systemd/user-environment-generators/60-flatpak"
# org.example.Viewer from Flathub: its own icon, other than the .deb's
app=/var/lib/flatpak/app/org.example.Viewer/x86_64/stable/1234/export/share/icons/hicolor/scalable/apps
mkdir -p "$R$app" "$R/var/lib/flatpak/exports/share/icons/hicolor/scalable/apps"
svg_file "$R" "$app/org.example.Viewer.svg" '#123456'
ln -s "../../../../../../app/org.example.Viewer/x86_64/stable/1234/export/share/icons/hicolor/scalable/apps/org.example.Viewer.svg" \
  "$R/var/lib/flatpak/exports/share/icons/hicolor/scalable/apps/org.example.Viewer.svg"

# the stubs: the tool (the real one on the root, its arguments logged)
# and systemctl
mkdir -p "$D/stub"
cat > "$D/stub/kic" <<STUB
#!/bin/sh
echo "kde-icon-cache \$*" >> "$D/calls"
exec "$BIN" --root "$R" "\$@"
STUB
printf '#!/bin/sh\necho "systemctl $*" >> "%s/calls"\n' "$D" > "$D/stub/systemctl"
chmod 755 "$D/stub/kic" "$D/stub/systemctl"
sed -e "s|^kic=.*|kic=$D/stub/kic|" -e "s|^store=.*|store=$R/var/lib/kde-icon-cache|" \
  -e "s|^booted=.*|booted=$D/booted|" "$TOP/flatpak/kde-icon-cache.trigger" > "$D/trigger"
chmod 755 "$D/trigger"
run_trigger () { : > "$D/calls"; chmod 666 "$D/calls"; env -u XDG_DATA_DIRS PATH="$D/stub:$PATH" "$@" "$D/trigger" /var/lib/flatpak > "$D/out" 2>&1; }

run_trigger
rc=$?
link=$(grep '^link	[^	]*/org\.example\.Viewer-beta\.svg	' "$R/var/lib/kde-icon-cache/manifest" 2>/dev/null | head -n 1 | cut -f3)
is "$rc:$(cat "$D/calls")" "0:kde-icon-cache --quiet --wait 300" "root, store writable: the trigger runs kde-icon-cache --quiet --wait 300"
case $link in */files/var/lib/flatpak/app/org.example.Viewer/*) true ;; *) false ;; esac
ok $? "... which plants the Flatpak's icon, the session's, for org.example.Viewer-beta (${link:-no link})"

mkdir -p "$D/booted"
: > "$D/calls"
unshare -m sh -c "mount --bind '$R/var/lib/kde-icon-cache' '$R/var/lib/kde-icon-cache' &&
  mount -o remount,bind,ro '$R/var/lib/kde-icon-cache' && \$0 \"\$@\"" \
  env -u XDG_DATA_DIRS PATH="$D/stub:$PATH" "$D/trigger" /var/lib/flatpak > "$D/out" 2>&1
rc=$?
is "$rc:$(grep '^systemctl' "$D/calls")" "0:systemctl start --no-block kde-icon-cache.service" \
  "root, store read-only (flatpak's sandbox), systemd: the trigger starts the service, without waiting"
grep -q '^kde-icon-cache' "$D/calls"
is $? 1 "... and runs no rebuild itself"

rmdir "$D/booted"
: > "$D/calls"
unshare -m sh -c "mount --bind '$R/var/lib/kde-icon-cache' '$R/var/lib/kde-icon-cache' &&
  mount -o remount,bind,ro '$R/var/lib/kde-icon-cache' && \$0 \"\$@\"" \
  env -u XDG_DATA_DIRS PATH="$D/stub:$PATH" "$D/trigger" /var/lib/flatpak > "$D/out" 2>&1
is "$?:$(cat "$D/calls")" "0:" "read-only without systemd: nothing run, exit 0 (the daily cron job refreshes)"

chmod 777 "$D"   # (the stubs log there)
mkdir -p "$D/booted"
run_trigger setpriv --reuid 65534 --regid 65534 --clear-groups
is "$?:$(cat "$D/calls")" "0:" "a user's installation (not root), systemd there: nothing run, exit 0"

printf '#!/bin/sh\necho "kde-icon-cache $*" >> "%s/calls"\nexit 3\n' "$D" > "$D/stub/kic"
run_trigger
is "$?:$(cat "$D/calls"):$(grep -c 'daily job' "$D/out")" "0:kde-icon-cache --quiet --wait 300:1" \
  "a rebuild that fails: one message, exit 0 (flatpak goes on)"
finish
