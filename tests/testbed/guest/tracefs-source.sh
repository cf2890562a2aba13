#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/45-tracefs-source.sh: record with the
# tracefs source (tests/tools/uttrace) while DISK is written under the
# stall fault, and save the top-level tracing settings, the instances and
# the dynamic events before and after, to show the source leaves no trace.
# A stale instance and kprobe of a process that is gone are planted first:
# the source must remove them.
#   tracefs-source.sh DISK SECONDS
set -u
disk=$1 secs=$2
T=/sys/kernel/tracing
basename "$disk" >/out/disk.txt

top() {
	for f in tracing_on current_tracer set_event trace_clock \
		buffer_size_kb; do
		echo "$f: $(cat $T/$f | tr '\n' ' ')"
	done
}

# pid 99999 is not running in this guest (pid_max is larger, but only a
# few dozen processes ever start)
kill -0 99999 2>/dev/null && { echo "pid 99999 exists"; exit 1; }
mkdir $T/instances/usbtrail-99999
echo 'p:kprobes/usbtrail_99999_stale vfs_read' >>$T/dynamic_events
echo 1 >$T/instances/usbtrail-99999/events/kprobes/usbtrail_99999_stale/enable
top >/out/top-before.txt
ls $T/instances >/out/instances-before.txt
cat $T/dynamic_events >/out/dynamic-before.txt

/tests/uttrace -- sh -c '/tests/write-loop.sh "$0" "$1" 64 >/out/loop.txt' \
	"$disk" "$secs" >/out/records.txt 2>/out/uttrace.err
echo "uttrace-exit=$?" >>/out/uttrace.err

top >/out/top-after.txt
ls $T/instances >/out/instances-after.txt
cat $T/dynamic_events >/out/dynamic-after.txt
echo tracefs-source-done
