#!/usr/bin/env python3
"""predict.py - the tool's prediction of the calls of Plasma's lookups

  predict.py BIN ROOT LOOKUPS
  predict.py --cuts BIN ROOT FIRST LOOKUPS

LOOKUPS: what lookups.py found in a session's trace (phase, name, number
of lookups, calls).  For each phase: what "BIN --root ROOT --explain"
predicts for those lookups, and beside it the calls the trace made outside
any lookup (the model has no figure for those: index.theme files,
directory listings), which the bench adds unchanged to both states.

The sizes are Plasma 6.3's (tests/oracle/FINDINGS.md §j, §l): every
Kirigami.Icon asks its name twice, first at the Desktop size, 48 px
(isNull(): KIconLoader::hasIcon(), the Desktop group), then at the size
it is drawn: 32 px for an application's icon (an Icon= of the root's
.desktop files, or its base name when Icon= is a path: Kickoff's lists,
the task manager's launchers; not one the menu hides, NoDisplay=), 16
px for the search field's magnifier ("search", beside a line of text), 22
px for every other name (the system tray, Kickoff's category column, e.g.
applications-games-symbolic, its buttons).  A name's lookups in a phase are taken in such pairs, an odd
last one at 48.

Prints PHASE<TAB>PREDICTED-LOOKUP-CALLS<TAB>OUTSIDE-CALLS<TAB>NAMES-THE-MODEL-COULD-NOT-TELL.

--cuts prints, for every name of LOOKUPS, the names its lookup probes
FIRST (lookups.py's FIRST, with NAME for the name) with after its first
probe, in order, as the model makes it (the same at every size: the first
directory of a theme is always probed): NAME<TAB>NEXT,NEXT,..., for
lookups.py's CUTS.
"""
import glob
import os
import re
import subprocess
import sys

DESKTOP_SIZE = 48   # KIconLoader's Desktop group: breeze's DesktopDefault
APP_SIZE = 32       # Kickoff's list delegates, the task manager
OTHER_SIZE = 22     # Kirigami.Units.iconSizes.smallMedium
LABEL_SIZE = 16     # Kirigami.Units.iconSizes.sizeForLabels
# names drawn beside a line of text: the search field's magnifier
LABEL_NAMES = {"search"}


def explain_out(bin_, root, names, size):
    return subprocess.run([bin_, "-q", "--root", root, "--explain", "-s", str(size), "--"] + names,
                          capture_output=True, text=True).stdout


def explain(bin_, root, names, size):
    calls = {}
    name = None
    for line in explain_out(bin_, root, names, size).splitlines():
        m = re.match(r"^(.*) at \d+ px; ", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"^=> .*\((?:[a-z ]+, )?(\d+) calls?\)$", line)
        if m and name is not None:
            calls[name] = int(m.group(1))
            name = None
    return calls


def cuts(bin_, root, first, names):
    pre, post = first.split("NAME")
    probe = re.compile(re.escape(pre) + r"([^/]+)" + re.escape(post) + "$")
    seqs = {}
    name = None
    for line in explain_out(bin_, root, names, DESKTOP_SIZE).splitlines():
        m = re.match(r"^(.*) at \d+ px; ", line)
        if m:
            name = m.group(1)
            seqs[name] = []
            continue
        f = line.split()
        if name is not None and len(f) >= 3 and f[1] != "qrc":
            p = probe.match(f[2])
            if p:
                seqs[name].append(p.group(1))
    for name in names:
        print("%s\t%s" % (name, ",".join(seqs.get(name, [])[1:])))


def app_icons(root):
    """The Icon= of the root's applications that the menu shows (not
    NoDisplay=, not Hidden=), a path as its base name."""
    icons = set()
    for f in glob.glob(os.path.join(root, "usr/share/applications/*.desktop")):
        section = None
        icon = None
        shown = True
        with open(f, errors="replace") as fh:
            for line in fh:
                line = line.strip()
                if line.startswith("["):
                    section = line
                elif section != "[Desktop Entry]":
                    continue
                elif line.startswith("Icon="):
                    icon = line[5:].strip()
                elif line in ("NoDisplay=true", "Hidden=true"):
                    shown = False
        if icon and shown:
            if icon.startswith("/"):
                icon = re.sub(r"\.(png|xpm|svgz?)$", "", os.path.basename(icon))
            icons.add(icon)
    return icons


def main():
    if sys.argv[1] == "--cuts":
        bin_, root, first, lookups = sys.argv[2:6]
        names = sorted({l.split("\t")[1] for l in open(lookups) if l.split("\t")[1] != "-"})
        if names:
            cuts(bin_, root, first, names)
        return
    bin_, root, lookups = sys.argv[1:4]
    rows = [l.rstrip("\n").split("\t") for l in open(lookups)]
    names = sorted({r[1] for r in rows if r[1] != "-"})
    apps = app_icons(root)
    at = {s: (explain(bin_, root, names, s) if names else {})
          for s in (DESKTOP_SIZE, APP_SIZE, OTHER_SIZE, LABEL_SIZE)}
    phases = sorted({int(r[0]) for r in rows})
    for k in phases:
        pred = outside = 0
        unknown = 0
        for ph, name, n, calls in rows:
            if int(ph) != k:
                continue
            if name == "-":
                outside += int(calls)
                continue
            n = int(n)
            drawn = APP_SIZE if name in apps else LABEL_SIZE if name in LABEL_NAMES else OTHER_SIZE
            if name not in at[DESKTOP_SIZE] or name not in at[drawn]:
                unknown += 1
                continue
            pred += (n - n // 2) * at[DESKTOP_SIZE][name] + (n // 2) * at[drawn][name]
        print("%d\t%d\t%d\t%d" % (k, pred, outside, unknown))


if __name__ == "__main__":
    main()
