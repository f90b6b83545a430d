#!/usr/bin/env python3
"""readme-figures.py - the figures of README.md, the man page and docs/, made from the saved bench output

    python3 tests/readme-figures.py --check    # exit 1 when a figure differs from what the files say
    python3 tests/readme-figures.py --update   # rewrite README.md's table and the figures from them

Each row of the table is read out of tests/bench/results/<target>.txt, the
output of the last `make <target>` run (tests/bench/save.sh keeps it), by a
pattern that must match: a row whose pattern finds nothing is an error, not
an empty cell, so a bench that changes what it prints cannot leave a stale
figure in the README.  The table sits between the two marker lines below;
a target with no saved output has no row.  A saved output counts only when
the code that printed it is committed and in the history of the tree
checked (on main: on main): a run of a tree with uncommitted changes, or of
a commit no branch keeps, is refused.  The figures of the man page and of
docs/ (FIGURES below) are read out of the same files; any other figure of
README.md, the man page or docs/ (a count of calls, a time, a size, a
ratio) is an error unless KNOWN says which test checks it.
"""
import glob
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(TOP, "tests", "bench", "results")
README = os.environ.get("KIC_README", os.path.join(TOP, "README.md"))
RESULTS = os.environ.get("KIC_BENCH_RESULTS", RESULTS)
BEGIN = "<!-- figures: made by tests/readme-figures.py from tests/bench/results/; do not edit by hand -->"
END = "<!-- end of figures -->"


class Missing(Exception):
    pass


def make(target):
    """The command that saves TARGET's output."""
    m = re.fullmatch(r"bench-plasma-(\d)", target)
    return f"make bench-plasma PLASMA={m[1]}" if m else f"make {target}"


class Absent(Exception):
    """A target without saved output: its rows are left out."""


def provenance(target, first):
    """Why TARGET's saved output cannot be used, from its first line; None when it can."""
    m = re.match(r"# make \S+: code (\S+),", first)
    if m is None:
        return "its first line does not say which code printed it (tests/bench/save.sh writes it)"
    code = m[1]
    # git describe --always --dirty: HASH, or TAG-N-gHASH once a tag is there
    clean = re.fullmatch(r"(?:.*-g)?([0-9a-f]{7,40})", code)
    if clean is None:
        return f"it was printed by code {code}, not a committed tree: run {make(target)} on a clean checkout"
    code = clean[1]
    ref = os.environ.get("KIC_FIGURES_REF", "HEAD")
    try:
        r = subprocess.run(["git", "-C", TOP, "merge-base", "--is-ancestor", code, ref],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        return f"cannot tell whether code {code} is in this tree's history: git: {e.strerror}"
    if r.returncode == 1:
        return f"it was printed by code {code}, which is not in the history of {ref}: run {make(target)} again"
    if r.returncode != 0:
        shallow = subprocess.run(["git", "-C", TOP, "rev-parse", "--is-shallow-repository"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
        if shallow == "true":
            # a shallow clone (a CI checkout) holds no history to tell it by:
            # said, not refused; a full clone decides
            print(f"readme-figures: note: {target}: code {code} is not in this shallow clone, so whether it is in "
                  f"the history of {ref} is not checked (git fetch --unshallow)", file=sys.stderr)
            return None
        return f"cannot tell whether code {code} is in the history of {ref}: {r.stderr.strip()}"
    return None


_results = {}


def results(target):
    if target in _results:
        return _results[target]
    path = os.path.join(RESULTS, target + ".txt")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise Absent(target)
    except OSError as e:
        raise Missing(f"{os.path.relpath(path, TOP)}: {e.strerror} (run {make(target)})")
    why = provenance(target, text.split("\n", 1)[0])
    if why is not None:
        raise Missing(f"tests/bench/results/{target}.txt: refused: {why}")
    _results[target] = text
    return text


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
    n = find("bench", r"^names: the tool's \(--dry-run --json\): (\d+),", "the number of menu names, the tool's")
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


# ---- the figures of the man page and docs/ ---------------------------------
# Each: (file, pattern, what, source).  PATTERN (multi-line, whitespace as
# \s+ since the man page breaks lines anywhere) must match the file once;
# its groups must equal what SOURCE() returns, read from a bench's output.

def list_costs():
    m = find("bench", r"^--list, KDE's calls per entry and size: found only in hicolor (\d+) to (\d+) \(\d+\), "
                      r"found nowhere (\d+) \(\d+\)$", "--list's calls by where KDE finds the icon")
    return (m[1], m[2], m[3])


def svg_median():
    m = find("bench", r"^icons KDE loads as SVG.*\n(?:.*\n)*?^48\s+\d+ (\d+) \d+ \d+\s+\d+ (\d+) ", "the SVG icons at 48 px")
    return (m[2], m[1])


def per_size_names():
    m = find("bench", r"^per-size sets: (\d+) names load a different file", "the per-size sets")
    return (m[1],)


def demo_summary():
    with open(README, encoding="utf-8") as f:
        m = re.search(r"^(kde-icon-cache: KDE's calls for the menu at .*)$", f.read(), re.M)
    if m is None:
        raise Missing("README.md: no make demo excerpt with the rebuild's last line")
    return (m[1].replace("-", "\\-").replace("'", "\\(aq"),)


MAN = "man/kde-icon-cache.8"
DOC = "docs/how-it-works.md"
FIGURES = [
    (MAN, r"an icon that only the hicolor theme has costs KDE (\d+) to (\d+)\s+calls, one that no theme has (\d+)",
     "DESCRIPTION's cost of a lookup", list_costs),
    (MAN, r"for the median SVG menu icon with breeze current,\s+(\d+)\s+calls at 48\s+pixels instead of (\d+)",
     "DESCRIPTION's SVG icon", svg_median),
    (MAN, r"^(kde\\-icon\\-cache: KDE\\\(aqs calls for the menu at .*)$", "--rebuild's last line (README's make demo excerpt)",
     demo_summary),
    (DOC, r"\*\*(\d+) names\*\* load different files per size", "the per-size sets", per_size_names),
    (DOC, r"none of the (\d+)\s+with breeze", "the per-size sets, again", per_size_names),
]

# Figures checked elsewhere, or that are no measurement: (file, pattern, why).
KNOWN = [
    ("README.md", r"over 4 MiB", "a limit of the code (MAX_ICON_BYTES)"),
    (MAN, r"larger than 4 MiB", "a limit of the code (MAX_ICON_BYTES)"),
    ("README.md", r"past 1 MiB", "a limit of the code (the log's rotation)"),
    (MAN, r"grown past 1 MiB", "a limit of the code (the log's rotation)"),
    ("README.md", r"at most 256 KiB of lines", "a limit of the code (KIC_LOG_RUN_MAX_BYTES; tests/integration/changelog.sh)"),
    (MAN, r"at most 256 KiB of change lines", "a limit of the code (KIC_LOG_RUN_MAX_BYTES; tests/integration/changelog.sh)"),
    (MAN, r"more than 500 calls", "an example's threshold"),
    ("README.md", r"^\$ make demo {8}# excerpt\n(?:.*\n)*?```\n.*\n", "tests/integration/readme-figures.sh runs make demo"),
    (DOC, r"^\$ kde-icon-cache --root T --kde=kf6 --explain(?:.*\n)*?```", "tests/profiles/expected/ (tests/integration/profiles.sh)"),
]

# what reads as a measured figure: a number with a unit, or an estimate
FIGURE = re.compile(r"(?:\b(?:about|around|roughly|nearly|some)\s+|~)(?:\d[\d\u202f,.]*|one|two|three|four|five|ten|twenty)\b"
                    r"|\b\d[\d\u202f,.]*\s*(?:calls|ms|s|seconds|min|minutes|hours?|[KMG]i?B|%|\u00d7|x|times)(?![\w-])")


def figure_files():
    """{name as FIGURES gives it: path}: KIC_README, KIC_MAN and KIC_DOCS (a directory) stand in for them in tests."""
    docs = os.environ.get("KIC_DOCS", os.path.join(TOP, "docs"))
    files = {"README.md": README, MAN: os.environ.get("KIC_MAN", os.path.join(TOP, MAN))}
    for path in sorted(glob.glob(os.path.join(docs, "*.md"))):
        files["docs/" + os.path.basename(path)] = path
    return files


def figures(texts):
    """Check (or, returned, rewrite) the man page's and docs/'s figures; errors as a list."""
    errors = []
    for rel, pattern, what, source in FIGURES:
        path = rel
        found = list(re.finditer(pattern, texts.get(rel, ""), re.M))
        if len(found) != 1:
            errors.append(f"{rel}: {what}: {len(found)} places match {pattern!r}, not one")
            continue
        try:
            want = source()
        except Absent as e:
            errors.append(f"{rel}: {what}: tests/bench/results/{e}.txt is not there (run make {e})")
            continue
        except Missing as e:
            errors.append(str(e))
            continue
        m = found[0]
        have = m.groups()
        if have != want:
            errors.append(f"{rel}: {what}: says {', '.join(have)}, the bench {', '.join(want)}")
            t = texts[path]
            for i in range(len(want), 0, -1):
                t = t[:m.start(i)] + want[i - 1] + t[m.end(i):]
            texts[path] = t
    return errors


def unchecked(texts):
    """The figures of README.md, the man page and docs/ that nothing checks."""
    errors = []
    for rel, text in texts.items():
        # the sections made from the bench outputs are checked whole (main()):
        # their lines are blanked, so that the line numbers stay right
        for begin, end in ((BEGIN, END), (WHO_BEGIN, WHO_END)):
            if rel == "README.md" and begin in text and end in text:
                head, rest = text.split(begin, 1)
                inside, tail = rest.split(end, 1)
                text = head + "\n" * inside.count("\n") + tail
        spans = []
        for f, pattern, *_ in FIGURES + KNOWN:
            if f == rel:
                spans += [m.span() for m in re.finditer(pattern, text, re.M)]
        for m in FIGURE.finditer(text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            line = text.count("\n", 0, m.start()) + 1
            errors.append(f"{rel}:{line}: {m[0]!r} is a figure no bench or test checks: "
                          "give it a row in tests/readme-figures.py or remove it")
    return errors


def table():
    lines = ["| what | figure | printed by |", "|---|---|---|"]
    errors, used = [], []
    for row in ROWS:
        try:
            what, figure, command = row()
        except Absent as e:
            continue
        except Missing as e:
            if str(e) not in errors:
                errors.append(str(e))
            continue
        lines.append(f"| {what} | {figure} | `{command}` |")
    for name in sorted(os.listdir(RESULTS)) if os.path.isdir(RESULTS) else []:
        if name.endswith(".txt"):
            try:
                text = results(name[:-4])
            except Missing as e:
                if str(e) not in errors:
                    errors.append(str(e))
                continue
            used.append(f"`{text.split(chr(10), 1)[0].lstrip('# ')}`")
    if errors:
        raise Missing("\n".join(errors))
    if len(lines) == 2:
        raise Missing("no row at all: nothing to check")
    lines.append("")
    lines.append("Runs: " + "; ".join(used) + ".")
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
    files = figure_files()
    texts = {}
    for rel, path in files.items():
        with open(path, encoding="utf-8") as f:
            texts[rel] = f.read()
    text = texts["README.md"]
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        print(f"readme-figures: README.md: expected one pair of lines {BEGIN!r} ... {END!r}", file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    have, tail = rest.split(END, 1)
    new = dict(texts)
    new["README.md"] = head + BEGIN + "\n" + want + "\n" + END + tail
    try:
        new["README.md"] = replace_section(new["README.md"], WHO_BEGIN, WHO_END, who)
    except Missing as e:
        print(f"readme-figures: {e}", file=sys.stderr)
        return 1
    errors = figures(new)
    if sys.argv[1] == "--update":
        for rel, path in files.items():
            if new[rel] != texts[rel]:
                with open(path + ".tmp", "w", encoding="utf-8") as f:
                    f.write(new[rel])
                os.replace(path + ".tmp", path)
        errors = [e for e in errors if ": says " not in e]
    errors += unchecked(new)
    for e in errors:
        print(f"readme-figures: {e}", file=sys.stderr)
    if sys.argv[1] == "--check" and new["README.md"] != text:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new["README.md"].splitlines(True),
                                                   "README.md", "README.md from tests/bench/results"))
        print("readme-figures: README.md's figures are not those of tests/bench/results/: "
              "python3 tests/readme-figures.py --update", file=sys.stderr)
        return 1
    return 1 if errors else 0

if __name__ == "__main__":
    sys.exit(main())
