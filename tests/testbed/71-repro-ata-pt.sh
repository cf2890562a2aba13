#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge ata-pt (issue 32), a VID:PID no kernel table
# lists: ATA PASS-THROUGH as smartctl and hdparm send it is never
# answered (the error handler aborts it and resets the bridge).  The
# commands workload reproduces it; repro finds by runs the kernel's fix,
# NO_ATA_1X (t: the driver answers ILLEGAL REQUEST itself), and that
# IGNORE_UAS (u) does not fix it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=2f8b:d046
repro_tb "ata-pt,vidpid=$vidpid" 1200 --destroy-data --workloads commands --cmd-timeout 5 --confidence 0.9
repro_py "$out/c/repro.json" "$vidpid" "$out/c/runs" <<'PY' || fail "repro's result"
import json, os, sys
from repro_check import Repro
r = Repro(sys.argv[1])
r.recorded()
vidpid, runs = sys.argv[2], sys.argv[3]
r.failed("commands", ("timeout", "abort", "reset", "no-answer"))
r.fixed("t")
r.not_fixed("f", "u")
r.fix("usb-storage-quirk", f"{vidpid}:t")
# under t the driver itself answers: ILLEGAL REQUEST, at once
t_runs = sorted(d for d in os.listdir(runs) if d.endswith("-commands-t.json"))
cmds = json.load(open(os.path.join(runs, t_runs[0])))["commands"]
r.ok(all(c["answered"] and c["sense"].startswith("5/") for c in cmds),
     f"under t: {[(c['command'], c['sense'], c['ms']) for c in cmds]}")
PY
repro_outputs NO_ATA_1X
expect "$out/repro.txt" "^fix: t: no failure in [0-9]+ runs"
expect "$out/repro.txt" "options usb-storage quirks=$vidpid:t"
repro_state_same
no_kernel_warning "$out/console.log"
