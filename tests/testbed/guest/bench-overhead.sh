#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of bench/module-overhead: write to DISK (a) bare, (b)
# with usbtrail.ko recording, (c) with the same tracepoints enabled in
# ftrace; (b) and (c) also with a reader draining the buffer (/dev/usbtrail,
# or trace_pipe_raw of each CPU).  ROUNDS rounds, the configurations
# interleaved so drift hits all alike.  One line per run:
#   CONFIG ROUND seq MB/s IOPS s    and    CONFIG ROUND rand MB/s IOPS s
#   bench-overhead.sh DISK ROUNDS
disk=$1 rounds=${2:-5}
t=/sys/kernel/tracing
. "$(dirname "$0")/bench-events.sh"
events=$bench_events
# leave the boot-time ring allocation event out of it
echo 0 >$t/events/enable
echo >$t/trace

setup() {
	case $1 in
	module*) insmod "$USBTRAIL_KO" ;;
	ftrace*) echo 1024 >$t/buffer_size_kb
		for e in $events; do echo 1 >"$t/events/$e/enable"; done
		echo 1 >$t/tracing_on ;;
	esac
	case $1 in
	module+reader)
		/tests/utcat --discard --idle 600000 >/dev/null &
		reader=$! ;;
	ftrace+reader)
		cat $t/per_cpu/cpu0/trace_pipe_raw >/dev/null &
		reader=$! ;;
	esac
}

teardown() {
	case $1 in
	*+reader) kill "$reader"; wait "$reader" 2>/dev/null ;;
	esac
	case $1 in
	module*) rmmod usbtrail ;;
	ftrace*) for e in $events; do echo 0 >"$t/events/$e/enable"; done
		echo >$t/trace ;;
	esac
}

r=1
while [ $r -le "$rounds" ]; do
	for c in bare module ftrace module+reader ftrace+reader; do
		setup $c
		echo "$c $r seq $(/tests/utbench "$disk" seq 1048576 256)"
		echo "$c $r rand $(/tests/utbench "$disk" rand 4096 3000)"
		teardown $c
	done
	r=$((r + 1))
done
