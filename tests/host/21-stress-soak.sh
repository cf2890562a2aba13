#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A soak runs until --duration, however many cycles: on a small file far
# more than the 64 phases the result once held (it stopped at cycle 32
# with PASS); the summary keeps the first, last and slowest cycle and a
# table of at most 32 rows, the --log every interval, and memory stays
# the same for a soak four times as long.
. "$(dirname "$0")/lib.sh"

f=$work/soak.img
stress "$f" --size 4M --profile soak --duration 5 --interval 100 --json \
	--log "$out/soak.log"
cp "$out/last.out" "$out/soak.json"
check "exit status" "$rc" 0
check "result" "$(json 'j["result"]')" pass
cycles=$(json 'j["soak"]["cycles"]')
[ "$cycles" -gt 64 ] || fail "only $cycles cycles in 5 s"
echo "ok: $cycles cycles"
check "run time" "$(json '5 <= j["secs"] < 30')" True
check "generation: one a cycle" "$(json 'j["generation"]')" "$cycles"
check "first cycle" "$(json 'j["soak"]["first"]["cycle"]')" 1
check "last cycle" "$(json 'j["soak"]["last"]["cycle"]')" "$cycles"
check "slowest cycle" "$(json '(lambda s: 1 <= s["cycle"] <= j["soak"]["cycles"] and s["write_mbps"] > 0 and s["read_mbps"] > 0 and s["write_mbps"] <= min(r["write_mbps_min"] for r in j["soak"]["rows"]))(j["soak"]["slowest"])')" True
check "bytes written" "$(json 'j["soak"]["written_bytes"]')" "$((cycles * 4194304))"
check "bytes read" "$(json 'j["soak"]["read_bytes"]')" "$((cycles * 4194304))"
check "bytes verified" "$(json 'j["verify"]["bytes_checked"]')" "$((cycles * 4194304))"
# the table: 16 to 32 rows of cycles in order, each the same width but
# the last, min <= mean
check "table rows" "$(json '(lambda s: 16 <= len(s["rows"]) <= 32 and s["rows"][0]["first"] == 1 and s["rows"][-1]["last"] == s["cycles"] and all(a["last"] + 1 == b["first"] for a, b in zip(s["rows"], s["rows"][1:])) and all(r["last"] - r["first"] + 1 == s["cycles_per_row"] for r in s["rows"][:-1]) and all(r["write_mbps_min"] <= r["write_mbps_mean"] * 1.000001 and r["read_mbps_min"] <= r["read_mbps_mean"] * 1.000001 for r in s["rows"]))(j["soak"])')" True
check "phases: cycle 1 and the last" \
	"$(json '[(p["name"], p["cycle"]) for p in j["phases"]] == [("write", 1), ("read", 1), ("write", j["soak"]["cycles"]), ("read", j["soak"]["cycles"])]')" True
check "intervals kept" "$(json 'len(j["intervals"]) <= 4096')" True
# the log: every cycle's write and read (a phase longer than the 100 ms
# interval, on a loaded machine, has a line per interval: count cycles)
check "log: the write of every cycle" \
	"$(sed -En 's/^[0-9.]+ [0-9.]+ write#([0-9]+) .*/\1/p' "$out/soak.log" |
		sort -un | wc -l)" "$cycles"
grep -Eq "^[0-9.]+ [0-9.]+ read#$cycles " "$out/soak.log" ||
	fail "no line of the last cycle's read in the log"
echo "ok: the log has all $cycles cycles"

stress "$f" --size 4M --profile soak --duration 2
check "text exit status" "$rc" 0
grep -Eq '^soak: [0-9]+ cycles in [0-9.]+ s, ' "$out/last.out" ||
	fail "no soak line"
for w in first slowest last; do
	grep -Eq "^  $w +cycle [0-9]+: write [0-9.]+ MB/s, read [0-9.]+ MB/s$" \
		"$out/last.out" || fail "no '$w' cycle line"
done
rows=$(awk '/^cycles /{on = 1; next} /^\(MB\/s/{on = 0} on' "$out/last.out" |
	wc -l)
if [ "$rows" -lt 1 ] || [ "$rows" -gt 32 ]; then
	fail "$rows rows in the table"
fi
echo "ok: text summary, $rows rows"

# Memory: a soak four times as long holds no more (ASan's quarantine
# would hold every buffer freed since; keep it small).
[ -x /usr/bin/time ] || skip "no /usr/bin/time for the memory check"
# rss SECS: a soak of SECS; its max RSS (KiB) in $kib, cycles in $cycles
rss() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1 \
		/usr/bin/time -f %M -o "$work/rss" "$bin" stress "$f" \
		--size 4M --profile soak --duration "$1" --interval 100 \
		--json >"$out/last.out" 2>/dev/null
	cycles=$(json 'j["soak"]["cycles"]')
	kib=$(cat "$work/rss")
}
rss 2
short=$kib
short_cycles=$cycles
rss 8
echo "max RSS: $short KiB after $short_cycles cycles, $kib KiB after $cycles"
[ "$cycles" -gt "$short_cycles" ] || fail "the longer soak ran no more cycles"
[ "$kib" -le $((short + 2048)) ] || fail "memory grew by $((kib - short)) KiB"
echo "ok: memory bounded"
