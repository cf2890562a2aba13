#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/44-tracefs-vs-module.sh: usbtrail.ko and
# usbtrail record --source tracefs record the same stall at the same time;
# /out/module.txt gets the module's records (utcat), /out/rec the
# recording.
#   tracefs-vs-module.sh DISK SECONDS
set -u
disk=$1 secs=$2
insmod "$USBTRAIL_KO" || exit 1
basename "$disk" >/out/disk.txt
# the tracefs source names the error handlers' command through scsi_mod's
# BTF; kernels before 5.11 have no BTF of modules
# (Debian's scsi_mod is a module)
if [ -e /sys/kernel/btf/scsi_mod ]; then
	echo yes >/out/scsi-btf.txt
else
	echo no >/out/scsi-btf.txt
fi
# a failed command's sense through scsi_dispatch_cmd_done's sense_key
# (6.12 has it, 6.1 not)
if grep -q sense_key \
	/sys/kernel/tracing/events/scsi/scsi_dispatch_cmd_done/format; then
	echo yes >/out/scsi-sense.txt
else
	echo no >/out/scsi-sense.txt
fi
# and the SCSI commands' tag through the events' driver_tag (5.13 on)
if grep -q driver_tag \
	/sys/kernel/tracing/events/scsi/scsi_dispatch_cmd_start/format; then
	echo yes >/out/scsi-tag.txt
else
	echo no >/out/scsi-tag.txt
fi
/tests/utcat --idle 100000 >/out/module.txt &
cat_pid=$!
# shellcheck disable=SC2016 # expanded by the inner sh
usbtrail record --no-pcap --source tracefs -o /out/rec -- \
	sh -c '/tests/write-loop.sh "$0" "$1" 64 >/out/loop.txt' \
	"$disk" "$secs" >/out/record.out 2>/out/record.err
echo "record exit $?"
sleep 1
kill $cat_pid
wait
rmmod usbtrail && echo tracefs-vs-module-done
