#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the tracefs fixtures (tests/fixtures/tracefs/KERNEL/):
# copy the event formats usbtrail's tracefs source reads, then record the
# same events in an instance of our own while DISK is written under the
# stall fault, and save the binary per-CPU pages and the kernel's own text
# rendering of them (trace.txt) to compare against.
#   tracefs-capture.sh DISK SECONDS OUTDIR
set -u
disk=$1 secs=$2 o=$3
T=/sys/kernel/tracing
I=$T/instances/fixture
mkdir -p "$o/events"
cp $T/events/header_page $T/events/header_event "$o/events/"
for g in xhci-hcd scsi block; do
	for e in $T/events/$g/*/; do
		[ -f "$e/format" ] || continue
		n=$(basename "$e")
		mkdir -p "$o/events/$g/$n"
		cp "$e/format" "$o/events/$g/$n/format"
	done
done

# the EH kprobes as src_tracefs.c defines them (names differ)
kp() {
	echo "$1" >>$T/dynamic_events 2>>"$o/kprobe-errors.txt"
}
kp 'p:usbtrail_fx/uas_abort uas:uas_eh_abort_handler cmd=$arg1:x64'
kp 'r:usbtrail_fx/uas_abort_ret uas:uas_eh_abort_handler ret=$retval:s32'
kp 'p:usbtrail_fx/uas_reset uas:uas_eh_device_reset_handler cmd=$arg1:x64'
kp 'r:usbtrail_fx/uas_reset_ret uas:uas_eh_device_reset_handler ret=$retval:s32'
for e in $T/events/usbtrail_fx/*/; do
	[ -f "$e/format" ] || continue
	mkdir -p "$o/events/kprobes/$(basename "$e")"
	cp "$e/format" "$o/events/kprobes/$(basename "$e")/format"
done

mkdir $I
echo boot >$I/trace_clock
echo 4096 >$I/buffer_size_kb
for e in xhci-hcd/xhci_handle_event xhci-hcd/xhci_handle_command \
	xhci-hcd/xhci_handle_port_status xhci-hcd/xhci_urb_enqueue \
	xhci-hcd/xhci_urb_giveback xhci-hcd/xhci_urb_dequeue \
	scsi/scsi_dispatch_cmd_start scsi/scsi_dispatch_cmd_done \
	scsi/scsi_dispatch_cmd_error scsi/scsi_dispatch_cmd_timeout \
	scsi/scsi_eh_wakeup block/block_rq_issue block/block_rq_complete \
	usbtrail_fx; do
	echo 1 >"$I/events/$e/enable" || echo "cannot enable $e" >&2
done
cat /proc/uptime >"$o/uptime-start.txt"
/tests/write-loop.sh "$disk" "$secs" 16
sleep 1
echo 0 >$I/tracing_on
cat $I/trace >"$o/trace.txt"
cat $I/per_cpu/cpu0/stats >"$o/stats.txt"
dd if=$I/per_cpu/cpu0/trace_pipe_raw of="$o/cpu0.raw" bs=4096 2>/dev/null &
sleep 3
kill $! 2>/dev/null
wait
echo 0 >$I/events/enable
rmdir $I
echo '-:usbtrail_fx/uas_abort' >>$T/dynamic_events
echo '-:usbtrail_fx/uas_abort_ret' >>$T/dynamic_events
echo '-:usbtrail_fx/uas_reset' >>$T/dynamic_events
echo '-:usbtrail_fx/uas_reset_ret' >>$T/dynamic_events
ls -l "$o"
echo capture-ok
