#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
One reading whatever the stamps (issue 34): every log of the corpus,
its kernel messages as analyze's front end reads them (tests/tools/utkmsg),
written again one a line in each form below, must give the same incidents
as the same messages in dmesg's form.

  tests/corpus/stamps.py USBTRAIL UTKMSG [FIXTURES-DIR] [NAME...]

Forms with the log's times (a log that has them; a boot after another is
marked "-- Boot N --" in each):
  dmesg             [  1234.567890] msg              (the reference)
  kmsg              6,SEQ,USEC,-;msg                 (/dev/kmsg)
  short-monotonic   [  1234.567890] nas kernel: msg
  short-precise     Nov 29 06:20:34.567890 nas kernel: msg
  iso               2026-11-29T06:20:34.567890+00:00 nas kernel: msg
  clock             06:20:34.567890 kernel: msg      (a time of day)
Each must give the reference's incidents: kind, device, disk, USB path,
sector, first and last line (in any order: a log pasted newest first
reads as reboots on a mono clock).  And with no stamp at all:
  bare              msg                              (dmesg -t)
which must give the same kinds on the same devices.  How many of each
may differ: without stamps, messages repeated within 40 lines are one
incident, where the stamps may show them seconds apart (counted, "fewer
repeats").

One TAP test point per log.  tests/corpus/stamps-known lists the logs whose
bare form is known to read otherwise ("bare LOG"); a new one fails, and so
does a listed one that no longer does.  --update-known writes it.
"""
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

KEYS = ("kind", "dev", "disk", "usb", "sector", "line_first", "line_last")
BASE = 1764310000.0     # 2025-11-28 06:06:40 UTC: any date will do


def read(utkmsg, log):
    p = subprocess.run([utkmsg, log], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    if p.returncode:
        raise RuntimeError(p.stderr.decode(errors="replace").strip())
    recs = []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        boot, clock, t, msg = line.split("\t", 3)
        recs.append((boot == "1", clock, float(t), msg))
    return recs


def wall(t, fmt):
    s = time.gmtime(BASE + t)
    frac = ("%06d" % round((t % 1) * 1e6))[-6:]
    if fmt == "syslog":
        return time.strftime("%b %d %H:%M:%S", s) + "." + frac
    if fmt == "iso":
        return time.strftime("%Y-%m-%dT%H:%M:%S", s) + "." + frac + "+00:00"
    return time.strftime("%H:%M:%S", s) + "." + frac


def forms(recs):
    """{form: lines}; the timed forms only where every message has a time
    and (for the time of day) the log spans less than a day"""
    timed = all(c != "none" for _, c, _, _ in recs)
    ts = [t for _, _, t, _ in recs]
    t0 = min(ts) if ts else 0.0
    out = collections.OrderedDict()
    names = ["bare"]
    if timed:
        names = ["dmesg", "kmsg", "short-monotonic", "short-precise", "iso"]
        if max(ts) - t0 < 80000:
            names.append("clock")
        names.append("bare")
    for name in names:
        lines, boot = [], 0
        for seq, (new_boot, _, t, msg) in enumerate(recs):
            if new_boot:
                boot += 1
                lines.append("-- Boot %032x --" % boot)
            # the times as seconds since the log's first, plus a boot's
            # worth, so that a mono clock never starts below zero
            u = t - t0 + 100.0
            lines.append({
                "dmesg": lambda: "[%12.6f] %s" % (u, msg),
                "kmsg": lambda: "6,%d,%d,-;%s" % (seq, round(u * 1e6), msg),
                "short-monotonic": lambda: "[%12.6f] nas kernel: %s" % (u,
                                                                         msg),
                "short-precise": lambda: "%s nas kernel: %s" % (
                    wall(u, "syslog"), msg),
                "iso": lambda: "%s nas kernel: %s" % (wall(u, "iso"), msg),
                "clock": lambda: "%s kernel: %s" % (wall(u, "clock"), msg),
                "bare": lambda: msg,
            }[name]())
        out[name] = lines
    return out


def analyze(usbtrail, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".log",
                                     encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
        f.flush()
        p = subprocess.run([usbtrail, "analyze", "--json", f.name],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
    if p.returncode == 4:
        return []       # no line of it looks like the kernel's
    if p.returncode not in (0, 3):
        raise RuntimeError("exit %d: %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip()[:200]))
    incs = []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        o = json.loads(line)
        if not o.get("summary"):
            incs.append(o)
    return incs


def row(inc):
    return " ".join("%s=%s" % (k, inc.get(k)) for k in KEYS)


def main(argv):
    update = "--update-known" in argv
    argv = [a for a in argv if not a.startswith("--")]
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    usbtrail, utkmsg = argv[1], argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    fdir = argv[3] if len(argv) > 3 else os.path.join(
        here, "..", "fixtures", "logs")
    whole = len(argv) <= 3
    known_path = os.path.join(here, "stamps-known")
    known = set()
    if whole and os.path.exists(known_path):
        for raw in open(known_path, encoding="utf-8"):
            w = raw.split("#", 1)[0].split()
            if w:
                known.add(tuple(w))
    logs = sorted(f[:-4] for f in os.listdir(fdir) if f.endswith(".log"))
    if argv[4:]:
        logs = [l for l in logs if l in set(argv[4:])]
    failed, now, nforms, fewer = 0, [], 0, 0
    print("1..%d" % len(logs))
    for i, name in enumerate(logs, 1):
        problems, todo = [], []
        try:
            recs = read(utkmsg, os.path.join(fdir, name + ".log"))
            fs = forms(recs)
            got = {f: analyze(usbtrail, lines) for f, lines in fs.items()}
        except (OSError, RuntimeError, ValueError,
                subprocess.TimeoutExpired) as e:
            print("not ok %d - %s: %s" % (i, name, e))
            failed += 1
            continue
        nforms += len(fs)
        ref = got.get("dmesg")
        for f, incs in got.items():
            if f in ("dmesg", "bare"):
                continue
            a = sorted(row(x) for x in ref)
            b = sorted(row(x) for x in incs)
            if a != b:
                extra = [x for x in b if x not in a][:2]
                lost = [x for x in a if x not in b][:2]
                problems.append("%s: %d incidents against dmesg's %d; "
                                "lost %s; more %s" % (f, len(b), len(a), lost,
                                                      extra))
        if ref is not None:
            def kd(incs):
                return collections.Counter((x.get("kind"), x.get("dev"))
                                           for x in incs)
            a, b = kd(ref), kd(got["bare"])
            if set(a) != set(b):
                key = ("bare", name)
                now.append(key)
                text = "bare: lost %s, more %s" % (
                    sorted(set(a) - set(b))[:3], sorted(set(b) - set(a))[:3])
                (todo if key in known else problems).append(text)
                known.discard(key)
            elif a != b:
                fewer += 1
                print("# %s: bare, %d incidents against %d: repeats the "
                      "stamps kept apart" % (name, sum(b.values()),
                                             sum(a.values())))
        if problems:
            failed += 1
            print("not ok %d - %s" % (i, name))
        else:
            print("ok %d - %s (%d forms%s)" % (
                i, name, len(fs), ", known: bare differs" if todo else ""))
        for p in problems + ["known: " + t for t in todo]:
            print("#   %s" % p)
    print("# %d logs, %d forms; %d logs whose bare form reads other kinds "
          "or devices, %d fewer repeats" % (len(logs), nforms, len(now),
                                             fewer))
    if not whole:
        return 1 if failed else 0
    if update:
        with open(known_path, "w", encoding="utf-8") as f:
            f.write("# Logs whose messages without stamps give other "
                    "incidents than with them\n# (tests/corpus/stamps.py "
                    "--update-known writes it): a list that only shrinks.\n")
            for key in sorted(now):
                f.write(" ".join(key) + "\n")
        return 1 if failed else 0
    for key in sorted(known):
        print("# known but no longer so (remove it from %s): %s" % (
            known_path, " ".join(key)))
    return 1 if failed or known else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
