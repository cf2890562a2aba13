#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Run "usbtrail analyze --json" over every real kernel log of
tests/fixtures/logs/ and compare what it finds with NAME.expect, the
incidents a person found by reading the log (tests/fixtures/logs/README).

  tests/corpus/check.py [--verbose] USBTRAIL [FIXTURES-DIR] [NAME...]

One TAP test point per log.  A log passes when every expected incident
("KIND DEV LINE") is found: an incident of that kind whose lines span
LINE, about DEV (its dev, disk, USB path, SCSI address or host; "-" for
an incident the log names no device for); when no
incident starts at a line marked "ok - LINE why"; and, for a log marked
"none", when there is no incident at all.  Incidents nobody expected are
counted (precision) but fail nothing.  The last line says recall and
precision over the whole corpus.
"""
import json
import os
import subprocess
import sys


def parse_expect(path):
    meta, want, ok, none = {}, [], [], False
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                k, _, v = line[1:].strip().partition(":")
                meta.setdefault(k.strip(), v.strip())
                continue
            w = line.split()
            if w[0] == "none":
                none = True
            elif w[0] == "ok":
                if len(w) < 3 or not w[2].isdigit():
                    raise ValueError("%s:%d: ok - LINE why" % (path, n))
                ok.append(int(w[2]))
            else:
                if len(w) < 3 or not w[2].isdigit():
                    raise ValueError("%s:%d: KIND DEV LINE" % (path, n))
                want.append((w[0], w[1], int(w[2])))
    if "source" not in meta:
        raise ValueError("%s: no '# source:' line" % path)
    return meta, want, ok, none


def names(inc):
    out = {inc.get("dev"), inc.get("disk"), inc.get("usb"), inc.get("scsi")}
    if inc.get("host") is not None:
        out.add("host%d" % inc["host"])
    out.discard(None)
    out.discard("")
    return out


def matches(inc, kind, dev, line):
    # "-": the log names no device for it
    who = names(inc)
    return (inc.get("kind") == kind and (dev in who if dev != "-" else
                                         not who) and
            inc.get("line_first", 0) <= line <= inc.get("line_last", 0))


def analyze(usbtrail, log):
    p = subprocess.run([usbtrail, "analyze", "--json", log],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    if p.returncode not in (0, 3):
        raise RuntimeError("exit %d: %s" % (p.returncode,
                                            p.stderr.decode(errors="replace")))
    incs = []
    for line in p.stdout.decode("utf-8", errors="replace").splitlines():
        o = json.loads(line)
        if not o.get("summary"):
            incs.append(o)
    return incs


def main(argv):
    verbose = "--verbose" in argv
    argv = [a for a in argv if a != "--verbose"]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    usbtrail = argv[1]
    fdir = argv[2] if len(argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "logs")
    only = set(argv[3:])
    logs = sorted(f[:-4] for f in os.listdir(fdir) if f.endswith(".log"))
    if only:
        logs = [l for l in logs if l in only]
    found = expected = extra = total = failed = 0
    print("1..%d" % len(logs))
    for i, name in enumerate(logs, 1):
        log = os.path.join(fdir, name + ".log")
        problems = []
        try:
            meta, want, oks, none = parse_expect(
                os.path.join(fdir, name + ".expect"))
        except (OSError, ValueError) as e:
            print("not ok %d - %s: %s" % (i, name, e))
            failed += 1
            continue
        try:
            incs = analyze(usbtrail, log)
        except (OSError, RuntimeError, json.JSONDecodeError,
                subprocess.TimeoutExpired) as e:
            # what it should have found counts as missed
            print("not ok %d - %s: %s" % (i, name, e))
            expected += len(want)
            failed += 1
            continue
        used = set()
        for kind, dev, line in want:
            hit = [k for k, inc in enumerate(incs)
                   if matches(inc, kind, dev, line)]
            expected += 1
            if hit:
                found += 1
                used.update(hit)
            else:
                problems.append("missed %s %s line %d" % (kind, dev, line))
        for line in oks:
            for inc in incs:
                if inc.get("line_first") == line:
                    problems.append("flagged line %d (marked ok) as %s" %
                                    (line, inc.get("kind")))
        if none and incs:
            problems.append("%d incident(s) in a log marked none" %
                            len(incs))
        total += len(incs)
        extra += len(incs) - len(used)
        if problems:
            failed += 1
            print("not ok %d - %s" % (i, name))
            for p in problems:
                print("#   %s" % p)
        else:
            print("ok %d - %s (%d expected, %d found, %d more)" %
                  (i, name, len(want), len(incs), len(incs) - len(used)))
        if verbose:
            for inc in incs:
                print("#     %s %s lines %s-%s: %s" % (
                    inc.get("kind"), inc.get("dev"), inc.get("line_first"),
                    inc.get("line_last"), inc.get("line", "")[:100]))
    print("# recall %d/%d (%.1f%%), %d incidents found, %d of them not "
          "expected" % (found, expected, 100.0 * found / max(expected, 1),
                        total, extra))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
