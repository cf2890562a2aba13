#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record stopped (SIGINT, SIGTERM, --duration) while its COMMAND
# runs: COMMAND gets SIGTERM and --command-grace seconds (default 60) to
# finish what it does on SIGTERM, and the recording goes on meanwhile.
# A COMMAND that takes 5 s to finish (the time usbtrail stress takes to
# read back what it wrote; record used to SIGKILL it after 3 s) ends on
# its own with its status and its last lines; --command-grace 1 kills it
# after about a second; a second SIGINT at once.  Then usbtrail stress
# itself: a read-back that outlasts the old 3 s is whole in the report.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "usbtrail record here needs root"
command -v setsid >/dev/null || skip "no setsid"

# a COMMAND that needs 5 s to finish after SIGTERM, then says so
slow=$work/slow.sh
cat >"$slow" <<'EOF'
trap 'sleep 5; echo "finished after SIGTERM"; exit 4' TERM
echo started
while :; do sleep 0.1; done
EOF

# start ARGS...: usbtrail record ARGS... in the background (start_bg),
# killed after 150 s; $pid
start() {
	echo "+ usbtrail record $*"
	start_bg 150 "$bin" record "$@"
}

# await FILE RE: until FILE has a line matching RE (60 s at most)
await() {
	i=0
	until grep -Eq "$2" "$1"; do
		i=$((i + 1))
		[ "$i" -le 600 ] || fail "no '$2' in $1 in 60 s"
		kill -0 "$pid" 2>/dev/null || {
			cat "$out/last.err"
			skip "usbtrail record ended early (does it run here?)"
		}
		sleep 0.1
	done
}

# finish: wait for it; its status in $rc, seconds since $t0 in $secs
finish() {
	wait "$pid"
	rc=$?
	secs=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	sed 's/^/  /' "$out/last.err" | tail -n 4
}

# 1. SIGTERM to record: the command's 5 s are waited for
start -o "$work/r1" -- sh "$slow"
await "$out/last.out" '^started$'
t0=$(date +%s.%N)
kill -TERM "$pid"
finish
check "exit status: the command's own" "$rc" 4
grep -q '^finished after SIGTERM$' "$out/last.out" ||
	fail "the command was cut before it finished"
grep -q 'waiting up to 60 s for COMMAND to finish (--command-grace); Ctrl-C kills it now' \
	"$out/last.err" || fail "record did not say it waits"
awk -v s="$secs" 'BEGIN { exit !(s >= 5 && s < 20) }' ||
	fail "record took $secs s"
echo "ok: record waited $secs s for the command to finish"

# 2. --command-grace 1: SIGKILL after about a second
start -o "$work/r2" --command-grace 1 -- sh "$slow"
await "$out/last.out" '^started$'
t0=$(date +%s.%N)
kill -INT "$pid"
finish
check "exit status, killed" "$rc" 137
grep -q 'finished after SIGTERM' "$out/last.out" &&
	fail "the command finished within --command-grace 1"
awk -v s="$secs" 'BEGIN { exit !(s >= 1 && s < 4) }' ||
	fail "--command-grace 1 took $secs s"
echo "ok: --command-grace 1 killed it after $secs s"

# 3. --duration, then a second signal while record waits: at once
start -o "$work/r3" --duration 1 -- sh "$slow"
await "$out/last.err" 'waiting up to 60 s'
t0=$(date +%s.%N)
kill -INT "$pid"
finish
check "exit status, second signal" "$rc" 137
awk -v s="$secs" 'BEGIN { exit !(s < 2) }' ||
	fail "the second signal took $secs s"
echo "ok: a second signal ended the wait in $secs s"

"$bin" record -o "$work/r4" --command-grace 0 -- true >/dev/null \
	2>"$out/bad.err"
check "--command-grace 0" "$?" 2

# 4. usbtrail stress: Ctrl-C (SIGINT to the group, record's SIGTERM) after
# a 4 KiB QD1 write of 15 s; its read-back takes seconds, and is whole:
# the summary printed, the read-back's row in the report
f=$work/s.img
start -o "$work/r5" -- "$bin" stress "$f" --size 4G --block 4K --qd 1
await "$out/last.err" '^write: '
sleep 15
t0=$(date +%s.%N)
kill -INT "-$pid"
finish
check "record's exit status: stress's" "$rc" 4
grep -q '^result: INTERRUPTED$' "$out/last.out" ||
	fail "stress's summary is missing (cut by record?)"
v=$(grep -E '^usbtrail-stress: phase=verify event=end ' "$work/r5/events.jsonl" |
	head -n 1)
[ -n "$v" ] || v=$(grep -o 'phase=verify event=end [^"]*' \
	"$work/r5/events.jsonl" | head -n 1)
[ -n "$v" ] || fail "no end of the read-back in the recording"
vsecs=$(echo "$v" | sed -n 's/.* secs=\([0-9.]*\) .*/\1/p')
echo "ok: the read-back took $vsecs s; record stopped after $secs s"
"$bin" report "$work/r5" -o "$work/r5.html" >"$out/report.out" 2>&1 ||
	fail "usbtrail report failed: $(cat "$out/report.out")"
cp "$work/r5.txt" "$out/report.txt"
row=$(grep '^SEQ4K Q1T1 ' "$work/r5.txt") || fail "no stress row in the report"
echo "$row" | grep -Eq '^SEQ4K Q1T1 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +0$' ||
	fail "the report's stress row: '$row'"
echo "ok: report: $row"
