#!/usr/bin/env python3
"""events5.py - Plasma 5.27's icon lookups in an strace trace, and the
tool's prediction of them (make bench-plasma, KIC_PLASMA_VERSION=5)

  events5.py --seqs BIN ROOT NAMES > SEQS
  events5.py --events ROOT FIRST MARKS TRACE SEQS > EVENTS
  events5.py --predict BIN ROOT EVENTS > PREDICTED

KF5 5.103 under Plasma 5.27 makes two kinds of search for a name N
(tests/oracle/FINDINGS.md §m):
  full  KIconLoader's lookup, kiconloader.cpp's iconPath(): the themes
        twice through breeze, hicolor, the "User" group; what
        "kde-icon-cache --explain" shows;
  item  Plasma's IconItem (plasma-framework@v5.103.0
        src/declarativeimports/core/iconitem.cpp:175-181, again at every
        paint, :235-240): N.svg then N.svgz in the current theme alone;
        what "--explain --icon-item" shows.
Both start with the same probe (FIRST, breeze's first directory), so a
trace cannot be cut at that probe alone (a full lookup makes it twice).
--seqs asks the tool for every name's calls of both kinds at the sizes
Plasma draws (SIZES), on icon paths only (/icons/ or /pixmaps/, what
count.awk counts), as JSON.  --events walks each thread of the trace: at a
probe of FIRST it takes the longest of the model's call lists of that name
that the trace repeats exactly from there (an event: kind, size), anything
else is outside any event (index files, the plasma theme's icons/, the
files read once found).  Prints PHASE<TAB>NAME<TAB>KIND<TAB>SIZE<TAB>COUNT
and PHASE<TAB>-<TAB>outside<TAB>0<TAB>CALLS, and PHASE<TAB>?<TAB>unmatched
<TAB>0<TAB>CALLS for probes of FIRST no list of the model repeats.
--predict prices EVENTS with the tool on ROOT as it is now (before or
after a rebuild).  Prints PHASE<TAB>PREDICTED<TAB>OUTSIDE<TAB>UNMATCHED.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

# predict.py's sizes and its list of the root's application icons (no
# __pycache__ left in the source tree)
sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location("predict", os.path.join(os.path.dirname(os.path.abspath(__file__)), "predict.py"))
predict = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(predict)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import icontrace  # noqa: E402

# the sizes an IconItem of Plasma 5.27 asks for (Kickoff's lists and
# categories, the panel, the system tray, hasIcon()'s Desktop size)
SIZES = (16, 22, 32, 48)
HOME_DATA = "/tmp/kic-home/.local/share"   # session.sh's HOME


def explain(bin_, root, names, size, item):
    """name -> (calls on icon paths as [(class, path)], found)"""
    args = [bin_, "-q", "--root", root, "--explain", "-s", str(size)] + (["--icon-item"] if item else []) + ["--"]
    out = subprocess.run(args + names, capture_output=True, text=True).stdout
    seqs = {}
    name = None
    for line in out.splitlines():
        m = re.match(r"^(.*) at \d+ px; ", line)
        if m:
            name = m.group(1)
            seqs[name] = [[], False]
            continue
        if line.startswith("=> "):
            if name is not None:
                seqs[name][1] = not line.startswith("=> not found")
            name = None
            continue
        f = line.split()
        if name is None or len(f) < 3 or f[1] == "qrc":
            continue
        path = f[2].replace("$XDG_DATA_HOME", HOME_DATA)
        if icontrace.icon_path(path):
            seqs[name][0].append(("a" if f[1] == "access" else "s", path))
    return seqs


def seqs_main(bin_, root, names_file):
    names = sorted({l.split("\t")[1] for l in open(names_file) if l.split("\t")[1] != "-"})
    out = {}
    for item in (False, True):
        for size in SIZES:
            for name, (calls, found) in (explain(bin_, root, names, size, item) if names else {}).items():
                out.setdefault(name, []).append(["item" if item else "full", size, calls, found])
    json.dump(out, sys.stdout)


def preferred_sizes(name, apps):
    """SIZES, the size NAME is drawn at first (predict.py's rule: 32 for an
    application's icon, 16 for the search field's, 22 for the rest), then
    the Desktop size of hasIcon()"""
    drawn = predict.APP_SIZE if name in apps else predict.LABEL_SIZE if name in predict.LABEL_NAMES else predict.OTHER_SIZE
    return [drawn, predict.DESKTOP_SIZE] + [s for s in SIZES if s not in (drawn, predict.DESKTOP_SIZE)]


def events_main(root, first, marks_file, trace, seqs_file):
    seqs = json.load(open(seqs_file))
    apps = predict.app_icons(root)
    pre, post = first.split("NAME")
    probe = re.compile(re.escape(pre) + r"([^/]+)" + re.escape(post) + "$")
    marks = [float(x) for x in open(marks_file).read().split()]
    threads = {}
    for pid, phase, c, path in icontrace.icon_calls(trace, marks):
        cls = "a" if c == "access" else "s" if c in ("statx", "newfstatat", "stat", "lstat", "fstatat64") else c
        threads.setdefault(pid, []).append((phase, cls, path))
    counts = {}
    outside = {}
    unmatched = {}
    for calls in threads.values():
        i = 0
        while i < len(calls):
            phase, cls, path = calls[i]
            p = probe.match(path) if cls == "a" else None
            if p is None:
                outside[phase] = outside.get(phase, 0) + 1
                i += 1
                continue
            best = None
            pref = preferred_sizes(p.group(1), apps)
            for kind, size, seq, _found in seqs.get(p.group(1), []):
                n = len(seq)
                if n == 0 or i + n > len(calls):
                    continue
                # the longest list the trace repeats; of lists alike
                # (a miss in breeze costs the same at every size), the
                # size the entry is drawn at
                rank = (n, -pref.index(size))
                if best is not None and rank <= best[3]:
                    continue
                if all((calls[i + j][1], calls[i + j][2]) == tuple(seq[j]) for j in range(n)):
                    best = (kind, size, n, rank)
            if best is None:
                unmatched[phase] = unmatched.get(phase, 0) + 1
                i += 1
                continue
            key = (phase, p.group(1), best[0], best[1])
            counts[key] = counts.get(key, 0) + 1
            i += best[2]
    if not counts:
        sys.exit("events5.py: no lookup of the model found in %s" % trace)
    for k in range(1, len(marks) + 1):
        for (phase, name, kind, size), n in sorted(counts.items()):
            if phase == k:
                print("%d\t%s\t%s\t%d\t%d" % (k, name, kind, size, n))
        print("%d\t-\toutside\t0\t%d" % (k, outside.get(k, 0)))
        print("%d\t?\tunmatched\t0\t%d" % (k, unmatched.get(k, 0)))


def predict_main(bin_, root, events_file):
    rows = [l.rstrip("\n").split("\t") for l in open(events_file)]
    names = sorted({r[1] for r in rows if r[1] not in ("-", "?")})
    cost = {}
    for item in (False, True):
        for size in SIZES:
            for name, (calls, found) in (explain(bin_, root, names, size, item) if names else {}).items():
                cost[(name, "item" if item else "full", size)] = (len(calls), found)
    phases = sorted({int(r[0]) for r in rows})
    for k in phases:
        pred = outside = unmatched = 0
        for ph, name, kind, size, n in rows:
            if int(ph) != k:
                continue
            if name == "-":
                outside += int(n)
            elif name == "?":
                unmatched += int(n)
            else:
                # each lookup of the session before, priced as the same
                # lookup on the root now.  After a rebuild IconItem may
                # find a planted SVG; Plasma then draws it through
                # Plasma::Svg and searches again at each paint
                # (iconitem.cpp:235-240) where it had KIconLoader's pixmap
                # cache (kiconloader.cpp:1142-1148): measured, the number
                # of lookups per phase stays (FINDINGS §m)
                pred += int(n) * cost[(name, kind, int(size))][0]
        print("%d\t%d\t%d\t%d" % (k, pred, outside, unmatched))


def main():
    mode = sys.argv[1]
    if mode == "--seqs":
        seqs_main(*sys.argv[2:5])
    elif mode == "--events":
        events_main(*sys.argv[2:7])
    elif mode == "--predict":
        predict_main(*sys.argv[2:5])
    else:
        sys.exit("events5.py: --seqs, --events or --predict")


main()
