#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dip@T+D during a long sequential write: the per-interval log shows the
# intervals of the 2 s dip flagged, with normal ones before and after, and
# the summary counts them; no errors, so usbtrail stress passes.  (The
# fault clock starts when the host sees the command start, up to a second
# off stress's own clock, so the test checks the longest run of dips
# spans about 2 s, not when it starts.)
. "$(dirname "$0")/lib.sh"

# The disk image on tmpfs: on the host's disk, its writeback slows the
# guest down to about the dip's rate after a few seconds.
# shellcheck disable=SC2016 # expanded in the guest
TMPDIR=/dev/shm tb --devices uas --disk-size 2G --fault dip@2+2 \
		--timeout 300 -- sh -c '
	usbtrail stress $TESTBED_UAS --destroy-data --size 1536M \
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
iv = [i for i in j["intervals"] if i["phase"] == "write"]
best, run = (0, 0), None
for k, i in enumerate(iv):
    if i["dip"]:
        run = (run[0], k) if run else (k, k)
        if run[1] - run[0] >= best[1] - best[0]:
            best = run
    else:
        run = None
a, b = best
span = iv[b]["t"] + iv[b]["secs"] - iv[a]["t"]
print("longest dip run from", iv[a]["t"], "span", span, file=sys.stderr)
print(w["dips"] > 0, iv[a]["dip"], 1.0 <= span <= 3.0, j["result"])' \
	"$out/stress.json") || fail "no JSON from stress"
echo "stress: $got"
[ "$got" = "True True True pass" ] ||
	fail "expected dips in the write phase spanning about the 2 s dip"
expect_order "$out/interval.log" ' write [0-9.]+ [0-9]+$' ' write [0-9.]+ [0-9]+ dip$' \
	' write [0-9.]+ [0-9]+$' ' read '

