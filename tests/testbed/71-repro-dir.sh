#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on a directory (issue 32's directory mode): an ext2
# filesystem on --bridge max-sectors (a transfer of more than 240 sectors
# is never answered), mounted, and a directory in it holding a file of the
# user's.  repro needs no --destroy-data there and runs the file-level
# workloads (files: 16 KiB files, synced, walked and read back; seq: one
# large file), which fail on the filesystem's writeback.  With the
# filesystem mounted no quirk can be tried (a rebind would pull the disk
# from under it): each is skipped with that reason, and repro finds
# max_sectors_kb 120, live, by runs.  Afterwards the user's file is as it
# was, no file of stress is left, the disk never left its driver, and
# max_sectors_kb is back.  The recordings may not go onto the disk.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=5b2e:8c14
rm -rf "$out/c"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "max-sectors,vidpid=$vidpid" --timeout 1200 -- sh -c '
	d=$TESTBED_BRIDGE
	q=/sys/block/${d#/dev/}/queue/max_sectors_kb
	# the filesystem made and mounted with transfers the bridge takes
	echo 120 >"$q"
	mke2fs -q "$d" && mkdir -p /mnt/d && mount -t ext2 "$d" /mnt/d ||
		{ echo "no filesystem"; exit 0; }
	mkdir /mnt/d/work && echo "my data" >/mnt/d/work/mine.txt && sync
	echo 512 >"$q"
	sh /tests/repro-state.sh >/out/before.state
	usbtrail repro /mnt/d/work -o /mnt/d/c >/out/ondisk.txt 2>&1
	echo "on disk exit $?"
	usbtrail repro /mnt/d/work -o /out/c --size 4M --cmd-timeout 4 \
		--workloads files,seq --confidence 0.9 >/out/repro.txt \
		2>/out/repro.err
	echo "repro exit $?"
	sh /tests/repro-state.sh >/out/after.state
	echo 120 >"$q"
	ls -a /mnt/d/work >/out/work.ls
	cat /mnt/d/work/mine.txt >/out/mine.txt
	umount /mnt/d && echo "umount ok"' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
cat "$out/repro.err"
expect "$out/stdout.txt" '^on disk exit 1$'
expect "$out/ondisk.txt" 'on the disk under test'
expect "$out/stdout.txt" '^repro exit 0$'
repro_py "$out/c/repro.json" <<'PY' || fail "repro's result"
import sys
from repro_check import Repro
r = Repro(sys.argv[1])
r.recorded()
r.ok(r.r["directory"] == "/mnt/d/work", f"directory {r.r['directory']}")
r.ok(r.r["failure"]["step"] in ("files", "seq"),
     f"failed under {r.r['failure']['step']}")
r.ok(r.r["failure"]["kind"] in ("timeout", "abort", "reset", "io-error",
                                "stress-error"),
     f"the failure: {r.r['failure']['kind']}")
r.always_failed()
r.fixed("max_sectors_kb=120")
for c in ("f", "t", "e", "g", "u"):
    r.skipped(c, "mounted")
r.fix("max-sectors", "120")
r.ok(r.m["max_sectors_kb=120"]["applied"].startswith("live"),
     "applied live: " + r.m["max_sectors_kb=120"]["applied"])
steps = [x["workload"] for x in r.r["recordings"]]
r.ok(steps[0] == "files", f"the files workload ran first: {steps}")
t = r.m["max_sectors_kb=120"]
r.ok(t["mbps_write"] > 0 and t["p99_ms"] is None,
     "files' rates measured, no latency claimed")
PY
expect "$out/repro.txt" '^fix: max_sectors_kb=120: no failure in [0-9]+ runs'
check "the user's file" "$(cat "$out/mine.txt")" "my data"
check "left in the directory" "$(grep -v '^\.\.\?$' "$out/work.ls" | tr '\n' ' ')" "mine.txt "
repro_state_same
expect "$out/stdout.txt" '^umount ok$'
no_kernel_warning "$out/console.log"
