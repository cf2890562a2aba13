#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# usbtrail stress DIR against the tools users time a stick with, in the
# same run on the same directory:
#   large  --fs-mode large --size SIZE  against  pv /dev/zero > DIR/f
#          (write), + sync -f (write+fsync), then, its pages dropped
#          (dd iflag=nocache), pv DIR/f > /dev/null (read)
#   tree   --fs-mode tree --files FILES --file-size FSIZE  against  cp -r
#          of the same tree from /dev/shm (create), + sync -f (create+sync),
#          its pages dropped, ls -lR (stat), find -exec cat {} + (read),
#          rm -r (remove); and find -exec cat {} \; (a cat per file, as
#          users type it) for the record
#
#   bench/stress-vs-pv.sh [DIR...]     (default: build/bench-fs, this disk)
#
# Each runs REPS times (default 3), the tools alternating; the medians are
# kept.  SIZE (default 1G), FILES (5000), FSIZE (4K).  usbtrail verifies
# every byte it reads; pv, cp and cat verify nothing.  Prints a Markdown
# table for docs/performance.md.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${USBTRAIL:-$top/userspace/usbtrail}
size=${SIZE:-1G}
files=${FILES:-5000}
fsize=${FSIZE:-4K}
reps=${REPS:-3}
work=$(mktemp -d)
src=$(mktemp -d /dev/shm/usbtrail-bench-src.XXXXXX)
trap 'rm -rf "$work" "$src"' EXIT

for t in pv python3; do
	command -v "$t" >/dev/null || { echo "no $t (tools/deps.sh)" >&2; exit 1; }
done
[ -x "$bin" ] || make -s -C "$top/userspace"
[ $# -gt 0 ] || { mkdir -p "$top/build/bench-fs"; set -- "$top/build/bench-fs"; }

bytes() {	# a size with a K, M, G suffix, in bytes
	echo "$1" | awk '{ n = $1 + 0; u = substr($1, length(n "") + 1, 1)
		m = 1
		if (u == "K") m = 1024
		if (u == "M") m = 1048576
		if (u == "G") m = 1073741824
		printf "%.0f", n * m }'
}
size_b=$(bytes "$size")
fsize_b=$(bytes "$fsize")

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }
rate() {	# AMOUNT T0 T1: AMOUNT per second
	echo "$1 $2 $3" | awk '{ printf "%.3f\n", $1 / ($3 - $2) }'
}

# drop FILE...: their pages out of the cache, as usbtrail does
drop() {
	python3 -c 'import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)' "$@"
}

# The tree to copy, as usbtrail lays it out: 64 files a directory.
python3 -c 'import os, sys
root, n, sz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    leaf = i // 64
    d = os.path.join(root, "tree", "d%03d" % (leaf // 16), "d%02d" % (leaf % 16))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%07d.dat" % i), "wb") as f:
        f.write(os.urandom(sz))' "$src" "$files" "$fsize_b"

# ut_get FILE PHASE FIELD
ut_get() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert j["result"] == "pass", "usbtrail run failed"
print([p for p in j["phases"] if p["name"] == sys.argv[2]][0][sys.argv[3]])' "$@"
}

ut_large() {
	"$bin" stress "$d" --size "$size" --json >"$work/ut.json" 2>/dev/null
	for ph in write write+fsync read; do
		ut_get "$work/ut.json" "$ph" mbps >>"$work/ut.$ph"
	done
}
pv_large() {
	f=$d/pv-bench.dat
	t0=$(now)
	pv -q -S -s "$size_b" /dev/zero >"$f"
	t1=$(now)
	sync -f "$f" 2>/dev/null || sync
	t2=$(now)
	drop "$f"
	pv -q "$f" >/dev/null
	t3=$(now)
	mb=$(echo "$size_b" | awk '{ print $1 / 1e6 }')
	rate "$mb" "$t0" "$t1" >>"$work/pv.write"
	rate "$mb" "$t0" "$t2" >>"$work/pv.write+fsync"
	rate "$mb" "$t2" "$t3" >>"$work/pv.read"
	rm -f "$f"
}

ut_tree() {
	"$bin" stress "$d" --fs-mode tree --files "$files" --file-size "$fsize" \
		--json >"$work/ut.json" 2>/dev/null
	for ph in create create+sync stat read remove; do
		ut_get "$work/ut.json" "$ph" files_per_s >>"$work/ut.t$ph"
	done
}
cp_tree() {
	t=$d/cp-bench
	mkdir "$t"
	t0=$(now)
	cp -r "$src/tree" "$t/"
	t1=$(now)
	sync -f "$t" 2>/dev/null || sync
	t2=$(now)
	find "$t" -type f -exec python3 -c 'import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)' {} +
	t3=$(now)
	ls -lR "$t" >/dev/null
	t4=$(now)
	find "$t" -type f -exec cat {} + >/dev/null
	t5=$(now)
	find "$t" -type f -exec python3 -c 'import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)' {} +
	t6=$(now)
	find "$t" -type f -exec cat {} \; >/dev/null
	t7=$(now)
	rm -r "$t"
	t8=$(now)
	# ls -lR stats the directories too, as usbtrail's walk counts them
	ents=$(find "$src/tree" | wc -l)
	rate "$files" "$t0" "$t1" >>"$work/cp.create"
	rate "$files" "$t0" "$t2" >>"$work/cp.create+sync"
	rate "$((ents - 1))" "$t3" "$t4" >>"$work/cp.stat"
	rate "$files" "$t4" "$t5" >>"$work/cp.read"
	rate "$files" "$t6" "$t7" >>"$work/cp.cat1"
	rate "$files" "$t7" "$t8" >>"$work/cp.remove"
}

# row WHAT KEY TOOL-KEY UNIT
row() {
	u=$(median <"$work/ut.$2")
	o=$(median <"$work/$3")
	printf '| %s | %s | %.1f %s | %.1f %s | %.2f |\n' "$tname" "$1" \
		"$u" "$4" "$o" "$4" "$(echo "$u $o" | awk '{ print $1 / $2 }')"
}

echo "| target | test | usbtrail (verifying) | pv, cp, ls, find, rm | ratio |"
echo "|---|---|---|---|---|"
for d in "$@"; do
	rm -f "$work"/ut.* "$work"/pv.* "$work"/cp.*
	fs=$(df -PT "$d" | awk 'NR == 2 { print $2 }')
	tname="$(basename "$d") ($fs)"
	i=0
	while [ "$i" -lt "$reps" ]; do
		if [ $((i % 2)) = 0 ]; then
			ut_large; pv_large; ut_tree; cp_tree
		else
			pv_large; ut_large; cp_tree; ut_tree
		fi
		i=$((i + 1))
	done
	row "$size file write (pv)" write pv.write MB/s
	row "$size file write+fsync (pv; sync -f)" write+fsync pv.write+fsync MB/s
	row "$size file read, pages dropped (pv)" read pv.read MB/s
	row "$files x $fsize create (cp -r)" tcreate cp.create files/s
	row "$files x $fsize create+sync (cp -r; sync -f)" tcreate+sync \
		cp.create+sync files/s
	row "$files x $fsize stat walk (ls -lR)" tstat cp.stat entries/s
	row "$files x $fsize read, pages dropped (find -exec cat {} +)" tread \
		cp.read files/s
	row "$files x $fsize read, pages dropped (find -exec cat {} \\;)" tread \
		cp.cat1 files/s
	row "$files x $fsize remove (rm -r)" tremove cp.remove files/s
done
