#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Default devices: the UAS enclosure binds uas and uses bulk streams (stream
# rings allocated, URBs on stream ids > 0); the BOT one binds usb-storage
# and uses none.  usbtrail and usbtrail.ko are in the guest and load.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas,bot --timeout 180 -- sh -c '
	set -e
	env | grep ^TESTBED_ | sort >/out/env.txt
	cp /sys/kernel/tracing/trace /out/trace-bind.txt
	ev=/sys/kernel/tracing/events/xhci-hcd/xhci_urb_enqueue/enable
	echo 1 >$ev
	for d in uas bot; do
		echo >/sys/kernel/tracing/trace
		dd if=/dev/zero of=/dev/disk/testbed/$d bs=1M count=2 oflag=direct
		grep "xhci_urb_enqueue: ep.*bulk" /sys/kernel/tracing/trace \
			>/out/urbs-$d.txt
	done
	echo 0 >$ev
	usbtrail --version >/out/version.txt
	insmod $USBTRAIL_KO
	grep -q "^usbtrail " /proc/modules
	rmmod usbtrail
	echo guest-ok
' >"$out/stdout.txt" || fail "guest command failed (exit $?)"

cat "$out/env.txt"
expect "$out/stdout.txt" '^guest-ok$'
expect "$out/env.txt" '^TESTBED_UAS=/dev/sd[a-z]$'
expect "$out/env.txt" '^TESTBED_UAS_DRIVER=uas$'
expect "$out/env.txt" '^TESTBED_UAS_SPEED=5000$'
expect "$out/env.txt" '^TESTBED_BOT=/dev/sd[a-z]$'
expect "$out/env.txt" '^TESTBED_BOT_DRIVER=usb-storage$'
expect "$out/trace-bind.txt" 'xhci_ring_alloc: STREAM' 'stream rings at bind'
expect "$out/urbs-uas.txt" 'stream [1-9][0-9]* ' 'UAS data URBs'
if grep -Eq 'stream [1-9]' "$out/urbs-bot.txt"; then
	fail "BOT URBs use stream ids"
fi
expect "$out/urbs-bot.txt" 'stream 0 ' 'BOT URBs'
expect "$out/version.txt" '^usbtrail '
expect "$out/console.log" 'usbtrail: loaded, ABI version'
expect "$out/console.log" 'usbtrail: unloaded'
