#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 20-uas-verdicts: run "usbtrail uas" in the states the host
# side checks, leaving each output in /out.
#   uas-verdicts.sh boot     default boot: before and after a runtime quirk
#   uas-verdicts.sh cmdline  booted with --quirk 46f4:0003:u
set -u
case ${1:-} in
boot)
	usbtrail uas --json >/out/before.json 2>/out/before.err
	echo $? >/out/before.rc
	usbtrail uas >/out/before.txt 2>&1
	# The emulated devices' raw descriptors, for the unit-test fixtures.
	for d in UAS BOT UAS_HS; do
		eval "usb=\$TESTBED_${d}_USB"
		# shellcheck disable=SC2154 # usb: set by the eval above
		cp "/sys/bus/usb/devices/$usb/descriptors" "/out/desc-$d.bin"
	done

	# As a user: sysfs and the quirks parameter are world-readable,
	# debugfs is not.
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
	echo 'nogroup:x:65534:' >>/etc/group
	su -s /bin/sh nobody -c 'id -u; usbtrail uas --json' \
		>/out/user.json 2>/out/user.err
	echo $? >/out/user.rc

	# Descriptors unreadable to a user: said, or read through libusb
	# (usbfs) instead when /dev/bus/usb allows it.
	chmod 000 "/sys/bus/usb/devices/$TESTBED_BOT_USB/descriptors"
	su -s /bin/sh nobody -c 'usbtrail uas --json' \
		>/out/user-nodesc.json 2>/out/user-nodesc.err
	echo $? >/out/user-nodesc.rc
	chmod 444 "/sys/bus/usb/devices/$TESTBED_BOT_USB/descriptors"
	ls -l /dev/bus/usb/*/* >/out/usbfs.txt 2>&1

	# A name that does not exist.
	usbtrail uas sdzz >/out/missing.out 2>/out/missing.err
	echo $? >/out/missing.rc

	# The quirk at run time: only the device probed again sees it, so
	# the SuperSpeed enclosure falls back while uas-hs stays on uas.
	echo "$TESTBED_UAS_USB:1.0" >/sys/bus/usb/drivers/uas/unbind
	echo 46f4:0003:u >/sys/module/usb_storage/parameters/quirks
	echo "$TESTBED_UAS_USB:1.0" >/sys/bus/usb/drivers_probe
	sleep 3
	usbtrail uas --json >/out/after.json 2>/out/after.err
	echo $? >/out/after.rc
	usbtrail uas >/out/after.txt 2>&1
	;;
cmdline)
	usbtrail uas --json >/out/cmdline.json 2>/out/cmdline.err
	echo $? >/out/cmdline.rc
	usbtrail uas >/out/cmdline.txt 2>&1
	cat /proc/cmdline >/out/proc-cmdline.txt
	;;
*)
	echo "usage: $0 boot|cmdline" >&2
	exit 2
	;;
esac
env | grep ^TESTBED_ | sort >/out/env.txt
echo guest-ok
