#!/usr/bin/env python3
"""readme-figures.py - README.md's table of figures, made from the saved bench output

    python3 tests/readme-figures.py --check    # exit 1 when README.md differs from what the files say
    python3 tests/readme-figures.py --update   # rewrite README.md's table from them

Each row of the table is read out of tests/bench/results/<target>.txt, the
output of the last `make <target>` run (tests/bench/save.sh keeps it), by a
pattern that must match: a row whose pattern finds nothing is an error, not
an empty cell, so a bench that changes what it prints cannot leave a stale
figure in the README.  The table sits between the two marker lines below.
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(TOP, "tests", "bench", "results")
README = os.environ.get("KIC_README", os.path.join(TOP, "README.md"))
RESULTS = os.environ.get("KIC_BENCH_RESULTS", RESULTS)
BEGIN = "<!-- figures: made by tests/readme-figures.py from tests/bench/results/; do not edit by hand -->"
END = "<!-- end of figures -->"


class Missing(Exception):
    pass


def results(target):
    path = os.path.join(RESULTS, target + ".txt")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise Missing(f"{os.path.relpath(path, TOP)}: {e.strerror} (run make {target})")


def find(target, pattern, what):
    """The first match of PATTERN (multi-line) in TARGET's saved output."""
    m = re.search(pattern, results(target), re.M)
    if m is None:
        raise Missing(f"tests/bench/results/{target}.txt: no line for {what} (pattern {pattern!r})")
    return m


def num(text):
    """57129 -> 57 129, as the README writes large numbers."""
    text = str(text)
    if re.fullmatch(r"\d{5,}", text):
        return f"{int(text):,}".replace(",", "\u202f")
    return text


def ratio(text):
    return text.replace("x", "\u00d7")


# ---- the rows ------------------------------------------------------------
# Each returns (what, figure, command): one row of the table.

def kf5_menu():
    rows = []
    for size in ("16", "48"):
        m = find("bench", rf"^{size}\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+x)\s+([\d.]+%)$",
                 f"the floor at {size} px")
        rows.append(f"{size} px: {num(m[1])} \u2192 {num(m[2])} ({ratio(m[4])}), {m[5]} above the floor")
    n = find("bench", r"^kde-icon-cache bench: realistic tree \((\d+) menu icon names", "the number of menu names")
    return (f"KDE's calls for the menu's icons, KF5 (Debian 12), {n[1]} names, breeze",
            "; ".join(rows), "make bench")


def kf5_unthemed():
    gains = []
    for size in ("16", "48"):
        m = find("bench", rf"^{size}\s+\d+\s+\d+\s+\d+\s+[\d.]+x\s+[\d.]+%\s+\d+\s+\d+\s+([\d.]+x)",
                 f"UnthemedLinks at {size} px")
        gains.append(f"{size} px: {ratio(m[1])} fewer")
    return ("... with `UnthemedLinks=true` (pixmaps-only names planted too)", "; ".join(gains), "make bench")


def kf5_prediction():
    m = find("bench", r"^prediction: (.*)$", "the model's prediction")
    c = find("bench", r"^file system calls \(strace\)\s+(\d+)\s+(\d+)\s+([\d.]+x)", "KDE's and our calls")
    return ("The tool's prediction of KDE's calls, against KDE's own (strace)",
            f"{m[1]} ({num(c[1])} calls)", "make bench")


def kf6_menu():
    rows = []
    for size in ("16", "48"):
        m = find("bench-kf6", rf"^{size}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+x)$", f"KF6 at {size} px")
        rows.append(f"{size} px: {num(m[1])} \u2192 {num(m[3])} ({ratio(m[5])})")
    v = find("bench-kf6", r"^libkf6breezeicons6 \S+, libkf6iconthemes6 (\S+)$", "the KF6 release")
    return (f"The same with KF6 {v[1]} (Debian 13)", "; ".join(rows), "make bench-kf6")


def kf6_prediction():
    p = find("bench-kf6", r"^before the rebuild, KF6 against --explain: (\d+) pairs, (\d+) agree in path$", "KF6's paths")
    c = find("bench-kf6", r"^before the rebuild, KF6 against --explain: (\d+) lookups counted, (\d+) equal counts$", "KF6's counts")
    ch = find("bench-kf6", r"\(name, size\) pairs whose content KF6 loads changed: (\d+) of (\d+)$", "KF6's changed pairs")
    return ("KF6 against the tool's model; what the rebuild changed",
            f"{p[2]} of {p[1]} paths and {c[2]} of {c[1]} call counts equal; content changed for {ch[1]} of {ch[2]} (name, size) pairs",
            "make bench-kf6")


def hostile():
    d = find("bench-hostile", r"^dirs: 100000 empty dirs of 48 px\s+([\d.]+) s\s+(\d+) KiB", "the 100 000-directory tree")
    m = find("bench-hostile", r"^mixed: 100000 dirs, 16/22/32/48 px\s+([\d.]+) s\s+(\d+) KiB", "the mixed tree")
    i = find("bench-hostile", r"^icons: 100000 in 10000 dirs, 200\s+([\d.]+) s\s+(\d+) KiB", "the 100 000-icon tree")
    return ("A rebuild over trees made to be costly (target: under 10 s each)",
            f"100 000 theme directories {d[1]} s; the same over four sizes {m[1]} s; 100 000 icons in 10 000 directories {i[1]} s",
            "make bench-hostile")


PHASES = r"(plasmashell start-up|open the launcher \(favourites, categories\)|show All Applications|scroll All Applications to the end)"


def plasma_calls(v, shell):
    """Plasma V's calls per phase before and after a rebuild (make bench-plasma PLASMA=V)"""
    target = "bench-plasma-%d" % v
    rows = re.findall(PHASES + r"\s+(\d+) \(\d+\)\s+(\d+) \(\d+\)\s+([\d.]+x)\s+\d+ \(\d+\)$", results(target), re.M)
    if len(rows) != 4:
        raise Missing(f"tests/bench/results/{target}.txt: not the four phases' calls")
    s = find(target, r"^screenshots .*before vs after rebuild: (\w+);", "the screenshots")
    return (f"{shell}'s calls on icon paths after a rebuild (start-up, launcher, All Applications, scroll)",
            ", ".join(ratio(r[3]) + " fewer" for r in rows) + f"; screenshots {s[1]}", f"make bench-plasma PLASMA={v}")


def plasma_prediction(v):
    target = "bench-plasma-%d" % v
    rows = re.findall(PHASES + r"\s+\d+\s+\d+ \(\d+\)\s+([+-][\d.]+%)\s+\d+\s+\d+ \(\d+\)\s+([+-][\d.]+%)$",
                      results(target), re.M)
    if len(rows) != 4:
        raise Missing(f"tests/bench/results/{target}.txt: not the four phases' prediction")
    return ("The tool's prediction of those calls, error per phase",
            "before " + " / ".join(r[1] for r in rows) + "; after " + " / ".join(r[2] for r in rows),
            f"make bench-plasma PLASMA={v}")


def plasma5_calls():
    return plasma_calls(5, "Plasma 5.27")


def plasma5_prediction():
    return plasma_prediction(5)


def plasma6_calls():
    return plasma_calls(6, "Plasma 6.3")


def plasma6_prediction():
    return plasma_prediction(6)


def rebuild_vs_gtk():
    m = find("bench", r"^realistic\s+(\S+)\s+\|\s+(\d+)\s+(\d+)\s+([\d.]+)\s+\|\s+(\d+)\s+(\d+)\s+([\d.]+)\s+\|"
                      r"\s+(\d+)\s+([\d.]+)\s+\|\s+(\d+)$", "the rebuild against gtk-update-icon-cache")
    return ("The rebuild's time against `gtk-update-icon-cache` (ours/gtk, above 1 slower), realistic tree",
            f"full rebuild {m[2]} ms, {m[4]} of gtk over {m[1].replace(',', ', ')}; after one application is added "
            f"{m[5]} ms, {m[7]} of gtk on hicolor; no change {m[8]} ms; peak memory {int(m[10]) // 1024} MB",
            "make bench")


def rebuild_vs_gtk_scale():
    m = find("bench-scale", r"^apps3\s+(\S+)\s+\|\s+(\d+)\s+(\d+)\s+([\d.]+)\s+\|\s+(\d+)\s+(\d+)\s+([\d.]+)\s+\|"
                            r"\s+(\d+)\s+([\d.]+)\s+\|\s+(\d+)$", "the rebuild of the largest tree against gtk-update-icon-cache")
    t = find("bench-scale", r"^apps3\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+$", "the largest tree's size")
    return (f"The same on the largest tree ({t[1]} themes, {num(t[2])} .desktop files, {num(t[3])} icon files)",
            f"full rebuild {m[2]} ms, {m[4]} of gtk over {m[1].replace(',', ', ')}; after one application is added "
            f"{m[5]} ms, {m[7]} of gtk on hicolor; no change {m[8]} ms; peak memory {int(m[10]) // 1024} MB",
            "make bench-scale")


ROWS = [kf5_menu, kf5_unthemed, kf5_prediction, rebuild_vs_gtk, rebuild_vs_gtk_scale, kf6_menu, kf6_prediction, plasma5_calls, plasma5_prediction,
        plasma6_calls, plasma6_prediction, hostile]


def table():
    lines = ["| what | figure | printed by |", "|---|---|---|"]
    errors = []
    for row in ROWS:
        try:
            what, figure, command = row()
        except Missing as e:
            errors.append(str(e))
            continue
        lines.append(f"| {what} | {figure} | `{command}` |")
    stamps = []
    for name in sorted(os.listdir(RESULTS)) if os.path.isdir(RESULTS) else []:
        if name.endswith(".txt"):
            with open(os.path.join(RESULTS, name), encoding="utf-8") as f:
                first = f.readline().strip()
            stamps.append(f"`{first.lstrip('# ')}`")
    if errors:
        raise Missing("\n".join(errors))
    if len(lines) == 2:
        raise Missing("no row at all: nothing to check")
    lines.append("")
    lines.append("Runs: " + "; ".join(stamps) + ".")
    return "\n".join(lines)


# ---- "Who gains": the seconds per setup (make bench-nfs) --------------------
# A section of its own, between its own two marker lines.
WHO_BEGIN = "<!-- who gains: made by tests/readme-figures.py from tests/bench/results/bench-nfs.txt; do not edit by hand -->"
WHO_END = "<!-- end of who gains -->"
WHO_ROWS = [
    ("`/usr` on NFS, no negative-lookup cache (the worst case)", "/usr on NFS, no negative cache (worst case)"),
    ("`/usr` on NFS, the client's negative-lookup cache (`lookupcache=all`, the default)",
     "/usr on NFS, negative cache (lookupcache=all)"),
    ("a squashfs image served as a block device (LTSP with NBD)", "squashfs image as a block device (NBD)"),
    ("a squashfs image served as a file (LTSP's image over NFS)", "squashfs image as a file (NFS, page cache)"),
    ("the home on NFS, no `~/.local/share/icons`", "home on NFS, no ~/.local/share/icons"),
    ("the home on NFS with `~/.local/share/icons/hicolor/48x48/apps`",
     "home on NFS, ~/.local/share/icons/hicolor/48x48/apps"),
    ("a local disk", "local disk (CPU time of the lookups, median of 5)"),
    ("not shortened yet: the themes built at start-up, `/usr` on NFS with the cache",
     "themes built: /usr on NFS, negative cache"),
]


def who_gains_table():
    n = find("bench-nfs", r"^bench-nfs: who gains, per setup: KF5 \(one process\) resolving the realistic tree's (\d+) menu "
                          r"names at (\d+) px", "the menu's names")
    lines = [f"| setup | the menu ({n[1]} names at {n[2]} px, KF5), before \u2192 after a rebuild | seconds waited at 2 / 5 / 20 ms "
             "per round trip | printed by |", "|---|---|---|---|"]
    for what, label in WHO_ROWS:
        m = find("bench-nfs", rf"^{re.escape(label)}\s+(round trips|read requests|READs|CPU ms)\s+(\d+)\s+(\d+)\s+([\d.]+x)"
                              r"(?:\s+([\d.]+) -> ([\d.]+)\s+([\d.]+) -> ([\d.]+)\s+([\d.]+) -> ([\d.]+))?", what)
        figure = f"{num(m[2])} \u2192 {num(m[3])} {m[1]} ({ratio(m[4])})"
        if m[1] == "READs":
            b = find("bench-nfs", r"^  distinct 4 KiB blocks: metadata\s+blocks\s+(\d+)\s+(\d+)", "the image's blocks")
            figure += f"; {b[1]} \u2192 {b[2]} distinct 4 KiB metadata blocks"
        if m[1] == "CPU ms":
            figure += ": CPU time only"
        secs = " / ".join(f"{m[i]} \u2192 {m[i + 1]} s" for i in (5, 7, 9)) if m[5] is not None else "\u2014"
        lines.append(f"| {what} | {figure} | {secs} | `make bench-nfs` |")
    k = re.findall(r"^  (before|after)\s+(nocache|cache)\s+kernel\s+(\d+)\s+model\s+(\d+)\s+\(([+-][\d.]+%)\)$",
                   results("bench-nfs"), re.M)
    if len(k) != 4:
        raise Missing("tests/bench/results/bench-nfs.txt: not the four checks of the NFS model against the kernel")
    lines.append("")
    lines.append("The NFS rows are a model (no NFS client here), checked against the kernel's own caching through FUSE "
                 "with the same rules: " + ", ".join(f"{st} {c} {e}" for st, c, kk, mm, e in k) + ".")
    return "\n".join(lines)


def replace_section(text, begin, end, body):
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise Missing(f"README.md: expected one pair of lines {begin!r} ... {end!r}")
    head, rest = text.split(begin, 1)
    return head + begin + "\n" + body + "\n" + end + rest.split(end, 1)[1]


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("--check", "--update"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        want = table()
        who = who_gains_table()
    except Missing as e:
        print(f"readme-figures: {e}", file=sys.stderr)
        return 1
    with open(README, encoding="utf-8") as f:
        text = f.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        print(f"readme-figures: README.md: expected one pair of lines {BEGIN!r} ... {END!r}", file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    have, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + want + "\n" + END + tail
    try:
        new = replace_section(new, WHO_BEGIN, WHO_END, who)
    except Missing as e:
        print(f"readme-figures: {e}", file=sys.stderr)
        return 1
    if sys.argv[1] == "--update":
        if new != text:
            with open(README + ".tmp", "w", encoding="utf-8") as f:
                f.write(new)
            os.replace(README + ".tmp", README)
        return 0
    if new != text:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                   "README.md", "README.md from tests/bench/results"))
        print("readme-figures: README.md's figures are not those of tests/bench/results/: "
              "python3 tests/readme-figures.py --update", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
