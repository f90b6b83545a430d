# count.awk - file system calls of an strace -f -ttt trace, by phase
#
#   awk -v marks="T1 T2 T3 T4" -f count.awk TRACE
#
# Phase k holds the calls made before mark k and after mark k-1 (phase 1
# from the start); calls after the last mark are left out.  Prints one
# line per phase: PHASE<TAB>CALLS-ON-ICON-PATHS<TAB>ALL-CALLS.  A call on
# an icon path is one whose first path argument has /icons/ or /pixmaps/
# in it (the theme directories and the unthemed pixmaps KIconLoader probes).
# An interrupted call is counted once, on its "unfinished" line.
BEGIN { n = split(marks, m, " ") }
/ resumed>/ { next }
/^[0-9]+ +[0-9]+\.[0-9]+ / {
  t = $2 + 0
  for (k = 1; k <= n; k++) if (t < m[k]) break
  if (k > n) next
  if ($3 ~ /^\+\+\+|^---/) next
  all[k]++
  q = index($0, "\"")
  if (q > 0) {
    rest = substr($0, q + 1)
    e = index(rest, "\"")
    path = substr(rest, 1, e - 1)
    if (path ~ /\/icons\// || path ~ /\/pixmaps\//) icon[k]++
  }
}
END { for (k = 1; k <= n; k++) printf "%d\t%d\t%d\n", k, icon[k] + 0, all[k] + 0 }
