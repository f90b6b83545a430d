#!/bin/sh
# make-tree.sh CACHE_DIR TREE_DIR [PACKAGES_LIST]
#
# Builds a realistic Debian 12 file tree for conformance tests: the packages of
# packages.list (next to this script unless given) are fetched with
# `apt-get download` into CACHE_DIR (skipped when a .deb of the package is
# already there, so reruns need no network; `apt-get update` is run only if a
# download fails) and unpacked with `dpkg-deb -x` into TREE_DIR.  Then:
#   - absolute symlinks inside the tree are made relative (so they resolve
#     inside TREE_DIR when looked at from outside);
#   - update-mime-database is run on TREE_DIR/usr/share/mime (as shared-mime-info's
#     postinst would), which writes mime/generic-icons.
# Idempotent: TREE_DIR is rebuilt only when the set of .debs changed (stamp file
# TREE_DIR/.kic-tree-stamp).  Prints one summary line.
# Locked: two runs at once (make -j check check-asan, or two worktrees
# sharing CACHE_DIR) wait for each other instead of downloading into the
# same cache or unpacking into the same tree together.
set -eu

[ $# -ge 2 ] || { echo "usage: make-tree.sh CACHE_DIR TREE_DIR [PACKAGES_LIST]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cache=$1 tree=$2 list=${3:-$here/packages.list}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

pkgs=$(sed 's/#.*//' "$list" | awk 'NF { print $1 }')

mkdir -p "$(dirname "$tree")"
exec 8> "$cache/.lock" 9> "$tree.lock"
flock 8

deb_of() { # newest cached .deb of package $1, or nothing
    ls "$cache/$1"_*.deb 2>/dev/null | sort -V | tail -n 1
}

missing=
for p in $pkgs; do
    [ -n "$(deb_of "$p")" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "make-tree.sh: downloading$missing" >&2
    # shellcheck disable=SC2086
    if ! (cd "$cache" && apt-get download $missing >/dev/null 2>"$cache/.download.log"); then
        echo "make-tree.sh: download failed, running apt-get update" >&2
        apt-get update >/dev/null 2>&1 || true
        # shellcheck disable=SC2086
        (cd "$cache" && apt-get download $missing >/dev/null 2>"$cache/.download.log") || {
            cat "$cache/.download.log" >&2; exit 1; }
    fi
    for p in $missing; do
        [ -n "$(deb_of "$p")" ] || { echo "make-tree.sh: no .deb for $p" >&2; exit 1; }
    done
fi

debs=$(for p in $pkgs; do deb_of "$p"; done)
flock 9
flock -u 8
stamp=$(printf '%s\n' "$debs" | sed 's|.*/||' | sort | md5sum | cut -d' ' -f1)

if [ -f "$tree/.kic-tree-stamp" ] && [ "$(cat "$tree/.kic-tree-stamp")" = "$stamp" ]; then
    : # up to date
else
    rm -rf "$tree"
    mkdir -p "$tree"
    tree=$(cd "$tree" && pwd)
    # two at a time: no two of these packages ship the same file
    printf '%s\n' $debs | xargs -P 2 -I '{}' dpkg-deb -x '{}' "$tree"
    # absolute symlinks -> relative ones within the tree (what
    # realpath -m -s --relative-to does: lexical, the target may be
    # missing), in one process: the tree has about 79 000 of them
    find "$tree" -type l -lname '/*' -print0 | perl -0 -e '
        my $tree = shift;
        sub parts { my @p; for (split m{/}, shift) { next if $_ eq "" || $_ eq "."; if ($_ eq "..") { pop @p } else { push @p, $_ } } @p }
        while (my $l = <STDIN>) {
            chomp $l;
            my $t = readlink $l;
            defined $t && $t =~ m{^/} or next;
            my @to = parts("$tree$t");
            (my $dir = $l) =~ s{/[^/]*$}{};
            my @from = parts($dir);
            my $i = 0;
            $i++ while $i < @to && $i < @from && $to[$i] eq $from[$i];
            my $rel = join("/", ("..") x (@from - $i), @to[$i .. $#to]);
            $rel = "." if $rel eq "";
            unlink $l and symlink $rel, $l or die "make-tree.sh: $l: $!\n";
        }' "$tree"
    if [ -d "$tree/usr/share/mime/packages" ]; then
        if command -v update-mime-database >/dev/null; then
            umd=update-mime-database
        else
            umd=$tree/usr/bin/update-mime-database
        fi
        PKGSYSTEM_ENABLE_FSYNC=0 "$umd" "$tree/usr/share/mime" >/dev/null 2>&1 || \
            echo "make-tree.sh: warning: update-mime-database failed" >&2
    fi
    echo "$stamp" > "$tree/.kic-tree-stamp"
fi
tree=$(cd "$tree" && pwd)

npkg=$(printf '%s\n' "$debs" | grep -c .)
ndesk=$(find "$tree/usr/share/applications" -name '*.desktop' 2>/dev/null | wc -l)
nicon=$(find "$tree/usr/share/icons" "$tree/usr/share/pixmaps" \( -type f -o -type l \) \
    \( -name '*.png' -o -name '*.svg' -o -name '*.svgz' -o -name '*.xpm' \) 2>/dev/null | wc -l)
size=$(du -sh "$tree" | cut -f1)
dl=$(printf '%s\n' "$debs" | xargs du -ck | tail -n 1 | cut -f1)
echo "make-tree.sh: $tree: $npkg packages ($((dl / 1024)) MB of .debs), $ndesk .desktop files, $nicon icon files, $size on disk"
