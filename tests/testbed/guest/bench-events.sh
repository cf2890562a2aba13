# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Sourced by the benchmarks' guest scripts (bench-overhead.sh,
# bench-record.sh, bench-iocost.sh): the 13 tracepoints usbtrail.ko
# attaches to (module/ut_tables.h), which ftrace and trace-cmd record in
# the same runs, as SYSTEM/EVENT under tracefs's events/.
bench_events="xhci-hcd/xhci_handle_event xhci-hcd/xhci_handle_command
	xhci-hcd/xhci_handle_port_status xhci-hcd/xhci_urb_enqueue
	xhci-hcd/xhci_urb_giveback xhci-hcd/xhci_urb_dequeue
	scsi/scsi_dispatch_cmd_start scsi/scsi_dispatch_cmd_done
	scsi/scsi_dispatch_cmd_error scsi/scsi_dispatch_cmd_timeout
	scsi/scsi_eh_wakeup block/block_rq_issue block/block_rq_complete"

# The same as trace-cmd record's options: -e SYSTEM:EVENT ...
bench_trace_cmd_events() {
	for e in $bench_events; do
		printf ' -e %s:%s' "${e%%/*}" "${e#*/}"
	done
}
