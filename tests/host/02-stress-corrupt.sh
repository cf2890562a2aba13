#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Bytes corrupted behind usbtrail's back are reported at their exact
# offsets, each as the class its corruption makes.
. "$(dirname "$0")/lib.sh"

f=$work/corrupt.img
stress "$f" --size 16M --qd 8
check "clean run" "$rc" 0

poke "$f" 1000003			# one bit: sector 999936..1000447
fill "$f" 2048000 1536 0		# three sectors zeroed
copy "$f" 5120 "$f" 10240 512		# sector 10 written to sector 20
fill "$f" 3000000 700 90		# bytes across two sectors
poke "$f" 16776704			# the last sector's first byte
stress "$f" --verify-only --json
check "exit status" "$rc" 1
check "result" "$(json 'j["result"]')" fail
check "bad sectors" "$(json 'j["verify"]["bad_sectors"]')" 8
check "ranges" "$(json '" ".join("%d-%d:%s" % (r["start"], r["end"], r["class"]) for r in j["verify"]["ranges"])')" \
	"10240-10752:overwritten 999936-1000448:changed 2048000-2049536:zeroed 2999808-3000832:garbage 16776704-16777216:changed"
check "misdirected source" "$(json 'j["verify"]["ranges"][0]["found_offset"]')" 5120
check "bits of the flip" "$(json 'j["verify"]["ranges"][1]["bits"]')" 1
check "counts" "$(json '",".join("%s=%d" % (k, v) for k, v in sorted(j["verify"]["sectors"].items()) if v and k != "ok")')" \
	"changed=2,garbage=2,overwritten=1,zeroed=3"

# The text report says the same.
stress "$f" --verify-only
check "text exit status" "$rc" 1
grep -q '^  999936-1000447 (512 bytes, 1 sector; LBA 1953): changed, 1 bits differ$' \
	"$out/last.out" || fail "text report lacks the changed range"
grep -q '^result: FAIL$' "$out/last.out" || fail "text report says no FAIL"
echo "ok: text report"
