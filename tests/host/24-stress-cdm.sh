#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --profile cdm runs CrystalDiskMark 8's default tests as it does: the
# file laid down, the reads of SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1 and
# RND4K Q1T1, then their writes, each a warm-up and --passes runs of
# --duration, the best kept in its table; a sequential one goes on from
# the start at the end.  Under usbtrail record, the report names the
# random tests RND4K (the markers say random=1).
. "$(dirname "$0")/lib.sh"

f=$work/cdm.img
stress "$f" --size 16M --profile cdm --duration 1 --passes 2 --json
cp "$out/last.out" "$out/cdm.json"
check "exit status" "$rc" 0
check "result" "$(json 'j["result"]')" pass
check "phases" "$(json 'len(j["phases"])')" 25
check "the order" "$(json '" ".join(p["name"].replace(" ", "_") + ":" + str(p.get("pass", "-")) for p in j["phases"][:4] + j["phases"][-3:])')" \
	"prepare:- SEQ1M_Q8T1_Read:0 SEQ1M_Q8T1_Read:1 SEQ1M_Q8T1_Read:2 RND4K_Q1T1_Write:0 RND4K_Q1T1_Write:1 RND4K_Q1T1_Write:2"
check "reads before writes" \
	"$(json '[p["op"] for p in j["phases"][1:]] == ["read"] * 12 + ["write"] * 12')" True
check "the tests" "$(json '[t["test"] for t in j["cdm"]["tests"]]')" \
	"['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1']"
check "passes" "$(json 'j["cdm"]["passes"]')" 2
# the table's figure is the best scored pass, never the warm-up
check "best of the passes" "$(json 'all(t[d]["mbps"] == max(p["mbps"] for p in j["phases"] if p.get("cdm") == t["test"] and p["op"] == d and p["pass"] >= 1) and t[d]["pass"] in (1, 2) for t in j["cdm"]["tests"] for d in ("read", "write"))')" True
check "each run lasts --duration" \
	"$(json 'all(0.9 <= p["secs"] < 1.9 for p in j["phases"][1:])')" True
# 16 MiB in a second: a sequential test goes round again
check "sequential tests wrap" \
	"$(json 'all(p["bytes"] > 16 << 20 for p in j["phases"][1:] if not p["random"] and p["secs"] > 0.9 and p["mbps"] > 40)')" True
check "every read verified" \
	"$(json 'j["verify"]["bytes_checked"] == sum(p["bytes"] for p in j["phases"] if p["op"] == "read") and j["verify"]["bad_sectors"] == 0')" True

stress "$f" --size 16M --profile cdm --duration 1 --passes 1
check "text exit status" "$rc" 0
grep -q '^CrystalDiskMark, best of 1 ' "$out/last.out" || fail "no table"
for t in 'SEQ1M Q8T1' 'SEQ1M Q1T1' 'RND4K Q32T1' 'RND4K Q1T1'; do
	grep -Eq "^$t( +[0-9.]+){4}\$" "$out/last.out" || fail "no row $t"
done
grep -q '^RND4K Q1T1 Write warm-up ' "$out/last.out" || fail "no warm-up row"
echo "ok: the text's table"

stress "$f" --size 16M --passes 2
check "--passes without cdm" "$rc" 2
stress "$f" --size 16M --profile cdm --passes 10
check "--passes 10" "$rc" 2

# the markers, through usbtrail record, into the report's rows: the
# figures stress's own table printed, each test's best pass, the warm-up
# never (report.txt; report --compare's cells where the recording has a
# USB disk for its row: tests/testbed/52-report-compare.sh)
[ "$(id -u)" = 0 ] || skip "usbtrail record here needs root"
rec=$work/rec
"$bin" record -o "$rec" -- "$bin" stress "$f" --size 16M --profile cdm \
	--duration 1 --passes 2 --json >"$out/record.out" 2>"$out/record.err"
rc=$?
[ -f "$rec/events.jsonl" ] || skip "usbtrail record does not run here"
check "record's exit status" "$rc" 0
grep -q '"usbtrail-stress: phase=RND4K-Q32T1-Read event=start .* op=read random=1 pass=0"' \
	"$rec/events.jsonl" || fail "no random=1 in the markers"
"$bin" report "$rec" -o "$work/r.html" >"$out/report.out" 2>&1 ||
	fail "usbtrail report failed: $(cat "$out/report.out")"
cp "$work/r.txt" "$out/report.txt"
grep -q '^SEQ4K ' "$work/r.txt" && fail "a random test taken for sequential"
"$bin" report --compare "$rec" --format csv >"$out/compare.csv" \
	2>"$out/compare.err" ||
	fail "report --compare failed: $(cat "$out/compare.err")"
python3 - "$out/record.out" "$work/r.txt" "$out/compare.csv" <<'PY' ||
import csv, json, re, sys
j = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
row = next(csv.DictReader(open(sys.argv[3])), None)
cols = {"SEQ1M Q8T1": "seq", "RND4K Q1T1": "rnd4k_q1",
        "RND4K Q32T1": "rnd4k_q32"}
bad = []
for t in j["cdm"]["tests"]:
    want = ["%.1f" % t[d]["mbps"] for d in ("read", "write")]
    m = re.search(r"^%s +([0-9.]+) +([0-9.]+) +0$" % t["test"], txt, re.M)
    got = list(m.groups()) if m else None
    if got != want:
        bad.append("report %s: %r, stress printed %r" % (t["test"], got, want))
    c = cols.get(t["test"])
    if c and row:
        cell = [row["%s_read_mbs" % c], row["%s_write_mbs" % c]]
        if cell != want:
            bad.append("compare %s: %r, stress printed %r" % (t["test"], cell, want))
    print("ok: %s: stress %s, report %s" % (t["test"], want, got))
for m in bad:
    print("FAIL: " + m)
sys.exit(1 if bad else 0)
PY
	fail "the report's figures are not stress's"
echo "ok: the report's rows: $(grep -c '^[SR][EN][QD]' "$work/r.txt")"
