#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# usbtrail stress against fio, in the same run on the same file, with the
# same block size, queue depth, engine (io_uring) and O_DIRECT; and the
# pattern's fill and check against memcpy on one core.
#
#   bench/stress-vs-fio.sh [TARGET...]     (default: a file on /dev/shm)
#
# A TARGET is a file (created, 1 GiB) or "loop": a loop device (direct I/O)
# over a file in LOOPDIR (default /var/tmp; /dev/shm takes the disk's own
# noise out, where tmpfs takes direct I/O: Linux 6.6 and later).  Each
# measurement runs REPS times (default 3), alternating tools; the medians
# are kept, and the median of the ratios of each back-to-back pair, which
# a busy machine's drift disturbs less, with the pairs' quartiles.  TESTS="seq" (or "rand") runs only those
# (default both).  Prints a Markdown table for docs/performance.md.
# usbtrail verifies every read; fio verifies nothing.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${USBTRAIL:-$top/userspace/usbtrail}
size=${SIZE:-1G}
reps=${REPS:-3}
dur=${DUR:-5}
tests=${TESTS:-seq rand}
for k in $tests; do
	case $k in
	seq|rand) ;;
	*) echo "TESTS takes seq and rand, not \"$k\"" >&2; exit 2 ;;
	esac
done
loopdir=${LOOPDIR:-/var/tmp}
work=$(mktemp -d)
loop=
cleanup() {
	[ -z "$loop" ] || losetup -d "$loop"
	rm -rf "$work"
}
trap cleanup EXIT

command -v fio >/dev/null || { echo "no fio (tools/deps.sh)" >&2; exit 1; }
[ -x "$bin" ] || make -s -C "$top/userspace"
make -s -C "$top/userspace" build/libusbtrail.a
cc -O2 -D_GNU_SOURCE -I"$top/userspace/lib" -o "$work/pattern-bench" \
	"$top/bench/pattern-bench.c" "$top/userspace/build/libusbtrail.a"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# the first and third quartile of a column of numbers, "Q1-Q3"
quartiles() {
	sort -n | awk '{ v[NR] = $1 }
		END { printf "%.2f-%.2f", v[int((NR + 3) / 4)],
		      v[int((3 * NR + 3) / 4)] }'
}

# fio_run NAME RW BS QD [extra]: prints MB/s (10^6) or IOPS for RW
fio_run() {
	# shellcheck disable=SC2086 # $5: fio options, split on purpose
	fio --name="$1" --filename="$target" --rw="$2" --bs="$3" \
		--iodepth="$4" --ioengine=io_uring --direct=1 --size="$size" \
		--output-format=json ${5:-} >"$work/fio.json" 2>/dev/null
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j["write"] if j["write"]["io_bytes"] else j["read"]
print(d["iops"] if sys.argv[2] == "iops" else d["bw_bytes"] / 1e6)' \
		"$work/fio.json" "$6"
}

# ut_run ARGS -- PHASE FIELD: one usbtrail run, one phase's figure
ut_run() {
	"$bin" stress "$target" --json "$@" >"$work/ut.json" 2>/dev/null || true
}
ut_get() {	# PHASE FIELD (of cdm's, the first pass after the warm-up)
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert j["result"] == "pass", "usbtrail run failed"
print([p for p in j["phases"] if p["name"] == sys.argv[2] and
       p.get("pass", 1)][0][sys.argv[3]])' \
		"$work/ut.json" "$1" "$2"
}

# WHAT KEY UNIT: the medians, their ratio, and the median of the ratios
# of each repetition's pair (run back to back, so drift in the machine's
# load hits both tools of a pair alike)
row() {
	u=$(median <"$work/$2.ut")
	f=$(median <"$work/$2.fio")
	[ -n "$u" ] || return 0
	paste "$work/$2.ut" "$work/$2.fio" |
		awk '$2 > 0 { print $1 / $2 }' >"$work/$2.pairs"
	pr=$(median <"$work/$2.pairs")
	printf '| %s | %s | %.0f %s | %.0f %s | %.2f | %.2f | %s |\n' \
		"$tname" "$1" "$u" "$3" "$f" "$3" \
		"$(echo "$u $f" | awk '{ print $1 / $2 }')" "$pr" \
		"$(quartiles <"$work/$2.pairs")"
}

ut_seq() {
	ut_run --size "$size" --block 1M --qd 4 ${extra:+"$extra"}
	ut_get write mbps >>"$work/sw.ut"
	ut_get read mbps >>"$work/sr.ut"
}
fio_seq() {
	fio_run sw write 1M 4 "" mbps >>"$work/sw.fio"
	fio_run sr read 1M 4 "" mbps >>"$work/sr.fio"
}
ut_rand() {
	ut_run --size "$size" --profile cdm --duration "$dur" --passes 1 \
		${extra:+"$extra"}
	ut_get "RND4K Q32T1 Write" iops >>"$work/rw.ut"
	ut_get "RND4K Q32T1 Read" iops >>"$work/rr.ut"
}
fio_rand() {
	fio_run rw randwrite 4k 32 "--time_based --runtime=$dur" iops \
		>>"$work/rw.fio"
	fio_run rr randread 4k 32 "--time_based --runtime=$dur" iops \
		>>"$work/rr.fio"
}

echo "| target | test | usbtrail (verifying) | fio | ratio | paired ratio | pairs Q1-Q3 |"
echo "|---|---|---|---|---|---|---|"
[ $# -gt 0 ] || set -- /dev/shm/usbtrail-bench.img
for t in "$@"; do
	if [ "$t" = loop ]; then
		truncate -s "$size" "$loopdir/usbtrail-bench.img"
		loop=$(losetup --find --show --direct-io=on \
			"$loopdir/usbtrail-bench.img")
		target=$loop
		dio=$(cat "/sys/block/${loop#/dev/}/loop/dio" 2>/dev/null || :)
		[ "$dio" = 1 ] && dio=direct-io || dio="buffered: no direct-io"
		tname="loop ($dio) on $(df --output=fstype "$loopdir" | tail -1)"
		extra=--destroy-data
	else
		rm -f "$t"
		target=$t
		tname="file on $(df --output=fstype "$(dirname "$t")" | tail -1)"
		# fio lays it out below: data stress did not write
		extra=--destroy-data
	fi
	# Laid out once, so neither tool pays for allocation.
	fio --name=layout --filename="$target" --rw=write --bs=1M \
		--size="$size" --direct=1 >/dev/null 2>&1
	: >"$work/sw.ut"; : >"$work/sw.fio"; : >"$work/sr.ut"; : >"$work/sr.fio"
	: >"$work/rw.ut"; : >"$work/rw.fio"; : >"$work/rr.ut"; : >"$work/rr.fio"
	i=0
	while [ $i -lt "$reps" ]; do
		# Alternate which tool goes first, so neither always gets
		# the device (or its cache) in the same state.
		for k in $tests; do
			if [ $((i % 2)) = 1 ]; then
				fio_"$k"
				ut_"$k"
			else
				ut_"$k"
				fio_"$k"
			fi
		done
		i=$((i + 1))
	done
	row "seq write 1 MiB QD4" sw MB/s
	row "seq read 1 MiB QD4" sr MB/s
	row "random write 4 KiB QD32" rw IOPS
	row "random read 4 KiB QD32" rr IOPS
	if [ "$t" = loop ]; then
		losetup -d "$loop"
		loop=
		rm -f "$loopdir/usbtrail-bench.img"
	else
		rm -f "$t"
	fi
done

echo
echo "Pattern speed, one core (bench/pattern-bench.c):"
echo
echo '```'
"$work/pattern-bench" $((1 << 20)) 512
"$work/pattern-bench" $((1 << 20)) 4096
"$work/pattern-bench" $((64 << 20)) 512
echo '```'
