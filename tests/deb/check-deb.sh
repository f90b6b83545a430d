#!/bin/sh
# check-deb.sh - build the Debian package, lint it, then install, trigger,
# remove and purge it with dpkg inside a throwaway Debian 12 root, then
# the same in a Debian 13 root
#
# Prints TAP and ends with a line "N passed, N failed".
#
#  1. dpkg-buildpackage -us -uc in a copy of the working tree (the files git
#     tracks or would track, so uncommitted work is tested, build output is
#     not), the package's own offline tests included;
#  2. lintian on the source and binary packages: no error, no warning;
#  3. a Debian 12 minbase root from debootstrap (with breeze), kept
#     unpacked in $KIC_DEBOOTSTRAP_CACHE for a week and used through an
#     overlay mount, so that later runs need neither the network nor time;
#  4. inside it, with chroot and the real dpkg: install the package, install
#     and remove small test packages made here with dpkg-deb (a .desktop
#     file with a hicolor PNG, one with a scalable SVG, a broken .desktop
#     file), check that the trigger ran and what it planted, remove and
#     purge the package, and compare the root with what it was before;
#  5. 3 and 4 again in a Debian 13 (trixie) root: the package built on the
#     host (Debian 12, as in CI) installed where its libraries are the t64
#     ones (libglib2.0-0t64 Provides libglib2.0-0) and dpkg, debhelper's
#     deb-systemd-helper and the triggers are Debian 13's.  The checks'
#     names start with the suite's;
#  6. after each of 4, the daily job as Debian runs it: a fresh overlay of
#     the same root (both carry systemd) booted with systemd-nspawn into
#     the real kde-icon-cache.service, with one link directory read-only
#     for it (service_checks below): links, store, change log, warnings,
#     exit status, and systemd-analyze security's score.
#
# Needs root (chroot, mount), dpkg-dev, debhelper, lintian, debootstrap,
# systemd-container (6 is skipped without it) and the build dependencies;
# the network only when the cache is cold.
# Environment: KIC_DEBOOTSTRAP_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debootstrap),
# KIC_DEBIAN_MIRROR (default http://deb.debian.org/debian), TMPDIR.

set -u
LC_ALL=C.UTF-8
export LC_ALL

TOP=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${KIC_DEBOOTSTRAP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/debootstrap}
MIRROR=${KIC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What a root has beyond minbase: the package's shared libraries, and
# the real breeze and hicolor themes (3 MB), so that KDE's search for an
# icon only hicolor has is long and the trigger plants links, into breeze
# for an SVG and into hicolor's directories for a PNG.  Debian 13 names
# two of the libraries with t64.  dpkg -i installs no dependency: every
# name the built package's Depends lists must be in the root (checked
# below, naming any that is not); a change of a list changes the root's
# directory name (its digest), so the root is made again.
INCLUDE_bookworm=libglib2.0-0,libjson-glib-1.0-0,libxdg-basedir1,libxpm4,libpng16-16,breeze-icon-theme,hicolor-icon-theme,systemd
INCLUDE_trixie=libglib2.0-0t64,libjson-glib-1.0-0,libxdg-basedir1,libxpm4,libpng16-16t64,breeze-icon-theme,hicolor-icon-theme,systemd
STORE=/var/lib/kde-icon-cache
TAB=$(printf '\t')

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kic-check-deb.XXXXXX") || exit 1
# The root is an overlay mount (see below) with nothing mounted inside it
# (dpkg and the maintainer scripts need no /proc).  --one-file-system: if
# the overlay cannot be unmounted, rm leaves it (and the cache under it)
# alone.
MOUNTED=
cleanup () {
  if [ -n "$MOUNTED" ]; then
    umount "$MOUNTED" 2> /dev/null || umount -l "$MOUNTED"
  fi
  rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

. "$(dirname "$0")/../tap.sh"

diag () { sed 's/^/# /' "$@"; }

finish () {
  tap_done
  exit
}

bail () { # bail REASON: the steps after this one cannot run
  ok 1 "$1"
  finish
}

# Run a command inside the root, in a clean environment.
in_root () {
  chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

status_of () { # status_of PACKAGE: dpkg's status, "-" when unknown
  in_root dpkg-query -W -f '${Status}' "$1" 2>/dev/null || echo -
}

# Every path in the root, with type, mode, owner and link target, and the
# checksum of every regular file; dpkg's own database and logs and /tmp
# (where the test puts its .deb files) are left out.
snapshot () {
  ( cd "$R" &&
    find . \( -path ./var/lib/dpkg -o -path ./var/log -o -path ./tmp \) -prune \
      -o -printf '%p %y %m %u:%g %l\n' | sort
    find . \( -path ./var/lib/dpkg -o -path ./var/log -o -path ./tmp \) -prune \
      -o -type f -print0 | sort -z | xargs -0 -r sha256sum )
}

# Links anywhere in the root that point into the store.
links_into_store () {
  find "$R" -xdev -type l -lname "*${STORE#/}/*" 2>/dev/null | sed "s|^$R||" | sort
}

# Check every link the manifest lists: a symbolic link with the recorded
# target that resolves to a store copy inside the root.  Prints problems.
manifest_links_resolve () {
  m=$R$STORE/manifest
  [ -f "$m" ] || { echo "no manifest"; return 1; }
  bad=0
  while IFS="$TAB" read -r kind path target rest; do
    [ "$kind" = link ] || continue
    if [ ! -L "$R$path" ]; then echo "missing link $path"; bad=1
    elif [ "$(readlink "$R$path")" != "$target" ]; then echo "link $path points elsewhere"; bad=1
    elif [ ! -f "$R$path" ]; then echo "dangling link $path"; bad=1
    else
      case $(cd "$(dirname "$R$path")" && readlink -f "$target") in
        "$R$STORE"/files/*) ;;
        *) echo "link $path leaves the store"; bad=1 ;;
      esac
    fi
  done < "$m"
  return $bad
}

# ---------------------------------------------------------------- checks
missing=
[ "$(id -u)" -eq 0 ] || missing="$missing root"
for tool in dpkg-buildpackage dh lintian debootstrap chroot sha256sum; do
  command -v "$tool" > /dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  echo "# needs:$missing (see .ci/run for the packages)"
  bail "prerequisites are there"
fi

# ---------------------------------------------------------------- build
mkdir -p "$WORK/build/src"
if [ -d "$TOP/.git" ] && command -v git > /dev/null 2>&1; then
  # tracked and untracked-but-not-ignored files: a clean checkout of the
  # working tree as it is now (deleted files are skipped by --ignore-failed-read)
  # (build*/ are build output directories, whether .gitignore lists them or not)
  ( cd "$TOP" && git ls-files -z -co --exclude-standard ) | grep -zv '^build[^/]*/' |
    ( cd "$TOP" && tar --null --ignore-failed-read -T - -cf - 2> /dev/null ) |
    tar -C "$WORK/build/src" -xf -
else
  ( cd "$TOP" && tar --exclude=./build --exclude=./build-asan --exclude=./tests/tmp \
      --exclude=./kde-icon-cache --exclude=./tests/oracle/kic-oracle -cf - . ) |
    tar -C "$WORK/build/src" -xf -
fi
t0=$(date +%s)
( cd "$WORK/build/src" && dpkg-buildpackage -us -uc ) > "$WORK/build.log" 2>&1
st=$?
deb=$(ls "$WORK"/build/kde-icon-cache_*_*.deb 2> /dev/null | head -n 1)
if [ $st -ne 0 ] || [ -z "$deb" ]; then
  tail -n 40 "$WORK/build.log" | diag
  bail "dpkg-buildpackage -us -uc builds kde-icon-cache_*.deb"
fi
ok 0 "dpkg-buildpackage -us -uc builds $(basename "$deb") ($(($(date +%s) - t0)) s, tests included)"
# Depends: "libc6 (>= 2.34), libglib2.0-0 (>= 2.75.3), a | b" -> the
# names, the first of each alternative
DEPENDS=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/[[:space:]]//g' |
  grep . | sort -u)
grep -q '^Result: PASS' "$WORK/build.log"
ok $? "the package's build-time tests ran and passed (dh_auto_test)"

# ---------------------------------------------------------------- contents
dpkg-deb -c "$deb" | awk '{ print $1, $6 }' | sed 's|^\(.\{10\}\) \./|\1 /|' > "$WORK/contents"
for want in '-rwxr-xr-x /usr/sbin/kde-icon-cache' \
            '-rw-r--r-- /usr/share/man/man8/kde-icon-cache.8.gz' \
            '-rw-r--r-- /etc/kde-icon-cache.conf' \
            '-rw-r--r-- /etc/cron.d/kde-icon-cache' \
            '-rw-r--r-- /lib/systemd/system/kde-icon-cache.service' \
            '-rw-r--r-- /lib/systemd/system/kde-icon-cache.timer' \
            '-rw-r--r-- /usr/share/doc/kde-icon-cache/copyright'; do
  grep -qxF -- "$want" "$WORK/contents" || { echo "# missing: $want"; absent=1; }
done
ok "${absent:-0}" "the package ships the binary, the man page, the conffile, cron.d and the systemd units"
mkdir -p "$WORK/ctl"
dpkg-deb -e "$deb" "$WORK/ctl"
is "$(sort "$WORK/ctl/conffiles" | tr '\n' ' ')" "/etc/cron.d/kde-icon-cache /etc/kde-icon-cache.conf " \
  "conffiles: the configuration file and the cron.d file"
is "$(grep -v '^#' "$WORK/ctl/triggers" | grep . | sort | tr '\n' ' ')" \
  "interest-noawait /etc/xdg/menus interest-noawait /usr/share/applications interest-noawait /usr/share/desktop-directories interest-noawait /usr/share/icons interest-noawait /usr/share/pixmaps " \
  "file triggers (noawait) on applications, desktop-directories, menus, icons and pixmaps"
if command -v systemd-analyze > /dev/null 2>&1; then
  dpkg-deb -x "$deb" "$WORK/x"
  systemd-analyze verify --man=no "$WORK/x/lib/systemd/system/kde-icon-cache.service" \
    "$WORK/x/lib/systemd/system/kde-icon-cache.timer" > "$WORK/verify" 2>&1
  st=$?; diag "$WORK/verify"
  is "$st:$(wc -c < "$WORK/verify")" "0:0" "systemd-analyze verify: the service and the timer, no complaint"
else
  ok 0 "# SKIP systemd-analyze is not installed (package systemd)"
fi
grep -v '^#' "$WORK/build/src/etc/kde-icon-cache.conf" | grep -v '^$' > "$WORK/conf-active"
is "$(cat "$WORK/conf-active" | paste -sd' ')" "[kde-icon-cache] ExtraNames=applications-all,search" \
  "the shipped configuration file sets only the measured ExtraNames=; every other key is commented out"

# ---------------------------------------------------------------- lintian
changes=$(ls "$WORK"/build/kde-icon-cache_*.changes | head -n 1)
lintian --fail-on error,warning --display-info --pedantic --show-overrides "$changes" > "$WORK/lintian" 2>&1
st=$?
grep -v 'running with root privileges is not recommended' "$WORK/lintian" | diag
[ $st -eq 0 ] && ! grep -q '^[EW]: ' "$WORK/lintian"
ok $? "lintian (source and binary): no error and no warning ($(grep -c '^[IPXON]: ' "$WORK/lintian") info, pedantic or override lines)"

# ---------------------------------------------------------------- a root
# suite_checks SUITE INCLUDE: steps 3 and 4 in a root of SUITE.
suite_checks () {
# The pristine root is kept unpacked in the cache and never changed: the
# test works on an overlay of it (or, where overlayfs cannot be mounted, on
# a copy).  It is made again when it is a week old or INCLUDE changed.
SUITE=$1
INCLUDE=$2
TAP_PREFIX="$SUITE: "
R=$WORK/$SUITE/root
t0=$(date +%s)
pristine=$CACHE/$SUITE-minbase-$(echo "$INCLUDE" | cksum | cut -d ' ' -f 1)
if [ -x "$pristine/usr/bin/dpkg" ] && [ -n "$(find "$pristine.stamp" -mtime -7 2> /dev/null)" ]; then
  how=warm
else
  how=cold
  mkdir -p "$CACHE/debs"
  rm -rf --one-file-system "$pristine.new"
  if debootstrap --variant=minbase --include="$INCLUDE" --cache-dir="$CACHE/debs" \
       "$SUITE" "$pristine.new" "$MIRROR" > "$WORK/root.log" 2>&1; then
    # the package lists debootstrap leaves are not needed: dpkg -i only
    rm -rf "$pristine.new"/var/lib/apt/lists/* "$pristine.new"/var/cache/apt/*.bin
    rm -rf --one-file-system "$pristine" && mv "$pristine.new" "$pristine" && touch "$pristine.stamp"
  else
    tail -n 20 "$WORK/root.log" | diag
    bail "debootstrap makes a $SUITE minbase root"
  fi
fi
mkdir -p "$R" "$WORK/$SUITE/upper" "$WORK/$SUITE/ovwork"
if mount -t overlay overlay \
     -o "lowerdir=$pristine,upperdir=$WORK/$SUITE/upper,workdir=$WORK/$SUITE/ovwork" "$R" 2> /dev/null; then
  MOUNTED=$R
  how="$how cache, overlay"
else
  cp -a "$pristine/." "$R/"
  how="$how cache, copy"
fi
[ -x "$R/usr/bin/dpkg" ] && in_root dpkg-query -W libglib2.0-0 libxdg-basedir1 > /dev/null
ok $? "a $SUITE minbase root with $INCLUDE ($how, $(($(date +%s) - t0)) s)"
# each of the package's Depends installed, or provided by a package that
# is (Debian 13's libglib2.0-0t64 provides libglib2.0-0)
in_root dpkg-query -W -f '${Package}\n${Provides}\n' | tr ',' '\n' | sed 's/(.*)//; s/[[:space:]]//g' |
  grep . | LC_ALL=C sort -u > "$WORK/$SUITE.has"
is "$(echo "$DEPENDS" | LC_ALL=C sort | LC_ALL=C comm -23 - "$WORK/$SUITE.has" | LC_ALL=C sort | paste -sd' ' -)" "" \
  "the root has every package kde-icon-cache depends on ($(echo "$DEPENDS" | paste -sd' ' -))"
snapshot > "$WORK/before"

# ---------------------------------------------------------------- test packages
# make_pkg NAME FILE=CONTENT-FILE...: a small arch:all package
make_pkg () {
  name=$1; shift
  d=$WORK/pkg/$name
  mkdir -p "$d/DEBIAN"
  for spec in "$@"; do
    mkdir -p "$d$(dirname "${spec%%=*}")"
    cp "${spec#*=}" "$d${spec%%=*}"
  done
  cat > "$d/DEBIAN/control" <<EOF
Package: $name
Version: 1.0
Architecture: all
Maintainer: kde-icon-cache developers <kde-icon-cache@example.org>
Description: kde-icon-cache test package $name
 Made by tests/deb/check-deb.sh.
EOF
  dpkg-deb --root-owner-group --build "$d" "$R/tmp/$name.deb" > /dev/null
}

mkdir -p "$WORK/files"
cat > "$WORK/files/png.desktop" <<'EOF'
[Desktop Entry]
Type=Application
Name=KIC test (PNG)
Exec=true
Icon=kictest-png
EOF
cat > "$WORK/files/svg.desktop" <<'EOF'
[Desktop Entry]
Type=Application
Name=KIC test (SVG)
Exec=true
Icon=kictest-svg
EOF
# 48x48 RGBA, one colour
echo 'iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAYAAABXAvmHAAAARElEQVR42u3PMQ0AAAgAIJOYxP6zlVbwdeMgANGV81kICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICFwt7eEqHvCvVdYAAAAASUVORK5CYII=' |
  base64 -d > "$WORK/files/icon.png"
cat > "$WORK/files/icon.svg" <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48"><rect width="48" height="48" rx="8" fill="#3daee9"/></svg>
EOF
printf 'this is not a key file\n[Desktop Entry\nIcon=\377\376kictest-png\n' > "$WORK/files/broken.desktop"

make_pkg kic-test-icons \
  /usr/share/applications/org.kictest.Png.desktop="$WORK/files/png.desktop" \
  /usr/share/applications/org.kictest.Svg.desktop="$WORK/files/svg.desktop" \
  /usr/share/icons/hicolor/48x48/apps/kictest-png.png="$WORK/files/icon.png" \
  /usr/share/icons/hicolor/scalable/apps/kictest-svg.svg="$WORK/files/icon.svg"
make_pkg kic-test-broken \
  /usr/share/applications/org.kictest.Broken.desktop="$WORK/files/broken.desktop"
cp "$deb" "$R/tmp/kde-icon-cache.deb"

# dpkg_do DESCRIPTION ARGS...: run dpkg in the root; output in $WORK/out
dpkg_do () {
  desc=$1; shift
  in_root dpkg "$@" > "$WORK/out" 2>&1
  st=$?
  [ $st -eq 0 ] || diag "$WORK/out"
  ok $st "$desc"
}

# ---------------------------------------------------------------- install
dpkg_do "dpkg -i kde-icon-cache" -i /tmp/kde-icon-cache.deb
is "$(status_of kde-icon-cache)" "install ok installed" "kde-icon-cache is installed and configured"
# (deb-systemd-helper's "Created symlink" is debhelper's, not ours: it
# says so where systemctl is installed, whose Debian 13 version also says
# that the chroot has no /proc, in three lines)
grep -v -e '^Selecting' -e '^(Reading' -e '^Preparing' -e '^Unpacking' -e '^Setting up' \
  -e "^Created symlink '\{0,1\}/etc/systemd/system/timers.target.wants/kde-icon-cache.timer'\{0,1\} " \
  -e '^/proc/ is not mounted\. ' -e '^your invocation environment to mount /proc/' -e '^Your mileage may vary\.$' \
  "$WORK/out" > "$WORK/own"
diag "$WORK/own"
[ ! -s "$WORK/own" ]
ok $? "the postinst prints nothing of its own"
[ -f "$R$STORE/manifest" ]
ok $? "the postinst ran a rebuild: $STORE/manifest exists"
[ -L "$R/etc/systemd/system/timers.target.wants/kde-icon-cache.timer" ]
ok $? "the timer is enabled (deb-systemd-helper)"

# The periodic jobs, run as cron and systemd would (no systemd here), on a
# system where nothing changed: exit 0, no output, nothing written.
cron_cmd=$(sed -n '/^[0-9*]/s/^\([^[:blank:]]*[[:blank:]]*\)\{5\}root[[:blank:]]*//p' "$R/etc/cron.d/kde-icon-cache")
svc_cmd=$(sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" "$R/lib/systemd/system/kde-icon-cache.service" |
  sed 's/\$\$/$/g')   # systemd's escape for $
[ -n "$cron_cmd" ] && [ -n "$svc_cmd" ]
ok $? "the cron.d line and the service's ExecStart are there"
( cd "$R" && find .$STORE -printf '%p %T@ %s\n' | sort ) > "$WORK/store-before"
for job in cron svc; do
  eval "cmd=\$${job}_cmd"
  in_root sh -c "$cmd" > "$WORK/job.out" 2>&1
  st=$?
  diag "$WORK/job.out"
  is "$st:$(wc -c < "$WORK/job.out")" "0:0" "the $job job exits 0 and prints nothing"
done
( cd "$R" && find .$STORE -printf '%p %T@ %s\n' | sort ) > "$WORK/store-after"
cmp -s "$WORK/store-before" "$WORK/store-after"
ok $? "a periodic run with nothing changed writes nothing (--check first)"

# ---------------------------------------------------------------- trigger
dpkg_do "dpkg -i kic-test-icons" -i /tmp/kic-test-icons.deb
grep -q '^Processing triggers for kde-icon-cache' "$WORK/out"
ok $? "installing menu entries and icons triggers kde-icon-cache"
is "$(status_of kde-icon-cache)" "install ok installed" "the trigger was processed (no triggers-pending)"
grep '^link' "$R$STORE/manifest" | cut -f 2 | diag
grep -q "^link${TAB}/usr/share/icons/breeze/.*/kictest-svg\.svg${TAB}" "$R$STORE/manifest" &&
  grep -q "^link${TAB}/usr/share/icons/.*/kictest-png\.png${TAB}" "$R$STORE/manifest"
ok $? "the manifest lists links for both test icons, the SVG's in breeze"
grep -q "^file${TAB}$STORE/files/usr/share/icons/hicolor/scalable/apps/kictest-svg\.svg${TAB}" "$R$STORE/manifest" &&
  grep -q "^file${TAB}$STORE/files/usr/share/icons/hicolor/48x48/apps/kictest-png\.png${TAB}" "$R$STORE/manifest"
ok $? "the store holds copies of both icons"
manifest_links_resolve > "$WORK/problems"
st=$?; diag "$WORK/problems"
ok $st "every link the manifest lists is there and resolves to a store copy"
links_into_store > "$WORK/links"
grep '^link' "$R$STORE/manifest" | cut -f 2 | sort > "$WORK/listed"
cmp -s "$WORK/links" "$WORK/listed"
ok $? "no link into the store that the manifest does not list"
LOG=/var/log/kde-icon-cache.log
awk -F "$TAB" '$3 == "link" { print $4 }' "$R$LOG" 2> /dev/null | sort > "$WORK/logged"
[ -s "$WORK/logged" ] && cmp -s "$WORK/logged" "$WORK/listed"
ok $? "the trigger's rebuild logged every link it planted in $LOG"

# ---------------------------------------------------------------- broken input
dpkg_do "a package with a broken .desktop file installs (dpkg -i exits 0)" -i /tmp/kic-test-broken.deb
grep -q '^Processing triggers for kde-icon-cache' "$WORK/out"
ok $? "... and triggers kde-icon-cache"
is "$(status_of kic-test-broken) / $(status_of kde-icon-cache)" \
  "install ok installed / install ok installed" "... and both packages end up installed and configured"
manifest_links_resolve > /dev/null
ok $? "... and the links are still whole"

# A rebuild that fails (here: a bad value in the configuration file) is a
# warning from the trigger, never a dpkg failure.
cp "$R/etc/kde-icon-cache.conf" "$WORK/conf.orig"
printf '[kde-icon-cache]\nSizes=22,big\n' > "$R/etc/kde-icon-cache.conf"
dpkg_do "a failing rebuild in the trigger does not make dpkg -r fail" -r kic-test-broken
grep -q 'kde-icon-cache: warning: the icon links were not updated' "$WORK/out"
st=$?; diag "$WORK/out"
ok $st "... the postinst warns on stderr"
is "$(status_of kde-icon-cache)" "install ok installed" "... and kde-icon-cache stays configured"
cp "$WORK/conf.orig" "$R/etc/kde-icon-cache.conf"

# ---------------------------------------------------------------- removal of icons
dpkg_do "dpkg -r kic-test-icons" -r kic-test-icons
grep -q '^Processing triggers for kde-icon-cache' "$WORK/out"
ok $? "removing menu entries and icons triggers kde-icon-cache"
! grep -q kictest "$R$STORE/manifest"
ok $? "the manifest no longer lists the test icons"
# (the shipped ExtraNames= keep their links: breeze is installed)
links_into_store | grep kictest > "$WORK/links"
diag "$WORK/links"
[ ! -s "$WORK/links" ] && [ -z "$(find "$R$STORE/files" -type f -name 'kictest*' 2> /dev/null)" ]
ok $? "their links and store copies are gone"

# ---------------------------------------------------------------- remove, purge
dpkg_do "dpkg -i kic-test-icons (again)" -i /tmp/kic-test-icons.deb
grep -c '^link' "$R$STORE/manifest" > "$WORK/nlinks"
[ "$(cat "$WORK/nlinks")" -gt 0 ]
ok $? "the links are planted again ($(cat "$WORK/nlinks"))"
dpkg_do "dpkg -r kde-icon-cache with links planted" -r kde-icon-cache
is "$(status_of kde-icon-cache)" "deinstall ok config-files" "kde-icon-cache is removed, its conffiles stay"
links_into_store > "$WORK/links"
diag "$WORK/links"
[ ! -s "$WORK/links" ] && [ ! -e "$R$STORE" ]
ok $? "the prerm's --clean removed every link and the store"
in_root sh -c "$cron_cmd" > "$WORK/job.out" 2>&1
is "$?:$(wc -c < "$WORK/job.out")" "0:0" "the cron.d line left behind exits 0 quietly (test -x)"
dpkg_do "dpkg -P kde-icon-cache" -P kde-icon-cache
is "$(status_of kde-icon-cache)" "-" "kde-icon-cache is purged"
[ ! -e "$R/etc/kde-icon-cache.conf" ] && [ ! -e "$R/etc/cron.d/kde-icon-cache" ] &&
  [ ! -e "$R/etc/systemd/system/timers.target.wants/kde-icon-cache.timer" ] &&
  [ ! -e "$R/var/lib/systemd/deb-systemd-helper-enabled/kde-icon-cache.timer.dsh-also" ]
ok $? "its conffiles and the timer's enablement are gone"
[ ! -e "$R$LOG" ] && [ ! -e "$R$LOG.1" ]
ok $? "and its log, $LOG"

# The binary has vanished (a broken system), so the prerm cannot run
# --clean.  The postrm touches nothing but the store (issue 19, row 5: a
# shell cannot remove a path from the manifest without resolving it again
# in directories a user may swap): purge removes the store, and the links
# the manifest listed stay, pointing nowhere, which KDE skips.
dpkg_do "dpkg -i kde-icon-cache (again, icons installed)" -i /tmp/kde-icon-cache.deb
[ -s "$R$STORE/manifest" ] && grep -q '^link' "$R$STORE/manifest"
ok $? "the configure plants the links for the icons already there"
grep '^link' "$R$STORE/manifest" | cut -f 2 | sort > "$WORK/listed"
rm -f "$R/usr/sbin/kde-icon-cache"
dpkg_do "dpkg -P kde-icon-cache without its binary" -P kde-icon-cache
grep -q "kde-icon-cache: warning: .*its links stay" "$WORK/out"
st=$?; diag "$WORK/out"
ok $st "... the prerm warns that the links stay"
links_into_store > "$WORK/links"
diag "$WORK/links"
dangling=$(while read -r l; do [ -L "$R$l" ] && [ ! -e "$R$l" ] || echo "$l"; done < "$WORK/links")
[ ! -e "$R$STORE" ] && cmp -s "$WORK/links" "$WORK/listed" && [ -z "$dangling" ]
ok $? "the postrm removed the store and nothing else: the links it listed stay, dangling"
# (what an administrator does then: remove the links into the store)
find "$R" -xdev -type l -lname "*${STORE#/}/*" -delete

# ---------------------------------------------------------------- nothing left
dpkg_do "dpkg -P kic-test-icons" -P kic-test-icons
snapshot > "$WORK/after"
diff "$WORK/before" "$WORK/after" > "$WORK/diff"
st=$?
head -n 40 "$WORK/diff" | diag
ok $st "the root is as it was before kde-icon-cache was installed (every path, mode, owner, link and checksum)"

# the root of this suite is done with: unmounted, its files gone
if [ -n "$MOUNTED" ]; then umount "$MOUNTED" 2> /dev/null || umount -l "$MOUNTED"; MOUNTED=; fi
rm -rf --one-file-system "${WORK:?}/$SUITE"
# shellcheck disable=SC2034 # (read by tap.sh's ok)
TAP_PREFIX=
}

# ---------------------------------------------------------------- the service, booted
# service_checks SUITE: the daily job as Debian runs it.  In a fresh
# overlay of the same pristine root (which has systemd): dpkg installs the
# package and the test icons (the trigger plants, outside any sandbox);
# then what dpkg does not see, the daily job's work: two menu entries
# with their icons under /usr/local/share.  One directory where that run
# plants is made read-only for the service (a drop-in's ReadOnlyPaths=, as
# a data directory the sandbox does not list is), and the root is booted
# with systemd-nspawn into a unit that starts the real service twice
# (the second time with nothing changed) and powers off.
service_checks () {
SUITE=$1
TAP_PREFIX="$SUITE service: "
if ! command -v systemd-nspawn > /dev/null 2>&1; then
  skip "systemd-nspawn is not installed (package systemd-container)" 10
  TAP_PREFIX=
  return
fi
R=$WORK/$SUITE-svc/root
mkdir -p "$R" "$WORK/$SUITE-svc/upper" "$WORK/$SUITE-svc/ovwork"
if mount -t overlay overlay \
     -o "lowerdir=$pristine,upperdir=$WORK/$SUITE-svc/upper,workdir=$WORK/$SUITE-svc/ovwork" "$R" 2> /dev/null; then
  MOUNTED=$R
else
  cp -a "$pristine/." "$R/"
fi
cp "$deb" "$R/tmp/kde-icon-cache.deb"
dpkg-deb --root-owner-group --build "$WORK/pkg/kic-test-icons" "$R/tmp/kic-test-icons.deb" > /dev/null
in_root dpkg -i /tmp/kde-icon-cache.deb /tmp/kic-test-icons.deb > "$WORK/out" 2>&1 || diag "$WORK/out"
L=/usr/local/share
mkdir -p "$R$L/applications" "$R$L/icons/hicolor/48x48/apps" "$R$L/icons/hicolor/scalable/apps"
sed 's/kictest-png/kictest-local/; s/(PNG)/(local PNG)/' "$WORK/files/png.desktop" > "$R$L/applications/org.kictest.Local.desktop"
sed 's/kictest-svg/kictest-localsvg/; s/(SVG)/(local SVG)/' "$WORK/files/svg.desktop" > "$R$L/applications/org.kictest.LocalSvg.desktop"
cp "$WORK/files/icon.png" "$R$L/icons/hicolor/48x48/apps/kictest-local.png"
cp "$WORK/files/icon.svg" "$R$L/icons/hicolor/scalable/apps/kictest-localsvg.svg"
# what the service's rebuild will plant, and the directory made read-only:
# that of the first link for the SVG
in_root kde-icon-cache -q --dry-run | awk -F "$TAB" '$1 == "link" { print $2 "\t" $3 }' | sort > "$WORK/planned"
ro=$(grep 'kictest-localsvg' "$WORK/planned" | head -n 1 | cut -f 1)
ro=${ro%/*}
grep -v "^$ro/[^/]*$TAB" "$WORK/planned" > "$WORK/planted"
diag "$WORK/planned"
[ -n "$ro" ] && [ -s "$WORK/planted" ]
ok $? "the daily job has links to plant, in ${ro:-?} (made read-only) and elsewhere ($(wc -l < "$WORK/planted"))"
mkdir -p "$R/etc/systemd/system/kde-icon-cache.service.d"
printf '[Service]\nReadOnlyPaths=%s\n' "$ro" > "$R/etc/systemd/system/kde-icon-cache.service.d/kic-test.conf"
printf '%s\n' '[Unit]' 'Description=check-deb: start kde-icon-cache.service twice, then power off' \
  '[Service]' 'Type=oneshot' 'ExecStart=/bin/sh /root/kic-test.sh' > "$R/etc/systemd/system/kic-test.service"
# run N: start the service, and write what systemd and it said (in
# /root: a file put in / changes a directory the run reads, and the
# second run would find something changed)
printf '%s\n' 'run () {' \
  '  systemctl start kde-icon-cache.service > /root/kic-start$1.txt 2>&1' \
  '  systemctl show -p Result -p ExecMainStatus kde-icon-cache.service > /root/kic-status$1.txt' \
  '  journalctl -b -u kde-icon-cache.service --no-pager -o cat > /root/kic-journal$1.txt 2>&1' \
  "  find /var/lib/kde-icon-cache -printf '%p %y %m %u %T@ %s\\n' | sort > /root/kic-store\$1.txt" \
  '}' 'run 1' 'run 2' \
  'systemd-analyze security --no-pager kde-icon-cache.service > /root/kic-security.txt 2>&1' \
  'systemctl poweroff' > "$R/root/kic-test.sh"
t0=$(date +%s)
timeout 300 systemd-nspawn -q -D "$R" -b --register=no --keep-unit systemd.unit=kic-test.service \
  > "$WORK/boot.log" 2>&1
[ -s "$R/root/kic-status2.txt" ]
st=$?
[ $st -eq 0 ] || tail -n 30 "$WORK/boot.log" | diag
ok $st "systemd-nspawn boots the root and starts kde-icon-cache.service twice ($(($(date +%s) - t0)) s)"
diag "$R/root/kic-journal1.txt"
is "$(sort "$R/root/kic-status1.txt" 2> /dev/null | paste -sd' ' -)" "ExecMainStatus=0 Result=success" \
  "the sandboxed rebuild exits 0"
grep '^kde-icon-cache:' "$R/root/kic-journal1.txt" > "$WORK/said"
is "$(wc -l < "$WORK/said"):$(grep -c "warning: cannot write in '$ro': Read-only file system" "$WORK/said")" "1:1" \
  "... with one warning, naming the read-only directory, and nothing else (--quiet)"
( while IFS="$TAB" read -r path target; do
    [ "$(readlink "$R$path")" = "$target" ] && [ -f "$R$path" ] || echo "not planted: $path"
  done < "$WORK/planted"
  grep "^$ro/" "$WORK/planned" | cut -f 1 | while read -r path; do
    [ ! -L "$R$path" ] || echo "planted in $ro: $path"
  done ) > "$WORK/problems"
diag "$WORK/problems"
[ ! -s "$WORK/problems" ]
ok $? "... it planted every link of the plan outside $ro and none in it"
manifest_links_resolve > "$WORK/problems"
st=$?; diag "$WORK/problems"
links_into_store > "$WORK/links"
grep '^link' "$R$STORE/manifest" | cut -f 2 | sort | cmp -s - "$WORK/links" && [ $st -eq 0 ]
ok $? "... the manifest lists every link into the store, each whole"
grep -q "^file${TAB}$STORE/files$L/icons/hicolor/48x48/apps/kictest-local\.png${TAB}" "$R$STORE/manifest" &&
  grep -q "^file${TAB}$STORE/files$L/icons/hicolor/scalable/apps/kictest-localsvg\.svg${TAB}" "$R$STORE/manifest" &&
  [ "$(stat -c '%a %U' "$R$STORE" "$R$STORE/lock" | paste -sd' ' -)" = "755 root 600 root" ]
ok $? "... the store holds both new icons; it is 0755 and its lock 0600, root's"
( while IFS="$TAB" read -r path target; do
    grep -q "${TAB}link${TAB}$path${TAB}" "$R$LOG" || echo "not logged: $path"
  done < "$WORK/planted" ) > "$WORK/problems"
diag "$WORK/problems"
[ ! -s "$WORK/problems" ] && [ -s "$R$LOG" ]
ok $? "... and the change log, $LOG, has every link it planted"
is "$(sort "$R/root/kic-status2.txt" 2> /dev/null | paste -sd' ' -)" "ExecMainStatus=0 Result=success" \
  "started again with nothing changed: exit 0"
# (the journal of the unit holds systemd's own lines too: the tool's start
# with its name)
grep '^kde-icon-cache:' "$R/root/kic-journal2.txt" | cmp -s - "$WORK/said" &&
  cmp -s "$R/root/kic-store1.txt" "$R/root/kic-store2.txt"
ok $? "... saying nothing and writing nothing in the store"
diag "$R/root/kic-security.txt"
score=$(sed -n 's/.*Overall exposure level for kde-icon-cache.service: \([0-9.]*\).*/\1/p' "$R/root/kic-security.txt")
[ -n "$score" ]
ok $? "systemd-analyze security kde-icon-cache.service: ${score:-no score}"
if [ -n "$MOUNTED" ]; then umount "$MOUNTED" 2> /dev/null || umount -l "$MOUNTED"; MOUNTED=; fi
rm -rf --one-file-system "${WORK:?}/$SUITE-svc"
TAP_PREFIX=
}

# The 12 root first (what CI's host is), then 13's: the same .deb in both.
suite_checks bookworm "$INCLUDE_bookworm"
service_checks bookworm
suite_checks trixie "$INCLUDE_trixie"
service_checks trixie

finish
