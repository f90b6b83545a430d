#!/bin/sh
# kde-icon-cache.trigger - refresh KDE's menu icon links after a Flatpak
# install, update or removal, as the dpkg trigger does after a package's
#
# flatpak runs every $datadir/flatpak/triggers/*.trigger after it changes
# an installation, with the installation's directory as the only argument
# (/var/lib/flatpak; a user's ~/.local/share/flatpak, as that user), in
# bubblewrap with every file system read-only but that directory
# (flatpak-dir.c, flatpak_dir_run_triggers()).  A Plasma login puts the
# system installation's exports first in XDG_DATA_DIRS, and kde-icon-cache
# reads them as it reads /usr/share (kde-icon-cache(8), DATA DIRECTORIES).
#
# A user's installation is none of root's inputs: nothing to do.  Where the
# store can be written (a flatpak built with its triggers unsandboxed) the
# rebuild runs here, as the dpkg trigger runs it; in the sandbox it cannot
# write, so systemd is asked to start kde-icon-cache.service (its --check
# first), without waiting; without systemd the daily cron job refreshes.
# Never a failure of flatpak's: the links are only a speed-up.

kic=/usr/sbin/kde-icon-cache  # (make install: $(SBINDIR)'s)
store=/var/lib/kde-icon-cache
booted=/run/systemd/system    # sd_booted()

[ "$(id -u)" = 0 ] || exit 0
if [ -w "$store" ] || { [ ! -e "$store" ] && [ -w "${store%/*}" ]; }; then
  "$kic" --quiet --wait 300 || echo "kde-icon-cache: the rebuild after the Flatpak change failed (see above); the daily job will retry" >&2
elif [ -d "$booted" ] && command -v systemctl > /dev/null 2>&1; then
  systemctl start --no-block kde-icon-cache.service ||
    echo "kde-icon-cache: could not start kde-icon-cache.service; the daily job will refresh" >&2
fi
exit 0
