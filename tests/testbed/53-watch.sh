#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail watch as a service runs it, against real drivers and a real
# journald: a stall (the abort/reset chain) and later an unplug while it
# records leave one incident recording each, inside --keep, which report
# and analyze read; the journal entries name their recording; the metrics
# count the resets; SIGHUP takes a changed --config; SIGTERM leaves every
# file complete.
. "$(dirname "$0")/lib.sh"

# check WHAT GOT WANT
check() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
	echo "ok: $1: $2"
}

command -v jq >/dev/null || skip "jq is not installed"
[ -x /lib/systemd/systemd-journald ] || skip "no systemd-journald to pack"

# shellcheck disable=SC2016 # expanded in the guest
tb --journald --devices uas --fault stall@8+8 --fault unplug@50+3 \
	--timeout 300 -- sh -c 'sh /tests/watch.sh $TESTBED_UAS' \
	>"$out/stdout.txt" 2>&1 || fail "guest command failed"
o=$out/watch
sed 's/^/  watch: /' "$o/watch.err"
expect "$out/faults.log" 'stall@8\+8 end device=uas'
expect "$out/faults.log" 'unplug@50\+3 replug device=uas'
check "watch's exit status after SIGTERM" "$(cat "$o/watch.status")" 0
expect "$o/watch.err" '^usbtrail watch: recording into .* \(kernel events: module\)'
expect "$o/watch.err" '^usbtrail watch: SIGHUP: keep 117440512 bytes, 30 days, 4 s before and 5 s after'
expect "$o/watch.err" '^usbtrail watch: stopped: [0-9]+ incidents, [2-9] incident recordings'

# one recording for the stall's incidents, one for the unplug's
stall='"kind":"(timeout|abort|reset)"'
n=0 ns=0 nu=0
for f in "$o"/reports/*.dir; do
	[ -e "$f" ] || break
	n=$((n + 1))
	i=${f%.dir}
	d=$(cat "$f")
	echo "recording $(basename "$d"):" \
		"$(jq -r '.kind // empty' "$i.json" 2>/dev/null | sort | uniq -c | tr -s ' \n' ' ')"
	[ "$(cat "$i.status")" = 0 ] || fail "report failed on $d: $(cat "$i.err")"
	jq -e '.complete == true' "$out${d#/out}meta.json" >/dev/null ||
		fail "$d/meta.json is not complete"
	grep -q 'kept by usbtrail watch' "$out${d#/out}meta.json" ||
		fail "$d/meta.json does not say watch kept it"
	s=0 u=0
	grep -Eq "$stall" "$i.json" && s=1
	grep -q '"kind":"disconnect"' "$i.json" && u=1
	[ $s = 1 ] && [ $u = 1 ] && fail "$d holds both the stall and the unplug"
	ns=$((ns + s)) nu=$((nu + u))
	if [ $s = 1 ]; then
		grep -q '"kind":"reset"' "$i.json" ||
			fail "the stall's recording has no reset"
		txt=$out${d#/out}report.txt
		grep -q reset "$i.html" "$txt" 2>/dev/null ||
			fail "report of the stall's recording names no reset"
		# the seconds before: the writes' block records before the first
		jq -se '[.[] | select(.type == "trace")] | length > 100' \
			"$out${d#/out}events.jsonl" >/dev/null ||
			fail "the stall's recording has no trace records around it"
		sdir=$d
	fi
	[ $u = 1 ] && udir=$d
done
# (a dip of its own between them may have one too: throughput is TCG's)
[ "$n" -ge 2 ] || fail "$n incident recordings"
check "recordings of the stall" "$ns" 1
check "recordings of the unplug" "$nu" 1
echo "ok: the stall in $(basename "$sdir"), the unplug in $(basename "$udir")"

# the ring: several pieces, each a recording; all of it within --keep
np=$(find "$o/w/ring" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$np" -ge 3 ] || fail "the ring has $np pieces (--segment 1MiB)"
for p in "$o"/w/ring/*/; do
	jq -e '.complete == true' "$p/meta.json" >/dev/null ||
		fail "ring piece $p is not complete after SIGTERM"
done
kb=$(cut -f1 "$o/du.txt")
[ "$kb" -le 114688 ] || fail "the store takes $kb KiB, over --keep 112MiB"
echo "ok: $np ring pieces, all complete; the store takes $kb KiB of 114688"

# the journal: the stall's reset names the stall's recording
jq -se --arg d "${sdir%/}" 'map(select(.USBTRAIL_KIND == "reset" and
	.USBTRAIL_RECORDING == $d)) | length >= 1' "$o/journal.json" >/dev/null ||
	fail "no journal entry of kind reset names ${sdir%/}"
jq -se --arg d "${udir%/}" 'map(select(.USBTRAIL_KIND == "disconnect" and
	.USBTRAIL_RECORDING == $d)) | length >= 1' "$o/journal.json" >/dev/null ||
	fail "no journal entry of kind disconnect names ${udir%/}"
echo "ok: the journal's reset and disconnect entries name their recordings"

# the metrics, as node_exporter's textfile collector reads them
m=$o/usbtrail.prom
[ -s "$m" ] || fail "no metrics file"
awk '/^# (HELP|TYPE) / { next }
     /^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+$/ { next }
     { print "bad line " NR ": " $0; bad = 1 }
     END { exit bad }' "$m" || fail "the metrics file is not in the text format"
expect "$m" '^usbtrail_resets_total\{disk="sd[a-z]+"\} [1-9]'
expect "$m" '^usbtrail_incidents_total\{disk="[^"]+",kind="disconnect"\} [1-9]'
expect "$m" '^usbtrail_source_up\{source="module"\} 1$'
expect "$m" '^usbtrail_request_latency_seconds_count\{disk="sd[a-z]+"\} [1-9]'
expect "$m" '^usbtrail_incident_recordings_total [2-9]$'
expect "$m" '^usbtrail_lost_events_total\{where="store"\} 0$'
ls "$o"/usbtrail.prom.*.tmp 2>/dev/null && fail "a temporary metrics file is left"
echo "ok: the metrics"
