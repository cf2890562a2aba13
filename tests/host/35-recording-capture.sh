#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The trace records of a recording live in capture.pcapng (issue 14): the
# recorder, fed the module records of a real test-bed recording
# (tests/tools/utreplay, "both": the recording and every event as a line
# from the same run), writes events.jsonl without them and the capture
# with them.  Then:
#   - usbtrail export --jsonl DIR gives back every line the recorder made,
#     byte for byte, and a recording of usbtrail 0.2 as its events.jsonl;
#   - analyze and report read the records from the capture: the same
#     incidents, records and report as the all-JSON recording;
#   - Wireshark (tshark with tools/wireshark/usbtrail.lua) dissects every
#     record as export names it: type, sector, completion code, sense;
#   - the bundle keeps the records, and report --compare reads them back;
#   - a capture cut short: export and analyze say so and keep the rest.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || skip "no jq (tools/deps.sh installs it)"
replay=$top/userspace/build/tools/utreplay
[ -x "$replay" ] || skip "no $replay (make -C userspace tools)"
lua=$top/build/wireshark/usbtrail.lua
[ -f "$lua" ] || fail "no $lua (make wireshark)"
fix=$top/tests/fixtures/recordings/uas-medium-stall

# --- a recording of usbtrail 0.2 comes out as it is
"$bin" export --jsonl "$fix" >"$out/old.jsonl" 2>"$out/old.err" ||
	fail "export of a 0.2 recording: $(cat "$out/old.err")"
cmp -s "$out/old.jsonl" "$fix/events.jsonl" ||
	fail "export of a 0.2 recording is not its events.jsonl"
[ ! -s "$out/old.err" ] || fail "export of a 0.2 recording said: $(cat "$out/old.err")"
echo "ok: a 0.2 recording exports as its events.jsonl ($(wc -l <"$out/old.jsonl") lines)"

# --- the recorder's split, and export's merge
rec=$work/rec
mkdir "$rec"
"$replay" "$fix/events.jsonl" 1 "$rec" both >"$out/replay.out" 2>&1 ||
	fail "utreplay: $(tail -n 3 "$out/replay.out")"
cp "$fix/meta.json" "$rec/meta.json"
# as the recorder writes it now: format 2
sed -i 's/"format_version":1/"format_version":2/' "$rec/meta.json"
grep -q '"format_version":2' "$rec/meta.json" ||
	fail "the fixture's meta.json has no format_version 1 to change"
ntrace=$(grep -c '"type":"trace"' "$rec/all.jsonl")
[ "$ntrace" -gt 100 ] || fail "the replay made $ntrace trace records"
grep -q '"type":"trace"' "$rec/events.jsonl" &&
	fail "events.jsonl holds trace records: they belong in capture.pcapng"
[ "$(wc -l <"$rec/events.jsonl")" -eq \
  "$(($(wc -l <"$rec/all.jsonl") - ntrace))" ] ||
	fail "events.jsonl lacks events other than trace records"
echo "ok: events.jsonl has $(wc -l <"$rec/events.jsonl") lines, no trace record; $(wc -c <"$rec/capture.pcapng") bytes of capture"

"$bin" export --jsonl "$rec" >"$out/export.jsonl" 2>"$out/export.err" ||
	fail "export: $(cat "$out/export.err")"
cmp "$out/export.jsonl" "$rec/all.jsonl" ||
	fail "export --jsonl does not give back the recorder's lines"
"$bin" export --jsonl -o "$work/e.jsonl" "$rec" || fail "export -o failed"
cmp -s "$work/e.jsonl" "$rec/all.jsonl" || fail "export -o FILE differs"
"$bin" export --jsonl -o "$work/e.jsonl" "$rec" 2>"$out/exists.err" &&
	fail "export -o wrote over an existing file"
grep -q 'File exists (export does not overwrite a file)' "$out/exists.err" ||
	fail "export -o EXISTING: $(cat "$out/exists.err")"
cmp -s "$work/e.jsonl" "$rec/all.jsonl" || fail "export -o EXISTING changed it"
echo "ok: export --jsonl gives back all $(wc -l <"$rec/all.jsonl") lines byte for byte; -o never writes over a file"

# --- analyze and report: the same from the capture as from all-JSON
old=$work/old
mkdir "$old"
cp "$rec/all.jsonl" "$old/events.jsonl"
cp "$fix/meta.json" "$old/meta.json"
"$bin" analyze --json "$rec" >"$out/an-new.jsonl" 2>/dev/null
"$bin" analyze --json "$old" >"$out/an-old.jsonl" 2>/dev/null
[ "$(grep -c '"type":"incident"' "$out/an-new.jsonl")" -gt 5 ] ||
	fail "analyze DIR found few incidents: $(head -c 300 "$out/an-new.jsonl")"
diff -u "$out/an-old.jsonl" "$out/an-new.jsonl" >"$out/an.diff" ||
	fail "analyze differs between the capture and all-JSON: $(head -n 20 "$out/an.diff")"
"$bin" report "$rec" -o "$work/new.html" >/dev/null 2>&1 || fail "report (capture)"
"$bin" report "$old" -o "$work/old.html" >/dev/null 2>&1 || fail "report (all-JSON)"
grep -q "lines and $ntrace packets of capture.pcapng: .* $ntrace trace records" \
	"$work/new.txt" || fail "report.txt does not count the capture's records: $(sed -n 3p "$work/new.txt")"
# the same report but its first line (the directory) and the count line
diff -u "$work/old.txt" "$work/new.txt" | grep '^[-+][^-+]' |
	grep -v 'usbtrail report of\| lines' >"$out/report.diff"
[ ! -s "$out/report.diff" ] ||
	fail "report.txt differs: $(head -n 10 "$out/report.diff")"
echo "ok: analyze and report read the $ntrace records from the capture: $(grep -c '"type":"incident"' "$out/an-new.jsonl") incidents, the same report"

# --- Wireshark: every record as export names it
if command -v tshark >/dev/null; then
	tshark -X lua_script:"$lua" -r "$rec/capture.pcapng" -Y usbtrail \
		-T fields -E separator=' ' -e usbtrail.id -e _ws.col.Info \
		>"$out/tshark.txt" 2>"$out/tshark.err" ||
		fail "tshark: $(cat "$out/tshark.err")"
	grep -v 'Running as user' "$out/tshark.err" | grep . &&
		fail "tshark said: $(cat "$out/tshark.err")"
	awk '{ print $1, $2 }' "$out/tshark.txt" >"$out/ws-types.txt"
	jq -r 'select(.type == "trace") | "\(.id) \(.rec)"' "$rec/all.jsonl" \
		>"$out/export-types.txt"
	diff -u "$out/export-types.txt" "$out/ws-types.txt" >"$out/types.diff" ||
		fail "Wireshark's record types differ from export's: $(head "$out/types.diff")"
	# fields: a block request's sector, a transfer's completion code, the
	# sense of the medium-not-present record
	tshark -X lua_script:"$lua" -r "$rec/capture.pcapng" \
		-Y 'usbtrail.rec.type == 17' -T fields -e usbtrail.id \
		-e usbtrail.blk.sector 2>/dev/null | tr '\t' ' ' >"$out/ws-blk.txt"
	jq -r 'select(.rec == "blk-issue") | "\(.id) \(.text | capture("sector=(?<s>[0-9]+)").s)"' \
		"$rec/all.jsonl" >"$out/ex-blk.txt"
	[ -s "$out/ex-blk.txt" ] || fail "no blk-issue record"
	cmp -s "$out/ex-blk.txt" "$out/ws-blk.txt" || fail "Wireshark's sectors differ"
	tshark -X lua_script:"$lua" -r "$rec/capture.pcapng" \
		-Y 'usbtrail.rec.type == 3' -T fields -e usbtrail.id \
		-e usbtrail.xhci.cc 2>/dev/null | tr '\t' ' ' >"$out/ws-cc.txt"
	jq -r 'select(.rec == "xhci-transfer") | "\(.id) \(.text | capture("cc=(?<c>[0-9]+)").c)"' \
		"$rec/all.jsonl" >"$out/ex-cc.txt"
	cmp -s "$out/ex-cc.txt" "$out/ws-cc.txt" || fail "Wireshark's completion codes differ"
	tshark -X lua_script:"$lua" -r "$rec/capture.pcapng" \
		-Y 'usbtrail.sense.key == 2 && usbtrail.sense.asc == 0x3a' \
		-T fields -e _ws.col.Info 2>/dev/null >"$out/ws-sense.txt"
	grep -q '^scsi-sense 2/3a/00 Not Ready Medium not present' \
		"$out/ws-sense.txt" || fail "Wireshark: no medium-not-present sense: $(cat "$out/ws-sense.txt")"
	tshark -X lua_script:"$lua" -r "$rec/capture.pcapng" -V \
		>"$out/tshark-V.txt" 2>&1
	grep -q 'Lua Error\|Malformed' "$out/tshark-V.txt" &&
		fail "tshark -V: $(grep -m 3 'Lua Error\|Malformed' "$out/tshark-V.txt")"
	echo "ok: Wireshark dissects all $(wc -l <"$out/ws-types.txt") records as export names them (types, $(wc -l <"$out/ws-blk.txt") sectors, $(wc -l <"$out/ws-cc.txt") completion codes, the sense)"
else
	echo "SKIP (part): no tshark here: the dissector is not checked"
fi

# --- the bundle keeps the records; report --compare reads them back
"$bin" report "$rec" -o "$work/b.html" --bundle "$work/b.tar.gz" \
	--max-size 4MiB >/dev/null 2>&1 || fail "report --bundle"
mkdir "$work/b"
tar -xzf "$work/b.tar.gz" -C "$work/b" || fail "the bundle does not unpack"
cap=$(find "$work/b" -name capture.pcapng)
[ -n "$cap" ] || fail "the bundle has no capture.pcapng"
bdir=$(dirname "$cap")
"$bin" export --jsonl "$bdir" >"$out/bundle.jsonl" 2>"$out/bundle.err" ||
	fail "export of the bundle's recording: $(cat "$out/bundle.err")"
[ "$(grep -c '"type":"trace"' "$out/bundle.jsonl")" -eq "$ntrace" ] ||
	fail "the bundle keeps $(grep -c '"type":"trace"' "$out/bundle.jsonl") of $ntrace records"
"$bin" report --compare "$work/b.tar.gz" --format csv >"$out/compare.csv" \
	2>"$out/compare.err" || fail "report --compare BUNDLE: $(cat "$out/compare.err")"
grep -q 'incomplete\|trace records' "$out/compare.err" &&
	fail "report --compare misses the bundle's records: $(cat "$out/compare.err")"
echo "ok: the bundle keeps all $ntrace records; report --compare reads the bundle"

# --- a capture cut short (a recorder killed in a write)
cut=$work/cut
cp -r "$rec" "$cut"
size=$(wc -c <"$cut/capture.pcapng")
truncate -s $((size / 2 + 7)) "$cut/capture.pcapng"
"$bin" export --jsonl "$cut" >"$out/cut.jsonl" 2>"$out/cut.err"
rc=$?
[ "$rc" = 1 ] || fail "export of a cut capture exited $rc"
grep -q 'capture.pcapng ends in a damaged block at byte' "$out/cut.err" ||
	fail "export of a cut capture said: $(cat "$out/cut.err")"
got=$(grep -c '"type":"trace"' "$out/cut.jsonl")
if [ "$got" -eq 0 ] || [ "$got" -ge "$ntrace" ]; then
	fail "export of a cut capture kept $got of $ntrace records"
fi
[ "$(grep -vc '"type":"trace"' "$out/cut.jsonl")" -eq "$(wc -l <"$rec/events.jsonl")" ] ||
	fail "export of a cut capture lost lines of events.jsonl"
"$bin" analyze "$cut" >/dev/null 2>"$out/cut-an.err"
grep -q 'ends in a damaged block' "$out/cut-an.err" ||
	fail "analyze of a cut capture said: $(cat "$out/cut-an.err")"
echo "ok: a cut capture: export keeps $got records and every line, exit 1, and says where; analyze says so"
