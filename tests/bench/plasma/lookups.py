#!/usr/bin/env python3
"""lookups.py - the icon lookups of an strace -f -ttt trace, by phase

  lookups.py FIRST MARKS TRACE [CUTS]

FIRST is the path of a lookup's first probe with the name as NAME (what
"kde-icon-cache --explain" shows as call 1 for this root, e.g.
/usr/share/icons/breeze/actions/12/NAME.svg); MARKS the phase ends (the
marks file of session.sh).  A lookup starts at a call on FIRST with some
name; a call on FIRST for a dash cut of the name a thread is looking up
(firefox after firefox-esr) goes on with that lookup, since KDE retries
the cut names itself.  With CUTS (lines NAME<TAB>NEXT,NEXT,...: the
names the model's lookup of NAME probes FIRST with after its first probe,
in order, predict.py --cuts) a call on FIRST goes on with a lookup only
when it is the next of its list: a name found before its cut
(start-here-kde-symbolic, in breeze's resources, which cost no call) is
followed by a lookup of its own of the cut name (start-here-kde), and
KF5, which searches breeze twice, probes FIRST with the same name twice
in one lookup.
Phases as count.awk: phase k holds the calls before mark k and after
mark k-1.

Prints one line per phase and name: PHASE<TAB>NAME<TAB>LOOKUPS<TAB>CALLS,
CALLS being the calls on icon paths (/icons/ or /pixmaps/) the thread
made from the lookup's start to the next lookup's start or the phase's
end; and a line PHASE<TAB>-<TAB>0<TAB>CALLS for the icon path calls made
outside any lookup (index.theme files read, directories listed).
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import icontrace  # noqa: E402


def main():
    first, marks_file, trace = sys.argv[1:4]
    cuts = None
    if len(sys.argv) > 4:
        cuts = {}
        for l in open(sys.argv[4]):
            f = l.rstrip("\n").split("\t")
            cuts[f[0]] = f[1].split(",") if len(f) > 1 and f[1] else []
    pre, post = first.split("NAME")
    probe = re.compile(re.escape(pre) + r"([^/]+)" + re.escape(post) + "$")
    marks = [float(x) for x in open(marks_file).read().split()]
    current = {}            # pid -> (name, phase, FIRST probes of it so far)
    lookups = {}            # (phase, name) -> [lookups, calls]
    outside = {}            # phase -> calls
    for pid, phase, _call, path in icontrace.icon_calls(trace, marks):
        p = probe.match(path)
        cur = current.get(pid)
        if cur is not None and cur[1] != phase:
            cur = None
        if p:
            name = p.group(1)
            if cuts is None:
                goes_on = cur is not None and cur[0].startswith(name + "-")
            else:
                seq = cuts.get(cur[0], []) if cur is not None else []
                goes_on = cur is not None and cur[2] < len(seq) and seq[cur[2]] == name
            if goes_on:
                cur = (cur[0], cur[1], cur[2] + 1)
            else:
                cur = (name, phase, 0)
                lookups.setdefault((phase, name), [0, 0])[0] += 1
            current[pid] = cur
        if cur is None:
            outside[phase] = outside.get(phase, 0) + 1
        else:
            lookups[(cur[1], cur[0])][1] += 1
    for k in range(1, len(marks) + 1):
        for (phase, name), (n, calls) in sorted(lookups.items()):
            if phase == k:
                print("%d\t%s\t%d\t%d" % (k, name, n, calls))
        print("%d\t-\t0\t%d" % (k, outside.get(k, 0)))


main()
