#!/bin/sh
# session.sh OUT [X Y] - one measured Plasma session, run inside the root
# of make-root.sh by bench-plasma.sh (as root, in a chroot, under
# dbus-run-session): Xvfb, plasmashell under strace with a fresh home,
# then the launcher opened, All Applications shown and scrolled to the end.
#
# Writes OUT/trace (strace -f -ttt of plasmashell, file calls), OUT/marks
# (the end of each phase, in seconds since the epoch: started, opened,
# all, scrolled) and a screenshot after the last three phases
# (OUT/opened.xwd, OUT/all.xwd, OUT/scrolled.xwd).  X Y: where "All
# Applications" is on the screen (default from the open launcher's layout
# at 1280x800).
#
# The screen is made the same from run to run: a frozen wall clock (the
# panel's clock stopped at one moment, faketime), no animations, a fresh home, software
# rendering (QT_QUICK_BACKEND=software), the same screen size.
#
# KIC_PLASMA_VERSION=6 (Plasma 6.3 of Debian 13): the menu is
# plasma-applications.menu (XDG_MENU_PREFIX=plasma-: Debian 13 has no
# applications.menu), qdbus is qdbus6, and kglobalacceld, which has no
# D-Bus activation file, is started here (untraced) before plasmashell.
set -eu
OUT=$1
V=${KIC_PLASMA_VERSION:-5}
if [ "$V" = 6 ]; then
  ALL_X=${2:-100} ALL_Y=${3:-328} QDBUS=qdbus6
else
  ALL_X=${2:-95} ALL_Y=${3:-304} QDBUS=qdbus
fi
mkdir -p "$OUT"
: > "$OUT/marks"
export HOME=/tmp/kic-home XDG_RUNTIME_DIR=/tmp/kic-runtime DISPLAY=:7
rm -rf "$HOME" "$XDG_RUNTIME_DIR"
mkdir -p "$HOME/.config" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
# no animation: the screenshot is the final state, whenever it is taken
printf '[KDE]\nAnimationDurationFactor=0\n' > "$HOME/.config/kdeglobals"
printf '[Effect-Blur]\nBlurStrength=1\n' > "$HOME/.config/kwinrc"
export XDG_SESSION_TYPE=x11 XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=$V
[ "$V" = 6 ] && export XDG_MENU_PREFIX=plasma-
export QT_QUICK_BACKEND=software QT_XCB_GL_INTEGRATION=none LIBGL_ALWAYS_SOFTWARE=1
export QT_ACCESSIBILITY=0 LANG=C.UTF-8

mark () { date +%s.%N >> "$OUT/marks"; }

# idle: wait until the trace has had no call on an icon or Plasma path
# for QUIET seconds (at most 300).  Not "the trace has not grown": Plasma
# 6 without PipeWire retries its connection for ever, so its trace never
# stops growing; the calls this bench counts and the ones that show
# Plasma still building its scene (QML, plugins, its configuration) all
# name such a path.  Only the part of the trace written since the last
# look is read.  TRACE_AT: the trace's size when that call was seen (the
# scroll loop below compares it).
TRACE_AT=0
_seen=0
idle () {
  _same=0 _n=0
  while [ $_same -lt "${QUIET:-4}" ] && [ $_n -lt 300 ]; do
    sleep 1
    _size=$(stat -c %s "$OUT/trace" 2>/dev/null || echo 0)
    if [ "$_size" -gt "$_seen" ] &&
       tail -c +$((_seen + 1)) "$OUT/trace" | head -c $((_size - _seen)) | grep -qE '/icons/|/pixmaps/|plasma'; then
      _same=0 TRACE_AT=$_size
    else
      _same=$((_same + 1))
    fi
    _seen=$_size _n=$((_n + 1))
  done
}

rm -f /tmp/.X11-unix/X7 /tmp/.X7-lock
Xvfb :7 -screen 0 1280x800x24 -nolisten tcp -noreset >"$OUT/xvfb.log" 2>&1 &
xvfb=$!
n=0
while [ ! -S /tmp/.X11-unix/X7 ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
# the services the bus starts for plasmashell (kactivitymanagerd, without
# which it shows nothing) see the same display and home
dbus-update-activation-environment --all >/dev/null 2>&1
if [ "$V" = 6 ]; then
  /usr/lib/x86_64-linux-gnu/libexec/kglobalacceld >"$OUT/kglobalacceld.log" 2>&1 &
  accel=$!
  n=0
  until $QDBUS org.kde.kglobalaccel >/dev/null 2>&1 || [ $n -gt 100 ]; do sleep 0.2; n=$((n + 1)); done
fi
FT=$(ls /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1)
strace -f -ttt -qq -s 4096 -e trace=%file -o "$OUT/trace" \
  env LD_PRELOAD="$FT" FAKETIME="2024-03-01 09:30:00" FAKETIME_DONT_FAKE_MONOTONIC=1 DONT_FAKE_MONOTONIC=1 \
  plasmashell --no-respawn >"$OUT/plasmashell.log" 2>&1 &
shell=$!
n=0
until $QDBUS org.kde.plasmashell /PlasmaShell >/dev/null 2>&1 || [ $n -gt 300 ]; do sleep 0.5; n=$((n + 1)); done
QUIET=${KIC_QUIET_START:-15} idle
mark # started
# the launcher button, left end of the panel (PlasmaShell's
# activateLauncherMenu over D-Bus does nothing without a window manager)
xdotool mousemove 27 775 click 1
QUIET=${KIC_QUIET_STEP:-8} idle
mark # opened
xwd -root -silent > "$OUT/opened.xwd"
xdotool mousemove "$ALL_X" "$ALL_Y" click 1
QUIET=${KIC_QUIET_STEP:-8} idle
mark # all
xwd -root -silent > "$OUT/all.xwd"
# to the end of the list: the wheel over it, 20 notches at a time, each
# step waited out (scrolling faster than Plasma draws would make the
# delegates it creates depend on timing); the end is a step that calls
# nothing
xdotool mousemove 500 400
i=0
while [ $i -lt 60 ]; do
  before=$TRACE_AT
  xdotool click --repeat 20 --delay 10 5
  QUIET=${KIC_QUIET_SCROLL:-3} idle
  [ "$TRACE_AT" = "$before" ] && break
  i=$((i + 1))
done
# a motion of the pointer at the end: the row under it was drawn
# highlighted or not depending on whether a hover event caught up with the
# scrolling (on the longer menu, one run of two); a real motion over the
# same row of the same list highlights it in every run
xdotool mousemove 501 401
QUIET=${KIC_QUIET_STEP:-8} idle
mark # scrolled
xwd -root -silent > "$OUT/scrolled.xwd"
pid=$($QDBUS org.freedesktop.DBus / org.freedesktop.DBus.GetConnectionUnixProcessID org.kde.plasmashell 2>/dev/null || true)
if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
n=0
while kill -0 "$shell" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.2; n=$((n + 1)); done
if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
# (kglobalacceld too: the wait below waits for every child)
kill "$xvfb" ${accel:-} 2>/dev/null || true
wait 2>/dev/null || true
