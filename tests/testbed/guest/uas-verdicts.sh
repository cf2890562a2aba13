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
	# The emulated devices' raw descriptors, for the unit-test fixtures;
	# what the BOS and strings usbtrail shows are checked against: the
	# BOS by a bare usbfs GET_DESCRIPTOR (tests/tools/utbos.c), and by
	# sysfs where the kernel has bos_descriptors (6.9), the active
	# configuration's string as the kernel keeps it.
	for d in UAS BOT UAS_HS; do
		eval "usb=\$TESTBED_${d}_USB"
		# shellcheck disable=SC2154 # usb: set by the eval above
		sys=/sys/bus/usb/devices/$usb
		cp "$sys/descriptors" "/out/desc-$d.bin"
		node=$(printf '/dev/bus/usb/%03d/%03d' "$(cat "$sys/busnum")" \
			"$(cat "$sys/devnum")")
		/tests/utbos "$node" >"/out/bos-$d.hex" 2>"/out/bos-$d.err"
		[ -r "$sys/bos_descriptors" ] &&
			cp "$sys/bos_descriptors" "/out/bos-sysfs-$d.bin"
		cat "$sys/configuration" >"/out/config-$d.txt" 2>/dev/null
		ls "$sys/power/" >"/out/power-$d.txt" 2>&1
	done

	# As a user: sysfs and the quirks parameter are world-readable,
	# debugfs is not.
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
	echo 'nogroup:x:65534:' >>/etc/group
	su -s /bin/sh nobody -c 'id -u; usbtrail uas --json' \
		>/out/user.json 2>/out/user.err
	echo $? >/out/user.rc

	# Descriptors unreadable to a user: said; usbfs (libusb) cannot stand
	# in, its Linux backend reads the same sysfs file.
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
