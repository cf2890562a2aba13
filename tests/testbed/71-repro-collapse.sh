#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge collapse (issue 32), a VID:PID no kernel
# table lists: full speed for the first 256 MiB written, then a fifth of
# it until the writes stop for 5 s (an exhausted SLC cache, or heat).  No
# error, no incident: the soak workload's write cycles find the collapse
# (a cycle below 0.7 of the first).  No quirk stops it: every candidate
# fails its run, the verdict is detect-only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=2d6f:a4c8
repro_tb "collapse,vidpid=$vidpid" 1200 --destroy-data --workloads soak --soak 12 --size 128M --confidence 0.9
expect "$out/repro.err" 'run 1: soak, mitigation none: FAILED \(collapse: a soak cycle wrote [0-9]+ MB/s, the first [0-9]+ MB/s\)'
repro_py "$out/c/repro.json" "$out/c/runs" <<'PY' || fail "repro's result"
import json, os, sys
from repro_check import Repro
r = Repro(sys.argv[1])
runs = sys.argv[2]
r.failed("soak", ("collapse",))
r.always_failed()
r.detect_only()
# the collapse is in stress's own soak figures: no error at all
for d in sorted(os.listdir(runs)):
    if d.endswith(".json"):
        s = json.load(open(os.path.join(runs, d)))
        k = s["soak"]
        r.ok(s["soak_slowdown"] and s["errors_total"] == 0 and
             k["slowest"]["write_mbps"] < 0.7 * k["first"]["write_mbps"],
             f"{d}: {k['first']['write_mbps']:.0f} -> {k['slowest']['write_mbps']:.0f} MB/s, no error")
PY
expect "$out/repro.txt" '^verdict: detect-only$'
repro_state_same
no_kernel_warning "$out/console.log"
