#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail analyze on the HOST over a real guest console.log: the UAS disk
# gets medium-not-present at sector 10240 and a stall long enough for the
# SCSI timeout (2 s in the test bed), so the log has a sense error, an I/O
# error and the UAS error-handling chain; analyze must name all three on
# the right disk.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault medium-not-present@10240 --fault stall@3+6 \
	--timeout 240 -- sh -c '
	/tests/write-loop.sh $TESTBED_UAS 12 64
	basename $TESTBED_UAS >/out/disk.txt
	# /dev/kmsg is read to its end and analyze exits (3: incidents)
	timeout 60 usbtrail analyze --json /dev/kmsg >/out/kmsg.jsonl
	echo "kmsg analyze exit $?" >/out/kmsg-rc.txt
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

disk=$(cat "$out/disk.txt")
[ -n "$disk" ] || fail "the guest did not name its disk"
# exit status 3: incidents found
"$top/userspace/usbtrail" analyze --json "$out" >"$out/analyze.jsonl" \
	2>"$out/analyze.err"
rc=$?
[ "$rc" = 3 ] || fail "analyze exited $rc: $(cat "$out/analyze.err")"
expect "$out/analyze.err" "reading .*/console.log"

# jq -e: exit status 0 only when the filter yields true
has() {	# WHAT JQ-FILTER
	jq -se "$2" "$out/analyze.jsonl" >/dev/null ||
		fail "analyze.jsonl: no $1"
	echo "ok: analyze.jsonl has $1"
}

# the failed WRITE(10): its sense and its I/O error are one incident
has "sense 02/3A/00 of a WRITE(10) at sector 10240 on $disk" "any(.[];
	.kind == \"sense\" and .dev == \"$disk\" and .key == 2 and
	.asc == 58 and .ascq == 0 and .sector == 10240 and .opcode == 42 and
	.lba == 10240)"
has "no second incident for the same command" "[.[] | select(.kind ==
	\"io-error\" and .sector == 10240)] | length == 0"
has "the device summary: $disk on uas" "any(.[]; .summary == true and
	any(.devices[]; .disk == \"$disk\" and .driver == \"uas\" and
	.vid_pid == \"46f4:0003\" and .link_mbps == 5000))"
# one chain holding a timeout, an abort and a reset, all about $disk
has "a timeout -> abort -> reset chain on $disk" "
	[.[] | select(.chain != null and .disk == \"$disk\")] |
	group_by(.chain) |
	any(.[]; (map(.kind) | index(\"timeout\")) as \$t |
		(map(.kind) | index(\"abort\")) as \$a |
		(map(.kind) | index(\"reset\")) as \$r |
		\$t != null and \$a != null and \$r != null and
		\$t <= \$a and \$a < \$r)"

# the same, read in the guest from /dev/kmsg
grep -qx 'kmsg analyze exit 3' "$out/kmsg-rc.txt" ||
	fail "analyze /dev/kmsg: $(cat "$out/kmsg-rc.txt")"
jq -se --arg d "$disk" 'any(.[]; .kind == "sense" and .dev == $d and
	.sector == 10240)' "$out/kmsg.jsonl" >/dev/null ||
	fail "analyze /dev/kmsg in the guest: no sense at sector 10240"
echo "ok: analyze /dev/kmsg in the guest returns, with the sense"
