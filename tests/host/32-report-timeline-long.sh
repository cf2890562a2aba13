#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Ten minutes of a recording at realistic rates (written here: a UAS disk
# at about 100 MB/s in 1 MiB commands, its throughput samples every
# 100 ms, each command's scsi-start and scsi-done, three xHCI transfer
# events a command, the URBs' stream ids) with a 12 s dip in which the
# drive slows without any error: report.html and report --timeline stay
# under 1 MiB (the lanes are binned a pixel column at a time), keep the
# dip's lowest values, and the dip's explanation says the drive slowed.
. "$(dirname "$0")/lib.sh"

rec=$work/rec
mkdir -p "$rec"
python3 - "$rec" <<'PY' || fail "cannot write the recording"
import json, random, struct, sys

d = sys.argv[1]
random.seed(20)
T0, SECS = 100.0, 600.0
DIP0, DIP1 = T0 + 400, T0 + 412      # the drive slows: no error
seq = 0
ev_id = 0
out = open(d + "/events.jsonl", "w")

def line(o):
    global ev_id
    ev_id += 1
    o["id"] = ev_id
    out.write(json.dumps(o, separators=(",", ":")) + "\n")

def rec(t, typ, body):
    global seq
    seq += 1
    raw = struct.pack("<QIHBB", int(t * 1e9), seq, typ, 0, 0) + body
    return raw.ljust(64, b"\0").hex()

def trace(t, name, typ, body):
    line({"t": round(t, 9), "type": "trace", "source": "module",
          "disk": "sdb", "rec": name, "raw": rec(t, typ, body)})

def scsi(t, name, typ, tag, lba, op):
    trace(t, name, typ, struct.pack("<IHBBIIQIIBBBB8s4s", (8 << 20) | 16,
                                     3, 0, 0, 0, tag, lba, 1 << 20, 0, op,
                                     0, 0, 0, b"sdb", b""))

def xhci(t, ep, epaddr, cc):
    trace(t, "xhci-transfer", 3, struct.pack("<4IBBBBIHHB11x", 0, 0, 0, 0,
                                              1, ep, cc, 32, 0, 4, 3, epaddr))

def urb(t, epaddr, stream):
    trace(t, "urb-enqueue", 6, struct.pack("<HHBBBBiIIII16s", 4, 3, epaddr,
                                            2, 1, 0, 0, 1 << 20, 0, stream,
                                            0, b"1"))

line({"t": T0, "type": "device", "source": "sysfs", "disk": "sdb",
      "usb": "4-1", "scsi": "3:0:0:0", "bus": 4, "devnum": 3,
      "action": "present", "usb_id": "174c:55aa", "speed_mbps": 5000,
      "driver": "uas", "hcd": "0000:00:14.0", "hcd_driver": "xhci_hcd",
      "serial": "LONG1", "product": "ASM1153E", "devt": "8:16"})
for i, (ph, w) in enumerate((("write", True), ("read", False))):
    t = T0 + 1 + i * 300
    line({"t": t, "type": "marker", "source": "command", "kind": "stress",
          "text": "usbtrail-stress: phase=%s event=start run=1 gen=1 "
                  "block=1048576 qd=4 size=64424509440" % ph})
    line({"t": t + 299, "type": "marker", "source": "command",
          "kind": "stress",
          "text": "usbtrail-stress: phase=%s event=end run=1 gen=1 "
                  "bytes=31457280000 secs=299 errors=0" % ph})

# commands: about 100 a second, 2-12 ms each; 300 ms inside the dip
t, tag, lba = T0 + 1, 0, 0
while t < T0 + SECS - 1:
    slow = DIP0 <= t < DIP1
    write = t < T0 + 301
    lat = 0.3 + random.random() * 0.05 if slow else \
        0.002 + random.random() * 0.004 + (random.random() < 0.01) * 0.006
    op = 0x2a if write else 0x28
    scsi(t, "scsi-start", 9, tag, lba, op)
    if lba < 64 << 11:
        urb(t, 0x04 if write else 0x83, tag + 1)
    xhci(t + 0.0001, 2, 0x01, 1)                     # command IU
    xhci(t + lat - 0.0002, 4 if write else 7, 0x04 if write else 0x83, 1)
    xhci(t + lat - 0.0001, 5, 0x82, 1)               # status IU
    scsi(t + lat, "scsi-done", 10, tag, lba, op)
    tag, lba = (tag + 1) % 4, lba + 2048
    t += 0.3 if slow else 0.0095 + random.random() * 0.001

# samples every 100 ms
k = 0
median = 105.0
while k < SECS * 10 - 10:
    ts = T0 + 1 + k / 10.0
    dip = DIP0 <= ts < DIP1
    mbps = 3.4 if dip else 100 + random.random() * 10
    rd = 0 if ts < T0 + 301 else int(mbps * 1e5)
    line({"t": round(ts, 3), "type": "sample", "source": "recorder",
          "disk": "sdb", "usb": "4-1", "scsi": "3:0:0:0", "bus": 4,
          "devnum": 3, "interval_ms": 100, "read_bytes": rd,
          "write_bytes": int(mbps * 1e5) - rd, "completions": 10,
          "inflight": 4, "mbps": round(mbps, 3), "median_mbps": median,
          "dip": dip})
    k += 1
line({"kind": "dip", "dev": "sdb", "t": DIP0, "clock": "boot",
      "disk": "sdb", "chain": None,
      "line": "sdb: 3.4 MB/s for 12.0 s (120 intervals of 100 ms), "
              "trailing median 105.0 MB/s",
      "summary": "dip 3.4 MB/s against a median of 105.0 MB/s for 12.0 s "
                 "on sdb (usb 4-1)",
      "evidence": [], "opcode": None, "lba": None, "mbps": 3.4,
      "median_mbps": 105.0, "secs": 12.0, "type": "incident",
      "source": "recorder", "usb": "4-1", "scsi": "3:0:0:0", "bus": 4,
      "devnum": 3})
out.close()
json.dump({"format": "usbtrail-recording", "format_version": 1,
           "kernel": {"release": "6.12.0-test"}, "started_t": T0,
           "trace_source": "module", "seconds": SECS, "complete": True,
           "stopped_by": "duration"}, open(d + "/meta.json", "w"))
PY
lines=$(wc -l <"$rec/events.jsonl")
echo "ok: a recording of 600 s: $lines lines, $(wc -c <"$rec/events.jsonl") bytes"

start=$(date +%s)
"$bin" report "$rec" >"$out/report.out" 2>"$out/report.err" ||
	fail "usbtrail report: $(cat "$out/report.err")"
"$bin" report --timeline "$rec" -o "$work/t.svg" >/dev/null \
	2>"$out/timeline.err" || fail "report --timeline: $(cat "$out/timeline.err")"
secs=$(($(date +%s) - start))
cp "$rec/report.txt" "$out/"
html=$(wc -c <"$rec/report.html")
svg=$(wc -c <"$work/t.svg")
[ "$html" -lt 1048576 ] || fail "report.html is $html bytes, 1 MiB or more"
[ "$svg" -lt 1048576 ] || fail "timeline.svg is $svg bytes, 1 MiB or more"
echo "ok: report.html $html bytes, timeline.svg $svg bytes (both in ${secs} s)"

python3 - "$rec/report.html" "$work/t.svg" <<'PY' || fail "the lanes are not all there"
import re, sys
for path in sys.argv[1:]:
    s = open(path).read()
    for lane in ("throughput", "latency", "inflight", "xhci", "incidents",
                 "markers"):
        assert s.count("<g class='lane-%s'>" % lane) == 1, (path, lane)
    # the commands' latencies are binned: one path, at most a dot a column
    lat = re.search(r"<path class='latency'[^>]* d='([^']*)'", s).group(1)
    assert 0 < lat.count("M") <= 880, lat.count("M")
    # the dip's 300 ms commands are there, among thousands of 2-12 ms
    assert "streams 0x04 1-4" in s, "no stream ids"
    # the band of extremes reaches down to the dip's 3.4 MB/s
    assert "<path class='throughput-range'" in s
print("ok: six lanes in report.html and timeline.svg, latency binned")
PY
grep -q "why: no error anywhere, but commands took up to 3[0-9][0-9] ms against a normal p99 of [0-9.]* ms: the drive itself slowed: cache full, SMR rewrite or heat" \
	"$rec/report.txt" ||
	fail "report.txt: the dip is not explained as the drive slowing: $(grep -A2 ' dip ' "$rec/report.txt" | head -n 4)"
echo "ok: the dip: $(grep -m1 'why: ' "$rec/report.txt" | sed 's/^ *//')"
