#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The outputs are opened before the run: a --log that cannot be written
# fails at once, the target untouched; the log gets each interval as it
# ends.  --duration does what --help says per profile; JSON's mbps is
# 10^6 bytes/s and bw_bytes bytes/s.
. "$(dirname "$0")/lib.sh"

f=$work/out.img
stress "$f" --size 4M --log "$work/no/such/dir/x.log"
check "a --log in a missing directory" "$rc" 1
grep -q "^usbtrail stress: --log $work/no/such/dir/x.log: No such file or directory\$" \
	"$out/last.err" || fail "no clear error: $(cat "$out/last.err")"
[ ! -e "$f" ] || fail "the target was created"
stress "$f" --size 4M
check "a run" "$rc" 0
sum=$(md5sum <"$f")
mkdir "$work/logdir"
stress "$f" --size 4M --log "$work/logdir"
check "a --log that is a directory" "$rc" 1
grep -q 'Is a directory' "$out/last.err" || fail "no clear error"
[ "$(md5sum <"$f")" = "$sum" ] || fail "the target was written"
[ ! -s "$out/last.out" ] || fail "a summary of a run that did not start"
echo "ok: a bad --log fails first, the target unchanged"

# The log as it goes: lines there while the run still writes.
: >"$out/bg.err"
env --default-signal=INT "$bin" stress "$f" --size 1G --block 4K --qd 1 \
	--interval 100 --log "$work/live.log" >"$out/bg.out" 2>"$out/bg.err" &
pid=$!
i=0
until grep -q '^write: ' "$out/bg.err"; do
	i=$((i + 1))
	if [ "$i" -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
		fail "no progress from the background run"
	fi
	sleep 0.1
done
lines=$(grep -Ec '^[0-9.]+ [0-9.]+ write [0-9.]+ [0-9]+' "$work/live.log")
kill -INT "$pid"
wait "$pid"
bgrc=$?
[ "$lines" -ge 5 ] || fail "$lines log lines after a second of writing"
check "the background run, stopped" "$bgrc" 4
echo "ok: $lines lines in the log while it ran"

# --duration: seq stops writing then and verifies what it wrote
stress "$f" --size 1G --block 4K --qd 1 --duration 1 --json
check "seq --duration exit" "$rc" 0
check "seq --duration: the write is cut at S" \
	"$(json '(lambda w, r: 0.9 <= w["secs"] < 1.9 and 0 < w["bytes"] < 1 << 30 and r["bytes"] == w["bytes"])(j["phases"][0], j["phases"][1])')" True
stress "$f" --size 8M --profile cdm --duration 1 --passes 1 --json
check "cdm --duration: each pass of a test S, the preparation all" \
	"$(json 'all(0.9 <= p["secs"] < 1.9 for p in j["phases"][1:]) and j["phases"][0]["name"] == "prepare" and j["phases"][0]["bytes"] == 8 << 20')" True
stress "$f" --size 4M --profile soak --duration 2 --json
check "soak --duration: the whole run" \
	"$(json '2 <= j["secs"] < 10 and j["soak"]["cycles"] > 1')" True

# mbps and bw_bytes
check "bw_bytes is bytes/s, mbps 10^6 bytes/s" \
	"$(json 'all(abs(x["bw_bytes"] - x["mbps"] * 1e6) <= 1e-6 * x["bw_bytes"] for x in j["phases"] + j["intervals"]) and all(abs(p["bw_bytes"] - p["bytes"] / p["secs"]) <= 1e-6 * p["bw_bytes"] for p in j["phases"])')" True

# the JSON says which usbtrail made it and when; every phase has an id
# that names the test (and a cdm test's pass), the same in every run
f=$work/ids.img
stress "$f" --size 16M --profile cdm --duration 1 --passes 2 --json -q
check "cdm -q exit status" "$rc" 0
check "-q: nothing on stderr" "$(wc -c <"$out/last.err" | tr -d ' ')" 0
check "usbtrail's version" "$(json 'j["usbtrail"]')" "$(cat "$top/VERSION")"
check "started, UTC" "$(json 'bool(__import__("re").fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", j["started"]))')" True
check "phase ids unique" "$(json 'len(set(p["id"] for p in j["phases"])) == len(j["phases"])')" True
check "phase ids" "$(json '" ".join(p["id"] for p in j["phases"][:4])')" \
	"prepare seq1m-q8t1-read-p0 seq1m-q8t1-read-p1 seq1m-q8t1-read-p2"
check "cdm_set" "$(json 'j["cdm_set"]')" 8

# --cdm-set 3: CrystalDiskMark 3's tests, each read then written
stress "$f" --size 16M --profile cdm --cdm-set 3 --duration 1 --passes 1 --json -q
check "cdm-set 3 exit status" "$rc" 0
check "cdm-set 3 tests" "$(json '" ".join(t["test"] for t in j["cdm"]["tests"])')" \
	"SEQ1M Q1T1 RND512K Q1T1 RND4K Q1T1 RND4K Q32T1"
check "cdm-set 3 order" "$(json '" ".join(p["name"] for p in j["phases"] if p["name"] != "prepare" and p["pass"] == 1)')" \
	"SEQ1M Q1T1 Read SEQ1M Q1T1 Write RND512K Q1T1 Read RND512K Q1T1 Write RND4K Q1T1 Read RND4K Q1T1 Write RND4K Q32T1 Read RND4K Q32T1 Write"
check "cdm-set 3 in the JSON" "$(json 'j["cdm_set"]')" 3
stress "$f" --size 16M --cdm-set 3
check "--cdm-set without cdm" "$rc" 2

# sweep: the ATTO table, a row a block size, the phases' own rates
stress "$f" --size 8M --profile sweep --duration 1 -q
check "sweep exit status" "$rc" 0
cp "$out/last.out" "$out/sweep.txt"
stress "$f" --size 8M --profile sweep --duration 1 --json -q
python3 - "$out/sweep.txt" "$out/last.out" <<'PY' || fail "the ATTO table is not the sweep's"
import re, sys
txt = open(sys.argv[1]).read().split("ATTO layout: block", 1)
if len(txt) < 2:
    sys.exit("no ATTO table")
rows = re.findall(r"^(\S+) +([0-9.]+) +([0-9.]+)$", txt[1], re.M)
sizes = ["512"] + ["%dKiB" % (1 << k) for k in range(0, 10)] + \
        ["%dMiB" % (1 << k) for k in range(0, 4)]
got = [r[0] for r in rows]
if got != sizes:
    sys.exit("rows %r, expected %r" % (got, sizes))
print("ok: the ATTO table has %d rows, 512 to 8MiB" % len(rows))
PY
