# names.sh - the menu's icon names as the tool plans them, for the benches
#
#   . tests/bench/names.sh
#   tool_names BIN ROOT W [OPTION]...  writes W/names (the relative Icon=
#                                      values, one a line), W/absolute
#                                      (the paths) and W/left-out (Icon=
#                                      lines of the .desktop files the tool
#                                      does not plan); sets n (all names)
#   tool_names_say W                   prints what they are, three lines
#
# A bench counts the names the tool itself plans (--dry-run --json), so
# that a figure it prints is one the tool reproduces on that tree; the
# Icon= lines it does not plan ([Desktop Action] groups) are named, not
# counted.
tool_names () {
  _bin=$1 _root=$2 _w=$3; shift 3
  "$_bin" -q --root "$_root" "$@" --dry-run --json > "$_w/plan.json"
  python3 - "$_w/plan.json" "$_w/names" "$_w/absolute" <<'PY'
import json, sys
names = json.load(open(sys.argv[1]))["names"]
with open(sys.argv[2], "w") as rel, open(sys.argv[3], "w") as ab:
    for icon in sorted({n["icon"] for n in names}):
        print(icon, file=ab if icon.startswith("/") else rel)
PY
  n=$(($(wc -l < "$_w/names") + $(wc -l < "$_w/absolute")))
  find "$_root/usr/share/applications" -name '*.desktop' | xargs sed -n 's/^Icon[ ]*=[ ]*//p' | sort -u > "$_w/icon-lines"
  sort -u "$_w/names" "$_w/absolute" > "$_w/planned"
  comm -23 "$_w/icon-lines" "$_w/planned" > "$_w/left-out"
  comm -13 "$_w/icon-lines" "$_w/planned" > "$_w/added"
}

tool_names_say () {
  _extra=$(paste -sd ' ' - < "$1/left-out")
  echo "names: the tool's (--dry-run --json): $n, of which $(wc -l < "$1/absolute") absolute paths KDE loads as they are (0 calls)"
  echo "Icon= lines of the .desktop files the tool does not plan ([Desktop Action] groups), not counted: $(wc -l < "$1/left-out")${_extra:+ ($_extra)}"
  echo "names the tool plans that no .desktop file's Icon= line has (categories, ExtraNames=): $(wc -l < "$1/added")"
}
