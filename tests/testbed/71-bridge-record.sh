#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record and report on a bridge that fails (issue 31, "everything
# that exists keeps working on the new enclosure"): CrystalDiskMark's set
# through usbtrail stress, recorded with usbtrail.ko, on --bridge uas-load
# of a made-up VID:PID.  On the host the report names the timeouts and
# resets on the bridge's disk, and its advice for this recording is the
# fix the kernel has for such bridges: usb-storage.quirks=VID:PID:u.
. "$(dirname "$0")/lib.sh"

bin=$top/userspace/usbtrail
vidpid=4b1d:e0f2
rm -rf "$out/rec"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "uas-load,vidpid=$vidpid" --timeout 500 -- sh -c '
	insmod "$USBTRAIL_KO" || exit 1
	echo 5 >/sys/block/${TESTBED_BRIDGE#/dev/}/device/timeout
	usbtrail record -o /out/rec -- usbtrail stress "$TESTBED_BRIDGE" \
		--destroy-data --profile cdm --size 64M --passes 1 --duration 2
	echo "record exit $?"' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed"
expect "$out/stdout.txt" '^record exit 0$'
expect "$out/qemu.log" '^bridge bridge: [0-9.]+ UAS tag [0-9]+ opcode 0x[0-9a-f]+: status never sent'
[ -s "$out/rec/events.jsonl" ] || fail "no recording"
"$bin" report "$out/rec" >"$out/report.out" 2>"$out/report.err" ||
	fail "usbtrail report: $(cat "$out/report.err")"
txt=$out/rec/report.txt
expect "$txt" 'timeout .*on sda'
expect "$txt" 'reset speed=SuperSpeed( devnum=[0-9]+)? on sda'
expect "$txt" "For this recording: usb-storage.quirks=$vidpid:u \\(sda\\)"
expect "$txt" "usb 2-1 $vidpid"
no_kernel_warning "$out/console.log"
