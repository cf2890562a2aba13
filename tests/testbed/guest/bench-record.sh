#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of bench/record-overhead: the same writes to DISK with
#   bare           nothing attached
#   rec-module     usbtrail record --source module (usbtrail.ko loaded)
#   rec-tracefs    usbtrail record --source tracefs
#   trace-cmd      trace-cmd record on the same tracepoints (when packed)
# ROUNDS rounds, configurations interleaved.  usbtrail.ko is loaded for
# rec-module only: loaded, its probes cost the others too.  Per run, one
# line:
#   CONFIG ROUND SEQ-MB/s SEQ-IOPS SEQ-SECS RAND-MB/s RAND-IOPS RAND-SECS
#          CPU-SECS EVENTS LOST USER-SECS SYS-SECS
# CPU-SECS is the collector's user+system time, children included (busybox
# time), EVENTS what it stored, LOST what it says it lost.
#   bench-record.sh DISK ROUNDS
disk=$1 rounds=${2:-3}
. "$(dirname "$0")/bench-events.sh"
events=$(bench_trace_cmd_events)
configs="bare rec-module rec-tracefs"
command -v trace-cmd >/dev/null && configs="$configs trace-cmd"
cd /tmp || exit 1

start() {	# CONFIG
	rm -rf /tmp/c /tmp/t.dat /tmp/time.txt
	if [ "$1" = rec-module ]; then
		insmod "$USBTRAIL_KO" || exit 1
	fi
	case $1 in
	rec-module|rec-tracefs)
		time -p -o /tmp/time.txt usbtrail record -q --no-pcap \
			--source "${1#rec-}" -o /tmp/c >/dev/null 2>/tmp/c.err &
		;;
	trace-cmd)
		# shellcheck disable=SC2086
		time -p -o /tmp/time.txt trace-cmd record -q -b 1024 $events \
			-o /tmp/t.dat >/dev/null 2>&1 &
		;;
	*) return ;;
	esac
	pid=$!
	sleep 2			# attached before the writes begin
}

stop() {	# CONFIG -> "CPU EVENTS LOST USER SYS"
	cfg=$1		# the loop below takes over $1...
	case $cfg in
	bare) echo "0 0 0 0 0"; return ;;
	esac
	# busybox time forwards nothing: signal the collector, its child
	for s in /proc/[0-9]*/stat; do
		# shellcheck disable=SC2046
		set -- $(cat "$s" 2>/dev/null)
		[ "${4:-}" = "$pid" ] && kill -INT "$1"
	done
	wait "$pid"
	cpu=$(awk '$1 == "user" || $1 == "sys" { s += $2 } END { print s + 0 }' \
		/tmp/time.txt)
	usr=$(awk '$1 == "user" { print $2 + 0 }' /tmp/time.txt)
	sys=$(awk '$1 == "sys" { print $2 + 0 }' /tmp/time.txt)
	case $cfg in
	rec-*)
		# the records are in capture.pcapng: meta.json counts them
		ev=$(grep -o '"trace":[0-9]*' /tmp/c/meta.json | head -n 1 |
			cut -d: -f2)
		lost=$(grep -o '"lost":[0-9]*' /tmp/c/meta.json |
			awk -F: '{ s += $2 } END { print s + 0 }') ;;
	trace-cmd)
		ev=$(trace-cmd report -i /tmp/t.dat 2>/dev/null |
			grep -c -E ' (xhci_|scsi_|block_rq_)')
		lost=$(trace-cmd report --stat -i /tmp/t.dat 2>/dev/null |
			awk '/overrun:|dropped events:/ { s += $NF } END { print s + 0 }') ;;
	esac
	if [ "$cfg" = rec-module ]; then
		rmmod usbtrail >&2
	fi
	echo "$cpu $ev $lost ${usr:-0} ${sys:-0}"
}

r=1
while [ $r -le "$rounds" ]; do
	for c in $configs; do
		start "$c"
		seq=$(/tests/utbench "$disk" seq 1048576 256)
		rand=$(/tests/utbench "$disk" rand 4096 3000)
		# not in $(...): wait needs the collector as its own child
		stop "$c" >/tmp/res.txt
		echo "$c $r $seq $rand $(cat /tmp/res.txt)"
	done
	r=$((r + 1))
done
