#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/46-usbmon-pcapng.sh: record usbmon and the
# kernel log into /out/capture.pcapng while a write to the UAS disk hits
# the medium-not-present fault; leave the disk's bus and device numbers
# for the host.  RECORDER: the command that records (default: utmon).
set -u
usb=$TESTBED_UAS_USB
echo "$(cat /sys/bus/usb/devices/$usb/busnum) $(cat /sys/bus/usb/devices/$usb/devnum)" >/out/uas-dev.txt
basename "$TESTBED_UAS" >/out/disk.txt
${RECORDER:-/tests/utmon --record /out --payload 64} -- sh -c '
	echo "usbtrail-test: before the write" >/dev/kmsg
	dd if=/dev/zero of=$TESTBED_UAS bs=1M count=8 oflag=direct
	echo "dd exit $?"
	echo "usbtrail-test: after the write" >/dev/kmsg
'
echo "recorder exit $?"
