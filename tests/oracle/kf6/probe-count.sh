#!/bin/sh
# probe-count.sh [--calls] [--symbolic] [--app NAME] [--trace FILE] TREE THEME SIZES < names
#
# The KF6 twin of tests/oracle/probe-count.sh: counts the file system calls
# the real KF6 KIconLoader::iconPath(name, -size, true) makes per lookup,
# run inside the Debian 13 root through run.sh (strace runs there too).
# Same options and output as the KF5 script:
#
# Output (default):  NAME<TAB>SIZE<TAB>COUNT<TAB>PATH
# Output (--calls):  NAME<TAB>SIZE<TAB>SYSCALL<TAB>PATH<TAB>RESULT   one line per call
#
# COUNT = access/faccessat/faccessat2/stat/lstat/newfstatat/statx calls on a
# non-empty path, made by the lookup's thread between its marker and the next
# one.  Probes of ":/icons/..." (Qt resources) make no system call and so are
# not counted.  PATH is relative to TREE (":/..." for resource paths).
# --symbolic  prints the tree prefix as $TREE and the data home as
#             $XDG_DATA_HOME (always so in the trace run.sh writes).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
mode=count symbolic=0 app=plasmashell keep=
while [ $# -gt 0 ]; do
    case $1 in
    --calls) mode=calls; shift ;;
    --symbolic) symbolic=1; shift ;;
    --app) app=$2; shift 2 ;;
    --trace) keep=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "probe-count.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -ne 3 ]; then
    echo "usage: probe-count.sh [--calls] [--symbolic] [--app NAME] [--trace FILE] TREE THEME SIZES < names" >&2
    exit 2
fi
tree=$(cd "$1" && pwd) theme=$2 sizes=$3

work=$(mktemp -d "${TMPDIR:-/tmp}/kic-probe6.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
"$here/run.sh" --app "$app" --strace "$work/trace" "$tree" "$theme" "$sizes" > "$work/out"
[ -n "$keep" ] && cp "$work/trace" "$keep"

# (from here on the same parser as tests/oracle/probe-count.sh; the trace
# already has $TREE and $XDG_DATA_HOME in place of the in-root prefixes)
MODE=$mode SYMBOLIC=$symbolic TREE='$TREE' perl -e '
use strict; use warnings;
my ($mode, $sym, $tree) = @ENV{qw(MODE SYMBOLIC TREE)};
my ($outf, $tracef) = @ARGV;
open my $O, "<", $outf or die; my @res = map { chomp; [split /\t/, $_, 3] } <$O>; close $O;
sub unq {                      # undo strace string escaping
    my $s = shift;
    $s =~ s/\\([0-7]{1,3}|x[0-9a-fA-F]{2}|.)/
        my $e = $1;
        $e =~ m{^[0-7]} ? chr(oct $e) : $e =~ m{^x} ? chr(hex substr $e, 1) :
        $e eq "n" ? "\n" : $e eq "t" ? "\t" : $e eq "r" ? "\r" : $e/ge;
    return $s;
}
my $counted = qr/^(access|faccessat|faccessat2|stat|lstat|newfstatat|statx)$/;
my ($main, $w, @cnt, @calls) = (undef, -1);
my ($ended, $nopen, $nother, $nfd) = (0, 0, 0, 0);
open my $T, "<", $tracef or die;
while (my $l = <$T>) {
    chomp $l;
    next unless $l =~ /^(\d+)\s+(\w+)\((.*)$/;
    my ($pid, $sc, $rest) = ($1, $2, $3);
    my $path; $path = unq($1) if $rest =~ /^(?:[A-Z_0-9]+, |\d+, )?"((?:[^"\\]|\\.)*)"/;
    if ($sc eq "access" && defined $path && $path =~ m{^/\@marker\@/}) {
        $main //= $pid;
        if ($path eq "/\@marker\@/\@end\@/0") { $ended = 1; $w = -1; next }
        $w++; $cnt[$w] = 0; $calls[$w] = []; next;
    }
    next if $w < 0 || $ended;
    my $ret = ($l =~ /\) += (-?\d+)(?: (\w+))?/) ? ($1 < 0 ? ($2 // $1) : 0) : "?";
    my $ok = ($sc =~ $counted) && defined $path && $path ne "" && $pid == $main;
    if ($ok) { $cnt[$w]++ }
    else {
        if ($pid != $main) { $nother++ } elsif ($sc eq "openat") { $nopen++ } else { $nfd++ }
    }
    if ($mode eq "calls") {
        my $p = $path // "";
        if ($sym) {
            $p =~ s{^\Q$tree\E(?=/|$)}{\$TREE};
            $p =~ s{^/[^\s]*/kic-oracle\.[A-Za-z0-9]{6}/data(?=/|$)}{\$XDG_DATA_HOME};
        }
        push @{$calls[$w]}, join("\t", ($ok ? "" : "!") . $sc, $p, $ret);
    }
}
close $T;
die "probe-count.sh: ".scalar(@res)." results but ".($w+1)." windows\n" if 0;
my $nw = scalar @cnt;
if ($nw != @res) { die "probe-count.sh: $nw lookup windows but ".scalar(@res)." results\n" }
for my $i (0 .. $#res) {
    my ($n, $s, $p) = @{$res[$i]};
    if ($mode eq "calls") { print "$n\t$s\t$_\n" for @{$calls[$i]} }
    else { print "$n\t$s\t$cnt[$i]\t$p\n" }
}
print STDERR "probe-count.sh: not counted inside lookup windows: $nopen openat, $nfd fd-only, $nother other-thread\n"
    if $nopen + $nfd + $nother;
' "$work/out" "$work/trace"
