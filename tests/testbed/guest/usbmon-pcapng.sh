#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/46-usbmon-pcapng.sh: "usbtrail record" into
# /out/rec while a write to the UAS disk hits the medium-not-present fault;
# leave the disk's bus and device numbers for the host.
set -u
usb=$TESTBED_UAS_USB
echo "$(cat "/sys/bus/usb/devices/$usb/busnum") $(cat "/sys/bus/usb/devices/$usb/devnum")" >/out/uas-dev.txt
basename "$TESTBED_UAS" >/out/disk.txt
rm -rf /out/rec
# shellcheck disable=SC2016 # expanded by the inner sh
usbtrail record -o /out/rec --payload 64 --quiet -- sh -c '
	echo "usbtrail-test: before the write" >/dev/kmsg
	dd if=/dev/zero of=$TESTBED_UAS bs=1M count=8 oflag=direct
	echo "dd exit $?"
	echo "usbtrail-test: after the write" >/dev/kmsg
'
echo "recorder exit $?"
