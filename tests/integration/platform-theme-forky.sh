#!/bin/sh
# platform-theme-forky.sh - platform-theme.sh against Debian testing's KF6
# (6.30; the default is Debian 13's 6.13): KIconThemes changed its lookup
# between them (tests/oracle/FINDINGS.md §k), so a model checked on one says
# nothing of the other.  Skipped when tests/oracle/kf6/make-root.sh --suite
# forky has not made the root (CI makes only 6.13's).
C=${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests
KIC_KF6_ROOT=$C/kf6-forky
export KIC_KF6_ROOT
exec sh "$(dirname "$0")/platform-theme.sh"
