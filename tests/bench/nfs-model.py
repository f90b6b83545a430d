#!/usr/bin/env python3
"""nfs-model.py - what an NFS client would send for one traced process

    nfs-model.py [--acdirmin S] [--rtt MS,...] [--split] TRACE PREFIX...

TRACE is `strace -f -ttt -y -e trace=%file,getdents64,read` of a process
whose files under each PREFIX (a directory) are taken to be on NFS; the
tree must still be in the state it was traced in (each component of a
path is looked up on disk to know whether it exists, is a directory or
a symbolic link).  Two clients are modelled, both walking each path one
component at a time as the kernel does:

  nocache  today's worst case (make bench-nfs before issue 42, a FUSE
           mount with negative_timeout=0 and attr_timeout=0): directories
           once found stay known, every call's last component costs a
           round trip (LOOKUP of a missing name, GETATTR of a present one),
           and so does a missing directory on the way.
  cache    the Linux client's default (lookupcache=all): a name looked up
           once, found or not, is remembered; it is answered from memory
           while its directory's attributes are fresh, which they are for
           ACDIRMIN seconds after the last reply that carried them (LOOKUP
           and GETATTR replies do); past that one GETATTR of the directory
           revalidates every name in it (the tree does not change during a
           pass).  open() asks GETATTR of the file (close-to-open).  A
           symbolic link's target is read once (READLINK) and walked.

Both: each getdents64 returning entries is one READDIR, the first read of
a file one READ (the page cache keeps it).  Time is simulated: a call
happens at its traced time plus every round trip waited before it, at
each RTT, so a slow network ages the cache more.

Output, one line per RTT and client (and with --split one for the calls
before the first probe of an icon file under a PREFIX: the themes being
built; one for those before the first lookup marker, /@marker@/: the
themes and the process's own first lookups; and one for the rest):
  PART CLIENT RTT_MS round_trips seconds distinct_paths lookups_and_getattrs
"""
import os
import re
import sys

LINE = re.compile(r'^(?:\d+ +)?(\d+\.\d+) (\w+)\((.*)\) += (-?\d+|\?)')
UNFINISHED = re.compile(r'^(?:\d+ +)?(\d+\.\d+) (\w+)\((.*) <unfinished \.\.\.>$')
FD = re.compile(r'^(-?\d+|AT_FDCWD)<([^>]*)>')
STR = re.compile(r'"((?:[^"\\]|\\.)*)"')
ICON = re.compile(r'\.(png|svgz?|xpm)$')
PATH_CALLS = {"access", "faccessat", "faccessat2", "stat", "lstat", "newfstatat", "statx", "open",
              "openat", "openat2", "readlink", "readlinkat", "execve"}


def unescape(s):
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")


def events(path):
    """(time, kind, path) for every call on a path, in trace order"""
    out = []
    pending = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = UNFINISHED.match(line)
        if m:
            pending[line.split()[0]] = m
            continue
        if "resumed>" in line:
            pid = line.split()[0]
            m0 = pending.pop(pid, None)
            if m0 is None:
                continue
            rest = line.split("resumed>", 1)[1]
            r = re.search(r'\) += (-?\d+|\?)', rest)
            t, call, args, ret = m0[1], m0[2], m0[3], (r[1] if r else "?")
        else:
            m = LINE.match(line)
            if m is None:
                continue
            t, call, args, ret = m[1], m[2], m[3], m[4]
        t = float(t)
        if call in ("getdents64", "read"):
            f = FD.match(args)
            if f and ret not in ("0", "?") and not ret.startswith("-"):
                out.append((t, call, f[2]))
            continue
        if call not in PATH_CALLS:
            continue
        base = None
        f = FD.match(args)
        if f and call.endswith("at") or (f and call in ("statx", "openat2", "faccessat2")):
            base = f[2]
            args = args[f.end():]
        s = STR.search(args)
        if s is None:
            continue
        p = unescape(s[1])
        if p == "":
            continue  # an fd's own attributes: the open already paid
        if not p.startswith("/"):
            if base is None:
                continue
            p = os.path.join(base, p)
        kind = "open" if call.startswith("open") else "path"
        out.append((t, kind, os.path.normpath(p)))
    return out


class Client:
    def __init__(self, prefixes, cache, acdirmin, rtt):
        self.prefixes = prefixes
        self.cache = cache
        self.acdirmin = acdirmin
        self.rtt = rtt
        self.known = {}       # path -> kind ("d", "l", "f", None for missing) once looked up
        self.fresh = {}       # directory -> time its attributes were last received
        self.read = set()
        self.links = set()
        self.trips = 0
        self.meta = 0         # LOOKUP and GETATTR alone (what a FUSE mount counts)
        self.delay = 0.0
        self.paths = set()

    def nfs(self, p):
        for pre in self.prefixes:
            if p == pre or p.startswith(pre + "/"):
                return pre
        return None

    def trip(self, n=1):
        self.trips += n
        self.delay += n * self.rtt

    @staticmethod
    def kind(p):
        if os.path.islink(p):
            return "l"
        if os.path.isdir(p):
            return "d"
        return "f" if os.path.exists(p) else None

    def lookup(self, p, now, last):
        """one component: returns its kind, paying what the client pays"""
        d = os.path.dirname(p)
        if p in self.known:
            k = self.known[p]
            if not self.cache:
                # a known directory is kept (the dentry); the last
                # component, or a missing one, is asked again
                if k in ("d", "l") and not last:
                    return k
                self.trip()
                self.meta += 1
                return k
            if now + self.delay - self.fresh.get(d, -1e9) > self.acdirmin:
                self.trip()  # GETATTR of the directory
                self.meta += 1
                self.fresh[d] = now + self.delay
            return k
        k = self.kind(p)
        self.known[p] = k
        self.trip()  # LOOKUP (its reply carries the directory's attributes)
        self.meta += 1
        self.fresh[d] = now + self.delay
        if k == "d":
            self.fresh.setdefault(p, now + self.delay)
        return k

    def walk(self, p, now, depth=0):
        pre = self.nfs(p)
        if pre is None:
            return None
        self.paths.add(p)
        parts = p[len(pre):].strip("/").split("/") if p != pre else []
        cur = pre
        for i, part in enumerate(parts):
            cur = cur + "/" + part
            k = self.lookup(cur, now, i == len(parts) - 1)
            if k is None:
                return None
            if k == "l" and depth < 8:
                if cur not in self.links:
                    self.links.add(cur)
                    self.trip()  # READLINK
                target = os.path.normpath(os.path.join(os.path.dirname(cur), os.readlink(cur)))
                rest = "/".join(parts[i + 1:])
                return self.walk(os.path.join(target, rest) if rest else target, now, depth + 1)
        return self.known.get(cur, "d")

    def event(self, t, kind, p):
        if kind in ("getdents64", "read"):
            if self.nfs(p) is None:
                return
            if kind == "getdents64":
                self.trip()
            elif p not in self.read:
                self.read.add(p)
                self.trip()
            return
        k = self.walk(p, t)
        if kind == "open" and k is not None and self.cache:
            self.trip()  # close-to-open: GETATTR of the file at open


def main(argv):
    acdirmin = 30.0
    rtts = [2.0, 5.0, 20.0]
    split = False
    args = []
    it = iter(argv)
    for a in it:
        if a == "--acdirmin":
            acdirmin = float(next(it))
        elif a == "--rtt":
            rtts = [float(x) for x in next(it).split(",")]
        elif a == "--split":
            split = True
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    ev = events(args[0])
    prefixes = [os.path.normpath(p) for p in args[1:]]
    if not ev:
        print("nfs-model: %s: no call on a path" % args[0], file=sys.stderr)
        return 1
    t0 = ev[0][0]
    first = next((i for i, e in enumerate(ev) if e[2].startswith("/@marker@/")), len(ev))
    probe = next((i for i, e in enumerate(ev) if ICON.search(e[2]) and any(
        e[2].startswith(p + "/") for p in prefixes)), first)
    parts = [("all", 0, len(ev))]
    if split:
        parts += [("themes", 0, min(probe, first)), ("startup", 0, first), ("lookups", first, len(ev))]
    for name, a, b in parts:
        for cache in (False, True):
            for rtt in rtts:
                c = Client(prefixes, cache, acdirmin, rtt / 1000.0)
                if name == "lookups":
                    # the start-up's answers stay in the client's memory
                    for t, kind, p in ev[:a]:
                        c.event(t - t0, kind, p)
                    c.trips, c.meta, c.paths = 0, 0, set()
                for t, kind, p in ev[a:b]:
                    c.event(t - t0, kind, p)
                print("%s %s %g %d %.1f %d %d" % (name, "cache" if cache else "nocache", rtt, c.trips,
                                                  c.trips * rtt / 1000.0, len(c.paths), c.meta))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
