#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of bench/io-cost: the CPU time the guest spends per write, in
# a guest booted with `tools/testbed/run --icount SHIFT --write-iops N`,
# where the guest's clock advances by the instructions it executes and the
# host's load does not enter (docs/testbed.md says why the writes are
# paced).  The writes of bench-record.sh, to DISK, under
#   bare           nothing attached (usbtrail.ko not loaded)
#   module         usbtrail.ko loaded, recording into its buffer, no reader
#   rec-module     usbtrail record --source module (usbtrail.ko loaded)
#   rec-tracefs    usbtrail record --source tracefs (usbtrail.ko not loaded)
#   trace-cmd      trace-cmd record on the same 13 tracepoints (when packed)
# ROUNDS rounds, configurations interleaved.  Each workload (1 MiB
# sequential, 4 KiB random, O_DIRECT: /tests/utbench) is measured on its
# own, one line per run and workload:
#   CONFIG ROUND WORKLOAD IOS ELAPSED IDLE IOWAIT BUSY COLLECTOR MB/s IOPS SECS
#          CTXT INTR LOC
# and, per run of a collector (both workloads, from its start to its exit,
# its children's and its work after it was stopped included: trace-cmd
# writes its output file then), from wait4() through /tests/utrusage:
#   CONFIG ROUND life USER_US SYS_US
# WORKLOAD is seq or rand, IOS its writes; ELAPSED, IDLE, IOWAIT, BUSY
# (= ELAPSED - IDLE - IOWAIT) and COLLECTOR (the collector's own CPU time,
# its threads and its children's) are nanoseconds of the guest's clock over
# the same window; BUSY - COLLECTOR is the I/O path's in-line cost. MB/s,
# IOPS and SECS are utbench's, on the guest's clock.  CTXT, INTR and LOC
# count the context switches, interrupts and of those the local timer's
# in the window: what makes BUSY differ between rounds of one CONFIG.
#   bench-iocost.sh DISK ROUNDS [CONFIGS]    (CONFIGS: a space-separated list)
#
# The clock: /proc/timer_list, not /proc/stat or /proc/uptime.  /proc/stat
# prints idle and iowait in 10 ms units, a tenth of the busy time of a
# whole workload here; /proc/uptime is in 10 ms too.  timer_list prints,
# in one read, ktime_get() ("now at") and each CPU's idle_sleeptime and
# iowait_sleeptime in ns.  Those two are brought up to date when the CPU
# leaves idle, and the CPU reading them is not idle, so they are current
# at the "now" of the same read.  The collector's CPU time is each of its
# threads' sum_exec_runtime (/proc/PID/task/TID/schedstat, ns); with one
# guest CPU it does not run while the snapshot is taken.
disk=$1 rounds=${2:-3}
configs=${3:-"bare module rec-module rec-tracefs trace-cmd"}
t=/sys/kernel/tracing
. "$(dirname "$0")/bench-events.sh"
events=$(bench_trace_cmd_events)
command -v trace-cmd >/dev/null ||
	configs=$(echo "$configs" | sed 's/trace-cmd//')
# the boot-time ring allocation event is no part of any configuration
echo 0 >$t/events/enable
cd /tmp || exit 1
pid='' tasks=''

# CONFIG: load what it needs, start its collector, settle
start() {
	rm -rf /tmp/c /tmp/t.dat /tmp/life.txt
	case $1 in
	module|rec-module) insmod "$USBTRAIL_KO" || exit 1 ;;
	esac
	pid=
	case $1 in
	rec-module|rec-tracefs)
		/tests/utrusage /tmp/life.txt usbtrail record -q --no-usbmon \
			--source "${1#rec-}" -o /tmp/c >/dev/null 2>/tmp/c.err &
		pid=$! ;;
	trace-cmd)
		# shellcheck disable=SC2086 # $events: words
		/tests/utrusage /tmp/life.txt trace-cmd record -q -b 1024 \
			$events -o /tmp/t.dat >/dev/null 2>&1 &
		pid=$! ;;
	esac
	sleep 2			# attached before the writes begin
	# the collector and its children (trace-cmd forks a reader per CPU),
	# as they are now: their threads' schedstat files, read at each end
	tasks=
	if [ -n "$pid" ]; then
		procs=$(awk -v top="$pid" -v pids="$(cd /proc && echo [0-9]*)" '
			BEGIN {
				n = split(pids, p, " ")
				for (i = 1; i <= n; i++)
					if ((getline l < ("/proc/" p[i] "/stat")) > 0) {
						sub(/^.*\) /, "", l)
						split(l, w, " ")
						parent[p[i]] = w[2]
					}
				want[top] = 1
				do {
					more = 0
					for (c in parent)
						if (want[parent[c]] && !want[c]) {
							want[c] = 1; more = 1
						}
				} while (more)
				for (c in want) print c
			}')
		for p in $procs; do
			tasks="$tasks /proc/$p/task/*/schedstat"
		done
	fi
}

# -> "NOW IDLE IOWAIT COLLECTOR CTXT INTR LOC": ktime_get() and the sums
# over CPUs of idle and iowait time from one read of /proc/timer_list, the
# collector's CPU time, all ns; context switches and interrupts so far, and
# of those the local timer's; the files in the order given
snap() {	# FILES...
	# getline, not awk's file arguments: a thread gone since start()
	# leaves a file that cannot be opened, which those would stop on
	awk -v files="$*" '
		BEGIN {
			n = split(files, f, " ")
			for (i = 1; i <= n; i++)
				while ((getline l < f[i]) > 0)
					take(f[i], l)
			printf "%.0f %.0f %.0f %.0f %.0f %.0f %.0f\n", now, idle,
			       io, coll, ctxt, intr, loc
		}
		function take(file, line,   w, k, j) {
			k = split(line, w, " ")
			if (file == "/proc/timer_list") {
				if (w[1] == "now" && w[2] == "at") now = w[3]
				else if (w[1] ~ /^\.idle_sleeptime/) idle += w[k - 1]
				else if (w[1] ~ /^\.iowait_sleeptime/) io += w[k - 1]
			} else if (file == "/proc/stat") {
				if (w[1] == "ctxt") ctxt = w[2]
				else if (w[1] == "intr") intr = w[2]
			} else if (file == "/proc/interrupts") {
				if (w[1] == "LOC:")
					for (j = 2; j <= k && w[j] ~ /^[0-9]+$/; j++)
						loc += w[j]
			} else
				coll += w[1]
		}'
}

# CONFIG ROUND: stop its collector, unload what it loaded
stop() {
	if [ -n "$pid" ]; then
		kill -INT "$pid"
		wait "$pid"
		[ -s /tmp/life.txt ] && echo "$1 $2 life $(cat /tmp/life.txt)"
	fi
	case $1 in
	module|rec-module) rmmod usbtrail ;;
	esac
}

# CONFIG ROUND WORKLOAD BLOCK COUNT: one measured workload, one line
measure() {
	sleep 1		# the previous step's deferred work done, out of the window
	# shellcheck disable=SC2086 # $tasks: globs, expanded here
	a=$(snap $tasks /proc/stat /proc/interrupts /proc/timer_list)
	res=$(/tests/utbench "$disk" "$3" "$4" "$5")
	# shellcheck disable=SC2086
	b=$(snap /proc/timer_list /proc/stat /proc/interrupts $tasks)
	# shellcheck disable=SC2086 # the snapshots: words
	set -- "$1" "$2" "$3" "$5" $a $b
	# (the collector's threads that ended in the window are lost to it)
	echo "$1 $2 $3 $4" $((${12} - $5)) $((${13} - $6)) $((${14} - $7)) \
		$((${12} - $5 - ${13} + $6 - ${14} + $7)) $((${15} - $8)) \
		"$res" $((${16} - $9)) $((${17} - ${10})) $((${18} - ${11}))
}

# one pass of each workload, not measured: what the first writes after
# boot allocate, later ones reuse
/tests/utbench "$disk" seq 1048576 256 >/dev/null
/tests/utbench "$disk" rand 4096 3000 >/dev/null
r=1
while [ $r -le "$rounds" ]; do
	for c in $configs; do
		start "$c"
		measure "$c" $r seq 1048576 256
		measure "$c" $r rand 4096 3000
		stop "$c" $r
	done
	r=$((r + 1))
done
