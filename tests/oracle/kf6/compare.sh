#!/bin/sh
# compare.sh - KF6 (run.sh) against kde-icon-cache --kde=kf6 for one tree.
#
#   tests/oracle/kf6/compare.sh [--no-lib] [--counts] [--kde-version 6.X]
#                               TREE THEME SIZES < names
#
# Prints one line per (name, size) the two disagree on:
#   path<TAB>CLASS<TAB>NAME<TAB>SIZE<TAB>KDE's PATH<TAB>OUR PATH
# and, with --counts (strace in the root, probe-count.sh), one per lookup
# whose number of file system calls differs from our --explain:
#   count<TAB>CLASS<TAB>NAME<TAB>SIZE<TAB>KDE's COUNT<TAB>OUR COUNT<TAB>KDE's PATH
# and a summary on stderr.  Exit 0 when every (name, size) was compared
# (whether or not the two agree: the lines say), 3 when it could not
# classify: KF6 or we answered no pair, or not every pair of NAMES x SIZES,
# a count is missing on either side, or a probe failed (a comparison that
# compared nothing must not read as agreement; issue 20).  CLASS is
#   breeze   the name is one the real embedded breeze may answer: KDE's or
#            our path is in ":/icons/breeze/", or a variant of the name KDE
#            tries (dash cuts, -symbolic, -x-generic) is an icon of the
#            library's resources.  Our model takes the embedded breeze to be
#            TREE's breeze; the real one is Debian 13's, so these are expected
#            to differ whenever TREE's breeze is not Debian 13's.
#            For counts also: a variant is an icon of TREE's breeze (ours
#            probes it in the resource copy for free, KDE on disk), or TREE
#            has no breeze index.theme (then we model no breeze at all,
#            while the real library always has its own).
#   breeze-index  (counts) the call lists agree but for calls into TREE's
#            breeze directories: the real library reads breeze's
#            index.theme from its resources, so its directory list is
#            Debian 13's, not TREE's.
#   other    everything else: a real disagreement.
# Unless --no-lib, the root's libKF6IconThemes.so.6.X.Y and the
# libKF6BreezeIcons whose breeze we read are copied into
# TREE/usr/lib/x86_64-linux-gnu/ first, with their soname links (TREE is
# changed!; libs.sh), so that our detection sees the library KDE ran with;
# our profile must then be that release's (it fails otherwise), or with
# --kde-version the one given (passed on to kde-icon-cache: a profile
# forced to another release, which should then disagree).  SIZES:
# comma-separated.
# Needs the KF6 root (make-root.sh) and root.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../../.." && pwd)
BIN=${KIC_BIN:-$TOP/kde-icon-cache}
ROOT=${KIC_KF6_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/kde-icon-cache-tests/kf6-trixie}
lib=1 counts=0 version=
while [ $# -gt 0 ]; do
  case $1 in
  --no-lib) lib=0; shift ;;
  --kde-version) version=$2; shift 2 ;;
  --counts) counts=1; shift ;;
  *) break ;;
  esac
done
[ $# -eq 3 ] || { echo "usage: compare.sh [--no-lib] [--counts] [--kde-version 6.X] TREE THEME SIZES < names" >&2; exit 2; }
tree=$(cd "$1" && pwd) theme=$2 sizes=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/kic-compare6.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/names"
# shellcheck source=tests/oracle/kf6/libs.sh
. "$here/libs.sh"
if [ $lib -eq 1 ]; then
  kf6_copy_libs "$ROOT" "$tree" || exit 3
fi
# fail NOTE: cannot classify
fail () { echo "compare.sh: cannot classify: $*" >&2; exit 3; }
# The profile we answer with must be the one for the KF6 that answers
# (the release the root's library carries), or the one asked for with
# --kde-version: a comparison against another profile compares nothing.
if [ -n "$version" ]; then want=$version; else want=$(kf6_release "$ROOT") || fail "no release in $ROOT's libKF6IconThemes.so.6"; fi
vopt=${version:+--kde-version=$version}
profile=$("$BIN" --root "$tree" ${theme:+--theme "$theme"} --kde=kf6 ${vopt:+"$vopt"} -v --resolve --size 16 < /dev/null 2>&1 |
  sed -n 's/^kde-icon-cache: profile: //p')
case $profile in
"kf6 $want "*|"kf6 $want.0 "*) echo "compare.sh: our profile: $profile" >&2 ;;
*) fail "our profile is '$profile', not KF6 $want's (the libraries in $tree?)" ;;
esac
"$here/run.sh" "$tree" "$theme" "$sizes" < "$work/names" > "$work/theirs" || fail "run.sh failed (exit $?)"
n_names=$(grep -c '' "$work/names" || true)
n_sizes=$(echo "$sizes" | tr ',' '\n' | grep -c .)
n_want=$((n_names * n_sizes))
[ "$n_want" -gt 0 ] || fail "no names or no sizes to compare"
[ "$(wc -l < "$work/theirs")" -eq "$n_want" ] ||
  fail "KF6 answered $(wc -l < "$work/theirs") of the $n_want (name, size) pairs"
# the library's resources (the embedded breeze), once per root
res=$ROOT/opt/kic/resources.txt
if [ ! -s "$res" ] || [ -n "$(find "$ROOT/opt/kic/kic-oracle6" -newer "$res" 2>/dev/null)" ]; then
  chroot "$ROOT" env -i QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 HOME=/tmp /opt/kic/kic-oracle6 --resources > "$res.new.$$" 2>/dev/null &&
    mv "$res.new.$$" "$res"
fi
for s in $(echo "$sizes" | tr ',' ' '); do
  "$BIN" -q --root "$tree" ${theme:+--theme "$theme"} --kde=kf6 ${vopt:+"$vopt"} --resolve --size "$s" < "$work/names" > "$work/ours.$s" ||
    fail "kde-icon-cache --resolve --size $s failed"
  awk -v s="$s" -F '\t' '{ print $1 "\t" s "\t" $2 }' "$work/ours.$s"
done > "$work/ours"
[ "$(wc -l < "$work/ours")" -eq "$n_want" ] || fail "we answered $(wc -l < "$work/ours") of the $n_want (name, size) pairs"
: > "$work/kde-counts"; : > "$work/our-counts"
if [ $counts -eq 1 ]; then
  "$here/probe-count.sh" "$tree" "$theme" "$sizes" < "$work/names" > "$work/kde-counts" 2> "$work/probe.err" ||
    { cat "$work/probe.err" >&2; fail "probe-count.sh failed"; }
  for s in $(echo "$sizes" | tr ',' ' '); do
    tr '\n' '\0' < "$work/names" > "$work/names0"
    xargs -0 -a "$work/names0" "$BIN" -q --root "$tree" ${theme:+--theme "$theme"} --kde=kf6 ${vopt:+"$vopt"} --explain --size "$s" > "$work/explain" ||
      fail "kde-icon-cache --explain --size $s failed"
    awk -v s="$s" '/ at [0-9]+ px; themes searched/ { name = $0; sub(/ at [0-9]+ px; themes searched.*/, "", name) }
        /^=> / { n = $0; sub(/.*[(,] ?/, "", n); sub(/ calls?\)$/, "", n); print name "\t" s "\t" n }' "$work/explain"
  done > "$work/our-counts"
fi
# names of TREE's breeze icons, and whether it has a breeze index.theme
find "$tree/usr/share/icons/breeze" "$tree/usr/local/share/icons/breeze" -name '*.svg' 2>/dev/null |
  sed 's|.*/||; s/\.svg$//' | sort -u > "$work/tree-breeze"
nodisk=1
for b in "$tree/usr/local/share/icons/breeze" "$tree/usr/share/icons/breeze"; do
  [ -f "$b/index.theme" ] && nodisk=0
done
NODISK=$nodisk COUNTS=$counts perl -e '
use strict; use warnings;
my ($res, $theirs, $ours, $kc, $oc, $tb) = @ARGV;
my (%emb, %tb);
open my $R, "<", $res or die "$res: $!";
while (<$R>) { chomp; next unless m{^:/icons/breeze/.*/([^/]+)\.svg$}; $emb{$1} = 1 }
open my $B, "<", $tb or die; while (<$B>) { chomp; $tb{$_} = 1 }
my (%t, %o, @keys);
open my $T, "<", $theirs or die; while (<$T>) { chomp; my ($n, $s, $p) = split /\t/, $_, 3; push @keys, "$n\t$s"; $t{"$n\t$s"} = $p }
open my $O, "<", $ours or die; while (<$O>) { chomp; my ($n, $s, $p) = split /\t/, $_, 3; $o{"$n\t$s"} = $p }
# a pair one side has and the other not cannot be classified
for my $k (@keys) { defined $t{$k} && $t{$k} ne "" && defined $o{$k} && $o{$k} ne ""
                      or die "compare.sh: cannot classify: no answer from both for " . ($k =~ s/\t/ at /r) . "\n" }
@keys or die "compare.sh: cannot classify: no (name, size) pair\n";
my @gen = qw(text application image audio inode video message model multipart x-content x-epoc);
sub variants {                 # the names KF6 6.13 tries, after §3.1
    my $n = shift; $n =~ s/\.(png|xpm|svgz?)$//;
    my @v; my $sym = $n =~ /-symbolic$/; my $cur = $n; my $generic = $n =~ /-x-generic$/;
    for (1 .. 50) {
        push @v, $cur; last if $generic;
        if ($sym) { (my $b = $cur) =~ s/-symbolic$//; push @v, $b }
        my $base = $sym ? ($cur =~ s/-symbolic$//r) : $cur;
        my $i = rindex $base, "-";
        if ($i > 1) { $base = substr $base, 0, $i; $base =~ s/-x$//; $cur = $sym ? "$base-symbolic" : $base }
        elsif (grep { $_ eq $base } @gen) { $cur = "$base-x-generic"; $generic = 1 }
        else { last }
    }
    return @v;
}
my ($n, $agree, $br, $other) = (0, 0, 0, 0);
for my $k (@keys) {
    $n++;
    my ($tp, $op) = ($t{$k}, $o{$k} // "(none)");
    if ($tp eq $op) { $agree++; next }
    my ($name) = split /\t/, $k;
    my $cls = ($tp =~ m{^:/icons/breeze/} || $op =~ m{^:/icons/breeze/} || grep { $emb{$_} } variants($name)) ? "breeze" : "other";
    $cls eq "breeze" ? $br++ : $other++;
    print "path\t$cls\t$k\t$tp\t$op\n";
}
print STDERR "compare.sh: $n pairs, $agree agree, $br differ where the embedded breeze answers, $other other differences\n";
my (%kc, %kp, %oc);
open my $KC, "<", $kc or die; while (<$KC>) { chomp; my ($n, $s, $c, $p) = split /\t/, $_, 4; $kc{"$n\t$s"} = $c; $kp{"$n\t$s"} = $p }
open my $OC, "<", $oc or die; while (<$OC>) { chomp; my ($n, $s, $c) = split /\t/; $oc{"$n\t$s"} = $c }
if ($ENV{COUNTS}) {
    my ($cn, $ceq, $cbr, $cother) = (0, 0, 0, 0);
    for my $k (@keys) {
        $cn++;
        my ($kk, $oo) = ($kc{$k} // "?", $oc{$k} // "?");
        # a count missing on either side is no count: never "equal"
        $kk =~ /^[0-9]+$/ && $oo =~ /^[0-9]+$/
            or die "compare.sh: cannot classify: the counts for " . ($k =~ s/\t/ at /r) . " are [$kk] (KF6) and [$oo] (ours)\n";
        if ($kk eq $oo) { $ceq++; next }
        my ($name) = split /\t/, $k;
        my $tp = $t{$k}; my $op = $o{$k} // "";
        my $cls = ($ENV{NODISK} || $tp =~ m{^:/icons/breeze/} || $op =~ m{^:/icons/breeze/}
                   || grep { $emb{$_} || $tb{$_} } variants($name)) ? "breeze" : "other";
        $cls eq "breeze" ? $cbr++ : $cother++;
        print "count\t$cls\t$k\t$kk\t$oo\t$tp\n";
    }
    print STDERR "compare.sh: $cn lookups counted, $ceq equal counts, $cbr differ where the embedded breeze is involved, $cother other differences\n";
}
' "$res" "$work/theirs" "$work/ours" "$work/kde-counts" "$work/our-counts" "$work/tree-breeze" > "$work/result" || exit 3
# A count difference is also the embedded breeze's doing when the two call
# lists agree once every call into TREE's breeze directories is dropped: the
# real library takes breeze's index.theme (hence its directory list) from its
# resources, we from TREE's breeze.
TAB=$(printf '\t')
: > "$work/recls"
grep -a "^count${TAB}other${TAB}" "$work/result" | cut -f3,4 | while IFS="$TAB" read -r name size; do
  # shellcheck disable=SC2016
  printf '%s\n' "$name" | "$here/probe-count.sh" --calls "$tree" "$theme" "$size" > "$work/kcalls" 2> "$work/probe.err" ||
    { cat "$work/probe.err" >&2; echo "compare.sh: cannot classify: probe-count.sh --calls failed for $name at $size" >&2; exit 3; }
  # the lookup differs in count, so KF6 made calls: no call list is no list
  [ -s "$work/kcalls" ] || { echo "compare.sh: cannot classify: no calls traced for $name at $size" >&2; exit 3; }
  # shellcheck disable=SC2016
  cut -f4 "$work/kcalls" | grep -v '^\$TREE/usr\(/local\)\?/share/icons/breeze/' > "$work/kc" || true
  # shellcheck disable=SC2016
  "$BIN" -q --root "$tree" ${theme:+--theme "$theme"} --kde=kf6 ${vopt:+"$vopt"} --explain --size "$size" -- "$name" < /dev/null |
    awk '$1 ~ /^[0-9]+$/ { p = $3; if (p !~ /^\$/) p = "$TREE" p; print p }' |
    grep -v '^\$TREE/usr\(/local\)\?/share/icons/breeze/' > "$work/oc" || true
  if cmp -s "$work/kc" "$work/oc"; then printf '%s\t%s\n' "$name" "$size" >> "$work/recls"; fi
done || exit 3
# (FILENAME, not FNR == NR: with no reclassified lookup the first file is
# empty and FNR == NR would swallow every line of the second; issue 20)
awk -F '\t' 'BEGIN { OFS = "\t" } FILENAME == ARGV[1] { r[$1 "\t" $2] = 1; next }
  $1 == "count" && $2 == "other" && (($3 "\t" $4) in r) { $2 = "breeze-index" } { print }' "$work/recls" "$work/result"
n=$(wc -l < "$work/recls")
[ ! -s "$work/kde-counts" ] || echo "compare.sh: of the other count differences, $n vanish when calls into TREE's breeze directories are left out (class breeze-index)" >&2
