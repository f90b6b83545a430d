# shellcheck shell=sh
# helper-id.sh - kf6_helper_id: the cksum of tests/oracle/kic-oracle.cpp,
# which names the KF6 helper built from it inside a KF6 root
# (/opt/kic/kic-oracle6-ID; make-root.sh builds it, run.sh runs it).
# Needs $here, the directory of tests/oracle/kf6. (sourced)
kf6_helper_id () {
  cksum < "$here/../kic-oracle.cpp" | cut -d' ' -f1
}
