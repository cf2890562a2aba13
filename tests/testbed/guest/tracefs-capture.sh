#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the tracefs fixtures (tests/fixtures/tracefs/KERNEL/):
# copy the event formats usbtrail's tracefs source reads, then record the
# same events in an instance of our own while DISK is written under the
# stall fault, and save the binary per-CPU pages and the kernel's own text
# rendering of them (trace.txt) to compare against.
#   tracefs-capture.sh DISK START SECONDS OUTDIR
# The writes begin START seconds after this script does (the test bed's
# fault clock starts with it too), once the setup is done.
set -u
disk=$1 start=$2 secs=$3 o=$4
now() { cut -d' ' -f1 /proc/uptime; }
t0=$(now)
T=/sys/kernel/tracing
I=$T/instances/fixture
mkdir -p "$o/events"
cp $T/events/header_page $T/events/header_event "$o/events/"
for g in xhci-hcd scsi block; do
	for e in "$T/events/$g"/*/; do
		[ -f "$e/format" ] || continue
		n=$(basename "$e")
		mkdir -p "$o/events/$g/$n"
		cp "$e/format" "$o/events/$g/$n/format"
	done
done

# the EH kprobes exactly as src_tracefs.c defines them (with the fetch
# arguments it computes from BTF), taken from a running usbtrail record,
# in a group of their own
usbtrail record --no-pcap --source tracefs -o /tmp/rec --duration 6 \
	>/dev/null 2>&1 &
sleep 4
grep -E '^[pr][0-9]*:kprobes/usbtrail_[0-9]+_uas_' $T/dynamic_events |
	sed 's,^\([pr]\)[0-9]*:kprobes/usbtrail_[0-9]*_,\1:usbtrail_fx/,' \
	>"$o/kprobes.txt"
wait
while read -r line; do
	echo "$line" >>$T/dynamic_events 2>>"$o/kprobe-errors.txt"
done <"$o/kprobes.txt"
for e in "$T"/events/usbtrail_fx/*/; do
	[ -f "$e/format" ] || continue
	mkdir -p "$o/events/kprobes/$(basename "$e")"
	cp "$e/format" "$o/events/kprobes/$(basename "$e")/format"
done

mkdir $I
echo boot >$I/trace_clock
echo 8192 >$I/buffer_size_kb
for e in xhci-hcd/xhci_handle_event xhci-hcd/xhci_handle_command \
	xhci-hcd/xhci_handle_port_status xhci-hcd/xhci_urb_enqueue \
	xhci-hcd/xhci_urb_giveback xhci-hcd/xhci_urb_dequeue \
	scsi/scsi_dispatch_cmd_start scsi/scsi_dispatch_cmd_done \
	scsi/scsi_dispatch_cmd_error scsi/scsi_dispatch_cmd_timeout \
	scsi/scsi_eh_wakeup block/block_rq_issue block/block_rq_complete \
	usbtrail_fx; do
	echo 1 >"$I/events/$e/enable" || echo "cannot enable $e" >&2
done
while awk -v t="$(now)" -v e="$t0" -v s="$start" \
	'BEGIN { exit !(t < e + s) }'; do
	sleep 0.2
done
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
for e in "$T"/events/usbtrail_fx/*/; do
	[ -d "$e" ] && echo "-:usbtrail_fx/$(basename "$e")" >>$T/dynamic_events
done
ls -l "$o"
echo capture-ok
