#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dip@T+D during a long sequential write (3 GiB, so the dip stays a
# minority of its intervals): the per-interval log shows the intervals of
# the 2 s dip flagged, with normal ones before and after, and the summary
# counts them; no errors, so usbtrail stress passes.  (The
# fault clock starts when the host sees the command start, up to a second
# off stress's own clock, so the test checks the span, not the moment.)
. "$(dirname "$0")/lib.sh"

tb --devices uas --disk-size 4G --fault dip@2+2 --timeout 300 -- sh -c '
	usbtrail stress $TESTBED_UAS --destroy-data --size 3G \
		--interval 250 --log /out/interval.log --json \
		>/out/stress.json 2>/out/stress.err
	echo "stress exit $?"
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/faults.log" 'dip@2\+2 start device=uas'
expect "$out/faults.log" 'dip@2\+2 end device=uas'
expect "$out/stdout.txt" '^stress exit 0$'
expect "$out/interval.log" '^[0-9.]+ [0-9.]+ write [0-9.]+ [0-9]+ dip$'
got=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
w = [p for p in j["phases"] if p["name"] == "write"][0]
d = [i for i in j["intervals"] if i["dip"]]
span = max(i["t"] + i["secs"] for i in d) - min(i["t"] for i in d)
print(w["dips"] > 0, all(i["phase"] == "write" for i in d),
      1.0 <= span <= 3.0, j["result"])' "$out/stress.json") ||
	fail "no JSON from stress"
echo "stress: $got"
[ "$got" = "True True True pass" ] ||
	fail "expected dips in the write phase spanning about the 2 s dip"
expect_order "$out/interval.log" ' write [0-9.]+ [0-9]+$' ' write [0-9.]+ [0-9]+ dip$' \
	' write [0-9.]+ [0-9]+$' ' read '

