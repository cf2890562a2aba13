#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge rc16 (issue 32), a VID:PID no kernel table
# lists: READ CAPACITY(16) answers a disk 512 TiB too big, and sd on uas
# believes it.  The copy works (its first MiBs are real); the probe
# workload (the interface bound again, as a replug) finds the size wrong
# against READ CAPACITY(10).  repro finds by runs the kernel's fix,
# NO_READ_CAPACITY_16 (e), that IGNORE_UAS (u) fixes it too (usb-storage
# asks READ CAPACITY(10) first) and that f, t and g do not; max_sectors_kb
# is not tried (set after a probe, it cannot change it).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=3a91:6e07
rm -rf "$out/c"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "rc16,vidpid=$vidpid" --timeout 900 -- sh -c '
	sh /tests/repro-state.sh >/out/before.state
	usbtrail repro "$TESTBED_BRIDGE" -o /out/c --destroy-data \
		--workloads seq,probe --size 16M --confidence 0.9 \
		>/out/repro.txt 2>/out/repro.err
	echo "repro exit $?"
	sh /tests/repro-state.sh >/out/after.state
	cat /sys/block/$(basename "$TESTBED_BRIDGE")/size >/out/after.size' \
	>"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
cat "$out/repro.err"
expect "$out/stdout.txt" '^repro exit 0$'
expect "$out/repro.err" 'run 1: seq, mitigation none: passed'
expect "$out/repro.err" 'run 2: probe, mitigation none: FAILED \(capacity: sd[a-z]+ sized by READ CAPACITY\(16\): 562951027163136 bytes; READ CAPACITY\(10\) says 1073741824\)'
repro_py "$out/c/repro.json" "$vidpid" "$out/c/runs" <<'PY' || fail "repro's result"
import json, os, sys
from repro_check import Repro
r = Repro(sys.argv[1])
r.recorded()
vidpid, runs = sys.argv[2], sys.argv[3]
r.failed("probe", ("capacity",))
r.always_failed()
r.fixed("e", "u")
r.not_fixed("f", "t", "g")
r.skipped("max_sectors_kb=120", "probe")
r.fix("usb-storage-quirk", f"{vidpid}:e")
# what the runs measured: the kernel's size, and READ CAPACITY(10)'s
def probe(name):
    return [json.load(open(os.path.join(runs, d))) for d in sorted(os.listdir(runs))
            if d.endswith(f"-probe-{name}.json")]
for p in probe("none"):
    r.ok(p["kernel_bytes"] == p["rc16_bytes"] == 1099513724928 * 512 and
         p["rc10_bytes"] == 1 << 30,
         f"none: kernel {p['kernel_bytes']}, rc10 {p['rc10_bytes']}")
for p in probe("e") + probe("u"):
    r.ok(p["kernel_bytes"] == p["rc10_bytes"] == 1 << 30 and p["rc16_bytes"] is None,
         f"{p['driver']}: kernel {p['kernel_bytes']}, no READ CAPACITY(16) sent")
PY
repro_outputs NO_READ_CAPACITY_16
# the recording of a failing probe holds the size the kernel logged
expect "$out/c/runs/002-probe-none/events.jsonl" '"type":"klog".*\[sd[a-z]+\] 1099513724928 512-byte logical blocks'
expect "$out/repro.txt" "^fix: e: no failure in [0-9]+ runs"
expect "$out/repro.txt" "options usb-storage quirks=$vidpid:e"
repro_state_same
[ "$(cat "$out/after.size")" = 1099513724928 ] ||
	fail "after repro: size $(cat "$out/after.size"), not as before"
echo "ok: after repro: the disk probed as at the plug again (512 TiB)"
no_kernel_warning "$out/console.log"
