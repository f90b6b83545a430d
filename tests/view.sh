# view.sh - a writable view of a tree (sourced by tests/integration/lib.sh
# and the benches)
#
#   writable_view TREE DIR  sets VIEW=DIR/view: an overlay mount of TREE
#                           when the kernel lets us (root), else a copy.
#                           What a run writes lands in the view only; the
#                           EXIT trap unmounts it and removes DIR.
#   drop_view DIR           undoes it early.

writable_view () {
  VIEW=$2/view
  mkdir -p "$2/ov-upper" "$2/ov-work" "$VIEW"
  if mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/ov-upper,workdir=$2/ov-work" \
       "$VIEW" 2>/dev/null; then
    trap "umount '$VIEW' 2>/dev/null; rm -rf '$2'" EXIT
  else
    rmdir "$VIEW"
    cp -a "$1" "$VIEW"
  fi
  # what a test writes changes the view: it is not the built tree any more
  # (lib.sh's theirs keeps KDE's answers only for a tree with this stamp)
  rm -f "$VIEW/.kic-tree-stamp"
}

drop_view () {
  umount "$VIEW" 2>/dev/null || true
  rm -rf "$VIEW" "$1/ov-upper" "$1/ov-work"
}
