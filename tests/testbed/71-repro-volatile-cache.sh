#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge volatile-cache (issue 32), a VID:PID no
# kernel table lists: the bridge acknowledges SYNCHRONIZE CACHE while its
# cache still holds the writes, and a bus reset within 10 s loses them.
# The copy passes (nothing resets the bus); the flush workload ('usbtrail
# stress --reset-check': write, flush, USBDEVFS_RESET, read back) finds
# the acknowledged sectors lost and names them.  No quirk keeps them:
# every candidate fails its run, the verdict is detect-only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=4b7c:19e2
repro_tb "volatile-cache,vidpid=$vidpid" 900 --destroy-data --workloads seq,flush --size 16M --confidence 0.9
expect "$out/repro.err" 'run 1: seq, mitigation none: passed'
expect "$out/repro.err" 'run 2: flush, mitigation none: FAILED \(lost-writes: [0-9]+ acknowledged sectors lost at a USB reset: LBA [0-9]+-[0-9]+'
fired 'volatile cache lost on bus reset'
repro_py "$out/c/repro.json" "$out/c/runs" <<'PY' || fail "repro's result"
import json, os, sys
from repro_check import Repro
r = Repro(sys.argv[1])
runs = sys.argv[2]
r.failed("flush", ("lost-writes",))
r.always_failed()
r.detect_only()
# each failing run named its lost sectors: ranges inside what it wrote
for d in sorted(os.listdir(runs)):
    if not d.endswith(".json") or "-flush-" not in d:
        continue
    s = json.load(open(os.path.join(runs, d)))
    total = sum(x["sectors"] for x in s["lost"])
    end = s["acknowledged_bytes"] // s["sector_size"]
    r.ok(s["lost_sectors"] > 0 and (total == s["lost_sectors"] or s["lost_ranges_cut"])
         and all(0 <= x["lba"] and x["lba"] + x["sectors"] <= end for x in s["lost"]),
         f"{d}: {s['lost_sectors']} of {end} acknowledged sectors lost, "
         f"{[(x['lba'], x['sectors']) for x in s['lost'][:3]]}")
PY
expect "$out/repro.txt" '^verdict: detect-only$'
expect "$out/repro.txt" 'do not trust its flushes'
repro_state_same
no_kernel_warning "$out/console.log"
