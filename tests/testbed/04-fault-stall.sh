#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# stall@T+D: writes are throttled until commands time out; the guest runs
# the UAS error handling chain: abort, device reset, USB port reset.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault stall@2+8 --timeout 240 -- sh -c '
	/tests/write-loop.sh $TESTBED_UAS 16 64
	cat /sys/block/$(basename $TESTBED_UAS)/device/timeout >/out/timeout.txt
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/timeout.txt" '^2$'
expect "$out/faults.log" 'stall@2\+8 start device=uas bps-write='
expect "$out/faults.log" 'stall@2\+8 end device=uas'
expect_order "$out/console.log" \
	'testbed: command start' \
	'uas_eh_(abort|device_reset)_handler' \
	'uas_eh_device_reset_handler start' \
	'reset SuperSpeed USB device number [0-9]+ using xhci_hcd'
