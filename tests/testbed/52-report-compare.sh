#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail report --compare over the recordings users make by hand into
# tables (issue 17): one guest with a UAS and a BOT enclosure on xHCI, a
# UAS enclosure behind EHCI (480 Mbit/s, no streams) and a BOT disk behind
# UHCI (12 Mbit/s); in it, one recording of a short usbtrail stress
# --profile cdm per disk (tests/testbed/guest/compare-record.sh).  On the
# host the table has a row each with the link speed, the driver, uas
# true/false and the verdict's reason, every CrystalDiskMark figure and
# the SCSI latency, and the 12 Mbit/s disk is the slowest; Markdown and
# HTML say the same, the HTML links the report made beside it; a bundle
# of a recording gives its row again.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed to read the CSV"
bin=$top/userspace/usbtrail
devs="uas bot uas-hs uhci"
for d in $devs; do
	rm -rf "$out/rec-$d"
done
# shellcheck disable=SC2086 # the device names, split on purpose
tb --devices uas,bot,uas-hs,uhci --timeout 600 -- \
	sh /tests/compare-record.sh $devs >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed"
recs=
for d in $devs; do
	expect "$out/stdout.txt" "^record $d exit 0$"
	recs="$recs $out/rec-$d"
done

# one recording has its report: the HTML links it, the others say how
"$bin" report "$out/rec-uas" >/dev/null 2>&1 || fail "usbtrail report rec-uas"
"$bin" report "$out/rec-uhci" --bundle "$out/uhci.tar.gz" >/dev/null 2>&1 ||
	fail "usbtrail report --bundle rec-uhci"
# shellcheck disable=SC2086 # the recordings, split on purpose
"$bin" report --compare $recs --format csv >"$out/compare.csv" \
	2>"$out/compare.err" || fail "report --compare: $(cat "$out/compare.err")"
# shellcheck disable=SC2086
"$bin" report --compare $recs >"$out/compare.md" 2>>"$out/compare.err" ||
	fail "report --compare (md): $(cat "$out/compare.err")"
# shellcheck disable=SC2086
"$bin" report --compare $recs -o "$out/compare.html" >/dev/null \
	2>>"$out/compare.err" || fail "report --compare -o compare.html"
"$bin" report --compare "$out/rec-uhci" "$out/uhci.tar.gz" --format csv \
	>"$out/bundle.csv" 2>>"$out/compare.err" ||
	fail "report --compare with a bundle: $(cat "$out/compare.err")"
cat "$out/compare.csv"

python3 - "$out/compare.csv" "$out/bundle.csv" <<'EOF' || fail "the table is wrong"
import csv
import sys

want_header = ("disk,usb,vid_pid,bridge,host_controller,link_mbps,driver,"
               "uas,uas_reason,seq_read_mbs,seq_write_mbs,rnd4k_q1_read_mbs,"
               "rnd4k_q1_write_mbs,rnd4k_q32_read_mbs,rnd4k_q32_write_mbs,"
               "lat_p99_ms,dips,incidents,host").split(",")
figures = want_header[9:16]
want = {  # recording: link, driver, uas, reason
    "rec-uas": ("5000", "uas", "true", "active"),
    "rec-bot": ("5000", "usb-storage", "false", "no-uas-altsetting"),
    "rec-uas-hs": ("480", "uas", "true", "active"),
    "rec-uhci": ("12", "usb-storage", "false", "no-uas-altsetting"),
}
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
bad = []
if rows[0][:len(want_header)] != want_header:
    bad.append("header %r" % rows[0])
head = rows[0]
rows = [dict(zip(head, r)) for r in rows[1:]]
if len(rows) != 4:
    bad.append("%d rows, not 4" % len(rows))
for r in rows:
    name = r["recording"].rsplit("/", 1)[-1]
    got = (r["link_mbps"], r["driver"], r["uas"], r["uas_reason"])
    if got != want.get(name):
        bad.append("%s: %r, not %r" % (name, got, want.get(name)))
    for k in figures:
        if not r[k] or float(r[k]) <= 0:
            bad.append("%s: %s is %r" % (name, k, r[k]))
    if not r["host_controller"] or not r["bridge"]:
        bad.append("%s: no host controller or bridge" % name)
    print("ok: %s %s %s %s uas=%s %s seq %s/%s MB/s, 4K Q1 %s/%s, "
          "Q32 %s/%s, p99 %s ms" % (name, r["disk"], r["link_mbps"],
                                     r["driver"], r["uas"], r["uas_reason"],
                                     r["seq_read_mbs"], r["seq_write_mbs"],
                                     r["rnd4k_q1_read_mbs"],
                                     r["rnd4k_q1_write_mbs"],
                                     r["rnd4k_q32_read_mbs"],
                                     r["rnd4k_q32_write_mbs"],
                                     r["lat_p99_ms"]))
by = {r["recording"].rsplit("/", 1)[-1]: r for r in rows}
for k in ("seq_read_mbs", "seq_write_mbs"):
    slow = min(by, key=lambda n: float(by[n][k]) if by[n][k] else 1e9)
    if slow != "rec-uhci":
        bad.append("%s: the slowest is %s, not the 12 Mbit/s disk" % (k, slow))
# the bundle of rec-uhci gives the row of the directory (but the latency,
# which a bundle's trace records cut around incidents may not give)
with open(sys.argv[2], newline="") as f:
    b = list(csv.DictReader(f))
same = [k for k in want_header if k != "lat_p99_ms"]
if len(b) != 2 or any(b[0][k] != b[1][k] for k in same):
    bad.append("bundle row differs: %r" % b)
for m in bad:
    print("FAIL: " + m)
sys.exit(1 if bad else 0)
EOF
echo "ok: the bundle of rec-uhci gives the row of its directory"

# every CrystalDiskMark figure of the table is the one stress printed: the
# best pass, one decimal, never the warm-up
python3 - "$out/compare.csv" "$out" <<'EOF' || fail "the table's figures are not stress's"
import csv
import json
import sys

cols = {"SEQ1M Q8T1": "seq", "RND4K Q1T1": "rnd4k_q1",
        "RND4K Q32T1": "rnd4k_q32"}
bad = []
with open(sys.argv[1], newline="") as f:
    for r in csv.DictReader(f):
        name = r["recording"].rsplit("/", 1)[-1][4:]
        j = json.load(open("%s/stress-%s.json" % (sys.argv[2], name)))
        for t in j["cdm"]["tests"]:
            c = cols.get(t["test"])
            if not c:
                continue
            for d in ("read", "write"):
                want = "%.1f" % t[d]["mbps"]
                got = r["%s_%s_mbs" % (c, d)]
                if got != want:
                    bad.append("%s %s %s: %s, stress printed %s" %
                               (name, t["test"], d, got, want))
        print("ok: %s: the figures stress printed" % name)
for m in bad:
    print("FAIL: " + m)
sys.exit(1 if bad else 0)
EOF

# Markdown: a GitHub table, header, separator and a line a row
n=$(grep -c '^| ' "$out/compare.md")
[ "$n" -eq 6 ] || fail "compare.md: $n table lines, not 6"
expect "$out/compare.md" '^\| --- \| --- \| --- \|'
expect "$out/compare.md" '\| sd[a-z] \| 4-1 \| 46f4:0001 \| .* \| 12 \| usb-storage \| false \| no-uas-altsetting \|'
# HTML: orderings, charts, a line per disk, links or the command
h=$out/compare.html
expect "$h" "id='by-seq_read_mbs-rev'"
expect "$h" "<h3 id='chart-rnd4k_q32_write_mbs'>"
expect "$h" "<symbol id='tp-3'"
expect "$h" "href='rec-uas/report.html#incidents'"
expect "$h" "none yet: <code>usbtrail report .*rec-bot</code>"
if grep -q '<script' "$h"; then
	fail "compare.html has a script"
fi
