#!/bin/bash
# run-fuzz.sh - run the libFuzzer targets built by tests/fuzz/fuzz.mk
#
#   run-fuzz.sh fuzz TARGET...     fuzz each for FUZZ_SECONDS, FUZZ_JOBS at
#                                  a time, then a summary; exit 1 when a
#                                  target found something
#   run-fuzz.sh regress TARGET...  run each once over its regressions and
#                                  seeds; exit 1 when one fails
#
# Run from the top of the repository (make does).  Environment: FUZZ_B
# (build-fuzz), FUZZ_SECONDS (60), FUZZ_JOBS (2), FUZZ_OPTS (more libFuzzer
# options), FUZZ_UBSAN_SUPP (a UBSan suppression file, fuzz mode only).
set -u

mode=${1:?usage: run-fuzz.sh fuzz|regress TARGET...}
shift
B=${FUZZ_B:-build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-2}
OPTS=${FUZZ_OPTS:-}
SUPP=${FUZZ_UBSAN_SUPP:-}
HERE=tests/fuzz
export G_SLICE=always-malloc
# leaks inside libraries we cannot change (tests/fuzz/lsan.supp)
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(realpath tests/fuzz/lsan.supp)"

# the longest input worth trying, per target: a little above the largest
# real file of its kind
max_len () {
  case $1 in
    desktop) echo 32768 ;;     # real .desktop files: up to ~24 KB (translations)
    index-theme) echo 65536 ;; # hicolor's index.theme is 55 KB
    keyfile) echo 16384 ;;     # kdeglobals, kde-icon-cache.conf
    manifest) echo 65536 ;;
    raster) echo 16384 ;;      # menu XPM icons: 1-10 KB (a 48x48 with 2 chars a pixel ~6 KB)
    resolver) echo 16384 ;;
    *) echo 16384 ;;
  esac
}

# the last libFuzzer status line's FIELD ("cov", "ft", "corp", "exec/s")
last_field () {
  grep -aE '^#[0-9]+' "$2" | grep -a " $1: " | tail -n 1 | sed -E "s|.* $1: ([^ ]+).*|\\1|"
}

stat_field () {
  grep -a "^stat::$1:" "$2" | tail -n 1 | awk '{print $2}'
}

fuzz_one () {
  local t=$1 bin=$B/fuzz-$1 corpus=$B/corpus/$1 art=$B/artifacts/$1 log=$B/logs/$1.log
  local dict=() ubsan=""

  mkdir -p "$corpus" "$art" "$B/logs" "$HERE/seeds/$t"
  [ -f "$HERE/dict/$t.dict" ] && dict=("-dict=$HERE/dict/$t.dict")
  [ -n "$SUPP" ] && [ -s "$SUPP" ] && ubsan="suppressions=$(realpath "$SUPP")"
  touch "$art/.run-start"
  # new inputs go to the first directory; the seeds are only read
  # shellcheck disable=SC2086
  UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}$ubsan" "$bin" -max_total_time="$SECONDS_EACH" \
    -max_len="$(max_len "$t")" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$art/" "${dict[@]}" $OPTS "$corpus" "$HERE/seeds/$t" >"$log" 2>&1
  echo $? >"$B/logs/$t.rc"
}

summary_one () {
  local t=$1 log=$B/logs/$1.log art=$B/artifacts/$1 rc found
  rc=$(cat "$B/logs/$t.rc" 2>/dev/null || echo '?')
  found=$(find "$art" -type f -newer "$art/.run-start" ! -name '.*' 2>/dev/null | sort | tr '\n' ' ')
  printf '%-12s %12s %8s %6s %7s %8s %8s  ' "$t" \
    "$(stat_field number_of_executed_units "$log")" "$(stat_field average_exec_per_sec "$log")" \
    "$(last_field cov "$log")" "$(last_field ft "$log")" \
    "$(find "$B/corpus/$t" -type f | wc -l)" "$(du -sb "$B/corpus/$t" | awk '{printf "%dK", ($1 + 1023) / 1024}')"
  if [ "$rc" = 0 ] && [ -z "$found" ]; then
    echo "nothing"
  else
    echo "FOUND (exit $rc): ${found:-see $log}"
    grep -a -m 3 -E 'SUMMARY: |invariant failed|ERROR: libFuzzer|runtime error' "$log" | sed 's/^/               /'
  fi
  [ "$rc" = 0 ] && [ -z "$found" ]
}

case $mode in
fuzz)
  for t in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    echo "fuzz: $t for ${SECONDS_EACH}s (log $B/logs/$t.log)"
    fuzz_one "$t" &
  done
  wait
  echo
  printf '%-12s %12s %8s %6s %7s %8s %8s  %s\n' target executions exec/s cov ft corpus size findings
  status=0
  for t in "$@"; do summary_one "$t" || status=1; done
  exit $status
  ;;
regress)
  # every reproducer on its own (a run stops at its first crash), then
  # the seeds of the target together
  passed=0 failed=0
  mkdir -p "$B/logs"
  run_inputs () { # LABEL LOG-NAME TARGET FILE...
    local label=$1 t=$3 log=$B/logs/regress-$3-$2.log
    shift 3
    if "$B/fuzz-$t" -timeout=10 -rss_limit_mb=2048 "$@" >"$log" 2>&1; then
      echo "fuzz-regress: $t $label: ok"
      passed=$((passed + 1))
    else
      echo "fuzz-regress: $t $label: FAILED on $(grep -a '^Running: ' "$log" | tail -n 1 | cut -d' ' -f2-) (log $log)"
      grep -a -m 3 -E 'SUMMARY: |invariant failed|runtime error' "$log" | sed 's/^/    /'
      failed=$((failed + 1))
    fi
  }
  for t in "$@"; do
    while IFS= read -r f; do
      run_inputs "regressions/$(basename "$f")" "$(basename "$f")" "$t" "$f"
    done < <(find "$HERE/regressions/$t" -type f ! -name '.*' ! -name '*.md' 2>/dev/null | sort)
    mapfile -t seeds < <(find "$HERE/seeds/$t" -type f ! -name '.*' 2>/dev/null | sort)
    [ "${#seeds[@]}" -gt 0 ] && run_inputs "seeds (${#seeds[@]} inputs)" seeds "$t" "${seeds[@]}"
  done
  echo "fuzz-regress: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  ;;
*)
  echo "usage: run-fuzz.sh fuzz|regress TARGET..." >&2
  exit 2
  ;;
esac
