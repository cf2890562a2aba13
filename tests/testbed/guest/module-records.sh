#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the module record tests: load usbtrail.ko, write 4 MiB to
# the UAS disk (healthy), then write across the sector where the test bed
# fails the write with "medium not present", then drain /dev/usbtrail and
# save the records and debugfs counters to /out.
set -u
d=/sys/kernel/debug/usbtrail
insmod "$USBTRAIL_KO" || exit 1
basename "$TESTBED_UAS" >/out/disk.txt
cat "$d/stats" >/out/stats-before.txt

/tests/utcat >/out/load.txt	# what the load itself produced
echo "healthy 4194304" >/out/phases.txt
dd if=/dev/zero of="$TESTBED_UAS" bs=1M count=4 oflag=direct 2>/dev/null
sync
/tests/utcat --info >/out/healthy.txt

dd if=/dev/zero of="$TESTBED_UAS" bs=1M count=8 seek=0 oflag=direct \
	2>/out/dd-error.txt
/tests/utcat --info >/out/records.txt
cat "$d/usb" >/out/usb.txt
cat "$d/disks" >/out/disks.txt
cat "$d/stats" >/out/stats.txt
cat "$d/flight" >/out/flight.txt
cat "$d/probes" >/out/probes.txt
rmmod usbtrail || exit 1
echo module-records-ok
