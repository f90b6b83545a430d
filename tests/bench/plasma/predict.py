#!/usr/bin/env python3
"""predict.py - the tool's prediction of the calls of Plasma's lookups

  predict.py BIN ROOT LOOKUPS

LOOKUPS: what lookups.py found in a session's trace (phase, name, number
of lookups, calls).  For each phase: what "BIN --root ROOT --explain"
predicts for those lookups, each name's lookups taken in pairs at 48 and
then 32 px (Kirigami.Icon asks hasIcon() at the Desktop size, 48, then
paints at the delegate's size; Kickoff's list is 32 px), an odd last one
at 48; and beside it the calls the trace made outside any lookup (the
model has no figure for those: index.theme files, directory listings),
which the bench adds unchanged to both states.

Prints PHASE<TAB>PREDICTED-LOOKUP-CALLS<TAB>OUTSIDE-CALLS<TAB>NAMES-THE-MODEL-COULD-NOT-TELL.
"""
import re
import subprocess
import sys


def explain(bin_, root, names, size):
    out = subprocess.run([bin_, "-q", "--root", root, "--explain", "-s", str(size), "--"] + names,
                         capture_output=True, text=True).stdout
    calls = {}
    name = None
    for line in out.splitlines():
        m = re.match(r"^(.*) at \d+ px; ", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"^=> .*\((?:[a-z ]+, )?(\d+) calls\)$", line)
        if m and name is not None:
            calls[name] = int(m.group(1))
            name = None
    return calls


def main():
    bin_, root, lookups = sys.argv[1:4]
    rows = [l.rstrip("\n").split("\t") for l in open(lookups)]
    names = sorted({r[1] for r in rows if r[1] != "-"})
    at48 = explain(bin_, root, names, 48) if names else {}
    at32 = explain(bin_, root, names, 32) if names else {}
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
            if name not in at48 or name not in at32:
                unknown += 1
                continue
            pred += (n - n // 2) * at48[name] + (n // 2) * at32[name]
        print("%d\t%d\t%d\t%d" % (k, pred, outside, unknown))


main()
