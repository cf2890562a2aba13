#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dip@T+D during a long sequential write: the per-interval log shows the
# intervals of the 2 s dip flagged, with normal ones before and after, and
# the summary counts them; no errors, so usbtrail stress passes.  (The
# fault clock starts when the host sees the command start, up to a second
# off stress's own clock, so the test checks that the intervals at the
# throttled rate run for about 2 s, not when they start.)
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
# The intervals at the throttled rate (faults.log's bps-write, within
# 20%) are the dip: all of them flagged, in one run of about 2 s.  What
# comes after is the host's: two guests at once on a loaded host halve
# the emulated disk's pace, and stress rightly flags that too.
rate=$(sed -n 's/.*dip@2+2 start .* bps-write=\([0-9]*\).*/\1/p' \
	"$out/faults.log")
[ -n "$rate" ] || fail "faults.log gives no bps-write for the dip"
got=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
slow = float(sys.argv[2]) / 1e6 * 1.2
w = [p for p in j["phases"] if p["name"] == "write"][0]
iv = [i for i in j["intervals"] if i["phase"] == "write"]
best, run = (0, -1), None
for k, i in enumerate(iv):
    if i["mbps"] <= slow:
        run = (run[0], k) if run else (k, k)
        if run[1] - run[0] >= best[1] - best[0]:
            best = run
    else:
        run = None
a, b = best
span = iv[b]["t"] + iv[b]["secs"] - iv[a]["t"] if b >= a else 0
flagged = all(i["dip"] for i in iv if i["mbps"] <= slow)
print("throttled run from", iv[a]["t"], "span", span, "at most", slow,
      "MB/s", file=sys.stderr)
print(w["dips"] > 0, flagged, 1.0 <= span <= 3.0, j["result"])' \
	"$out/stress.json" "$rate") || fail "no JSON from stress"
echo "stress: $got"
[ "$got" = "True True True pass" ] ||
	fail "expected the intervals of the 2 s dip flagged, in one run of about 2 s"
expect_order "$out/interval.log" ' write [0-9.]+ [0-9]+$' ' write [0-9.]+ [0-9]+ dip$' \
	' write [0-9.]+ [0-9]+$' ' read '

