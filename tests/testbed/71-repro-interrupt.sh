#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro interrupted at each step (issue 32), on --bridge
# max-sectors: SIGINT while the baseline runs (the command timeout
# changed), SIGTERM while a quirk is set (the parameter changed, the
# interface probed again), SIGKILL while max_sectors_kb is 120 and then
# --restore, SIGKILL while a quirk is set and then a new run.  Each time
# the quirks parameter, the driver, max_sectors_kb and the timeout are
# back as they were.
. "$(dirname "$0")/lib.sh"

vidpid=7c0d:2e94
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "max-sectors,vidpid=$vidpid" --timeout 1200 -- sh -c '
	vidpid='"$vidpid"'
	sh /tests/repro-state.sh >/out/before.state
	q=/sys/module/usb_storage/parameters/quirks
	# until COND holds (up to 300 s): 0, else 1
	until_() {
		i=0
		while ! eval "$1"; do
			[ $i -ge 3000 ] && return 1
			sleep 0.1; i=$((i + 1))
		done
	}
	# the bridge disk'"'"'s attribute $1 now ("" if no disk)
	attr() { cat /sys/block/sd*/$1 2>/dev/null | head -n 1; }
	repro() {
		usbtrail repro "$TESTBED_BRIDGE" -o "/out/$1" --destroy-data \
			--size 8M --workloads seq --cmd-timeout 4 \
			--confidence 0.5 >"/out/$1.out" 2>"/out/$1.err" &
		pid=$!
	}
	# stop STEP SIGNAL COND: a run, SIGNAL once COND holds
	stop() {
		repro "$1"
		until_ "$3" || echo "$1: never: $3"
		kill -"$2" $pid; wait $pid; echo "$1 exit $?"
	}
	stop int INT "[ \"\$(attr device/timeout)\" = 4 ]"
	sh /tests/repro-state.sh >/out/int.state
	stop term TERM "grep -q $vidpid $q"
	sh /tests/repro-state.sh >/out/term.state
	stop kill1 KILL "[ \"\$(attr queue/max_sectors_kb)\" = 120 ]"
	sleep 5	# its run ends on SIGTERM (PR_SET_PDEATHSIG)
	ls /run/usbtrail/ >/out/kill1.ls
	sh /tests/repro-state.sh >/out/kill1.state
	usbtrail repro --restore >/out/restore.out 2>&1
	echo "restore exit $?"
	sh /tests/repro-state.sh >/out/restore.state
	stop kill2 KILL "grep -q $vidpid $q"
	sleep 5
	grep -c $vidpid $q >/out/kill2.q
	# a new run puts it back first
	stop rerun INT "grep -qs \"put back\" /out/rerun.err"
	sh /tests/repro-state.sh >/out/rerun.state
	true' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
grep never "$out/stdout.txt" && fail "a step was never reached"
for step in int term; do
	expect "$out/stdout.txt" "^$step exit 4\$"
	expect "$out/$step.err" 'interrupted \(signal (2|15)\)'
	diff "$out/before.state" "$out/$step.state" >"$out/state.diff" ||
		fail "$step: not put back: $(cat "$out/state.diff")"
	echo "ok: $step: put back"
done
expect "$out/stdout.txt" '^kill1 exit 137$'
expect "$out/kill1.ls" 'repro.state'
expect "$out/kill1.state" 'max_sectors_kb=120'
expect "$out/stdout.txt" '^restore exit 0$'
expect "$out/restore.out" 'put back what an interrupted run changed'
diff "$out/before.state" "$out/restore.state" >"$out/state.diff" ||
	fail "--restore: not put back: $(cat "$out/state.diff")"
echo "ok: --restore: put back"
expect "$out/stdout.txt" '^kill2 exit 137$'
expect "$out/kill2.q" '^1$'
expect "$out/rerun.err" 'put back what an interrupted run changed'
expect "$out/stdout.txt" '^rerun exit 4$'
diff "$out/before.state" "$out/rerun.state" >"$out/state.diff" ||
	fail "rerun: not put back: $(cat "$out/state.diff")"
echo "ok: a new run put it back"
no_kernel_warning "$out/console.log"
