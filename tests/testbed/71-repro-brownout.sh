#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge brownout (issue 32), a VID:PID no kernel
# table lists: after 64 MiB moved within 8 s the disk drops off the bus
# for 3 s and comes back, as a bus-powered disk on a weak port.  The copy
# fails with the disconnect every time; no quirk gives a port more
# current: every candidate fails its run, the verdict is detect-only, and
# the disk is found again under its interface after each drop.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=1e4d:57a3
rm -rf "$out/c"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "brownout,vidpid=$vidpid" --timeout 900 -- sh -c '
	sh /tests/repro-state.sh >/out/before.state
	usbtrail repro "$TESTBED_BRIDGE" -o /out/c --destroy-data \
		--workloads seq --size 128M --confidence 0.9 \
		>/out/repro.txt 2>/out/repro.err
	echo "repro exit $?"
	sh /tests/repro-state.sh >/out/after.state' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
cat "$out/repro.err"
expect "$out/stdout.txt" '^repro exit 0$'
expect "$out/repro.err" 'run 1: seq, mitigation none: FAILED \((disconnect|io-error|offline)'
expect "$out/faults.log" 'bridge brownout-start device=bridge'
repro_py "$out/c/repro.json" <<'PY' || fail "repro's result"
import sys
from repro_check import Repro
r = Repro(sys.argv[1])
r.failed("seq", ("disconnect", "io-error", "offline", "no-disk"))
r.always_failed()
r.not_fixed("f", "t", "e", "max_sectors_kb=120", "g", "u")
r.ok(r.r["verdict"] == "detect-only", f"verdict {r.r['verdict']}")
r.ok(r.r["fix"]["kind"] == "none", "no fix")
PY
expect "$out/repro.txt" '^verdict: detect-only$'
expect "$out/repro.txt" 'a powered hub or port'
repro_state_same
no_kernel_warning "$out/console.log"
