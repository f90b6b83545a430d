# /etc/cron.d/kde-icon-cache: refresh the KDE menu icon links once a day.
#
# dpkg triggers already refresh them whenever a package changes menu
# entries or icons; this catches what dpkg does not see (/usr/local/share,
# files changed by hand, a new theme in /etc/xdg/kdeglobals).  A day with no
# change writes nothing: --check exits 0 and the rebuild is skipped.  The
# rebuild runs only when --check says "out of date" (1); when it could not
# tell (3) the line fails with that status and cron mails the error.
#
# Under systemd, kde-icon-cache.timer does this job instead.  The test -x
# keeps the line quiet after the package is removed but not purged.

SHELL=/bin/sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin

27 4 * * *	root	test -e /run/systemd/system || test ! -x /usr/sbin/kde-icon-cache || nice -n 19 ionice -c 3 sh -c 'kde-icon-cache --check --quiet; rc=$?; [ $rc -eq 1 ] && exec kde-icon-cache --quiet --wait 600; exit $rc'
