#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The boot test on Debian's 6.12 kernel (bookworm-backports): same binding,
# streams, and usbtrail.ko built for and loaded into that kernel.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --kernel 6.12 --devices uas,bot --timeout 180 -- sh -c '
	set -e
	uname -r >/out/uname.txt
	env | grep ^TESTBED_ | sort >/out/env.txt
	cp /sys/kernel/tracing/trace /out/trace-bind.txt
	insmod $USBTRAIL_KO
	rmmod usbtrail
	echo guest-ok
' >"$out/stdout.txt" || fail "guest command failed (exit $?)"

expect "$out/uname.txt" '^6\.12\.'
expect "$out/stdout.txt" '^guest-ok$'
expect "$out/env.txt" '^TESTBED_UAS_DRIVER=uas$'
expect "$out/env.txt" '^TESTBED_UAS_SPEED=5000$'
expect "$out/env.txt" '^TESTBED_BOT_DRIVER=usb-storage$'
expect "$out/trace-bind.txt" 'xhci_ring_alloc: STREAM' 'stream rings at bind'
expect "$out/console.log" 'usbtrail: loaded, ABI version'
