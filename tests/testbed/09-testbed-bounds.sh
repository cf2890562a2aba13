#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The test bed's own contract: bad arguments exit 2 before anything boots;
# a guest that overruns --timeout is killed (exit 124, console tail shown)
# and no QEMU process is left behind; COMMAND's exit status comes through;
# a boot that stalls before COMMAND is booted again (--boot-retries).
. "$(dirname "$0")/lib.sh"

run=$top/tools/testbed/run
for bad in "--devices floppy -- true" "--fault melt@3 -- true" \
	   "--fault stall@3 -- true" "--fault unplug@1+1:bot --devices uas -- true" \
	   "--quirk 46f4 -- true" "--devices uas" "--boot-retries -1 -- true"; do
	# shellcheck disable=SC2086
	$run $bad >"$out/bad.txt" 2>&1
	rc=$?
	[ "$rc" = 2 ] || fail "'$bad' exited $rc, not 2"
	echo "ok: '$bad' -> exit 2: $(tail -n 1 "$out/bad.txt")"
done

$run --devices bot --timeout 25 -- sh -c 'echo to-stdout; echo to-stderr >&2; exit 7' \
	>"$out/status.out" 2>"$out/status.err"
rc=$?
[ "$rc" = 7 ] || fail "COMMAND's exit 7 came back as $rc"
expect "$out/status.out" '^to-stdout$'
expect "$out/status.err" '^to-stderr$'

$run --devices bot --out "$out/timeout" --timeout 20 -- sleep 600 \
	>"$out/timeout.out" 2>&1
rc=$?
[ "$rc" = 124 ] || fail "a timed-out run exited $rc, not 124"
expect "$out/timeout.out" 'timed out after 20 s'
expect "$out/timeout.out" 'testbed: command start'
if pgrep -f "usbtrail-testbed-out|$out/timeout" >/dev/null; then
	fail "a QEMU process was left behind: $(pgrep -af qemu-system)"
fi
echo "ok: no QEMU left behind"

# A stall the guest's kernel reports before COMMAND starts boots it again,
# once by default, keeping the stalled console: the kernel's own "Unknown
# kernel command line parameters" line carries the report's words, in
# every boot, so the second boot stalls too and runs COMMAND anyway.
$run --devices bot --out "$out/stall" --timeout 120 \
	--append 'tbstall="rcu: INFO: testbed self-detected stall"' -- \
	sh -c 'echo ran; exit 3' >"$out/stall.out" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "the run with a boot stall exited $rc, not COMMAND's 3"
expect "$out/stall.out" "stalled while booting, before COMMAND ran .*; its console is console.stalled-1.log; booting again \(1 of --boot-retries 1\)"
[ "$(grep -c 'booting again' "$out/stall.out")" = 1 ] ||
	fail "booted again more than --boot-retries 1 times"
expect "$out/stall.out" '^ran$'
[ "$(grep -c '^ran$' "$out/stall.out")" = 1 ] || fail "COMMAND ran twice"
expect "$out/stall/console.stalled-1.log" 'Unknown kernel command line parameters "tbstall=rcu: INFO'
expect "$out/stall/console.log" 'testbed: command start'
[ ! -e "$out/stall/console.stalled-2.log" ] || fail "a second stalled console"
