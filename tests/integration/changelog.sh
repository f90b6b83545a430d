#!/bin/sh
# changelog.sh - /var/log/kde-icon-cache.log: every change a run made, a
# line each, inside the root; nothing for a run that changes nothing or a
# dry run; opened only where no user can point it elsewhere; bounded
. "$(dirname "$0")/lib.sh"

S=/var/lib/kde-icon-cache
R=$WORK/demo
cp -R "$TOP/demo" "$R"
mkdir -p "$R/var/log"
chmod 755 "$R/var" "$R/var/log"
LOG=$R/var/log/kde-icon-cache.log
# FIELD N of the log's lines with ACTION
field () { awk -F '\t' -v a="$1" -v n="$2" '$3 == a { print $n }' "$LOG"; }

"$BIN" -q --root "$R" --dry-run > /dev/null
[ ! -e "$LOG" ]
ok $? "a dry run logs nothing"
"$BIN" -q --root "$R"
ok $? "--rebuild exits 0"
[ -f "$LOG" ] && [ ! -L "$LOG" ]
ok $? "the log is made inside the root, at /var/log/kde-icon-cache.log"
is "$(field link 4 | sort)" "$(sed -n 's/^link	\([^	]*\)	.*/\1/p' "$R$S/manifest" | sort)" \
  "one 'link' line for every link the manifest lists ($(field link 4 | wc -l))"
is "$(field copy 4 | sort)" "$(sed -n 's/^file	\([^	]*\)	.*/\1/p' "$R$S/manifest" | sort)" \
  "one 'copy' line for every store copy"
is "$(awk -F '\t' 'NR == 1 { print $3 "/" $4 }' "$LOG")/$(awk -F '\t' 'END { print $3 "/" $4 }' "$LOG")" \
  "start/rebuild/end/rebuild" "a start line first and an end line last"
awk -F '\t' 'NF != 5 || $1 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$/ || $2 !~ /^[0-9]+$/ { bad++ }
  END { exit bad > 0 }' "$LOG"
ok $? "every line: UTC time, pid, action, path, detail, tab-separated"
cp "$LOG" "$WORK/log.1"
"$BIN" -q --root "$R"
cmp -s "$LOG" "$WORK/log.1"
ok $? "a run with no input change adds nothing"
rm "$R$S/fingerprint"
"$BIN" -q --root "$R"
cmp -s "$LOG" "$WORK/log.1"
ok $? "a run that plans in full (no fingerprint) and changes nothing adds nothing"
"$BIN" -q --root "$R" --check
cmp -s "$LOG" "$WORK/log.1"
ok $? "--check adds nothing"
n_links=$(field link 4 | wc -l)
"$BIN" -q --root "$R" --clean
is "$(field remove 4 | grep -c -v "^$S/")" "$n_links" "--clean: a 'remove' line for every link"
is "$(awk -F '\t' 'END { print $3 "/" $4 }' "$LOG")" "end/clean" "... and its end line"

# the size bound: a log past 1 MiB becomes kde-icon-cache.log.1
head -c 1100000 /dev/zero | tr '\0' 'x' > "$LOG"
"$BIN" -q --root "$R"
[ "$(wc -c < "$LOG.1")" -eq 1100000 ] && [ "$(wc -c < "$LOG")" -lt 100000 ] && grep -q '	start	rebuild	' "$LOG"
ok $? "a log past 1 MiB is renamed kde-icon-cache.log.1 and a new one started"
"$BIN" -q --root "$R" --clean
# three old generations: .1 to .2, .2 to .3, the oldest dropped
head -c 1100000 /dev/zero | tr '\0' 'x' > "$LOG"
echo two > "$LOG.2"; echo three > "$LOG.3"
cp "$LOG.1" "$WORK/log.one"
"$BIN" -q --root "$R"
[ "$(wc -c < "$LOG.1")" -eq 1100000 ] && cmp -s "$LOG.2" "$WORK/log.one" && [ "$(cat "$LOG.3")" = two ] &&
  [ ! -e "$LOG.4" ]
ok $? "... the one before becomes .log.2, and .log.2 .log.3 (three old generations kept)"
"$BIN" -q --root "$R" --clean
rm -f "$LOG.2" "$LOG.3"

# never through a link a user put there
echo "someone else's" > "$WORK/elsewhere"
rm -f "$LOG" "$LOG.1"
ln -s "$WORK/elsewhere" "$LOG"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
ok $? "a symbolic link at the log's name: the run goes on (0)"
is "$(cat "$WORK/elsewhere")" "someone else's" "... the file it points to is not written"
grep -q "warning: .*$LOG.* symbolic link" "$WORK/err"
ok $? "... and a warning names the log"
"$BIN" -q --root "$R" --clean
rm -f "$LOG"
ln "$WORK/elsewhere" "$LOG" 2> /dev/null || cp "$WORK/elsewhere" "$LOG"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
is "$(cat "$WORK/elsewhere")" "someone else's" "a hard link at the log's name is not written"
"$BIN" -q --root "$R" --clean
rm -f "$LOG"
# /var/log a link (to a directory a user could write): not followed
mkdir -p "$WORK/userlog"
rm -rf "$R/var/log"
ln -s "$WORK/userlog" "$R/var/log"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
ok $? "/var/log a symbolic link: the run goes on"
[ -z "$(ls -A "$WORK/userlog")" ]
ok $? "... and writes nothing where it points"
grep -q "warning: .*symbolic link.*not logged" "$WORK/err"
ok $? "... with a warning"
"$BIN" -q --root "$R" --clean
rm "$R/var/log"
mkdir -m 777 "$R/var/log"
"$BIN" --root "$R" > /dev/null 2> "$WORK/err"
[ ! -e "$LOG" ] && grep -q "warning: .*writable by others.*not logged" "$WORK/err"
ok $? "/var/log writable by others: no log there, a warning"
tap_done
