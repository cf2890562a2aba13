#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge rsoc (issue 32), a VID:PID no kernel table
# lists: REPORT SUPPORTED OPERATION CODES is never answered, and sd on
# uas sends it at every probe (on 6.1 for three opcodes, four times each:
# the disk appears after more than 6 minutes).  repro takes the USB
# device, which has no disk yet, and without --destroy-data (the probe
# workload writes nothing); the probe workload (the interface bound
# again, as a replug) hangs at the same command.  The bridge is plugged
# once the guest is up: while sd's probe hangs, every module load waits
# for it (do_init_module's async_synchronize_full), the guest's own too.  repro finds by runs the kernel's fix, NO_REPORT_OPCODES
# (f), that IGNORE_UAS (u) fixes it too (usb-storage never sends it), and
# that t, e and g do not.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=6c5d:2a18
rm -rf "$out/c"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "rsoc,vidpid=$vidpid,plug=late" --timeout 1500 -- sh -c '
	usb= i=0
	while [ -z "$usb" ] && [ $i -lt 300 ]; do
		for d in /sys/bus/usb/devices/*; do
			[ "$(cat "$d/serial" 2>/dev/null)" = usbtrail-bridge ] &&
				usb=${d##*/}
		done
		sleep 0.1; i=$((i + 1))
	done
	while [ ! -e "/sys/bus/usb/devices/$usb:1.0/driver" ] && [ $i -lt 400 ]; do
		sleep 0.1; i=$((i + 1))
	done
	ls /sys/block/ >/out/block.before
	sh /tests/repro-state.sh >/out/before.state
	usbtrail repro "$usb" -o /out/c --workloads probe --confidence 0.9 \
		>/out/repro.txt 2>/out/repro.err
	echo "repro exit $?"
	sh /tests/repro-state.sh >/out/after.state
	# as it was: the probe hangs again; it would hold the guest up at its
	# end (every module unload waits for it): an unplug ends it
	echo "$usb:1.0" >/sys/bus/usb/drivers/uas/unbind' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
cat "$out/repro.err"
# the probe at the plug still hangs: there is no disk to name
grep -q '^sd' "$out/block.before" && fail "a disk before repro: $(cat "$out/block.before")"
expect "$out/before.state" '^disk=none$'
expect "$out/stdout.txt" '^repro exit 0$'
expect "$out/repro.err" 'run 1: probe, mitigation none: FAILED \((timeout|abort|reset)[:)]'
repro_py "$out/c/repro.json" "$vidpid" "$out/c/runs" <<'PY' || fail "repro's result"
import json, os, sys
from repro_check import Repro
r = Repro(sys.argv[1])
r.recorded()
vidpid, runs = sys.argv[2], sys.argv[3]
r.ok(r.r["disk"] is None and r.r["usb"] == "2-1", "the target: USB 2-1, no disk")
r.failed("probe", ("timeout", "abort", "reset"))
r.always_failed()
r.fixed("f", "u")
r.not_fixed("t", "e", "g")
r.skipped("max_sectors_kb=120", "probe")
r.fix("usb-storage-quirk", f"{vidpid}:f")
recs = [d for d in os.listdir(runs) if os.path.isdir(os.path.join(runs, d))]
r.ok(len(recs) == sum(t["runs"] for t in r.r["runs"]), f"{len(recs)} recordings, one a run")
PY
repro_outputs NO_REPORT_OPCODES
# the recording of a failing run holds the hang: the abort of the REPORT
# SUPPORTED OPERATION CODES (MAINTENANCE IN a3, service action 0c)
expect "$out/c/runs/001-probe-none/events.jsonl" '"type":"klog".*uas_eh_abort_handler 0 uas-tag [0-9]+ inflight:'
expect "$out/c/runs/001-probe-none/events.jsonl" '"type":"klog".*CDB: Report supported operation codes a3 0c'
expect "$out/repro.txt" "^fix: f: no failure in [0-9]+ runs"
expect "$out/repro.txt" "options usb-storage quirks=$vidpid:f"
repro_state_same
no_kernel_warning "$out/console.log"
