#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/45-tracefs-source.sh: usbtrail record
# --source tracefs while DISK is written under the stall fault, then a
# second recording stopped by SIGTERM; the top-level tracing settings, the
# instances and the dynamic events are saved before and after each, to
# show the source leaves nothing behind.  A stale instance and kprobe of a
# process that is gone are planted first: the source must remove them.
#   tracefs-source.sh DISK SECONDS
set -u
disk=$1 secs=$2
T=/sys/kernel/tracing
basename "$disk" >/out/disk.txt
# the kprobes follow the handlers' command through scsi_mod's BTF: none
# before 5.11 (no BTF of modules)
if [ -e /sys/kernel/btf/scsi_mod ]; then
	echo yes >/out/scsi-btf.txt
else
	echo no >/out/scsi-btf.txt
fi

top() {
	for f in tracing_on current_tracer set_event trace_clock \
		buffer_size_kb; do
		echo "$f: $(tr '\n' ' ' <$T/$f)"
	done
}

# pid 99999 is not running in this guest (only a few hundred ever start)
kill -0 99999 2>/dev/null && { echo "pid 99999 exists"; exit 1; }
mkdir $T/instances/usbtrail-99999
echo 'p:kprobes/usbtrail_99999_stale vfs_read' >>$T/dynamic_events
echo 1 >$T/instances/usbtrail-99999/events/kprobes/usbtrail_99999_stale/enable
top >/out/top-before.txt
ls $T/instances >/out/instances-before.txt
cat $T/dynamic_events >/out/dynamic-before.txt

# shellcheck disable=SC2016 # expanded by the inner sh
usbtrail record --no-pcap --source tracefs -o /out/rec -- \
	sh -c '/tests/write-loop.sh "$0" "$1" 64 >/out/loop.txt' \
	"$disk" "$secs" >/out/record.out 2>/out/record.err
echo "record exit $?"
top >/out/top-after.txt
ls $T/instances >/out/instances-after.txt
cat $T/dynamic_events >/out/dynamic-after.txt

# stopped by SIGTERM while it records: the same cleanup
usbtrail record --no-pcap --source tracefs -o /out/rec-term --duration 60 \
	>/out/record-term.out 2>/out/record-term.err &
pid=$!
# once it records (its setup takes over 5 s on a slow guest: 5.10 under
# TCG; a SIGTERM before its signals are handled kills it outright)
i=0
while [ $i -lt 120 ] && ! grep -q 'recording into' /out/record-term.err; do
	sleep 0.5
	i=$((i + 1))
done
sleep 2
ls $T/instances >/out/instances-during.txt
kill -TERM $pid
wait $pid
echo "term exit $?"
top >/out/top-term.txt
ls $T/instances >/out/instances-term.txt
cat $T/dynamic_events >/out/dynamic-term.txt
echo tracefs-source-done
