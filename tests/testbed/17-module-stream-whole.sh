#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The stream hands over every record once: with writes to the UAS disk
# (records from its interrupts and the block layer) and bursts of trigger
# records from every CPU at once, the reader gets each sequence number
# from the first to the last exactly once, none lost, and every trigger
# record.  The bursts (2000 records a CPU, 13% of a CPU's 1 MiB buffer)
# come a second apart, so a reader that keeps up at all loses nothing;
# a loss, a duplicate or a hole here is the reader's fault.  This is the
# load under which a page-at-a-time reader once lost records (issue 14).
# kernels: all
# cpus: 4
# arm64: 7.3
. "$(dirname "$0")/lib.sh"

bursts=8
per=2000

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --timeout "$(tb_timeout 400)" -- sh -c '
	insmod $USBTRAIL_KO || exit 1
	/tests/utcat --idle 100000 >/tmp/records.txt &
	reader=$!
	sleep 1
	/tests/utbench $TESTBED_UAS seq 1048576 128 >/dev/null &
	io=$!
	ncpu=$(nproc)
	echo "cpus $ncpu" >/out/cpus.txt
	b=0
	while [ $b -lt '"$bursts"' ]; do
		c=0 pids=
		while [ $c -lt $ncpu ]; do
			taskset -c $c sh -c "echo '"$per"' >/sys/kernel/debug/usbtrail/trigger" &
			pids="$pids $!"
			c=$((c + 1))
		done
		wait $pids
		sleep 1
		b=$((b + 1))
	done
	wait $io
	sleep 2
	kill -TERM $reader
	wait $reader
	echo "reader exit $?"
	cp /tmp/records.txt /out/records.txt
	cat /sys/kernel/debug/usbtrail/stats >/out/stats.txt
	rmmod usbtrail && echo unloaded
' >"$out/stdout.txt" 2>&1 || fail "guest command failed: $(tail -n 5 "$out/stdout.txt")"

expect "$out/stdout.txt" '^reader exit 0$'
expect "$out/stdout.txt" '^unloaded$'
expect "$out/stats.txt" '^lost=0$'
ncpu=$(sed -n 's/^cpus //p' "$out/cpus.txt")
[ -n "$ncpu" ] || fail "no CPU count from the guest"

# Each line is "SEQ SEC.NSEC TYPE ..."; a lost record has sequence 0.
awk -v want=$((bursts * per * ncpu)) '
	$1 !~ /^[0-9]+$/ { bad++; next }
	$3 == "lost" { lost++; next }
	{
		n++
		if (seen[$1]++) dup++
		if (min == "" || $1 + 0 < min) min = $1 + 0
		if ($1 + 0 > max) max = $1 + 0
		if ($3 == "mark" && / text=trigger/) marks++
	}
	END {
		printf "records %d, sequence %d to %d, duplicates %d, lost records %d, trigger marks %d of %d, bad lines %d\n",
		       n, min, max, dup, lost, marks, want, bad
		holes = (max - min + 1) - (n - dup)
		if (bad || dup || lost || holes || min != 1 || marks != want) {
			printf "holes %d\n", holes
			exit 1
		}
	}' "$out/records.txt" >"$out/check.txt" ||
	fail "the stream lost, doubled or missed records: $(cat "$out/check.txt")"
echo "ok: $(cat "$out/check.txt")"
no_kernel_warning "$out/console.log"
