#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the libFuzzer targets (make -C userspace fuzz) and run each for a
# bounded time, as TAP.  `make check` runs them briefly; for a longer
# campaign: tests/fuzz/run.sh 600.  An input that takes over 10 s fails
# (-timeout=10): a hang is a bug like a crash.
#   tests/fuzz/run.sh [SECONDS-PER-TARGET]   (default 15)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-15}
b=$top/userspace/build-fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! make -s -C "$top/userspace" fuzz >"$work/build.log" 2>&1; then
	echo "not ok 1 - build the fuzz targets"
	sed 's/^/# /' "$work/build.log" | tail -n 20
	echo "1..1"
	exit 1
fi
n=0 failed=0
for t in usbdesc kmsg modrec recording usbmon pcapng report tracerec btf; do
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
		grep -E 'ERROR|SUMMARY|==[0-9]+==' "$work/$t.log" | head -n 10 |
			sed 's/^/# /'
		failed=1
	fi
done
echo "1..$n"
exit $failed
