#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# unplug@T+D during usbtrail stress --on-error reopen: it logs the write
# errors, waits for the disk with the same USB serial to come back (under a
# new name), verifies what it wrote before the failure, resumes, and the
# final read-back of the whole area is clean.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault unplug@2+3 --timeout 300 -- sh -c '
	usbtrail stress $TESTBED_UAS --destroy-data --size 768M \
		--on-error reopen --reopen-timeout 60 --json \
		>/out/stress.json 2>/out/stress.err
	echo "stress exit $?"
	basename $TESTBED_UAS >/out/disk.txt
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/faults.log" 'unplug@2\+3 replug device=uas'
expect "$out/stdout.txt" '^stress exit 1$'
expect_order "$out/stress.err" \
	'(write|read) error at offset [0-9]+' \
	'waiting up to 60 s for the disk with USB serial usbtrail-uas \(46f4:0003\)' \
	'reopened /dev/sd[a-z]+ after' \
	'verified [0-9]+ bytes written before the failure: 0 bad sectors'
got=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(j["reopen"]["count"] >= 1, j["errors_total"] > 0,
      j["reopen"]["verify"]["bytes_checked"] > 0,
      j["reopen"]["verify"]["bad_sectors"], j["verify"]["bad_sectors"],
      j["verify"]["bytes_checked"], j["not_written_bytes"],
      all(p["completed"] for p in j["phases"]))' "$out/stress.json") ||
	fail "no JSON from stress"
echo "stress: $got"
[ "$got" = "True True True 0 0 805306368 0 True" ] ||
	fail "expected a reopen, errors, a clean re-verify and a clean 768 MiB read-back"
