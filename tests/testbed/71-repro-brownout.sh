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
repro_tb "brownout,vidpid=$vidpid" 900 --destroy-data --workloads seq --size 128M --confidence 0.9
expect "$out/repro.err" 'run 1: seq, mitigation none: FAILED \((disconnect|io-error|offline)'
expect "$out/faults.log" 'bridge brownout-start device=bridge'
repro_py "$out/c/repro.json" <<'PY' || fail "repro's result"
import sys
from repro_check import Repro
r = Repro(sys.argv[1])
r.failed("seq", ("disconnect", "io-error", "offline", "no-disk"))
r.always_failed()
r.detect_only()
PY
expect "$out/repro.txt" '^verdict: detect-only$'
expect "$out/repro.txt" 'a powered hub or port'
repro_state_same
no_kernel_warning "$out/console.log"
