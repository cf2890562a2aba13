# SPDX-License-Identifier: GPL-2.0-only
"""Checks of a usbtrail repro result (repro.json), for the
tests/testbed/71-repro-*.sh scripts (imported by their Python, which
repro.inc's repro_py runs).  Each check prints one "ok:" line, or the
result and exits 1 at the first failure.
"""
import json
import sys


class Repro:
    def __init__(self, path):
        with open(path) as f:
            self.r = json.load(f)
        self.m = {t["mitigation"]: t for t in self.r["runs"]}
        self.need = (self.r.get("failure") or {}).get("runs_needed")

    def ok(self, cond, what):
        if not cond:
            sys.exit(f"FAIL: {what}: {json.dumps(self.r)[:1500]}")
        print("ok:", what)

    def failed(self, step, kinds):
        """The campaign failed under workload STEP, a failure of KINDS."""
        f = self.r.get("failure") or {}
        self.ok(self.r["failed"] and f.get("step") == step,
                f"failed under {step}")
        self.ok(f.get("kind") in kinds, f"the failure: {f.get('kind')}")

    def always_failed(self, runs=3):
        """Without a mitigation: RUNS runs or more, every one failed."""
        t = self.m["none"]
        self.ok(t["runs"] >= runs and t["failures"] == t["runs"],
                f"none: {t['failures']} of {t['runs']} runs failed")

    def fixed(self, *names):
        """Each of NAMES passed the runs needed, none failed."""
        for n in names:
            t = self.m[n]
            self.ok(t["fixed"] and t["runs"] >= self.need and
                    t["failures"] == 0,
                    f"{n}: {t['runs']} runs, none failed")

    def not_fixed(self, *names):
        """Each of NAMES failed a run."""
        for n in names:
            t = self.m[n]
            self.ok(t["failures"] >= 1 and not t["fixed"],
                    f"{n}: failed under it")

    def skipped(self, name, word):
        why = self.m[name].get("skipped", "")
        self.ok(word in why, f"{name} skipped: {why}")

    def detect_only(self):
        """Every candidate failed its run: detect-only, no fix."""
        self.not_fixed("f", "t", "e", "max_sectors_kb=120", "g", "u")
        self.ok(self.r["verdict"] == "detect-only",
                f"verdict {self.r['verdict']}")
        self.ok(self.r["fix"]["kind"] == "none" and
                self.r["fix"]["value"] is None, "no fix")

    def fix(self, kind, value):
        self.ok(self.r["verdict"] == "fixed", "verdict fixed")
        f = self.r["fix"]
        self.ok((f["kind"], f["value"]) == (kind, value),
                f"fix {f['kind']} {f['value']}")

    def recorded(self):
        """Every run is in "recordings", as many as the tallies count,
        the first failing one named by the failure."""
        recs = self.r.get("recordings", [])
        self.ok(len(recs) >= sum(t["runs"] for t in self.r["runs"]),
                f"{len(recs)} runs in recordings")
        f = self.r.get("failure")
        if f:
            first = [x for x in recs if x["failed"]][0]
            self.ok(first["recording"] == f.get("recording"),
                    f"the first failing run: {f.get('recording')}")
        self.ok("report" in self.r.get("files", {}), "report.html named")
