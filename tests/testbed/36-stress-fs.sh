#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail stress DIR on filesystems of the guest's USB disks: ext2 on the
# UAS disk, FAT (ext2 where the guest has no vfat) on the BOT disk; on each
# the large-file and the tree mode pass with their figures and leave the
# filesystem as they found it; a kept tree on the BOT disk is found again
# by --verify-only after a remount, and a file changed meanwhile is named.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas,bot --timeout 600 -- sh -c '
	mke2fs -q $TESTBED_UAS || echo "mke2fs failed"
	mkdir -p /mnt/uas /mnt/bot
	mount -t ext2 $TESTBED_UAS /mnt/uas || { echo "mount failed"; exit 0; }
	fs=vfat
	mkdosfs $TESTBED_BOT >/dev/null 2>&1 &&
		mount -t vfat $TESTBED_BOT /mnt/bot || {
		fs=ext2
		mke2fs -q $TESTBED_BOT && mount -t ext2 $TESTBED_BOT /mnt/bot
	} || { echo "mount failed"; exit 0; }
	echo "bot fs $fs"
	for d in uas bot; do
		echo mine >/mnt/$d/precious.txt
		before=$(ls -A /mnt/$d)
		usbtrail stress /mnt/$d --size 16M
		echo "$d large exit $?"
		usbtrail stress /mnt/$d --fs-mode tree --files 300 --json \
			>/out/$d-tree.json
		echo "$d tree exit $?"
		[ "$(ls -A /mnt/$d)" = "$before" ] && echo "$d left as it was"
	done
	usbtrail stress /mnt/bot --fs-mode tree --files 100 --file-size 2K \
		--keep >/dev/null
	echo "bot keep exit $?"
	umount /mnt/bot && mount -t $fs $TESTBED_BOT /mnt/bot
	usbtrail stress /mnt/bot --verify-only
	echo "bot verify exit $?"
	f=$(ls -d /mnt/bot/usbtrail-stress-*)/d000/d00/f0000005.dat
	# a byte unlike the one there (a fixed X is it in one file of 256)
	o=$(dd if=$f bs=1 skip=1000 count=1 2>/dev/null | od -An -tu1 | tr -d " ")
	printf "\\$(printf %o $(( (o + 1) % 256 )))" |
		dd of=$f bs=1 seek=1000 conv=notrunc 2>/dev/null
	umount /mnt/bot && mount -t $fs $TESTBED_BOT /mnt/bot
	usbtrail stress /mnt/bot --verify-only
	echo "bot changed exit $?"
	umount /mnt/uas /mnt/bot
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

if grep -q '^mount failed' "$out/stdout.txt"; then
	skip "the guest cannot mount ext2"
fi
expect "$out/stdout.txt" '^bot fs (vfat|ext2)$'
for d in uas bot; do
	expect "$out/stdout.txt" "^target: /mnt/$d \\(directory, (ext2|vfat) on /dev/sd[a-z]+, page cache\\)"
	for ph in write fsync 'write\+fsync' read; do
		expect "$out/stdout.txt" "^$ph +1 +16\\.0 MiB +[0-9]*[1-9][0-9]*\\.[0-9] "
	done
	expect "$out/stdout.txt" '^page cache: dropped after the sync: 0 of 4096 pages resident'
	expect "$out/stdout.txt" "^$d large exit 0\$"
	expect "$out/stdout.txt" "^$d tree exit 0\$"
	expect "$out/stdout.txt" "^$d left as it was\$"
	python3 - "$out/$d-tree.json" <<'PY' || fail "$d-tree.json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["result"] == "pass", j["result"]
names = [p["name"] for p in j["phases"]]
assert names == ["create", "sync", "create+sync", "stat", "read",
                 "remove"], names
for p in j["phases"]:
    assert p["files"] > 0 and p["files_per_s"] > 0, p
assert j["verify"]["files_checked"] == 300, j["verify"]
assert j["verify"]["bytes_checked"] == 300 * 4096, j["verify"]
print("ok: %s: %s" % (sys.argv[1].split("/")[-1], ", ".join(
    "%s %.0f files/s" % (p["name"], p["files_per_s"])
    for p in j["phases"])))
PY
done
expect "$out/stdout.txt" '^bot keep exit 0$'
expect "$out/stdout.txt" '^verify: 100 files, 204800 bytes read back, 0 bad files$'
expect "$out/stdout.txt" '^bot verify exit 0$'
expect "$out/stdout.txt" '^  d000/d00/f0000005\.dat: changed at byte 512: '
expect "$out/stdout.txt" '^bot changed exit 1$'
