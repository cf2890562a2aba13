#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge healthy (issue 32): no failure within a short
# budget, every workload run and recorded, and nothing changed on the
# system afterwards (quirks parameter, driver, max_sectors_kb, command
# timeout).  Before that, what repro refuses, before anything is changed
# or written: a mounted disk (even with --destroy-data), and any disk
# without --destroy-data.  The filesystem and its file are still there.
# The result as text on the terminal, as JSON in DIR/repro.json.
. "$(dirname "$0")/lib.sh"

vidpid=6a3e:91d7
rm -rf "$out/c"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "healthy,vidpid=$vidpid" --timeout 900 -- sh -c '
	d=$TESTBED_BRIDGE
	sh /tests/repro-state.sh >/out/before.state
	mke2fs -q "$d" || echo "mke2fs failed"
	mkdir -p /mnt/b
	mount -t ext2 "$d" /mnt/b || { echo "mount failed"; exit 0; }
	echo hello >/mnt/b/file
	usbtrail repro "$d" -o /out/m --destroy-data 2>/out/mounted.err
	echo "mounted exit $?"
	umount /mnt/b
	usbtrail repro "$d" -o /out/n 2>/out/nodestroy.err
	echo "no-destroy exit $?"
	ls /run/usbtrail/repro.state >/out/refused.ls 2>&1
	mount -t ext2 "$d" /mnt/b && cat /mnt/b/file && umount /mnt/b
	sh /tests/repro-state.sh >/out/refused.state
	usbtrail stress "$d" --destroy-data --reset-check --json \
		>/out/reset.json 2>/out/reset.err
	echo "reset-check exit $?"
	usbtrail repro "$d" -o /out/c --destroy-data --size 16M --budget 20 \
		--cmd-timeout 7 >/out/repro.txt 2>/out/repro.err
	echo "repro exit $?"
	sh /tests/repro-state.sh >/out/after.state
	ls /run/usbtrail/repro.state >/out/after.ls 2>&1
	true' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
grep -q '^mount failed' "$out/stdout.txt" && fail "the guest cannot mount ext2"
expect "$out/mounted.err" 'usbtrail repro: refusing /dev/sd[a-z]+: /dev/sd[a-z]+ is mounted on /mnt/b$'
expect "$out/stdout.txt" '^mounted exit 1$'
expect "$out/nodestroy.err" 'give --destroy-data'
# flush honesty on a bridge that keeps what it acknowledged: nothing lost
expect "$out/stdout.txt" '^reset-check exit 0$'
python3 - "$out/reset.json" <<'PY' || fail "stress --reset-check on the healthy bridge"
import json, sys
s = json.load(open(sys.argv[1]))
if not (s["mode"] == "reset-check" and s["acknowledged_bytes"] == 16 << 20
        and s["lost_sectors"] == 0 and s["lost"] == [] and s["failure"] is None
        and s["usb"] == "2-1"):
    sys.exit(f"FAIL: {s}")
print(f"ok: reset-check: 16 MiB acknowledged, USB {s['usb']} reset in "
      f"{s['reset_ms']} ms, back after {s['back_ms']} ms, nothing lost")
PY
expect "$out/stdout.txt" '^no-destroy exit 1$'
expect "$out/stdout.txt" '^hello$'
expect "$out/refused.ls" 'No such file'
diff "$out/before.state" "$out/refused.state" >"$out/state.diff" ||
	fail "a refused repro changed the system: $(cat "$out/state.diff")"
if [ -e "$out/m" ] || [ -e "$out/n" ]; then
	fail "a refused repro made its directory"
fi
echo "ok: refused runs left nothing"
cat "$out/repro.err"
expect "$out/stdout.txt" '^repro exit 0$'
expect "$out/repro.txt" '^[0-9]+ runs without a mitigation, none failed; write [0-9]+ MB/s'
expect "$out/repro.txt" '^verdict: no-failure within the budget of 20 s$'
python3 - "$out/c/repro.json" "$out/c/runs" <<'PY' || fail "repro's result"
import json, os, sys
r = json.load(open(sys.argv[1]))
def ok(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}: {json.dumps(r)[:1500]}")
    print("ok:", what)
ok(r["failed"] is False and r["failure"] is None, "no failure")
ok(r["verdict"] == "no-failure", "verdict no-failure")
ok(r["fix"]["kind"] == "none" and r["fix"]["persist"] == [], "no fix")
none = [t for t in r["runs"] if t["mitigation"] == "none"]
ok(len(none) == 1 and none[0]["runs"] >= 2 and none[0]["failures"] == 0,
   f"{none[0]['runs']} runs without a mitigation, none failed")
ok(none[0]["mbps_write"] > 0 and none[0]["mbps_read"] > 0, "throughput measured")
ok(len(r["runs"]) == 1, "no mitigation tried")
recs = sorted(os.listdir(sys.argv[2]))
ok(any("-seq-none" in d for d in recs) and any("-cdm-none" in d for d in recs),
   f"both workloads recorded: {[d for d in recs if '.' not in d]}")
ok(r["files"] == {"report": "report.html"}, f"files: {r['files']}")
ok(len(r["recordings"]) == none[0]["runs"] and
   not any(x["failed"] for x in r["recordings"]), "every run in recordings")
PY
grep -q 'Verdict: <b>no-failure</b>' "$out/c/report.html" ||
	fail "report.html: no verdict"
for f in "$out"/c/bundle.tar.gz "$out"/c/0001-*.patch "$out/c/unusual-entry.txt"; do
	[ -e "$f" ] && fail "no run failed, yet $f"
done
expect "$out/repro.txt" "^report: /out/c/report.html$"
expect "$out/repro.err" 'run 1: seq, mitigation none: passed'
diff "$out/before.state" "$out/after.state" >"$out/state.diff" ||
	fail "repro changed the system: $(cat "$out/state.diff")"
echo "ok: after repro: $(tr '\n' ' ' <"$out/after.state")"
expect "$out/after.ls" 'No such file'
no_kernel_warning "$out/console.log"
