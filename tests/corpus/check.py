#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Run "usbtrail analyze --json" over every real kernel log of
tests/fixtures/logs/ and compare what it finds with NAME.expect, the
incidents a person found by reading the log (tests/fixtures/logs/README).

  tests/corpus/check.py [--verbose] USBTRAIL [FIXTURES-DIR] [NAME...]

One TAP test point per log.  Expected and found incidents are matched
one to one (a maximum matching): a found incident satisfies one expected
incident at most.  An expected "KIND DEV LINE" is satisfied by an
incident of that kind whose lines span LINE, about DEV (its dev, disk,
USB path, SCSI address or host; "-" for an incident the log names no
device for).  "KIND DEV A-B xN" expects N incidents, each with a line
in A..B (a message repeated N times).  "extra KIND DEV LINE why" is an
incident nobody expected that a reader reviewed and accepts; it counts
as a true one.

A log passes when every expected incident is matched; when no incident
starts at a line marked "ok - LINE why"; for a log marked "none", when
there is no incident at all; and when every found incident is matched
or accepted.  The last lines say recall and precision over the corpus,
and --figures FILE writes them as JSON (docs quote that file).
"""
import json
import os
import subprocess
import sys


def lines_of(word):
    # "12" or "12-40"
    a, _, b = word.partition("-")
    if not a.isdigit() or (b and not b.isdigit()):
        return None
    lo, hi = int(a), int(b or a)
    return (lo, hi) if lo <= hi else None


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
                span = lines_of(w[2]) if len(w) >= 3 else None
                times = 1
                if len(w) > 3 and w[3].startswith("x"):
                    if not w[3][1:].isdigit() or int(w[3][1:]) < 1:
                        raise ValueError("%s:%d: xN, N a count" % (path, n))
                    times = int(w[3][1:])
                if span is None:
                    raise ValueError("%s:%d: KIND DEV LINE, or KIND DEV "
                                     "A-B xN" % (path, n))
                want.extend([(w[0], w[1], span)] * times)
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


def matches(inc, kind, dev, span):
    # "-": the log names no device for it
    who = names(inc)
    return (inc.get("kind") == kind and (dev in who if dev != "-" else
                                         not who) and
            inc.get("line_first", 0) <= span[1] and
            span[0] <= inc.get("line_last", 0))


def match(want, incs):
    """Maximum one-to-one matching of want to incs (Kuhn's augmenting
    paths).  Returns {want index: incident index}."""
    cand = [[k for k, inc in enumerate(incs) if matches(inc, *w)]
            for w in want]
    owner = {}

    def augment(i, seen):
        for k in cand[i]:
            if k in seen:
                continue
            seen.add(k)
            if k not in owner or augment(owner[k], seen):
                owner[k] = i
                return True
        return False

    for i in range(len(want)):
        augment(i, set())
    return {i: k for k, i in owner.items()}


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


def load_known(path):
    """tests/corpus/known: what the analyzer is known to get wrong, one
    per line: "miss LOG KIND DEV LINE" (an expected incident not found),
    "extra LOG KIND LINE" (an incident found that nobody expected, at its
    first line), "flagged LOG LINE" (one starts at a line a reader marked
    ok), "notnone LOG" (a log marked none gave some) or "unread LOG"
    (analyze refused the log)."""
    known = set()
    if not os.path.exists(path):
        return known
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            w = line.split()
            if (w[0], len(w)) not in (("miss", 5), ("extra", 4),
                                      ("flagged", 3), ("notnone", 2),
                                      ("unread", 2)):
                raise ValueError("%s:%d: miss LOG KIND DEV LINE, extra "
                                 "LOG KIND LINE, flagged LOG LINE, notnone "
                                 "LOG or unread LOG" % (path, n))
            known.add(tuple(w))
    return known


def span_str(span):
    return "%d" % span[0] if span[0] == span[1] else "%d-%d" % span


def figures_text(fig):
    return ("%(logs)d logs: recall %(found)d/%(expected)d (%(recall).1f%%), "
            "precision %(true)d/%(total)d (%(precision).1f%%), expected and "
            "found incidents matched one to one" % fig)


def sync_docs(paths, fig, update):
    """The figures between <!-- corpus-figures --> and <!-- /corpus-figures
    --> in each of paths are check.py's own; --update-docs writes them."""
    bad = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        a, b = "<!-- corpus-figures -->", "<!-- /corpus-figures -->"
        i, j = text.find(a), text.find(b)
        if i < 0 or j < i:
            bad.append("%s: no %s ... %s" % (path, a, b))
            continue
        new = text[:i + len(a)] + figures_text(fig) + text[j:]
        if new == text:
            continue
        if update:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
        else:
            bad.append("%s: its corpus figures are not check.py's "
                       "(run tests/corpus/check.py --update-docs)" % path)
    return bad


def main(argv):
    opts = {a for a in argv if a.startswith("--")}
    argv = [a for a in argv if not a.startswith("--")]
    verbose = "--verbose" in opts
    if len(argv) < 2 or opts - {"--verbose", "--update-known",
                                "--update-docs"}:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    usbtrail = argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    fdir = argv[2] if len(argv) > 2 else os.path.join(
        here, "..", "fixtures", "logs")
    only = set(argv[3:])
    whole = len(argv) <= 2
    known_path = os.path.join(here, "known")
    try:
        known = load_known(known_path) if whole else set()
    except (OSError, ValueError) as e:
        print("Bail out! %s" % e)
        return 1
    logs = sorted(f[:-4] for f in os.listdir(fdir) if f.endswith(".log"))
    if only:
        logs = [l for l in logs if l in only]
    found = expected = true = total = failed = 0
    seen_known, now_known = set(), []
    print("1..%d" % len(logs))
    for i, name in enumerate(logs, 1):
        log = os.path.join(fdir, name + ".log")
        problems, todo = [], []
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
            expected += len(want)
            key = ("unread", name)
            now_known.append(key)
            if key in known:
                seen_known.add(key)
                print("ok %d - %s (known wrong: not read)" % (i, name))
                print("#   known: not read: %s" % str(e).strip()[:120])
            else:
                print("not ok %d - %s: %s" % (i, name, e))
                failed += 1
            continue
        got = match(want, incs)
        expected += len(want)
        found += len(got)
        total += len(incs)
        true += len(got)

        def note(key, text):
            now_known.append(key)
            if key in known:
                seen_known.add(key)
                todo.append(text)
            else:
                problems.append(text)

        for w, (kind, dev, span) in enumerate(want):
            if w not in got:
                note(("miss", name, kind, dev, span_str(span)),
                     "missed %s %s line %s" % (kind, dev, span_str(span)))
        used = set(got.values())
        for k, inc in enumerate(incs):
            if k not in used:
                note(("extra", name, str(inc.get("kind")),
                      str(inc.get("line_first"))),
                     "nobody expected %s %s at line %s" % (
                         inc.get("kind"), inc.get("dev") or "-",
                         inc.get("line_first")))
        for line in oks:
            for inc in incs:
                if inc.get("line_first") == line:
                    note(("flagged", name, str(line)),
                         "flagged line %d (marked ok) as %s" %
                         (line, inc.get("kind")))
        if none and incs:
            note(("notnone", name), "%d incident(s) in a log marked none" %
                 len(incs))
        if problems:
            failed += 1
            print("not ok %d - %s" % (i, name))
        else:
            print("ok %d - %s (%d expected, %d found%s)" % (
                i, name, len(want), len(incs),
                ", %d known wrong" % len(todo) if todo else ""))
        for p in problems:
            print("#   %s" % p)
        for p in todo:
            print("#   known: %s" % p)
        if verbose:
            for inc in incs:
                print("#     %s %s lines %s-%s: %s" % (
                    inc.get("kind"), inc.get("dev"), inc.get("line_first"),
                    inc.get("line_last"), inc.get("line", "")[:100]))
    fig = {"logs": len(logs), "found": found, "expected": expected,
           "recall": 100.0 * found / max(expected, 1), "true": true,
           "total": total, "precision": 100.0 * true / max(total, 1)}
    print("# " + figures_text(fig))
    if not whole:
        return 1 if failed else 0
    if "--update-known" in opts:
        with open(known_path, "w", encoding="utf-8") as f:
            f.write("# What analyze is known to get wrong in the corpus "
                    "(tests/corpus/check.py\n# --update-known writes it): "
                    "each line a reading to mend or a\n# .expect to argue. "
                    "A new one, or one that no longer happens, fails.\n")
            for key in sorted(now_known):
                f.write(" ".join(key) + "\n")
        print("# wrote %s: %d entries" % (known_path, len(now_known)))
        known = seen_known = set(now_known)
    stale = sorted(known - seen_known)
    for key in stale:
        print("# known but no longer so (remove it from %s): %s" % (
            known_path, " ".join(key)))
    print("# known wrong: %d missed, %d not expected, %d logs not read" % (
        sum(1 for k in seen_known if k[0] == "miss"),
        sum(1 for k in seen_known if k[0] == "extra"),
        sum(1 for k in seen_known if k[0] == "unread")))
    bad = sync_docs([os.path.join(here, "..", "..", p) for p in
                     ("README.md", "docs/analyze.md")], fig,
                    "--update-docs" in opts)
    for b in bad:
        print("# %s" % b)
    return 1 if failed or stale or bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
