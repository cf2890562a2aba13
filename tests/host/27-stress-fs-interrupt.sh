#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail stress DIR stopped by SIGINT or SIGTERM, as the other modes:
# the writes stop, what they wrote is synced, read back and verified, the
# summary says interrupted (exit 4), and the run's directory is removed.
# On this machine's disk (build/), not /tmp: a tmpfs holds it in memory.
. "$(dirname "$0")/lib.sh"

command -v setsid >/dev/null || skip "no setsid"

d=$out/fs
rm -rf "$d"
mkdir -p "$d"
cleanup_hooks="rm -rf '$d'; $cleanup_hooks"

# start ARGS...: usbtrail ARGS... in the background, in a process group of
# its own, SIGINT and SIGTERM at their defaults; $pid
start() {
	echo "+ usbtrail $* &"
	: >"$out/last.err"
	setsid env --default-signal=INT,TERM "$bin" "$@" \
		>"$out/last.out" 2>"$out/last.err" &
	pid=$!
}

# await RE: until a line of its stderr matches RE (at most 60 s)
await() {
	i=0
	until grep -Eq "$1" "$out/last.err"; do
		i=$((i + 1))
		if [ "$i" -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
			kill -KILL "$pid" 2>/dev/null
			fail "no '$1' on stderr"
		fi
		sleep 0.1
	done
}

finish() {
	wait "$pid"
	rc=$?
	sed 's/^/  /' "$out/last.err" | tail -n 6
}

free=$(df -Pk "$d" | awk 'NR == 2 { print $4 }')
[ "$free" -gt $((8 * 1024 * 1024)) ] || skip "less than 8 GiB free in $d"

# The large file: 6 GiB, stopped in its write (a progress line comes
# after a second of it).
start stress "$d" --size 6G --json
await '^write: '
kill -INT "$pid"
finish
cp "$out/last.out" "$out/large.json"
check "large: exit status" "$rc" 4
check "large: interrupted" "$(json 'j["interrupted"], j["signal"], j["result"]')" \
	"(True, 'SIGINT', 'interrupted')"
check "large: the write stopped" \
	"$(json 'j["phases"][0]["name"], j["phases"][0]["completed"], j["phases"][0].get("interrupted")')" \
	"('write', False, True)"
written=$(json 'j["written_bytes"]')
if [ "$written" -le 0 ] || [ "$written" -ge 6442450944 ]; then
	fail "large: $written bytes written"
fi
check "large: verified what was written" \
	"$(json 'j["verify"]["bytes_checked"], j["verify"]["bad_files"]')" \
	"($written, 0)"
grep -q 'interrupted by SIGINT: verifying the' "$out/last.err" ||
	fail "large: no message at the signal"
check "large: removed" "$(json 'j["removed"]')" True
check "large: DIR empty" "$(ls -A "$d")" ""

# The tree, SIGTERM, the text summary.
start stress "$d" --fs-mode tree --files 1000000 --file-size 512
await '^create [0-9]+ files: '
kill -TERM "$pid"
finish
cp "$out/last.out" "$out/tree.txt"
check "tree: exit status" "$rc" 4
line=$(grep '^interrupted by ' "$out/last.out") || fail "tree: no line"
echo "$line" | grep -Eq '^interrupted by SIGTERM after [1-9][0-9]* bytes written, [1-9][0-9]* verified$' ||
	fail "tree: unexpected: $line"
grep -Eq '^create .* interrupted$' "$out/last.out" ||
	fail "tree: the create row is not marked interrupted"
grep -Eq '^verify: [1-9][0-9]* files, [0-9]+ bytes read back, 0 bad files$' \
	"$out/last.out" || fail "tree: no clean verify line"
grep -q '^result: INTERRUPTED$' "$out/last.out" || fail "tree: no result"
check "tree: DIR empty" "$(ls -A "$d")" ""
echo "ok: $line"

# Someone's file put in the run's directory while it runs: the clean-up
# removes what the run made and keeps that file, its directories and the
# manifest, and says so.
start stress "$d" --fs-mode tree --files 20000 --file-size 512
await '^create [0-9]+ files: '
run=$(find "$d" -maxdepth 1 -name 'usbtrail-stress-*')
[ -d "$run/d000" ] || fail "no $run/d000"
echo mine >"$run/d000/mine.txt"
finish
check "someone's file: exit status" "$rc" 0
grep -q '^  d000/mine\.txt$' "$out/last.out" ||
	fail "someone's file: not listed as not made by the run"
grep -Eq "^kept $d/usbtrail-stress-[0-9a-f]+: Directory not empty" \
	"$out/last.out" || fail "someone's file: no 'kept' line"
check "someone's file: kept" "$(cat "$run/d000/mine.txt")" mine
check "someone's file: all else gone" \
	"$(find "$run" -mindepth 1 -printf '%P\n' | sort | tr '\n' ' ')" \
	".usbtrail-stress d000 d000/mine.txt "
rm -r "$run"
