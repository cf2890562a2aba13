#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The fake-capacity verdict, the LBA ranges and the target's identity on
# the host.  A device that wraps (f3probe's "wraparound") holds, after a
# sequential write of it all, at [0, N - k) what was written to [k, N):
# copying that into a file written by usbtrail stress makes the bytes its
# --verify-only then reads exactly what such a device returns.  That is
# the read side only: the writes themselves wrapping is
# tests/testbed/37-stress-fake-capacity.sh, on device-mapper in the guest.
. "$(dirname "$0")/lib.sh"

f=$work/wrap.img
M=1048576

# the second half over the first
stress "$f" --size 8M
check "write exit" "$rc" 0
copy "$f" $((4 * M)) "$f" 0 $((4 * M))
stress "$f" --verify-only --json
cp "$out/last.out" "$out/half.json"
check "exit status" "$rc" 1
check "verdict" "$(json 'j["capacity"]["verdict"]')" "fake capacity"
check "usable" "$(json 'j["capacity"]["usable_bytes"]')" $((4 * M))
check "usable sectors" "$(json 'j["capacity"]["usable_sectors"]')" 8192
check "modulus" "$(json 'j["capacity"]["wrap_modulus_bytes"]')" $((4 * M))
check "the range" "$(json '[(r["start"], r["end"], r["lba_start"], r["lba_end"], r["class"], r["found_offset"]) for r in j["verify"]["ranges"]]')" \
	"[(0, $((4 * M)), 0, 8192, 'overwritten', $((4 * M)))]"
stress "$f" --verify-only
grep -Fx "verdict: fake capacity: usable size 4MiB (4194304 bytes, LBA 0-8191) of 8MiB tested; writes wrap every 4MiB (4194304 bytes): what is read at X was written to X plus or minus a multiple of it" \
	"$out/last.out" || fail "no verdict line: $(grep verdict "$out/last.out")"
grep -F '  0-4194303 (4194304 bytes, 8192 sectors; LBA 0-8191): overwritten' \
	"$out/last.out" || fail "no LBA range"
echo "ok: the second half over the first: fake capacity, 4 MiB usable"

# 6 MiB real of 8: [0, 2M) holds [6M, 8M)
stress "$f" --size 8M
copy "$f" $((6 * M)) "$f" 0 $((2 * M))
stress "$f" --verify-only --json
check "6 of 8: verdict" "$(json 'j["capacity"]["verdict"]')" "fake capacity"
check "6 of 8: usable" "$(json 'j["capacity"]["usable_bytes"]')" $((6 * M))

# one misdirected 4 KiB is no wrap-around; a flipped bit's LBA
stress "$f" --size 8M
copy "$f" $((5 * M)) "$f" $((3 * M)) 4096
poke "$f" 1000000
stress "$f" --verify-only --json
check "misdirected: exit" "$rc" 1
check "misdirected: verdict" "$(json 'j["capacity"]["verdict"]')" "no wrap-around"
check "misdirected: classes" "$(json '[(r["class"], r["lba_start"], r["lba_end"]) for r in j["verify"]["ranges"]]')" \
	"[('changed', 1953, 1954), ('overwritten', 6144, 6152)]"
echo "ok: a misdirected write and a bit flip: no verdict, their LBAs"

# the identity: a file on a block device that is not USB, or on none
stress "$f" --size 1M --json
dev=$(stat -c %d "$f")
blk=$(basename "$(readlink "/sys/dev/block/$((dev >> 8)):$((dev & 255))" 2>/dev/null)")
if [ -n "$blk" ] && ! readlink -f "/sys/class/block/$blk" | grep -q /usb; then
	check "device" "$(json 'j["device"]')" "{'block': '$blk', 'usb': False}"
	stress "$f" --size 1M
	grep -qx "device: $blk, not a USB disk" "$out/last.out" ||
		fail "no device line: $(sed -n 2p "$out/last.out")"
	echo "ok: device: $blk, not a USB disk"
fi
if mkdir "$work/shm" && mount -t tmpfs -o size=4m usbtrail-test "$work/shm" 2>/dev/null; then
	cleanup_hooks="umount '$work/shm';"
	stress "$work/shm/t.img" --size 1M
	grep -qx "device: not on a block device (not a USB disk)" \
		"$out/last.out" || fail "tmpfs: $(sed -n 2p "$out/last.out")"
	echo "ok: a file on tmpfs: not on a block device"
fi
