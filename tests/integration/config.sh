#!/bin/sh
# config.sh - /etc/kde-icon-cache.conf and --size N:WEIGHT
. "$(dirname "$0")/lib.sh"

plan 9
S=/var/lib/kde-icon-cache
fixtures "$WORK/fx" basic
R=$WORK/fx/basic

printf '[kde-icon-cache]\nSizes=22:3\nThemes=breeze,hicolor\n' > "$R/etc/kde-icon-cache.conf"
"$BIN" -q --root "$R" --json > "$WORK/report"
ok $? "a rebuild with a configuration file exits 0"
is "$(python3 -c 'import json,sys; print(sorted({s["size"] for n in json.load(open(sys.argv[1]))["names"] for s in n["sizes"]}))' "$WORK/report")" \
  "[22]" "Sizes= sets the sizes planned for"
grep -q '^# settings: profile=kf5 themes=breeze,hicolor sizes=22:3$' "$R$S/manifest"
ok $? "the manifest records the settings"

# --size overrides the file, and a change of settings is a change
"$BIN" -q --root "$R" --check --size 48; is $? 1 "--check with other sizes than the last run's says out of date"
"$BIN" --root "$R" --check --size 22:5 2> "$WORK/err"
grep -q "^kde-icon-cache: the cache is out of date: 0 links to add, 0 to replace, 0 to remove; the settings changed (the last rebuild's: profile=kf5 themes=breeze,hicolor sizes=22:3; now: profile=kf5 themes=breeze,hicolor sizes=22:5)$" "$WORK/err"
ok $? "... and when no link would change, says what did"
"$BIN" -q --root "$R" --size 16 --size 48:5
grep -q ' sizes=16:1,48:5$' "$R$S/manifest"
ok $? "--size N:WEIGHT overrides Sizes="

printf '[kde-icon-cache]\nSizes=22,big\n' > "$R/etc/kde-icon-cache.conf"
"$BIN" -q --root "$R" 2> "$WORK/err"; is $? 3 "a bad Sizes= is a runtime error (3)"
grep -q "error: $R/etc/kde-icon-cache.conf: key 'Sizes'" "$WORK/err"
ok $? "the error names the file (its host path) and the key"
grep -q "16:1,48:5" "$R$S/manifest"
ok $? "the previous state is left as it was"
finish
