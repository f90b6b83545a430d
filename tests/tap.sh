# tap.sh - the TAP helpers every shell test uses (sourced)
#
#   plan N            print the plan first (or tap_done at the end)
#   ok STATUS TEXT    one result: STATUS 0 is a pass (TEXT after $TAP_PREFIX,
#                     for a script that runs one set of checks several times)
#   is GOT WANT TEXT  a pass when the strings are equal; shows both if not
#   skip TEXT [N]     N (1) results skipped, saying why
#   tap_done          print the plan after the fact and "N passed, N failed";
#                     succeeds when nothing failed

_tap_n=0
_tap_failed=0

plan () { echo "1..$1"; }

ok () { # ok CONDITION-EXIT-STATUS DESCRIPTION
  _tap_n=$((_tap_n + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $_tap_n - ${TAP_PREFIX:-}$2"
  else
    echo "not ok $_tap_n - ${TAP_PREFIX:-}$2"
    _tap_failed=$((_tap_failed + 1))
  fi
}

is () { # is GOT EXPECTED DESCRIPTION
  if [ "$1" = "$2" ]; then
    ok 0 "$3"
  else
    ok 1 "$3"
    printf '#   got:      %s\n#   expected: %s\n' "$1" "$2"
  fi
}

skip () { # skip TEXT [N]
  _tap_i=0
  while [ $_tap_i -lt "${2:-1}" ]; do
    _tap_n=$((_tap_n + 1)) _tap_i=$((_tap_i + 1))
    echo "ok $_tap_n # SKIP $1"
  done
}

tap_done () {
  echo "1..$_tap_n"
  echo "$((_tap_n - _tap_failed)) passed, $_tap_failed failed"
  [ "$_tap_failed" -eq 0 ]
}
