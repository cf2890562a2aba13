#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SIGINT and SIGTERM stop a run without losing it: what is in flight
# completes, what was written is read back and verified, the summary (JSON
# or text) says interrupted, and the exit status is 4; a second signal ends
# it at once.  The markers end the phase as stopped, so usbtrail report of
# a recording shows the partial rate, not "(cut)".
. "$(dirname "$0")/lib.sh"

command -v setsid >/dev/null || skip "no setsid"

# start ARGS...: usbtrail ARGS... in the background (start_bg), killed
# after 120 s whatever happens; $pid
start() {
	echo "+ usbtrail $* &"
	start_bg 120 "$bin" "$@"
}

# await RE: until a line of its stderr matches RE (at most 60 s)
await() {
	i=0
	until grep -Eq "$1" "$out/last.err"; do
		i=$((i + 1))
		[ "$i" -le 600 ] || fail "no '$1' on stderr in 60 s"
		kill -0 "$pid" 2>/dev/null || fail "it ended before '$1'"
		sleep 0.1
	done
}

# finish: wait for it; its status in $rc
finish() {
	wait "$pid"
	rc=$?
	sed 's/^/  /' "$out/last.err" | tail -n 6
}

# now: seconds, with fractions
now() {
	date +%s.%N
}

# 4 KiB at QD1 over 1 GiB takes long enough anywhere to be stopped in its
# write; the file grows only as far as it gets.
f=$work/int.img
: >"$work/marker"
USBTRAIL_TRACE_MARKER=$work/marker start stress "$f" --size 1G --block 4K \
	--qd 1 --json
await '^write: '
kill -INT "$pid"
finish
cp "$out/last.out" "$out/sigint.json"
check "exit status after SIGINT" "$rc" 4
check "interrupted" "$(json 'j["interrupted"]')" True
check "signal" "$(json 'j["signal"]')" SIGINT
check "result" "$(json 'j["result"]')" interrupted
check "phases" "$(json '",".join(p["name"] for p in j["phases"])')" \
	write,verify
check "the write is marked interrupted" \
	"$(json 'j["phases"][0].get("interrupted"), j["phases"][0]["completed"]')" \
	"(True, False)"
written=$(json 'j["written_bytes"]')
verified=$(json 'j["verify"]["bytes_checked"]')
[ "$written" -gt 0 ] || fail "nothing written before the signal"
[ "$written" -lt 1073741824 ] || fail "the write was not stopped"
check "verified what was written" "$verified" "$written"
check "bad sectors" "$(json 'j["verify"]["bad_sectors"]')" 0
echo "ok: $written bytes written, $verified verified"
cp "$work/marker" "$out/marker.txt"
for re in '^usbtrail-stress: phase=write event=end .* errors=0 mbps=[0-9.e+]+ stopped=1 interrupted=SIGINT$' \
	  "^usbtrail-stress: phase=verify event=start .* size=$written op=read\$" \
	  "^usbtrail-stress: phase=verify event=end .* bytes=$written secs=[0-9.]+ errors=0 mbps=[0-9.e+]+\$" \
	  '^usbtrail-stress: phase=run event=end .* bad=0 interrupted=SIGINT$'; do
	grep -Eq "$re" "$work/marker" || fail "no marker matching '$re'"
done
echo "ok: the markers end the write as stopped by SIGINT"

# SIGTERM, the text summary, the sync engine
start stress "$f" --size 1G --block 4K --qd 1 --engine sync
await '^write: '
kill -TERM "$pid"
finish
cp "$out/last.out" "$out/sigterm.txt"
check "exit status after SIGTERM" "$rc" 4
line=$(grep '^interrupted by ' "$out/last.out") ||
	fail "no 'interrupted by' line"
echo "$line" | grep -Eq '^interrupted by SIGTERM after [1-9][0-9]* bytes written, [1-9][0-9]* verified$' ||
	fail "unexpected: $line"
grep -q '^result: INTERRUPTED$' "$out/last.out" || fail "no result line"
grep -Eq '^write .* interrupted$' "$out/last.out" ||
	fail "the write row is not marked interrupted"
echo "ok: $line"

# A second signal, during the read-back, ends it at once.
start stress "$f" --size 1G --block 4K --qd 1
await '^write: '
kill -INT "$pid"
await 'interrupted by SIGINT: verifying'
t0=$(now)
kill -INT "$pid"
finish
secs=$(echo "$(now) $t0" | awk '{ printf "%.2f", $1 - $2 }')
check "exit status after a second SIGINT" "$rc" 130
grep -q '^result:' "$out/last.out" && fail "a summary after the second signal"
awk -v s="$secs" 'BEGIN { exit !(s < 2) }' ||
	fail "the second signal took $secs s to end it"
echo "ok: the second signal ended it in $secs s"

# Under usbtrail record, Ctrl-C: SIGINT to the process group, and record's
# SIGTERM to stress: one request to stop; the report has the partial rates.
rec=$work/rec
start record -o "$rec" -- "$bin" stress "$f" --size 1G --block 4K --qd 1
i=0
until grep -q '^write: ' "$out/last.err"; do
	i=$((i + 1))
	if ! kill -0 "$pid" 2>/dev/null || [ "$i" -gt 300 ]; then
		finish
		skip "usbtrail record does not run here"
	fi
	sleep 0.1
done
kill -INT "-$pid"
finish
check "record's exit status: stress's" "$rc" 4
grep -q 'interrupted by SIGINT: verifying' "$out/last.err" ||
	fail "stress did not take the two signals as one"
"$bin" report "$rec" -o "$work/r.html" >"$out/report.out" 2>&1 ||
	fail "usbtrail report failed: $(cat "$out/report.out")"
cp "$work/r.txt" "$out/report.txt"
row=$(grep '^SEQ4K Q1T1 ' "$work/r.txt") || fail "no stress row in the report"
echo "$row" | grep -Eq '^SEQ4K Q1T1 +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +0$' ||
	fail "the report's stress row: '$row'"
echo "ok: report: $row"
