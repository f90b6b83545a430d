#!/usr/bin/perl
# count-calls.pl OUT TRACE - the file system calls of each lookup, from an
# strace of the oracle helper run with --markers (tests/oracle/probe-count.sh
# for KF5, tests/oracle/kf6/probe-count.sh for KF6).
#
# OUT holds the helper's NAME<TAB>SIZE<TAB>PATH lines; TRACE the strace
# output.  Each lookup is the window between two marker access() calls of
# the main thread.  Environment: MODE (count or calls), SYMBOLIC (1: print
# TREE's prefix as $TREE and the temporary data home as $XDG_DATA_HOME),
# TREE.  Output as probe-count.sh documents it.
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
my $nw = scalar @cnt;
if ($nw != @res) { die "probe-count.sh: $nw lookup windows but ".scalar(@res)." results\n" }
for my $i (0 .. $#res) {
    my ($n, $s, $p) = @{$res[$i]};
    if ($mode eq "calls") { print "$n\t$s\t$_\n" for @{$calls[$i]} }
    else { print "$n\t$s\t$cnt[$i]\t$p\n" }
}
print STDERR "probe-count.sh: not counted inside lookup windows: $nopen openat, $nfd fd-only, $nother other-thread\n"
    if $nopen + $nfd + $nother;
