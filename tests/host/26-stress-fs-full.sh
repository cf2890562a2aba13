#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail stress DIR on a small tmpfs, in a mount namespace of its own:
# a tree that runs out of inodes stops at ENOSPC with a clear result (how
# much was written, all of it verified, FAIL, cleaned up), not a crash; a
# large-file fill without --size fills the free space and passes; a
# --size larger than the free space and a read-only filesystem are
# refused before anything is written.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (a mount namespace)"
unshare --mount --propagation private true 2>/dev/null ||
	skip "cannot make a mount namespace here"

mnt=$work/mnt
mkdir "$mnt"

# full OPTS ARGS...: usbtrail stress "$mnt" ARGS on a new tmpfs of OPTS,
# as stress() does; what is left in it after, in $out/left.txt
full() {
	opts=$1
	shift
	echo "+ (tmpfs $opts) usbtrail stress $mnt $*"
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare --mount --propagation private sh -c '
		mnt=$1 opts=$2 out=$3
		shift 3
		mount -t tmpfs -o "$opts" usbtrail-full "$mnt" || exit 99
		case $opts in *ro*) ;; *) echo mine >"$mnt/precious.txt" ;; esac
		"$@" "$mnt" >"$out/last.out" 2>"$out/last.err"
		rc=$?
		ls -A "$mnt" >"$out/left.txt"
		exit $rc' full "$mnt" "$opts" "$out" "$bin" stress "$@"
	rc=$?
	sed 's/^/  /' "$out/last.err" | tail -n 5
	[ "$rc" != 99 ] || skip "cannot mount a tmpfs here"
}

# The tree out of inodes: 100 files where tmpfs has 40 inodes.
full size=4m,nr_inodes=40 --fs-mode tree --files 100 --file-size 512 --json
cp "$out/last.out" "$out/inodes.json"
check "no inodes: exit status" "$rc" 1
check "no inodes: result" "$(json 'j["result"]')" fail
check "no inodes: ENOSPC" "$(json 'j["enospc"]')" True
check "no inodes: the error" \
	"$(json '[(e["op"], e["errno"]) for e in j["errors"]]')" \
	"[('create', 28)]"
written=$(json 'j["written_files"]')
if [ "$written" -le 10 ] || [ "$written" -ge 100 ]; then
	fail "no inodes: $written files written"
fi
check "no inodes: all written verified" \
	"$(json 'j["verify"]["bytes_checked"] == j["written_bytes"] == 512 * j["written_files"], j["verify"]["bad_files"]')" \
	"(True, 0)"
check "no inodes: the create phase stopped" \
	"$(json 'j["phases"][0]["name"], j["phases"][0]["completed"], j["phases"][0]["errors"]')" \
	"('create', False, 1)"
check "no inodes: cleaned up" "$(cat "$out/left.txt")" precious.txt
full size=4m,nr_inodes=40 --fs-mode tree --files 100 --file-size 512
grep -Eq '^the filesystem is full \(ENOSPC\) after [0-9]+ files, [0-9]+ bytes written; [0-9]+ bytes of them verified$' \
	"$out/last.out" || fail "no inodes (text): no ENOSPC line"
grep -q '^result: FAIL$' "$out/last.out" || fail "no inodes (text): no FAIL"
echo "ok: no inodes (text): $(grep '^the filesystem is full' "$out/last.out")"

# A fill: no --size, the free space (2 MiB) in one file.
full size=2m --json
cp "$out/last.out" "$out/fill.json"
check "fill: exit status" "$rc" 0
check "fill: fill" "$(json 'j["fill"], j["result"]')" "(True, 'pass')"
check "fill: most of 2 MiB written and verified" \
	"$(json 'j["written_bytes"] > 1800000 and j["verify"]["bytes_checked"] == j["written_bytes"]')" \
	True
# tmpfs pages are the files: DONTNEED cannot drop them, and says so
check "fill: the page cache kept (tmpfs)" \
	"$(json 'j["page_cache"]["dropped"], j["page_cache"]["resident"] > 0')" \
	"(False, True)"
check "fill: cleaned up" "$(cat "$out/left.txt")" precious.txt

# More than the free space: refused before writing.
full size=2m --size 4M
check "too big: exit status" "$rc" 1
grep -Eq 'has [0-9]+[KM]iB free, less than the [0-9]+[KM]iB the run needs' "$out/last.err" ||
	fail "too big: no clear refusal"
check "too big: nothing written" "$(cat "$out/left.txt")" precious.txt

# Read-only.
full size=2m,ro --size 1M
check "read-only: exit status" "$rc" 1
grep -q 'cannot create a directory in it: Read-only file system' \
	"$out/last.err" || fail "read-only: no clear refusal"

# Not a directory: a file named with a trailing slash.
: >"$work/plain"
stress "$work/plain/" --fs-mode tree
check "not a directory: exit status" "$rc" 2
grep -q 'is not one' "$out/last.err" || fail "not a directory: no message"
stress "$work/plain/"
check "not a directory (no fs option): exit status" "$rc" 1
grep -q 'Not a directory' "$out/last.err" ||
	fail "not a directory (no fs option): no message"
