# probe-args.sh - the options and arguments of probe-count.sh, sourced by
# the KF5 script (tests/oracle/probe-count.sh) and its KF6 twin
# (tests/oracle/kf6/probe-count.sh), which take the same ones:
#   [--calls] [--symbolic] [--app NAME] [--trace FILE] [--icon-item] TREE THEME SIZES
# Sets mode, symbolic, app, keep, icon_item (--icon-item: the helper asks
# what Plasma 5's IconItem asks, kic-oracle.cpp), tree, theme and sizes;
# exits 2 on a usage error.
mode=count symbolic=0 app=plasmashell keep= icon_item=
while [ $# -gt 0 ]; do
    case $1 in
    --calls) mode=calls; shift ;;
    --symbolic) symbolic=1; shift ;;
    --app) app=$2; shift 2 ;;
    --trace) keep=$2; shift 2 ;;
    --icon-item) icon_item=--icon-item; shift ;;
    --) shift; break ;;
    -*) echo "probe-count.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -ne 3 ]; then
    echo "usage: probe-count.sh [--calls] [--symbolic] [--app NAME] [--trace FILE] [--icon-item] TREE THEME SIZES < names" >&2
    exit 2
fi
tree=$(cd "$1" && pwd) theme=$2 sizes=$3
