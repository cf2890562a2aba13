#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail report on a full disk and under SIGINT/SIGTERM: a clear error,
# and never a half-written report or bundle (each file is written to a
# temporary name and renamed when whole; the temporary file is removed).
. "$(dirname "$0")/lib.sh"

# any_exists PATH...: one of the paths is there (a glob that matched)
any_exists() {
	for f in "$@"; do
		[ -e "$f" ] && return 0
	done
	return 1
}

rec=$work/rec
cp -r "$top/tests/fixtures/recordings/uas-medium-stall" "$rec"

# 1. a full disk: a 24 KiB tmpfs takes report.txt (10 KB) but not
# report.html (28 KB)
full=$work/full
mkdir "$full"
mount -t tmpfs -o size=24k usbtrail-test "$full" 2>/dev/null ||
	skip "cannot mount a tmpfs (not root?)"
cleanup_hooks="umount '$full';"
"$bin" report "$rec" -o "$full/r.html" --bundle "$full/b.tar.gz" \
	>"$out/full.out" 2>"$out/full.err"
rc=$?
cat "$out/full.err"
check "exit status on a full disk" "$rc" 1
grep -q 'r.html: No space left on device' "$out/full.err" ||
	fail "no clear error: $(cat "$out/full.err")"
[ -e "$full/r.html" ] && fail "a half report.html was left"
[ -e "$full/b.tar.gz" ] && fail "a bundle was written after the failure"
"$bin" report "$rec" -o "$work/r.html" >/dev/null 2>&1 ||
	fail "usbtrail report on a roomy disk failed"
cmp -s "$full/r.txt" "$work/r.txt" || fail "r.txt differs from a whole one"
any_exists "$full"/*tmp* && fail "temporary files left: $(ls "$full")"
echo "ok: full disk: r.txt whole, no r.html, nothing else"

# the bundle alone on the full disk
rm -f "$full/r.txt"
dd if=/dev/zero of="$full/filler" bs=1k count=12 2>/dev/null
"$bin" report "$rec" -o "$work/r2.html" --bundle "$full/b.tar.gz" \
	>"$out/full2.out" 2>"$out/full2.err"
rc=$?
cat "$out/full2.err"
check "exit status, bundle on a full disk" "$rc" 1
grep -q 'No space left on device' "$out/full2.err" || fail "no clear error"
[ -e "$full/b.tar.gz" ] && fail "a half bundle was left"
any_exists "$full"/*tmp* && fail "temporary files left: $(ls "$full")"
echo "ok: full disk: no half bundle"

# 2. a signal while writing: a recording big enough to take a while,
# interrupted at several points; whatever is there is whole
big=$work/big
mkdir "$big"
python3 - "$rec/events.jsonl" "$big/events.jsonl" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
with open(sys.argv[2], "w") as f:
    for k in range(40):
        f.write("\n".join(lines) + "\n")
PY
cp "$rec/meta.json" "$rec/capture.pcapng" "$big/"
for sig in INT TERM; do
	for delay in 0.2 0.5 1 2 8; do
		rm -f "$work/big.tar.gz" "$big/report.html" "$big/report.txt"
		"$bin" report "$big" --bundle "$work/big.tar.gz" --max-size 64K \
			>/dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -s "$sig" "$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		any_exists "$big"/*.tmp.* "$work"/*.tmp.* &&
			fail "SIG$sig after $delay s: temporary files left"
		if [ -e "$big/report.html" ]; then
			tail -c 8 "$big/report.html" | grep -q '</html>' ||
				fail "SIG$sig after $delay s: half report.html"
		fi
		if [ -e "$work/big.tar.gz" ]; then
			tar -tzf "$work/big.tar.gz" >/dev/null ||
				fail "SIG$sig after $delay s: a broken bundle"
		fi
		echo "ok: SIG$sig after $delay s (exit $rc): nothing half-written"
	done
done
