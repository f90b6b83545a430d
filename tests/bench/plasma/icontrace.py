"""icontrace.py - the calls on icon paths of an strace -f -ttt trace

icon_calls(TRACE, MARKS): (PID, PHASE, CALL, PATH) for each call whose
first string argument is an icon path (/icons/ or /pixmaps/), in the
trace's order; phase k (from 1) holds the calls before mark k and after
mark k-1 (as count.awk), and calls after the last mark, the "resumed>"
halves of interrupted calls and lines with no path are left out.  Shared
by lookups.py (Plasma 6) and events5.py (Plasma 5).
"""
import re

LINE = re.compile(r'^(\d+) +(\d+\.\d+) ([a-z0-9_]+)\(')


def icon_path(p):
    return "/icons/" in p or "/pixmaps/" in p


def icon_calls(trace, marks):
    with open(trace, errors="replace") as f:
        for line in f:
            if " resumed>" in line:
                continue
            m = LINE.match(line)
            if not m:
                continue
            t = float(m.group(2))
            phase = next((k + 1 for k, e in enumerate(marks) if t < e), None)
            if phase is None:
                continue
            q = line.find('"')
            if q < 0:
                continue
            path = line[q + 1:line.find('"', q + 1)]
            if icon_path(path):
                yield m.group(1), phase, m.group(3), path
