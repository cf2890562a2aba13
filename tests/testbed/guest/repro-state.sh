#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/71-repro-*.sh: what usbtrail repro may
# change, one "name=value" a line, to compare before and after a run:
# the usb-storage quirks parameter, the bridge interface's driver, its
# disk's max_sectors_kb and command timeout (the disk's name may change
# with a probe: not printed).
#   repro-state.sh
set -u
usb=
for d in /sys/bus/usb/devices/*; do
	[ "$(cat "$d/serial" 2>/dev/null)" = usbtrail-bridge ] && usb=${d##*/}
done
[ -n "$usb" ] || { echo "repro-state.sh: no bridge" >&2; exit 1; }
iface=$usb:1.0
echo "quirks=$(cat /sys/module/usb_storage/parameters/quirks)"
drv=$(readlink "/sys/bus/usb/devices/$iface/driver")
echo "driver=${drv##*/}"
# the disk, once it is there after a probe (usb-storage waits delay_use)
i=0
while [ $i -lt 100 ]; do
	for b in /sys/block/sd*; do
		case "$(readlink -f "$b/device")" in
		*/"$iface"/*)
			echo "max_sectors_kb=$(cat "$b/queue/max_sectors_kb")"
			echo "timeout=$(cat "$b/device/timeout")"
			exit 0 ;;
		esac
	done
	sleep 0.1
	i=$((i + 1))
done
echo "disk=none"
