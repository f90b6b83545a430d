#!/bin/sh
# oracle-wide.sh - every name that can reach a link, before and after
# --rebuild, asked of KDE itself
#
# The planner proves its links on the names files carry; KDE can be asked
# for any name.  Here, on the realistic tree, for KF5 (the host's helper)
# and for each KF6 root there is (tests/oracle/kf6: Debian 13's 6.13 and
# Debian testing's 6.30), with each theme of $KIC_WIDE_THEMES current
# (default breeze; the three of oracle-rebuild.sh when set so):
#   - a rebuild in a writable view (for KF6 with the root's libraries in
#     the view, so that the tool models the KF6 that answers);
#   - the names that can reach a planted link: every file stem of every
#     installed theme, of pixmaps, icons and every pics directory, each
#     also with -symbolic and -x-generic, every mime type's icon name, the
#     menu's names, and for every planted X: X-tray, X-panel, X-busy,
#     X-symbolic, X-x-generic; of these, those whose dash cuts (or media
#     type's -x-generic form, or mime generic icon) meet a planted stem
#     (reach.awk below: a superset of KDE's chain; a name none of whose
#     forms is a planted file name cannot meet a link);
#   - KDE before (the tree) and after (the view), in one run of the test:
#     the file it loads at 16, 22, 32, 48, 64 and 128 px for all of them,
#     and at every size 8-256 for the menu's names among them; then the
#     renders (loadIcon, ARGB32 hash) at 16-128 px, before and after, of
#     every name KDE reads from another file at some size (at least the
#     planted ones; a name whose file is the same one has the same bytes);
#   - zero changed (name, size) pairs: the same bytes (an XPM planted as
#     its PNG twin: the XPM's) and the same pixels; no render is null
#     where KDE names a file; and something was compared and rendered.
# A KF6 root where an SVG does not render (tests/oracle/kf6/svg-renders.sh:
# no qt6-svg-plugins, every SVG null) fails its render check, and its pixel
# check is skipped; the bytes are still compared.  KIC_WIDE_KF5=0 leaves
# KF5 out (the KF6 roots only).
# KIC_WIDE_UNTHEMED=1: the same with UnthemedLinks=true, where a name may
# go from nothing to a planted name's icon (counted), nothing else.
# KIC_WIDE_PLATFORM_THEME=kde: KF6 only, the KDE platform theme's plugin in
# the view (the tool then models Plasma's process, FINDINGS.md §l) and KDE
# asked with QT_QPA_PLATFORMTHEME=kde; =plugin: the plugin in the view, KDE
# asked without it (the programs run outside Plasma, which the proof takes).
# KIC_WIDE_FLATPAK=1: on the realistic tree with Debian's flatpak
# and three Flatpak applications of the same IDs as .debs installed
# (tests/oracle/flatpak-layer.sh), KDE asked in the session a login gets
# there (/var/lib/flatpak/exports/share first), the rebuild run without it
# (as the trigger and the timer run); the exports' icons are candidates too.
# Needs root for the KF6 roots (chroot, mount); KIC_WIDE_KF6_ROOTS lists
# them (default: kf6-trixie, else trixie-kf6, and kf6-forky under
# ~/.cache/kde-icon-cache-tests).
. "$(dirname "$0")/lib.sh"
need_oracle

themes=${KIC_WIDE_THEMES:-breeze}
C=${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests
if [ -n "${KIC_WIDE_KF6_ROOTS+set}" ]; then kf6_roots=$KIC_WIDE_KF6_ROOTS
elif [ -f "$C/kf6-trixie/.kic-kf6-stamp" ]; then kf6_roots="$C/kf6-trixie $C/kf6-forky"
else kf6_roots="$C/trixie-kf6 $C/kf6-forky"; fi
SPREAD=16,22,32,48,64,128
SWEEP=$(seq -s, 8 256)
TAB=$(printf '\t')

T=$(realistic_tree) || { echo "Bail out! cannot build the realistic tree"; exit 1; }
. "$TOP/tests/oracle/oracle-env.sh"
if [ -n "${KIC_WIDE_FLATPAK:-}" ]; then
  writable_view "$T" "$WORK/flatpak"
  "$TOP/tests/oracle/flatpak-layer.sh" "${KIC_DEB_CACHE:-$C/debs}" "$T" "$VIEW" > "$WORK/flatpak.ids" ||
    { echo "Bail out! flatpak-layer.sh failed"; exit 1; }
  T=$VIEW
  trap 'umount "$T" 2>/dev/null; rm -rf "$WORK"' EXIT
  ORACLE_SESSION_DIRS=/var/lib/flatpak/exports/share
  export ORACLE_SESSION_DIRS
fi

# The oracles: kf5, then each KF6 root that is there (and usable)
oracles=kf5
[ "${KIC_WIDE_KF5:-1}" = 0 ] && oracles=
# shellcheck source=tests/oracle/kf6/libs.sh
. "$TOP/tests/oracle/kf6/libs.sh"
case ${KIC_WIDE_PLATFORM_THEME:-} in
'') ;;
kde) oracles=; ORACLE_EXTRA_ENV="${ORACLE_EXTRA_ENV:-} QT_QPA_PLATFORMTHEME=kde"; export ORACLE_EXTRA_ENV ;;
plugin) oracles= ;;
*) echo "Bail out! KIC_WIDE_PLATFORM_THEME is kde or plugin"; exit 1 ;;
esac
for r in $kf6_roots; do
  if [ ! -f "$r/.kic-kf6-stamp" ]; then
    echo "# KF6 root $r: not there (tests/oracle/kf6/make-root.sh makes it): skipped"
    echo "oracle-wide.sh: SKIPPED: KF6 root $r: not there (tests/oracle/kf6/make-root.sh --suite $(echo "${r##*/}" | sed 's/^kf6-//') makes it)" >&2
  elif [ "$(id -u)" -ne 0 ] || ! command -v unshare > /dev/null 2>&1; then
    echo "# KF6 root $r: needs root and unshare: skipped"
    echo "oracle-wide.sh: SKIPPED: KF6 root $r: needs root and unshare" >&2
  else
    oracles="$oracles $r"
  fi
done
[ -n "$oracles" ] || skip_all "no oracle to ask: KIC_WIDE_KF5=0 and no KF6 root at $kf6_roots (tests/oracle/kf6/make-root.sh --suite trixie|forky)"
plan $((4 * $(echo $oracles | wc -w) * $(echo $themes | wc -w)))

# ask ORACLE ROOT THEME SIZES [--render] < names: NAME SIZE PATH [RENDER],
# PATH inside ROOT ("-": nothing; ":/...": the library's own)
ask () {
  _o=$1 _root=$2 _theme=$3 _sizes=$4; shift 4
  if [ "$_o" = kf5 ]; then
    if [ $# -eq 0 ]; then theirs "$_root" "$_theme" "$_sizes"; return; fi
    oracle_run "$_root" "$_theme" "$ORACLE" --sizes "$_sizes" "$@" | awk -v r="$_root" -F '\t' -v OFS='\t' '
      { if (index($3, r "/") == 1) $3 = substr($3, length(r) + 1); print }'
  else
    _err=$(mktemp "$WORK/run6.XXXXXX")
    KIC_KF6_ROOT=$_o TMPDIR=$WORK "$TOP/tests/oracle/kf6/run.sh" "$@" "$_root" "$_theme" "$_sizes" 2> "$_err" ||
      { sed 's/^/#   /' "$_err" >&2; return 1; }
  fi
}

# NAME SIZE CONTENT [RENDER]: PATH replaced by what it holds (with_content;
# an XPM's PNG twin in ROOT's store counts as the XPM; a path of the
# library's own resources stands for itself)
contents () { # contents PREFIX [ROOT] < lines
  _in=$(mktemp "$WORK/contents.XXXXXX")   # (the two sides run at once)
  cat > "$_in"
  with_content "$@" < "$_in" | paste - "$_in" |
    awk -F '\t' -v OFS='\t' '{ n = NF / 2; if (substr($(n + 3), 1, 1) == ":") $3 = $(n + 3); NF = n; print }'
  rm -f "$_in"
}

# the names that can reach a planted stem (stdin: candidates; PLANTED:
# the stems; GENERIC: mime name -> generic icon)
cat > "$WORK/reach.awk" <<'AWK'
# forms(n): n, each cut at a dash past index 1 ("-x" dropped), the same
# without "-symbolic", and "<media>-x-generic" for each form that is a
# media type: a superset of findMatchingIcon's chain
function forms(n, f,   m, i, c) {
  m = 0; f[++m] = n
  if (n ~ /-symbolic$/) f[++m] = substr(n, 1, length(n) - 9)
  for (c = 1; c <= m; c++)
    for (i = length(f[c]); i > 2; i--)
      if (substr(f[c], i, 1) == "-") { f[++m] = substr(f[c], 1, i - 1); sub(/-x$/, "", f[m]) }
  for (c = m; c >= 1; c--) if (f[c] in media) f[++m] = f[c] "-x-generic"
  return m
}
function reaches(n,   f, m, i) {
  m = forms(n, f)
  for (i = 1; i <= m; i++) if (f[i] in planted) return 1
  return 0
}
BEGIN {
  split("text application image audio inode video message model multipart x-content x-epoc", t, " ")
  for (i in t) media[t[i]] = 1
}
FILENAME == ARGV[1] { planted[$0] = 1; next }
FILENAME == ARGV[2] { generic[$1] = $2; next }
!($0 in seen) { seen[$0] = 1; if (reaches($0) || (($0 in generic) && reaches(generic[$0]))) print }
AWK

# check ORACLE THEME LABEL: four TAP lines, numbered from 1
check () {
  o=$1 theme=$2 label=$3 w=$WORK/$(echo "$label" | tr -c "A-Za-z0-9._\n-" "_")
  mkdir -p "$w"
  writable_view "$T" "$w/v"
  V=$VIEW
  pixels=1
  if [ "$o" != kf5 ]; then
    # the real library file, whose name carries the release our profile
    # follows (a cp -L of the soname planned with 6.13's rules; issue 20)
    kf6_copy_libs "$o" "$V" || { ok 1 "$label: the root's KF6 libraries copied into the view"; return; }
    "$TOP/tests/oracle/kf6/svg-renders.sh" "$o" 2> "$w/svg.err" || pixels=0
    if [ -n "${KIC_WIDE_PLATFORM_THEME:-}" ]; then
      _pt=usr/lib/x86_64-linux-gnu/qt6/plugins/platformthemes/KDEPlasmaPlatformTheme6.so
      mkdir -p "$(dirname "$V/$_pt")"
      cp -L "$o/$_pt" "$V/$_pt" || { echo "Bail out! no $o/$_pt"; exit 1; }
    fi
  fi
  if [ -n "${KIC_WIDE_UNTHEMED:-}" ]; then
    mkdir -p "$V/etc"
    printf '[kde-icon-cache]\nUnthemedLinks=true\n' > "$V/etc/kde-icon-cache.conf"
  fi
  env -u XDG_DATA_DIRS "$BIN" -q --root "$V" --theme "$theme" > "$w/rebuild.out" 2>&1
  rc=$?
  grep '^link	' "$V/var/lib/kde-icon-cache/manifest" 2>/dev/null | cut -f2 | sed 's|.*/||; s/\.[^.]*$//' |
    LC_ALL=C sort -u > "$w/planted"
  # the plan must be for the KDE that answers: for KF6 the root's release
  # (the manifest records the profile)
  prof=$(sed -n 's/^# settings: profile=\([^ ]*\).*/\1/p' "$V/var/lib/kde-icon-cache/manifest" 2>/dev/null)
  if [ "$o" = kf5 ]; then want=kf5; else want=kf6-$(kf6_release "$o"); fi
  [ $rc -eq 0 ] && [ -s "$w/planted" ] && case $prof in "$want"|"$want"+*) true ;; *) false ;; esac
  ok $? "$label: --rebuild exits 0 and plants ($(wc -l < "$w/planted") names, profile $prof, $("$BIN" --version 2>/dev/null | head -n 1))"

  icon_names "$T" | grep -v '^/' > "$w/menu"
  sed -n 's/^\([^:]*\)\/\([^:]*\):\(.*\)$/\1-\2	\3/p' "$T/usr/share/mime/generic-icons" 2>/dev/null > "$w/generic"
  {
    find "$T/usr/share/icons" "$T/usr/share/pixmaps" "$T"/usr/share/*/pics ${KIC_WIDE_FLATPAK:+"$T/var/lib/flatpak/exports/share/icons"} \( -type f -o -type l \) \
      \( -name '*.png' -o -name '*.svg' -o -name '*.svgz' -o -name '*.xpm' \) -printf '%f\n' 2>/dev/null |
      sed 's/\.[^.]*$//' | LC_ALL=C sort -u | awk '{ print; print $0 "-symbolic"; print $0 "-x-generic" }'
    cut -f1 "$w/generic"
    cat "$w/menu"
    for s in tray panel busy symbolic x-generic; do sed "s/\$/-$s/" "$w/planted"; done
    cat "$w/planted"
  } | grep -av '^$' | awk -f "$WORK/reach.awk" "$w/planted" "$w/generic" - > "$w/spread"
  grep -axF -f "$w/spread" "$w/menu" > "$w/sweep" || true
  # before (the tree) and after (the view), side by side
  t0=$(date +%s)
  { ask "$o" "$T" "$theme" "$SPREAD" < "$w/spread" > "$w/spread.paths-before"
    ask "$o" "$T" "$theme" "$SWEEP" < "$w/sweep" > "$w/sweep.paths-before"; } &
  ask "$o" "$V" "$theme" "$SPREAD" < "$w/spread" > "$w/spread.paths-after"
  ask "$o" "$V" "$theme" "$SWEEP" < "$w/sweep" > "$w/sweep.paths-after"
  wait
  # the pixels of every name KDE now reads from another file at some size
  # (the same path is the same file in the view: its bytes are compared)
  cat "$w/spread.paths-after" "$w/sweep.paths-after" > "$w/all.paths-after"
  cat "$w/spread.paths-before" "$w/sweep.paths-before" | paste - "$w/all.paths-after" |
    awk -F '\t' '$3 != $6 { print $1 }' | LC_ALL=C sort -u > "$w/render"
  ask "$o" "$T" "$theme" "$SPREAD" --render < "$w/render" > "$w/render.before" &
  ask "$o" "$V" "$theme" "$SPREAD" --render < "$w/render" > "$w/render.after"
  wait
  echo "# $label: $(($(date +%s) - t0)) s in KDE's lookups and renders"
  for side in before after; do
    r=$T; [ $side = after ] && r="$V $V"
    # shellcheck disable=SC2086
    contents $r < "$w/spread.paths-$side" > "$w/spread.$side"
    # shellcheck disable=SC2086
    contents $r < "$w/sweep.paths-$side" > "$w/sweep.$side"
  done
  # every pair, and what differs: NAME SIZE BEFORE AFTER
  cat "$w/spread.before" "$w/sweep.before" | cut -f1-3 > "$w/b"
  cat "$w/spread.after" "$w/sweep.after" | cut -f1-3 > "$w/a"
  n_pairs=$(wc -l < "$w/b")
  n_spread=$(wc -l < "$w/spread")
  paste "$w/b" "$w/a" | awk -F '\t' '$1 != $4 || $2 != $5 || $3 != $6 { print $1 " " $2 ": " $3 " -> " $6 }' > "$w/changed"
  if [ -n "${KIC_WIDE_UNTHEMED:-}" ]; then
    # UnthemedLinks=true promises less: a name may go from nothing to
    # what a planted name shows at that size, nothing else may change
    awk -F '\t' 'FILENAME == ARGV[1] { p[$1] = 1; next } ($1 in p) { print $2 "\t" $3 }' "$w/planted" "$w/a" | sort -u > "$w/planted.contents"
    awk -F '\t' 'FILENAME == ARGV[1] { ok[$1 FS $2] = 1; next } { split($0, f, " ") }
      !(f[3] == "-" && ((substr(f[2], 1, length(f[2]) - 1) FS f[5]) in ok))' "$w/planted.contents" "$w/changed" > "$w/changed.other"
    echo "# $label: UnthemedLinks=true: $(wc -l < "$w/changed") pairs changed, from nothing to a planted name's icon: $(($(wc -l < "$w/changed") - $(wc -l < "$w/changed.other")))"
    awk -F '\t' 'FILENAME == ARGV[1] { ok[$1 FS $2] = 1; next } { split($0, f, " ") }
      f[3] == "-" && ((substr(f[2], 1, length(f[2]) - 1) FS f[5]) in ok) { print f[1] "\t" substr(f[2], 1, length(f[2]) - 1) }' \
      "$w/planted.contents" "$w/changed" > "$w/accepted"
    mv "$w/changed.other" "$w/changed"
  fi
  # in the Flatpak session KDE must have been asked with the exports
  # first: some answer before the rebuild is one of theirs
  n_exports=$(cat "$w/spread.paths-before" "$w/sweep.paths-before" | grep -c "${TAB}/var/lib/flatpak/exports/")
  [ "$n_spread" -gt 0 ] && [ "$n_pairs" -gt 0 ] && [ "$(wc -l < "$w/a")" -eq "$n_pairs" ] &&
    ! grep -q "${TAB}missing\$" "$w/b" "$w/a" && [ ! -s "$w/changed" ] &&
    { [ -z "${KIC_WIDE_FLATPAK:-}" ] || [ "$n_exports" -gt 0 ]; }
  ok $? "$label: KDE loads the same bytes for all $n_pairs (name, size) pairs ($(wc -l < "$w/changed") changed) of the $n_spread names that can reach a link ($(wc -l < "$w/sweep") menu names at every size 8-256, $(grep -c "${TAB}[0-9a-f]\{64\}\$" "$w/a") found${KIC_WIDE_FLATPAK:+, $n_exports from the Flatpak exports})"
  head -n 20 "$w/changed" | sed 's/^/#   /'
  if [ $pixels -eq 0 ]; then
    # a root that is there but cannot render SVG fails: its "same
    # pixels" would compare null with null
    sed 's/^/#   /' "$w/svg.err"
    echo "not ok 3 - $label: KDE renders an SVG in $o (tests/oracle/kf6/svg-renders.sh; qt6-svg-plugins? remake the root with tests/oracle/kf6/make-root.sh --force)"
    echo "ok 4 - $label: the same pixels # SKIP no SVG renders in this root"
  else
    # a render for every file KDE names, before and after (the names
    # whose file moved: at least the planted ones)
    awk -F '\t' '$3 != "-" && $4 == "-" { print $1 " " $2 }' "$w/render.before" "$w/render.after" > "$w/null"
    n_renders=$(awk -F '\t' '$4 != "-"' "$w/render.after" | wc -l)
    [ -s "$w/render" ] && [ "$n_renders" -gt 0 ] && [ ! -s "$w/null" ]
    ok $? "$label: KDE renders every file it names for the $(wc -l < "$w/render") names it reads from another file at some size ($n_renders renders after, $(wc -l < "$w/null") null)"
    head -n 10 "$w/null" | sed 's/^/#   null: /'
    touch "$w/accepted"
    paste "$w/render.before" "$w/render.after" | awk -F '\t' 'FILENAME == ARGV[1] { ok[$1 FS $2] = 1; next }
      $4 != $8 && !(($1 FS $2) in ok) { print $1 " " $2 ": " $3 " " $4 " -> " $7 " " $8 }' "$w/accepted" - > "$w/px"
    [ -s "$w/render.after" ] && [ ! -s "$w/px" ]
    ok $? "$label: KDE renders the same pixels for all $(wc -l < "$w/render.after") of their pairs at $SPREAD px"
    head -n 20 "$w/px" | sed 's/^/#   /'
  fi
  drop_view "$w/v"
}

# one oracle at a time (KDE's lookups are this test's time: the two sides
# of each run go side by side), the themes in turn
for o in $oracles; do
  for theme in $themes; do
    if [ "$o" = kf5 ]; then label="kf5, $theme${KIC_WIDE_FLATPAK:+, Flatpak applications in the session}"
    else label="kf6 $(sed -n 's/^libkf6iconthemes6	//p' "$o/.kic-kf6-stamp"), $theme${KIC_WIDE_PLATFORM_THEME:+, platform theme $KIC_WIDE_PLATFORM_THEME}${KIC_WIDE_FLATPAK:+, Flatpak applications in the session}"; fi
    ( check "$o" "$theme" "$label" ) > "$WORK/check.tap"
    while IFS= read -r line; do
      case $line in
        "ok "*"# SKIP"*) _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - ${line#ok * - }" ;;
        "ok "*) ok 0 "${line#ok * - }" ;;
        "not ok "*) ok 1 "${line#not ok * - }" ;;
        *) echo "$line" ;;
      esac
    done < "$WORK/check.tap"
  done
done
finish
