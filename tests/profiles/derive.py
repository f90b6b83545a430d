#!/usr/bin/env python3
"""derive.py - writes expected/*.txt from HAND-DERIVED probe sequences.

This is not a model of the lookup: for every block the directories probed,
their order, where a hit ends or continues a scan and the result were
worked out by hand from kde-lookup.md and MODEL.md (reasoning in the
comments).  The helpers only expand the mechanical parts: a miss over a
directory list (MatchBest with delta = -inf prunes nothing, so every
directory of the list is probed), the User group / appicon stat lists, and
the numbering.  Run once: python3 derive.py (writes expected/).

Directories (see make-trees.sh), dw = MatchBest distance at 16/22/32/48:
 breeze  a12 F12 (-4/-10/-20/-36)  a16 F16 (0/-6/-16/-32)  a22 F22 (6/0/-10/-26)
         a32 S32-256 (16/10/0/0)   ap48 S48-256 (32/26/16/0)  sym S8-512 (0)
 hicolor KF embedded, existing: 16x16/apps T16 (0/-4/-14/-30),
         32x32/apps, 32x32/filesystems T32 (14/8/0/-14; filesystems kf5 only),
         48x48/apps T48 (30/24/14/0), scalable/apps S1-256 (0)
 hicolor disk (kde3/4): same dirs and types; exact at 16: 16x16/apps, scalable;
         at 32: 32x32/apps, 32x32/filesystems, scalable; at 48: 48x48/apps, scalable
 oxygen  8x8/emblems T8 (-6/-22/-38 at 16/32/48), 16x16/actions, 16x16/apps T16
         (0/-14/-30), 32x32/actions, 32x32/apps T32 (14/0/-14), 48x48/apps T48
         (30/14/0), scalable/apps S64-256 (48/32/16)
 crystalsvg (every dir twice in KDE 3) 16x16/actions, 16x16/apps T16, 22x22/apps
         T22, 32x32/apps T32, 48x48/apps T48, scalable/apps S64-256
"""
import os

EXTS = [".png", ".svgz", ".svg", ".xpm"]
BZ = "/usr/share/icons/breeze"
QBZ = ":/icons/breeze"
BZ_DIRS = ["actions/12", "actions/16", "actions/22", "actions/32", "apps/48", "actions/symbolic"]
HI = "/usr/share/icons/hicolor"
HI_KF5 = ["16x16/apps", "32x32/apps", "32x32/filesystems", "48x48/apps", "scalable/apps"]
HI_KF6 = ["16x16/apps", "32x32/apps", "48x48/apps", "scalable/apps"]
HI_DISK = HI_KF5  # disk index.theme order, existing dirs (22x22/apps is listed but absent)
OX = "/usr/share/icons/oxygen"
OX_DIRS = ["8x8/emblems", "16x16/actions", "16x16/apps", "32x32/actions", "32x32/apps",
           "48x48/apps", "scalable/apps"]
OX_EXACT = {16: ["16x16/actions", "16x16/apps"], 32: ["32x32/actions", "32x32/apps"],
            48: ["48x48/apps"]}
HI_EXACT = {16: ["16x16/apps", "scalable/apps"],
            32: ["32x32/apps", "32x32/filesystems", "scalable/apps"],
            48: ["48x48/apps", "scalable/apps"]}
CR = "/usr/share/icons/crystalsvg"
CR_DIRS = ["16x16/actions", "16x16/apps", "22x22/apps", "32x32/apps", "48x48/apps", "scalable/apps"]
CR_EXACT = {16: ["16x16/actions", "16x16/apps"], 32: ["32x32/apps"]}
HI3_EXACT = HI_EXACT


def dbl(dirs):
    """KDE 3: /usr/share/icons is a base twice, so every dir comes twice."""
    return [d for d in dirs for _ in (0, 1)]


# --- call records: (numbered, kind, path, mark)
def acc(path, hit=False):
    return [(True, "access", path, "found" if hit else "-")]


def qrc(path, hit=False):
    return [(False, "qrc", path, "found" if hit else "-")]


def l10n(d):
    return [(True, "stat", d + "/l10n", "")]


def qrc_l10n(d):
    # ASSUMPTION: the l10n check of a resource hit is a resource lookup too:
    # shown as an unnumbered qrc line with an empty mark, costs no call
    return [(False, "qrc", d + "/l10n", "")]


def st(path, hit=False):
    return [(True, "stat", path, "found" if hit else "-")]


# --- mechanical expansions
def kf_hit(d, f):
    return acc(f"{d}/{f}", True) + l10n(d)


def bz_probe(dirname, f, emb, disk_hit=False):
    """one breeze directory: resource copy first (kf6 embedded), then disk"""
    out = qrc(f"{QBZ}/{dirname}/{f}") if emb else []
    return out + acc(f"{BZ}/{dirname}/{f}", disk_hit)


def bz_miss(name, emb=False):
    out = []
    for d in BZ_DIRS:
        out += bz_probe(d, name + ".svg", emb)
    return out


def kf_hic_miss(name, dirs):
    out = []
    for e in EXTS:
        for d in dirs:
            out += acc(f"{HI}/{d}/{name}{e}")
    return out


def kf_user(name, found=None):
    out = []
    for e in EXTS:
        for sp in ["plasmashell/pics", "icons", "pixmaps"]:
            out += st(f"$XDG_DATA_HOME/{sp}/{name}{e}")
            for dd in ["/usr/local/share", "/usr/share"]:
                p = f"{dd}/{sp}/{name}{e}"
                if p == found:
                    return out + st(p, True)
                out += st(p)
    return out


def kde4_miss(base, dirs, exact, name):
    """KDE4 per ext: MatchExact over the exact dirs, then MatchBest over all"""
    out = []
    for e in EXTS:
        for d in exact:
            out += acc(f"{base}/{d}/{name}{e}")
        for d in dirs:
            out += acc(f"{base}/{d}/{name}{e}")
    return out


def kde3_miss(base, dirs, exact, name):
    """KDE3: every ext MatchExact, then every ext MatchBest (dirs doubled)"""
    out = []
    for e in EXTS:
        for d in dbl(exact):
            out += acc(f"{base}/{d}/{name}{e}")
    for e in EXTS:
        for d in dbl(dirs):
            out += acc(f"{base}/{d}/{name}{e}")
    return out


def appicon(name, found=None):
    """KDE3/4 appicon: ext outer; existing dirs /usr/share/icons, /usr/share/pixmaps"""
    out = []
    for e in EXTS:
        for dd in ["/usr/share/icons", "/usr/share/pixmaps"]:
            p = f"{dd}/{name}{e}"
            if p == found:
                return out + st(p, True)
            out += st(p)
    return out


def render(comment, name, size, themes, calls, result, via=None):
    lines = [f"# {comment}", f"{name} at {size} px; themes searched: {themes}"]
    n = 0
    for numbered, kind, path, mark in calls:
        if numbered:
            n += 1
            num = str(n)
        else:
            num = "-"
        lines.append("%6s  %-6s  %s  %s" % (num, kind, path, mark))
    if via == "absolute":
        assert not calls
        lines.append(f"=> {result} (absolute, 0 calls)")
    elif result is None:
        lines.append(f"=> not found ({n} {'call' if n == 1 else 'calls'})")
    else:
        lines.append(f"=> {result} ({via}, {n} {'call' if n == 1 else 'calls'})")
    return "\n".join(lines) + "\n"


KF = "breeze, breeze, hicolor"
K4 = "oxygen, oxygen, hicolor"
K3 = "crystalsvg, hicolor"

# =====================================================================
# kf5 (root all)
# =====================================================================
def kf5():
    B = []
    # kicbreeze: only breeze/actions/32 (S32-256)
    c = acc(f"{BZ}/actions/12/kicbreeze.svg") + acc(f"{BZ}/actions/16/kicbreeze.svg") \
        + acc(f"{BZ}/actions/22/kicbreeze.svg") + kf_hit(f"{BZ}/actions/32", "kicbreeze.svg")
    for s in (48, 32):
        B.append(render("spec §1.2/§8.3: exact-size hit in breeze actions/32 (dw 0) ends the scan at once; breeze probes only .svg",
                        "kicbreeze", s, KF, c, f"{BZ}/actions/32/kicbreeze.svg", "theme"))
    # at 22/16: a32 hit has dw 10/16 > 0: apps/48 (dw 26/32) pruned (delta > 0), symbolic (dw 0) still probed
    c = acc(f"{BZ}/actions/12/kicbreeze.svg") + acc(f"{BZ}/actions/16/kicbreeze.svg") \
        + acc(f"{BZ}/actions/22/kicbreeze.svg") + kf_hit(f"{BZ}/actions/32", "kicbreeze.svg") \
        + acc(f"{BZ}/actions/symbolic/kicbreeze.svg")
    for s in (22, 16):
        B.append(render("spec §1.2: best-match hit (dw>0) continues; apps/48 pruned (|dw|>=|delta|, delta>0), symbolic (dw 0) probed",
                        "kicbreeze", s, KF, c, f"{BZ}/actions/32/kicbreeze.svg", "theme"))
    # kicbest: breeze actions/12 and actions/22
    # 48: a12 hit dw-36; a16 -32 miss; a22 -26 hit; a32 0, apps/48 0, sym 0 miss
    c = kf_hit(f"{BZ}/actions/12", "kicbest.svg") + acc(f"{BZ}/actions/16/kicbest.svg") \
        + kf_hit(f"{BZ}/actions/22", "kicbest.svg") + acc(f"{BZ}/actions/32/kicbest.svg") \
        + acc(f"{BZ}/apps/48/kicbest.svg") + acc(f"{BZ}/actions/symbolic/kicbest.svg")
    B.append(render("spec §1.2: MatchBest keeps the closest of two hits (12 then 22) and scans on; each hit costs an l10n stat",
                    "kicbest", 48, KF, c, f"{BZ}/actions/22/kicbest.svg", "theme"))
    # 16: a12 hit dw-4; a16 0 miss; a22 dw 6 (not pruned: dw>0, delta<0) hit -> delta 6;
    # a32 16, apps/48 32 pruned (delta>0); sym 0 miss
    c = kf_hit(f"{BZ}/actions/12", "kicbest.svg") + acc(f"{BZ}/actions/16/kicbest.svg") \
        + kf_hit(f"{BZ}/actions/22", "kicbest.svg") + acc(f"{BZ}/actions/symbolic/kicbest.svg")
    B.append(render("spec §1.2: a larger dir (dw 6) replaces a smaller hit (dw -4); then dw>0 dirs are pruned",
                    "kicbest", 16, KF, c, f"{BZ}/actions/22/kicbest.svg", "theme"))
    # kichi: hicolor 48x48/apps png + scalable/apps svg
    c = bz_miss("kichi") * 2 + acc(f"{HI}/16x16/apps/kichi.png") + acc(f"{HI}/32x32/apps/kichi.png") \
        + acc(f"{HI}/32x32/filesystems/kichi.png") + kf_hit(f"{HI}/48x48/apps", "kichi.png")
    B.append(render("spec §2.1: breeze listed twice; embedded hicolor (only dirs on disk, size major); 48x48 T48 exact",
                    "kichi", 48, KF, c, f"{HI}/48x48/apps/kichi.png", "theme"))
    # 32: 16x16 -14, 32x32 0 miss, filesystems 0 miss, 48x48 dw 14 hit, scalable 0 miss (png)
    c = bz_miss("kichi") * 2 + acc(f"{HI}/16x16/apps/kichi.png") + acc(f"{HI}/32x32/apps/kichi.png") \
        + acc(f"{HI}/32x32/filesystems/kichi.png") + kf_hit(f"{HI}/48x48/apps", "kichi.png") \
        + acc(f"{HI}/scalable/apps/kichi.png")
    B.append(render("spec §1.2/§2.1: name only in hicolor; .png wins over the scalable .svg (extension outer loop)",
                    "kichi", 32, KF, c, f"{HI}/48x48/apps/kichi.png", "theme"))
    # kichi.png at 16: stripped to kichi; 16x16 0 miss, 32x32 14 miss, fs 14 miss, 48x48 30 hit, scalable 0 miss
    c = bz_miss("kichi") * 2 + acc(f"{HI}/16x16/apps/kichi.png") + acc(f"{HI}/32x32/apps/kichi.png") \
        + acc(f"{HI}/32x32/filesystems/kichi.png") + kf_hit(f"{HI}/48x48/apps", "kichi.png") \
        + acc(f"{HI}/scalable/apps/kichi.png")
    B.append(render("spec §4.2: Icon= with .png: the extension is stripped, lookup as kichi",
                    "kichi.png", 16, KF, c, f"{HI}/48x48/apps/kichi.png", "theme"))
    # kicview-beta: dash cut per theme
    c = (bz_miss("kicview-beta") + bz_miss("kicview")) * 2 + kf_hic_miss("kicview-beta", HI_KF5) \
        + acc(f"{HI}/16x16/apps/kicview.png") + acc(f"{HI}/32x32/apps/kicview.png") \
        + acc(f"{HI}/32x32/filesystems/kicview.png") + kf_hit(f"{HI}/48x48/apps", "kicview.png")
    B.append(render("spec §3.1: dash truncation inside each theme before the next theme (kicview-beta -> kicview)",
                    "kicview-beta", 48, KF, c, f"{HI}/48x48/apps/kicview.png", "theme"))
    # text-kicnote -> text -> text-x-generic (breeze actions/32)
    c = bz_miss("text-kicnote") + bz_miss("text") + acc(f"{BZ}/actions/12/text-x-generic.svg") \
        + acc(f"{BZ}/actions/16/text-x-generic.svg") + acc(f"{BZ}/actions/22/text-x-generic.svg") \
        + kf_hit(f"{BZ}/actions/32", "text-x-generic.svg")
    B.append(render("spec §3.1: media type after the dash cuts -> text-x-generic, found in the first breeze",
                    "text-kicnote", 48, KF, c, f"{BZ}/actions/32/text-x-generic.svg", "theme"))
    # x-kic-doc: variants x-kic-doc, x-kic (dash at 1 is not cut; x-kic no media type);
    # then mime generic-icons kicpack (hicolor 32x32/apps)
    c = (bz_miss("x-kic-doc") + bz_miss("x-kic")) * 2 + kf_hic_miss("x-kic-doc", HI_KF5) \
        + kf_hic_miss("x-kic", HI_KF5) + bz_miss("kicpack") * 2 \
        + acc(f"{HI}/16x16/apps/kicpack.png") + kf_hit(f"{HI}/32x32/apps", "kicpack.png")
    B.append(render("spec §3.1: not in any theme -> generic icon from mime/generic-icons (x-kic/doc:kicpack)",
                    "x-kic-doc", 32, KF, c, f"{HI}/32x32/apps/kicpack.png", "generic"))
    # kicpix: only /usr/share/pixmaps/kicpix.xpm
    c = bz_miss("kicpix") * 2 + kf_hic_miss("kicpix", HI_KF5) \
        + kf_user("kicpix", "/usr/share/pixmaps/kicpix.xpm")
    B.append(render("spec §4.3: not found in themes -> User group locate finds /usr/share/pixmaps/kicpix.xpm",
                    "kicpix", 48, KF, c, "/usr/share/pixmaps/kicpix.xpm", "user"))
    c = bz_miss("kicnone") * 2 + kf_hic_miss("kicnone", HI_KF5) + kf_user("kicnone")
    B.append(render("spec §4.3: total miss: every breeze dir twice, hicolor x4 extensions, User group",
                    "kicnone", 32, KF, c, None))
    B.append(render("spec §4.1: absolute Icon= is used as is, no call",
                    "/usr/share/pixmaps/kicpix.xpm", 48, KF, [], "/usr/share/pixmaps/kicpix.xpm", "absolute"))
    # kicpng: breeze/actions/32/kicpng.png is never probed (.svg only)
    c = bz_miss("kicpng") * 2 + acc(f"{HI}/16x16/apps/kicpng.png") + kf_hit(f"{HI}/32x32/apps", "kicpng.png")
    B.append(render("spec §2.1: breeze KDE-Extensions=.svg: the .png in breeze/actions/32 is never probed",
                    "kicpng", 32, KF, c, f"{HI}/32x32/apps/kicpng.png", "theme"))
    c = bz_miss("kicfs") * 2 + acc(f"{HI}/16x16/apps/kicfs.png") + acc(f"{HI}/32x32/apps/kicfs.png") \
        + kf_hit(f"{HI}/32x32/filesystems", "kicfs.png")
    B.append(render("spec §2.1: FileSystems dirs are valid in KF5 (embedded hicolor)",
                    "kicfs", 32, KF, c, f"{HI}/32x32/filesystems/kicfs.png", "theme"))
    # kicapp at 48: 16x16 hit dw -30, 32x32 -14 miss, fs miss, 48x48 0 hit
    c = bz_miss("kicapp") * 2 + kf_hit(f"{HI}/16x16/apps", "kicapp.png") + acc(f"{HI}/32x32/apps/kicapp.png") \
        + acc(f"{HI}/32x32/filesystems/kicapp.png") + kf_hit(f"{HI}/48x48/apps", "kicapp.png")
    B.append(render("spec §1.2: hicolor best match: 16x16 hit (dw -30) then 48x48 (dw 0) ends",
                    "kicapp", 48, KF, c, f"{HI}/48x48/apps/kicapp.png", "theme"))
    # kicsvg only in hicolor/scalable/apps
    c = bz_miss("kicsvg") * 2
    for e in [".png", ".svgz"]:
        for d in HI_KF5:
            c += acc(f"{HI}/{d}/kicsvg{e}")
    c += acc(f"{HI}/16x16/apps/kicsvg.svg") + acc(f"{HI}/32x32/apps/kicsvg.svg") \
        + acc(f"{HI}/32x32/filesystems/kicsvg.svg") + acc(f"{HI}/48x48/apps/kicsvg.svg") \
        + kf_hit(f"{HI}/scalable/apps", "kicsvg.svg")
    B.append(render("spec §3.1: extension outer loop: .png and .svgz over every hicolor dir before .svg",
                    "kicsvg", 32, KF, c, f"{HI}/scalable/apps/kicsvg.svg", "theme"))
    # KF5 has no -symbolic rule: kicsym-extra-symbolic -> kicsym-extra -> kicsym; never kicsym-symbolic
    v = ["kicsym-extra-symbolic", "kicsym-extra", "kicsym"]
    c = []
    for _ in (0, 1):
        for n in v:
            c += bz_miss(n)
    for n in v:
        c += kf_hic_miss(n, HI_KF5)
    c += kf_user("kicsym-extra-symbolic")
    B.append(render("spec §3.1: KF5 has no -symbolic rule: plain dash cuts, breeze's kicsym-symbolic.svg is never tried",
                    "kicsym-extra-symbolic", 48, KF, c, None))
    return B


# =====================================================================
# kf6: emb = breeze embedded (root detect-kf6) or not (detect-kf6-nobreeze)
# =====================================================================
def kf6(emb):
    B = []
    tag = "embedded breeze: resource copy first, no call; " if emb else ""
    if emb:
        # kicbreeze 48: resource a32 hit (dw 0) ends; disk a32 never probed
        c = bz_probe("actions/12", "kicbreeze.svg", True) + bz_probe("actions/16", "kicbreeze.svg", True) \
            + bz_probe("actions/22", "kicbreeze.svg", True) + qrc(f"{QBZ}/actions/32/kicbreeze.svg", True) \
            + qrc_l10n(f"{QBZ}/actions/32")
        B.append(render("spec §2.2/MODEL: " + tag + "each breeze dir twice in a row; the resource copy answers",
                        "kicbreeze", 48, KF, c, f"{QBZ}/actions/32/kicbreeze.svg", "theme"))
        # kicbest 48: qrc a12 hit (-36) -> disk a12 (-36) pruned (|dw|>=|delta|, dw<0);
        # qrc a16 miss, disk a16 miss; qrc a22 hit (-26) -> disk a22 pruned; then dw 0 dirs both copies miss
        c = qrc(f"{QBZ}/actions/12/kicbest.svg", True) + qrc_l10n(f"{QBZ}/actions/12") \
            + bz_probe("actions/16", "kicbest.svg", True) \
            + qrc(f"{QBZ}/actions/22/kicbest.svg", True) + qrc_l10n(f"{QBZ}/actions/22") \
            + bz_probe("actions/32", "kicbest.svg", True) + bz_probe("apps/48", "kicbest.svg", True) \
            + bz_probe("actions/symbolic", "kicbest.svg", True)
        B.append(render("spec §1.2/§2.2: after a resource hit the disk copy of the same dir is pruned (same dw)",
                        "kicbest", 48, KF, c, f"{QBZ}/actions/22/kicbest.svg", "theme"))
    else:
        c = acc(f"{BZ}/actions/12/kicbreeze.svg") + acc(f"{BZ}/actions/16/kicbreeze.svg") \
            + acc(f"{BZ}/actions/22/kicbreeze.svg") + kf_hit(f"{BZ}/actions/32", "kicbreeze.svg")
        B.append(render("spec §8.3 (KF6 without libKF6BreezeIcons): disk breeze only, actions/32 exact",
                        "kicbreeze", 48, KF, c, f"{BZ}/actions/32/kicbreeze.svg", "theme"))
        c = kf_hit(f"{BZ}/actions/12", "kicbest.svg") + acc(f"{BZ}/actions/16/kicbest.svg") \
            + kf_hit(f"{BZ}/actions/22", "kicbest.svg") + acc(f"{BZ}/actions/symbolic/kicbest.svg")
        B.append(render("spec §1.2: a larger dir (dw 6) replaces a smaller hit (dw -4); then dw>0 dirs are pruned",
                        "kicbest", 16, KF, c, f"{BZ}/actions/22/kicbest.svg", "theme"))
    # kichi 32 (no filesystems dir in KF6)
    c = bz_miss("kichi", emb) * 2 + acc(f"{HI}/16x16/apps/kichi.png") + acc(f"{HI}/32x32/apps/kichi.png") \
        + kf_hit(f"{HI}/48x48/apps", "kichi.png") + acc(f"{HI}/scalable/apps/kichi.png")
    B.append(render("spec §2.2: " + tag + "breeze twice; embedded hicolor without the FileSystems dir",
                    "kichi", 32, KF, c, f"{HI}/48x48/apps/kichi.png", "theme"))
    # kichi.png 22: 16x16 -4 miss, 32x32 8 miss, 48x48 24 hit, scalable 0 miss
    c = bz_miss("kichi", emb) * 2 + acc(f"{HI}/16x16/apps/kichi.png") + acc(f"{HI}/32x32/apps/kichi.png") \
        + kf_hit(f"{HI}/48x48/apps", "kichi.png") + acc(f"{HI}/scalable/apps/kichi.png")
    B.append(render("spec §4.2: Icon= with .png is stripped; best match at 22 px in hicolor",
                    "kichi.png", 22, KF, c, f"{HI}/48x48/apps/kichi.png", "theme"))
    # kicfs: KF6 drops */filesystems -> not found
    c = bz_miss("kicfs", emb) * 2 + kf_hic_miss("kicfs", HI_KF6) + kf_user("kicfs")
    B.append(render("spec §2.2: FileSystems context invalid in KF6: hicolor/32x32/filesystems is not searched",
                    "kicfs", 32, KF, c, None))
    # kicsym-extra-symbolic: try it; strip -> kicsym-extra, try; cut -> kicsym + -symbolic -> hit in symbolic dir
    c = bz_miss("kicsym-extra-symbolic", emb) + bz_miss("kicsym-extra", emb)
    for d in ["actions/12", "actions/16", "actions/22", "actions/32", "apps/48"]:
        c += bz_probe(d, "kicsym-symbolic.svg", emb)
    if emb:
        c += qrc(f"{QBZ}/actions/symbolic/kicsym-symbolic.svg", True) + qrc_l10n(f"{QBZ}/actions/symbolic")
        res = f"{QBZ}/actions/symbolic/kicsym-symbolic.svg"
    else:
        c += kf_hit(f"{BZ}/actions/symbolic", "kicsym-symbolic.svg")
        res = f"{BZ}/actions/symbolic/kicsym-symbolic.svg"
    B.append(render("spec §3.1 [KF6]: -symbolic: try name, then name minus -symbolic, then cut + re-append -symbolic",
                    "kicsym-extra-symbolic", 48, KF, c, res, "theme"))
    # text-kicnote
    if emb:
        # at 22: resource a32 hit dw 10 -> disk a32 (10) pruned, apps/48 (26) both pruned, symbolic (0) both probed
        c = bz_miss("text-kicnote", True) + bz_miss("text", True) \
            + bz_probe("actions/12", "text-x-generic.svg", True) + bz_probe("actions/16", "text-x-generic.svg", True) \
            + bz_probe("actions/22", "text-x-generic.svg", True) \
            + qrc(f"{QBZ}/actions/32/text-x-generic.svg", True) + qrc_l10n(f"{QBZ}/actions/32") \
            + bz_probe("actions/symbolic", "text-x-generic.svg", True)
        B.append(render("spec §3.1/§1.2: -x-generic via the resource copy at 22 px (dw 10): disk actions/32 pruned",
                        "text-kicnote", 22, KF, c, f"{QBZ}/actions/32/text-x-generic.svg", "theme"))
    else:
        c = bz_miss("text-kicnote") + bz_miss("text") + acc(f"{BZ}/actions/12/text-x-generic.svg") \
            + acc(f"{BZ}/actions/16/text-x-generic.svg") + acc(f"{BZ}/actions/22/text-x-generic.svg") \
            + kf_hit(f"{BZ}/actions/32", "text-x-generic.svg")
        B.append(render("spec §3.1: media type after the dash cuts -> text-x-generic",
                        "text-kicnote", 48, KF, c, f"{BZ}/actions/32/text-x-generic.svg", "theme"))
    # kicview-beta 48
    c = (bz_miss("kicview-beta", emb) + bz_miss("kicview", emb)) * 2 + kf_hic_miss("kicview-beta", HI_KF6) \
        + acc(f"{HI}/16x16/apps/kicview.png") + acc(f"{HI}/32x32/apps/kicview.png") \
        + kf_hit(f"{HI}/48x48/apps", "kicview.png")
    B.append(render("spec §3.1: dash truncation per theme (kicview-beta -> kicview)",
                    "kicview-beta", 48, KF, c, f"{HI}/48x48/apps/kicview.png", "theme"))
    c = bz_miss("kicpix", emb) * 2 + kf_hic_miss("kicpix", HI_KF6) \
        + kf_user("kicpix", "/usr/share/pixmaps/kicpix.xpm")
    B.append(render("spec §4.3: User group finds /usr/share/pixmaps/kicpix.xpm",
                    "kicpix", 48, KF, c, "/usr/share/pixmaps/kicpix.xpm", "user"))
    c = bz_miss("kicnone", emb) * 2 + kf_hic_miss("kicnone", HI_KF6) + kf_user("kicnone")
    B.append(render("spec §4.3: total miss", "kicnone", 16, KF, c, None))
    B.append(render("spec §4.1: absolute Icon=", "/usr/share/pixmaps/kicpix.xpm", 32, KF, [],
                    "/usr/share/pixmaps/kicpix.xpm", "absolute"))
    # kicapp 16: hicolor 16x16 exact (dw 0)
    c = bz_miss("kicapp", emb) * 2 + kf_hit(f"{HI}/16x16/apps", "kicapp.png")
    B.append(render("spec §1.2: hicolor 16x16/apps dw 0 at 16 px ends the scan",
                    "kicapp", 16, KF, c, f"{HI}/16x16/apps/kicapp.png", "theme"))
    c = (bz_miss("x-kic-doc", emb) + bz_miss("x-kic", emb)) * 2 + kf_hic_miss("x-kic-doc", HI_KF6) \
        + kf_hic_miss("x-kic", HI_KF6) + bz_miss("kicpack", emb) * 2 \
        + acc(f"{HI}/16x16/apps/kicpack.png") + kf_hit(f"{HI}/32x32/apps", "kicpack.png")
    B.append(render("spec §3.1: mime generic-icons fallback (x-kic/doc:kicpack)",
                    "x-kic-doc", 32, KF, c, f"{HI}/32x32/apps/kicpack.png", "generic"))
    # kicsvg 32: png (16x16 -14, 32x32 0, 48x48 14, scalable 0: all probed, no hit), svgz same, svg scalable hit
    c = bz_miss("kicsvg", emb) * 2
    for e in [".png", ".svgz"]:
        for d in HI_KF6:
            c += acc(f"{HI}/{d}/kicsvg{e}")
    c += acc(f"{HI}/16x16/apps/kicsvg.svg") + acc(f"{HI}/32x32/apps/kicsvg.svg") \
        + acc(f"{HI}/48x48/apps/kicsvg.svg") + kf_hit(f"{HI}/scalable/apps", "kicsvg.svg")
    B.append(render("spec §8.3: an SVG only in hicolor (plant candidate for breeze/actions/32)",
                    "kicsvg", 32, KF, c, f"{HI}/scalable/apps/kicsvg.svg", "theme"))
    return B


# =====================================================================
# kde4 (root all); first = 4.10.1+ /apps/ first pass
# =====================================================================
def ox(d, n):
    return f"{OX}/{d}/{n}"


def kde4(first):
    B = []
    # kicapp: oxygen/16x16/actions + hicolor/16x16/apps, 48x48/apps
    if not first:
        c = acc(ox("16x16/actions", "kicapp.png"), True)
        B.append(render("spec §3.2/§8.4 (4.8): first exact dir for 16 px hits and returns",
                        "kicapp", 16, K4, c, ox("16x16/actions", "kicapp.png"), "theme"))
        # 32: exact 32x32/actions, 32x32/apps miss; best: 8x8 -22 miss, 16x16/actions -14 hit,
        # 16x16/apps -14 pruned, 32x32/* 0 miss, 48x48 14 (dw>0, delta<0: probed) miss, scalable 32 miss
        c = acc(ox("32x32/actions", "kicapp.png")) + acc(ox("32x32/apps", "kicapp.png")) \
            + acc(ox("8x8/emblems", "kicapp.png")) + acc(ox("16x16/actions", "kicapp.png"), True) \
            + acc(ox("32x32/actions", "kicapp.png")) + acc(ox("32x32/apps", "kicapp.png")) \
            + acc(ox("48x48/apps", "kicapp.png")) + acc(ox("scalable/apps", "kicapp.png"))
        B.append(render("spec §3.2 (4.8): per ext MatchExact then MatchBest; oxygen's 16x16/actions wins over hicolor apps",
                        "kicapp", 32, K4, c, ox("16x16/actions", "kicapp.png"), "theme"))
    else:
        c = acc(ox("16x16/actions", "kicapp.png"), True) * 2 + acc(f"{HI}/16x16/apps/kicapp.png", True)
        B.append(render("spec §3.2 (4.10.1+): first pass: oxygen hits (twice) lack /apps/ and are dropped; hicolor 16x16/apps returned",
                        "kicapp", 16, K4, c, f"{HI}/16x16/apps/kicapp.png", "theme"))
        one = acc(ox("32x32/actions", "kicapp.png")) + acc(ox("32x32/apps", "kicapp.png")) \
            + acc(ox("8x8/emblems", "kicapp.png")) + acc(ox("16x16/actions", "kicapp.png"), True) \
            + acc(ox("32x32/actions", "kicapp.png")) + acc(ox("32x32/apps", "kicapp.png")) \
            + acc(ox("48x48/apps", "kicapp.png")) + acc(ox("scalable/apps", "kicapp.png"))
        # hicolor .png exact: 32x32/apps, 32x32/filesystems, scalable miss; best: 16x16 (-14) hit,
        # 32x32/apps 0 miss, fs 0 miss, 48x48 (14; dw>0 and delta<0: probed) hit, scalable 0 miss
        c = one * 2 + acc(f"{HI}/32x32/apps/kicapp.png") + acc(f"{HI}/32x32/filesystems/kicapp.png") \
            + acc(f"{HI}/scalable/apps/kicapp.png") + acc(f"{HI}/16x16/apps/kicapp.png", True) \
            + acc(f"{HI}/32x32/apps/kicapp.png") + acc(f"{HI}/32x32/filesystems/kicapp.png") \
            + acc(f"{HI}/48x48/apps/kicapp.png", True) + acc(f"{HI}/scalable/apps/kicapp.png")
        B.append(render("spec §3.2 (4.10.1+): first pass drops oxygen 16x16/actions (x2); hicolor best match 48x48/apps has /apps/",
                        "kicapp", 32, K4, c, f"{HI}/48x48/apps/kicapp.png", "theme"))
    # kicact: only oxygen/16x16/actions
    if not first:
        c = acc(ox("16x16/actions", "kicact.png"), True)
        B.append(render("spec §8.4 (4.8): the first exact dir hit returns at once",
                        "kicact", 16, K4, c, ox("16x16/actions", "kicact.png"), "theme"))
    else:
        c = acc(ox("16x16/actions", "kicact.png"), True) * 2 \
            + kde4_miss(HI, HI_DISK, HI_EXACT[16], "kicact") + acc(ox("16x16/actions", "kicact.png"), True)
        B.append(render("spec §3.2 (4.10.1+): no /apps/ hit anywhere: first pass wasted, the normal loop finds oxygen 16x16/actions again",
                        "kicact", 16, K4, c, ox("16x16/actions", "kicact.png"), "theme"))
    # kicoxy: oxygen/32x32/apps
    c = acc(ox("32x32/actions", "kicoxy.png")) + acc(ox("32x32/apps", "kicoxy.png"), True)
    B.append(render("spec §8.4: exact hit in oxygen 32x32/apps (third exact dir incl. the 32x32/actions miss)",
                    "kicoxy", 32, K4, c, ox("32x32/apps", "kicoxy.png"), "theme"))
    # 16: exact 16x16/actions, apps miss; best 8x8 -6, 16x16 x2 0, 32x32/actions 14 miss, 32x32/apps 14 hit,
    # 48x48 30 and scalable 48 pruned (delta > 0)
    c = acc(ox("16x16/actions", "kicoxy.png")) + acc(ox("16x16/apps", "kicoxy.png")) \
        + acc(ox("8x8/emblems", "kicoxy.png")) + acc(ox("16x16/actions", "kicoxy.png")) \
        + acc(ox("16x16/apps", "kicoxy.png")) + acc(ox("32x32/actions", "kicoxy.png")) \
        + acc(ox("32x32/apps", "kicoxy.png"), True)
    B.append(render("spec §1.2/§3.2: MatchBest at 16 px finds 32x32/apps (dw 14), larger dirs pruned",
                    "kicoxy", 16, K4, c, ox("32x32/apps", "kicoxy.png"), "theme"))
    # kicext: svgz in 32x32/apps, png in 48x48/apps; 32 px: .png exact miss, .png best -> 48x48 (14), scalable pruned
    c = acc(ox("32x32/actions", "kicext.png")) + acc(ox("32x32/apps", "kicext.png"))
    for d in ["8x8/emblems", "16x16/actions", "16x16/apps", "32x32/actions", "32x32/apps"]:
        c += acc(ox(d, "kicext.png"))
    c += acc(ox("48x48/apps", "kicext.png"), True)
    B.append(render("spec §8.4: KDE4 extension order: .png (exact, then best) before .svgz; the exact 32x32 .svgz is never probed",
                    "kicext", 32, K4, c, ox("48x48/apps", "kicext.png"), "theme"))
    # kichi 48: oxygen x2 misses, hicolor .png exact 48x48/apps hit
    c = kde4_miss(OX, OX_DIRS, OX_EXACT[48], "kichi") * 2 + acc(f"{HI}/48x48/apps/kichi.png", True)
    B.append(render("spec §2.3: oxygen listed twice, then hicolor from its disk index.theme",
                    "kichi", 48, K4, c, f"{HI}/48x48/apps/kichi.png", "theme"))
    # kichi.png 16: hicolor .png exact 16x16/apps, scalable miss; best 16x16 0 miss, 32x32 14, fs 14 miss,
    # 48x48 30 hit, scalable 0 miss
    c = kde4_miss(OX, OX_DIRS, OX_EXACT[16], "kichi") * 2 + acc(f"{HI}/16x16/apps/kichi.png") \
        + acc(f"{HI}/scalable/apps/kichi.png") + acc(f"{HI}/16x16/apps/kichi.png") \
        + acc(f"{HI}/32x32/apps/kichi.png") + acc(f"{HI}/32x32/filesystems/kichi.png") \
        + acc(f"{HI}/48x48/apps/kichi.png", True) + acc(f"{HI}/scalable/apps/kichi.png")
    B.append(render("spec §4.2: .png stripped; hicolor best match at 16 px (png in 48x48 before svg in scalable)",
                    "kichi.png", 16, K4, c, f"{HI}/48x48/apps/kichi.png", "theme"))
    # text-kicnote 32: text-kicnote, text miss in oxygen; text-x-generic .png exact 32x32/actions hit
    pre = []
    if first:
        pre = kde4_miss(OX, OX_DIRS, OX_EXACT[32], "text-kicnote") * 2 \
            + kde4_miss(HI, HI_DISK, HI_EXACT[32], "text-kicnote")
    c = pre + kde4_miss(OX, OX_DIRS, OX_EXACT[32], "text-kicnote") + kde4_miss(OX, OX_DIRS, OX_EXACT[32], "text") \
        + acc(ox("32x32/actions", "text-x-generic.png"), True)
    B.append(render("spec §3.2: dash cut and -x-generic in KDE4" + (" after a first pass (plain name only) that finds nothing" if first else ""),
                    "text-kicnote", 32, K4, c, ox("32x32/actions", "text-x-generic.png"), "theme"))
    if not first:
        c = (kde4_miss(OX, OX_DIRS, OX_EXACT[48], "kicview-beta") + kde4_miss(OX, OX_DIRS, OX_EXACT[48], "kicview")) * 2 \
            + kde4_miss(HI, HI_DISK, HI_EXACT[48], "kicview-beta") + acc(f"{HI}/48x48/apps/kicview.png", True)
        B.append(render("spec §3.2: dash truncation per theme in KDE4",
                        "kicview-beta", 48, K4, c, f"{HI}/48x48/apps/kicview.png", "theme"))
        c = kde4_miss(OX, OX_DIRS, OX_EXACT[16], "kicpix") * 2 + kde4_miss(HI, HI_DISK, HI_EXACT[16], "kicpix") \
            + appicon("kicpix", "/usr/share/pixmaps/kicpix.xpm")
        B.append(render("MODEL not-found: appicon stats (ext outer; /usr/share/icons, /usr/share/pixmaps)",
                        "kicpix", 16, K4, c, "/usr/share/pixmaps/kicpix.xpm", "user"))
        c = kde4_miss(OX, OX_DIRS, OX_EXACT[32], "kicnone") * 2 + kde4_miss(HI, HI_DISK, HI_EXACT[32], "kicnone") \
            + appicon("kicnone")
        B.append(render("spec §4.3: total miss in KDE4", "kicnone", 32, K4, c, None))
    else:
        one = kde4_miss(OX, OX_DIRS, OX_EXACT[48], "kicpix") * 2 + kde4_miss(HI, HI_DISK, HI_EXACT[48], "kicpix")
        c = one * 2 + appicon("kicpix", "/usr/share/pixmaps/kicpix.xpm")
        B.append(render("spec §3.2 (4.10.1+): a name in no theme is searched twice (first pass, then the loop), then appicon",
                        "kicpix", 48, K4, c, "/usr/share/pixmaps/kicpix.xpm", "user"))
        one = kde4_miss(OX, OX_DIRS, OX_EXACT[16], "kicnone") * 2 + kde4_miss(HI, HI_DISK, HI_EXACT[16], "kicnone")
        c = one * 2 + appicon("kicnone")
        B.append(render("spec §3.2/§4.3 (4.10.1+): total miss, every theme searched twice", "kicnone", 16, K4, c, None))
    B.append(render("spec §4.1: absolute Icon=", "/usr/share/pixmaps/kicpix.xpm", 32, K4, [],
                    "/usr/share/pixmaps/kicpix.xpm", "absolute"))
    return B


# =====================================================================
# kde3 (root all)
# =====================================================================
def cr(d, n):
    return f"{CR}/{d}/{n}"


def kde3():
    B = []
    c = acc(cr("16x16/actions", "kiccrys.png"), True)
    B.append(render("spec §8.4: KDE3 first probe crystalsvg/16x16/actions .png hits: one call",
                    "kiccrys", 16, K3, c, cr("16x16/actions", "kiccrys.png"), "theme"))
    # kicext 16: exact .png over 16x16/actions x2, 16x16/apps x2 miss; exact .svgz: actions x2 miss, apps hit
    c = []
    for d in dbl(["16x16/actions", "16x16/apps"]):
        c += acc(cr(d, "kicext.png"))
    c += acc(cr("16x16/actions", "kicext.svgz")) * 2 + acc(cr("16x16/apps", "kicext.svgz"), True)
    B.append(render("spec §3.3: KDE3 runs MatchExact for every extension first: the exact .svgz beats the 22x22 .png; dirs doubled (§2.4)",
                    "kicext", 16, K3, c, cr("16x16/apps", "kicext.svgz"), "theme"))
    # kic3best 16: exact all ext miss (4 entries x 4); best .png: 16x16/actions x2 (0) miss, 16x16/apps x2 miss,
    # 22x22/apps (4) hit -> delta 4; its duplicate (4) pruned |dw|>=|delta|; 32x32, 48x48, scalable pruned
    c = []
    for e in EXTS:
        for d in dbl(CR_EXACT[16]):
            c += acc(cr(d, "kic3best" + e))
    for d in dbl(["16x16/actions", "16x16/apps"]):
        c += acc(cr(d, "kic3best.png"))
    c += acc(cr("22x22/apps", "kic3best.png"), True)
    B.append(render("spec §1.2 (KDE3 rule): best-match hit dw 4; the duplicate dir and larger dirs are pruned",
                    "kic3best", 16, K3, c, cr("22x22/apps", "kic3best.png"), "theme"))
    # kic3up 32: exact 32x32/apps x2 x 4 ext miss; best .png: 16x16/actions x2 (-14) miss, 16x16/apps (-14) hit,
    # dup pruned; 22x22 x2 (-8) miss; 32x32 x2 (0) miss; 48x48 (14): |14|>=14 -> pruned (KDE3 rule); scalable pruned
    c = []
    for e in EXTS:
        for d in dbl(CR_EXACT[32]):
            c += acc(cr(d, "kic3up" + e))
    c += acc(cr("16x16/actions", "kic3up.png")) * 2 + acc(cr("16x16/apps", "kic3up.png"), True)
    c += acc(cr("22x22/apps", "kic3up.png")) * 2 + acc(cr("32x32/apps", "kic3up.png")) * 2
    B.append(render("spec §1.2: KDE3 pruning skips the larger 48x48 (|dw| = |delta|) where KF/KDE4 would probe it: upscaled 16x16 wins",
                    "kic3up", 32, K3, c, cr("16x16/apps", "kic3up.png"), "theme"))
    # kichi 16: crystalsvg miss; hicolor exact .png (16x16 x2, scalable x2) miss, .svgz miss, .svg 16x16 x2 miss, scalable hit
    c = kde3_miss(CR, CR_DIRS, CR_EXACT[16], "kichi")
    for e in [".png", ".svgz"]:
        for d in dbl(HI3_EXACT[16]):
            c += acc(f"{HI}/{d}/kichi{e}")
    c += acc(f"{HI}/16x16/apps/kichi.svg") * 2 + acc(f"{HI}/scalable/apps/kichi.svg", True)
    for nm in ("kichi", "kichi.png"):
        B.append(render("spec §3.3/§4.2: KDE3 exact pass over all extensions finds hicolor scalable .svg before any best-match .png" +
                        (" (Icon= .png stripped)" if nm != "kichi" else ""),
                        nm, 16, K3, c, f"{HI}/scalable/apps/kichi.svg", "theme"))
    c = kde3_miss(CR, CR_DIRS, CR_EXACT[16], "kicview-beta") + kde3_miss(HI, HI_DISK, HI3_EXACT[16], "kicview-beta") \
        + appicon("kicview-beta")
    B.append(render("spec §3.3: KDE3 has no dash truncation: kicview-beta is not found although hicolor has kicview",
                    "kicview-beta", 16, K3, c, None))
    c = kde3_miss(CR, CR_DIRS, CR_EXACT[16], "kicpix") + kde3_miss(HI, HI_DISK, HI3_EXACT[16], "kicpix") \
        + appicon("kicpix", "/usr/share/pixmaps/kicpix.xpm")
    B.append(render("MODEL not-found (KDE3 appicon): /usr/share/pixmaps/kicpix.xpm",
                    "kicpix", 16, K3, c, "/usr/share/pixmaps/kicpix.xpm", "user"))
    c = kde3_miss(CR, CR_DIRS, CR_EXACT[32], "kicnone") + kde3_miss(HI, HI_DISK, HI3_EXACT[32], "kicnone") \
        + appicon("kicnone")
    B.append(render("spec §2.4/§4.3: total miss, every dir probed twice", "kicnone", 32, K3, c, None))
    B.append(render("spec §4.1: absolute Icon=", "/usr/share/pixmaps/kicpix.xpm", 16, K3, [],
                    "/usr/share/pixmaps/kicpix.xpm", "absolute"))
    c = kde3_miss(CR, CR_DIRS, CR_EXACT[16], "kicapp") + acc(f"{HI}/16x16/apps/kicapp.png", True)
    B.append(render("spec §2.4: theme list crystalsvg, hicolor; hicolor 16x16/apps exact",
                    "kicapp", 16, K3, c, f"{HI}/16x16/apps/kicapp.png", "theme"))
    c = kde3_miss(CR, CR_DIRS, CR_EXACT[32], "kicfs") + acc(f"{HI}/32x32/apps/kicfs.png") * 2 \
        + acc(f"{HI}/32x32/filesystems/kicfs.png", True)
    B.append(render("spec §2.4: hicolor disk index, FileSystems valid; 32x32/apps probed twice before the hit",
                    "kicfs", 32, K3, c, f"{HI}/32x32/filesystems/kicfs.png", "theme"))
    return B


HEAD = """# Expected `kde-icon-cache --explain` output, profile {p}.
# Derived by hand (tests/profiles/derive.py holds the reasoning), never by
# running the program.  Lines starting with # are ignored; blocks are
# separated by their "NAME at N px" header.
# run: {run}
"""

PROFILES = {
    "kf5": ("--root all --kde=kf5", kf5),
    "kf6": ("--root detect-kf6 --kde=kf6", lambda: kf6(True)),
    "kf6-nobreeze": ("--root detect-kf6-nobreeze --kde=kf6", lambda: kf6(False)),
    "kde4-4.8": ("--root all --kde=kde4 --kde-version=4.8", lambda: kde4(False)),
    "kde4-4.14": ("--root all --kde=kde4 --kde-version=4.14", lambda: kde4(True)),
    "kde3": ("--root all --kde=kde3", kde3),
}

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for p, (run, fn) in PROFILES.items():
        with open(os.path.join(here, "expected", p + ".txt"), "w") as f:
            f.write(HEAD.format(p=p, run=run))
            for b in fn():
                f.write(b)
