#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail uas in the guest, checked field by field (issue 5, "Must show" 2):
#   boot 1 (uas,bot,uas-hs): uas -> active with streams; bot ->
#     no-uas-altsetting; uas-hs -> active at 480 Mbit/s, "UAS without
#     streams"; then the quirk 46f4:0003:u written to the usb-storage
#     parameter and the uas enclosure probed again: in that one run of
#     "usbtrail uas --json" uas -> quirk-ignore-uas naming the quirk and
#     its source (module parameter), bot -> no-uas-altsetting, uas-hs still
#     active without streams.  Also as user nobody, a missing device
#     (exit 1, clear message), and JSON validity.
#   boot 2 (--quirk 46f4:0003:u): uas -> quirk-ignore-uas, source the
#     kernel command line.
#   Both on 6.1, where the BOS comes through usbfs (libusb).  With
#   $TB_KERNEL (tests/run's 20-uas-verdicts@KERNEL): boot 1 only, on that
#   kernel; on 6.12 and 7.3 the BOS comes from sysfs bos_descriptors
#   (5.10 has none).  In each, the BOS fields against the bytes a bare
#   usbfs GET_DESCRIPTOR reads (tests/tools/utbos.c) and against
#   hw/usb/desc.c.
# kernels: all
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed to check the JSON"

check() {	# check NAME: run tests/testbed/uas_check.py on the outputs
	python3 "$top/tests/testbed/uas_check.py" "$1" "$out" ||
		fail "$1: field check failed"
}

tb --devices uas,bot,uas-hs --timeout 300 -- \
	sh /tests/uas-verdicts.sh boot >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed (exit $?)"
expect "$out/stdout.txt" '^guest-ok$'
cat "$out/env.txt"
cat "$out/after.txt"
if [ -n "${TB_KERNEL:-}" ]; then
	case $TB_KERNEL in
	6.12|7.*) [ -f "$out/bos-sysfs-UAS.bin" ] ||
		fail "$TB_KERNEL has no bos_descriptors" ;;
	esac
	check boot
	exit 0
fi
check boot

boot1=$out
out=$boot1/cmdline
mkdir -p "$out"
tb --devices uas,bot,uas-hs --quirk 46f4:0003:u --timeout 300 -- \
	sh /tests/uas-verdicts.sh cmdline >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed with --quirk (exit $?)"
expect "$out/stdout.txt" '^guest-ok$'
cat "$out/cmdline.txt"
check cmdline
