#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# io-error@SECTOR (every write covering it fails) with --on-error continue:
# usbtrail stress logs the failing write, goes on to the end, leaves the
# block it could not write out of the read-back (not_written_bytes), finds
# every other sector good, and still exits 1.
. "$(dirname "$0")/lib.sh"

sector=8192		# 4 MiB: the start of one of stress's 1 MiB writes
# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault io-error@$sector --timeout 300 -- sh -c '
	usbtrail stress $TESTBED_UAS --destroy-data --size 16M \
		--on-error continue --json >/out/stress.json 2>/out/stress.err
	echo "stress exit $?"
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/stdout.txt" '^stress exit 1$'
expect "$out/faults.log" "io-error@$sector fired device=uas operation=write"
got=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
offs = sorted(set(e["offset"] for e in j["errors"]))
print(offs, j["errors"][0]["errno"], j["not_written_bytes"],
      j["verify"]["bad_sectors"], j["verify"]["bytes_checked"],
      [p["completed"] for p in j["phases"]])' "$out/stress.json") ||
	fail "no JSON from stress"
echo "stress: $got"
[ "$got" = "[$((sector * 512))] 5 1048576 0 15728640 [True, True]" ] ||
	fail "expected one failed 1 MiB write at $((sector * 512)), the rest verified"
