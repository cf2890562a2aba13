#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Completion latency per phase, as fio's total latency (lat): min, mean, p50, p99,
# p99.9 and max in microseconds, in order, in JSON and in the text table;
# with either engine; against fio's lat on the same file when fio is here.
. "$(dirname "$0")/lib.sh"

# lat_ok: every phase of the JSON in $out/last.out that did I/O has the
# fields, min <= p50 <= p99 <= p99.9 <= max and mean within [min, max]
lat_ok() {
	json '(lambda bad: bad or "ok")([p["name"] for p in j["phases"] if p["ios"] and not (0 < p["lat_min_us"] <= p["lat_p50_us"] <= p["lat_p99_us"] <= p["lat_p999_us"] <= p["lat_max_us"] and p["lat_min_us"] <= p["lat_mean_us"] <= p["lat_max_us"])])'
}

f=$work/lat.img
stress "$f" --size 32M --json
check "exit status" "$rc" 0
check "latencies in order" "$(lat_ok)" ok
json '"; ".join("%s: mean %.1f p50 %.1f p99 %.1f p99.9 %.1f max %.1f us" % (p["name"], p["lat_mean_us"], p["lat_p50_us"], p["lat_p99_us"], p["lat_p999_us"], p["lat_max_us"]) for p in j["phases"])'

stress "$f" --size 32M --engine sync --block 64K --qd 1 --json
check "sync exit status" "$rc" 0
check "sync latencies in order" "$(lat_ok)" ok

stress "$f" --size 16M --profile cdm --duration 1 --passes 1 --json
cp "$out/last.out" "$out/cdm.json"
check "cdm exit status" "$rc" 0
check "cdm latencies in order" "$(lat_ok)" ok
check "cdm phases timed" "$(json 'sum(1 for p in j["phases"] if p["lat_max_us"] > 0)')" 17

stress "$f" --size 16M --block 256K
check "text exit status" "$rc" 0
grep -Eq '^latency \(us\) +mean +p50 +p99 +p99\.9 +max$' "$out/last.out" ||
	fail "no latency table"
for p in write read; do
	grep -Eq "^$p( +[0-9.]+){5}\$" "$out/last.out" ||
		fail "no latency row for $p"
done
echo "ok: the text's latency table"

# fio on the same file, 4 KiB random reads at QD1: the same order of
# magnitude (a shared machine: a loose bound, against a unit slip).
# fio's total latency (lat = slat + clat), which is what stress measures:
# where the kernel reads inside io_uring_enter, fio's clat is about 1 us.
command -v fio >/dev/null || skip "no fio to compare with"
ours=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print([p for p in j["phases"] if p["name"] == "RND4K Q1T1 Read" and p["pass"] == 1][0]["lat_p50_us"])' \
	"$out/cdm.json")
fio --name=lat --filename="$f" --size=16M --rw=randread --bs=4k \
	--iodepth=1 --ioengine=io_uring --direct=1 --runtime=2 --time_based \
	--lat_percentiles=1 --output-format=json >"$out/fio.json" 2>"$out/fio.err" ||
	skip "fio failed: $(head -n 3 "$out/fio.err")"
theirs=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(j["jobs"][0]["read"]["lat_ns"]["percentile"]["50.000000"] / 1e3)' \
	"$out/fio.json")
echo "4K QD1 read p50: usbtrail $ours us, fio $theirs us"
awk -v a="$ours" -v b="$theirs" 'BEGIN { exit !(a > 0 && b > 0 && a < b * 10 && b < a * 10) }' ||
	fail "usbtrail's p50 $ours us against fio's $theirs us"
echo "ok: within a factor of 10 of fio's"

# under usbtrail record, the report shows the same latencies stress printed
[ "$(id -u)" = 0 ] || skip "usbtrail record here needs root"
rec=$work/lat-rec
"$bin" record -q -o "$rec" -- "$bin" stress "$f" --size 16M --json \
	>"$out/rec.json" 2>"$out/rec.err"
[ -f "$rec/events.jsonl" ] || skip "usbtrail record does not run here"
"$bin" report "$rec" -o "$work/lat.html" >/dev/null 2>"$out/lat-report.err" ||
	fail "report: $(cat "$out/lat-report.err")"
cp "$work/lat.txt" "$out/lat-report.txt"
python3 - "$out/rec.json" "$work/lat.txt" "$work/lat.html" <<'PY' ||
import json, re, sys
j = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
html = open(sys.argv[3]).read()
bad = []
for p in j["phases"]:
    d = "write" if p["name"] == "write" else "read"
    want = "p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f" % (
        p["lat_p50_us"], p["lat_p99_us"], p["lat_p999_us"], p["lat_max_us"])
    m = re.search(r"^latency \S+ \S+ %s \[us\]: (.*)$" % d, txt, re.M)
    got = m.group(1) if m else None
    if got != want:
        bad.append("report.txt %s: %r, stress printed %r" % (d, got, want))
    elif want not in html:
        bad.append("report.html has no %r" % want)
    else:
        print("ok: %s latency in the report: %s" % (d, got))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
	fail "the report's latencies are not stress's"
