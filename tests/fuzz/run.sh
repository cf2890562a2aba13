#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the libFuzzer targets (make -C userspace fuzz) and run each for a
# bounded time, as TAP.  `make check` runs them briefly; for a longer
# campaign: tests/fuzz/run.sh 600.  An input that takes over 10 s fails
# (-timeout=10): a hang is a bug like a crash.  Any sanitizer report stops
# the target and fails it, UBSan's too: the targets are built with
# -fno-sanitize-recover=all, and halt_on_error=1 says it again at run
# time.  The input that failed is kept in build/tests/fuzz/.
#   tests/fuzz/run.sh [SECONDS-PER-TARGET]   (default 15)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-15}
b=$top/userspace/build-fuzz
keep=$top/build/tests/fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! make -s -C "$top/userspace" fuzz >"$work/build.log" 2>&1; then
	echo "not ok 1 - build the fuzz targets"
	sed 's/^/# /' "$work/build.log" | tail -n 20
	echo "1..1"
	exit 1
fi
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}halt_on_error=1
UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS
n=0 failed=0
for t in usbdesc kmsg modrec recording usbmon pcapng report tracerec btf \
	scrub quirks_patch; do
	n=$((n + 1))
	case $t in
	usbdesc) corpus=$b/corpus ;;
	*) corpus=$b/corpus-$t ;;
	esac
	mkdir -p "$work/$t"
	cp -r "$corpus/." "$work/$t/" 2>/dev/null
	if (cd "$work" && "$b/fuzz_$t" -max_total_time="$secs" \
		-max_len=65536 -timeout=10 -print_final_stats=1 "$work/$t" \
		>"$work/$t.log" 2>&1); then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
			"$work/$t.log")
		echo "ok $n - fuzz_$t: $runs inputs in ${secs}s, no crash"
	else
		echo "not ok $n - fuzz_$t"
		grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$work/$t.log" |
			head -n 10 | sed 's/^/# /'
		mkdir -p "$keep"
		for c in "$work"/crash-* "$work"/timeout-* "$work"/leak-* \
			"$work"/oom-*; do
			[ -f "$c" ] || continue
			cp "$c" "$keep/fuzz_$t-${c##*/}"
			echo "# input kept: $keep/fuzz_$t-${c##*/}"
		done
		cp "$work/$t.log" "$keep/fuzz_$t.log"
		failed=1
	fi
done
echo "1..$n"
exit $failed
