#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Target safety on the host: sizes checked up front; a block device (a loop
# device) only with --destroy-data, never while mounted or held.
. "$(dirname "$0")/lib.sh"

f=$work/small.img
stress "$f" --size 4M
check "create" "$rc" 0
stress "$f" --size 8M --verify-only
check "verify beyond the file" "$rc" 1
grep -q 'holds 4MiB, less than --size 8MiB' "$out/last.err" ||
	fail "no size message"
echo "ok: size checked up front"
stress "$work/none.img" --verify-only
check "verify of a missing file" "$rc" 1
[ ! -e "$work/none.img" ] || fail "--verify-only created a file"

# A run that fails before its first write takes back the file it created,
# and never a file that was there before.
stress "$work/unfit.img" --size 512K --profile cdm
check "a profile that does not fit" "$rc" 1
grep -q 'profile cdm does not fit' "$out/last.err" || fail "no fit message"
[ ! -e "$work/unfit.img" ] || fail "the new, unwritten file was left behind"
stress "$f" --size 512K --profile cdm
check "a profile that does not fit an existing file" "$rc" 1
[ "$(stat -c %s "$f")" = 4194304 ] || fail "the existing file was changed"
stress "$f" --size 4M --verify-only
check "the existing file still verifies" "$rc" 0
echo "ok: a failed start leaves no new file and keeps an old one"

# A file of someone's data is not overwritten without --destroy-data; a
# file a run wrote, an empty one and a sparse one are
head -c 1048576 /dev/urandom >"$work/precious.dat"
sum=$(md5sum <"$work/precious.dat")
stress "$work/precious.dat"
check "a file of other data" "$rc" 1
grep -q 'holds data that usbtrail stress did not write; give --destroy-data' \
	"$out/last.err" || fail "no --destroy-data message for the file"
[ "$(md5sum <"$work/precious.dat")" = "$sum" ] || fail "the file was changed"
stress "$work/precious.dat" --destroy-data
check "the same with --destroy-data" "$rc" 0
stress "$work/precious.dat"
check "the file now holds a run" "$rc" 0
truncate -s 4M "$work/sparse.img"
stress "$work/sparse.img"
check "a sparse file" "$rc" 0
echo "ok: a file of other data needs --destroy-data, and is untouched without"

[ "$(id -u)" = 0 ] || skip "loop devices need root"
command -v losetup >/dev/null || skip "no losetup"
truncate -s 64M "$work/loop.img"
loop=$(losetup --find --show "$work/loop.img" 2>/dev/null) ||
	skip "cannot set up a loop device"
cleanup_hooks="losetup -d $loop"

stress "$loop" --size 16M
check "block device without --destroy-data" "$rc" 1
grep -q 'give --destroy-data' "$out/last.err" || fail "no --destroy-data hint"
stress "$loop" --size 16M --destroy-data --json
check "block device with --destroy-data" "$rc" 0
check "kind" "$(json 'j["kind"]')" block
stress "$loop" --size 128M --destroy-data
check "larger than the device" "$rc" 1
stress "$loop" --verify-only --size 16M
check "verify-only of the device" "$rc" 0

command -v mkfs.ext2 >/dev/null || skip "no mkfs.ext2"
mkfs.ext2 -q "$loop" || fail "mkfs.ext2"
mkdir "$work/mnt"
mount "$loop" "$work/mnt" 2>/dev/null || skip "cannot mount ext2 here"
cleanup_hooks="umount $work/mnt; losetup -d $loop"
stress "$loop" --size 16M --destroy-data
check "mounted device" "$rc" 1
grep -q "is mounted on $work/mnt" "$out/last.err" ||
	fail "message does not name the mount"
echo "ok: $(cat "$out/last.err")"
