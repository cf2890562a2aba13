#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail analyze DIR reads a recording as usbtrail report does: the same
# incidents in the same order (the throughput dip included), usbmon events
# with URB ids above INT64_MAX read, not malformed; an events.jsonl named
# by itself the same; --rederive makes them again from the kernel lines.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || skip "no jq (tools/deps.sh installs it)"
cp -r "$top/tests/fixtures/recordings/uas-medium-stall" "$work/rec"
rec=$work/rec
big=$(jq -r 'select(.type == "usbmon") | .urb' "$rec/events.jsonl" |
	awk '$1 > 9223372036854775807' | wc -l)
[ "$big" -gt 0 ] || fail "the fixture has no URB id above INT64_MAX"

"$bin" report "$rec" -o "$work/r.html" >/dev/null 2>"$out/report.err" ||
	fail "report: $(cat "$out/report.err")"
awk '/^#[0-9]+ / { print $4 }' "$work/r.txt" >"$out/report.kinds"
[ -s "$out/report.kinds" ] || fail "report.txt lists no incident"

"$bin" analyze --json "$rec" >"$out/analyze.jsonl" 2>"$out/analyze.err"
rc=$?
[ "$rc" = 3 ] || fail "analyze exited $rc: $(cat "$out/analyze.err")"
jq -r 'select(.type == "incident") | .kind' "$out/analyze.jsonl" \
	>"$out/analyze.kinds"
diff -u "$out/report.kinds" "$out/analyze.kinds" ||
	fail "analyze DIR and report name different incidents"
grep -qx dip "$out/analyze.kinds" || fail "analyze DIR: no dip"
echo "ok: analyze DIR names report's $(wc -l <"$out/report.kinds") incidents, dip included"

m=$(jq -s '.[-1].malformed' "$out/analyze.jsonl")
[ "$m" = 0 ] || fail "analyze DIR: $m malformed lines"
echo "ok: $big usbmon events with 64-bit URB ids, 0 malformed"

"$bin" analyze --json "$rec/events.jsonl" 2>/dev/null |
	jq -r 'select(.type == "incident") | .kind' >"$out/file.kinds"
diff -u "$out/report.kinds" "$out/file.kinds" ||
	fail "analyze events.jsonl differs from analyze DIR"
echo "ok: analyze DIR/events.jsonl the same"

# the text form names the dip with its figures
"$bin" analyze "$rec" >"$out/analyze.txt" 2>/dev/null
grep -Eq ' dip +0\.2 MB/s against a median of 99\.6 MB/s for 18\.1 s$' \
	"$out/analyze.txt" || fail "analyze text: no dip with its figures"
grep -Eq '^14 incidents in 860 lines \(25 kernel, .* 0 malformed\)$' \
	"$out/analyze.txt" || fail "analyze text: $(tail -n 2 "$out/analyze.txt")"
echo "ok: analyze DIR text: the dip and its figures, the counts"

# --rederive: made again from the kernel lines and trace records (this
# fixture keeps few trace records, so only what the kernel log says)
"$bin" analyze --json --rederive "$rec" 2>/dev/null |
	jq -r 'select(.type == "incident") | .kind' >"$out/rederive.kinds"
for k in sense abort reset recovered; do
	grep -qx "$k" "$out/rederive.kinds" || fail "--rederive: no $k"
done
echo "ok: --rederive makes the log's incidents again"
