#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record leaves valid files when stopped by Ctrl-C, by SIGTERM
# (and stops its command), also when SIGTERM comes while it sets up its
# tracefs source (nothing left behind in tracefs), and when its output
# disk fills (a clear error, what was written kept).
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed"
rm -rf "$out/int" "$out/term" "$out/setup" "$out/full"
tb --devices uas --timeout 300 -- /tests/record-robust.sh \
	>"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"

# valid DIR WHAT: every line of events.jsonl is a JSON object
valid() {
	[ -s "$1/events.jsonl" ] || fail "$2: no events.jsonl"
	jq -e 'type == "object" and has("t") and has("type")' \
		"$1/events.jsonl" >/dev/null ||
		fail "$2: events.jsonl has a line that is not a whole event"
	tail -c 1 "$1/events.jsonl" | od -c | grep -q '\\n' ||
		fail "$2: events.jsonl does not end with a whole line"
	jq -e . "$1/meta.json" >/dev/null || fail "$2: meta.json is not JSON"
	echo "ok: $2: $(wc -l <"$1/events.jsonl") whole events, meta.json valid"
}

expect "$out/stdout.txt" '^int exit 0$'
valid "$out/int" "SIGINT"
jq -e '.complete and .stopped_by == "Interrupt" and .events.trace > 0' \
	"$out/int/meta.json" >/dev/null ||
	fail "SIGINT: meta.json does not say it stopped on SIGINT after events"
echo "ok: SIGINT: meta.json complete, stopped_by Interrupt"

# COMMAND was stopped by the SIGTERM the recorder passed on: 128 + 15
expect "$out/stdout.txt" '^term exit 143$'
valid "$out/term" "SIGTERM"
jq -e '.complete and .stopped_by == "Terminated" and .command_signal == 15' \
	"$out/term/meta.json" >/dev/null ||
	fail "SIGTERM: meta.json does not show the command stopped by SIGTERM"
echo "ok: SIGTERM: the command got SIGTERM, meta.json complete"

# SIGTERM during the set-up: held until the recording ran, then the same
# clean stop (its command, started, stopped by it); tracefs as before
expect "$out/stdout.txt" '^setup exit 143$'
valid "$out/setup" "SIGTERM while setting up"
jq -e '.complete and .stopped_by == "Terminated" and
	.trace_source == "tracefs"' "$out/setup/meta.json" >/dev/null ||
	fail "SIGTERM while setting up: meta.json not complete, or not tracefs"
if grep -q usbtrail "$out/setup.instances"; then
	fail "SIGTERM while setting up left a tracefs instance: $(cat "$out/setup.instances")"
fi
[ "$(cat "$out/setup.kprobes")" = 0 ] ||
	fail "SIGTERM while setting up left $(cat "$out/setup.kprobes") kprobes"
echo "ok: SIGTERM while setting up: stopped cleanly, nothing left in tracefs"

expect "$out/stdout.txt" '^full exit 1$'
expect "$out/full.err" 'writing /mnt/small/rec/(events.jsonl|capture.pcapng): No space left on device; recording stopped, what was written is kept'
valid "$out/full" "full disk"
# the capture too holds whole blocks only: export reads it to its end
"${USBTRAIL:-$top/userspace/usbtrail}" export --jsonl "$out/full" \
	>"$out/full-all.jsonl" 2>"$out/full-export.err" ||
	fail "full disk: export: $(cat "$out/full-export.err")"
echo "ok: full disk: capture.pcapng whole, $(grep -c '"type":"trace"' "$out/full-all.jsonl") trace records"
# the final meta.json fitted in the room the first one reserved
jq -e '.complete and .stopped_by == "error" and .events.trace > 0' \
	"$out/full/meta.json" >/dev/null ||
	fail "full disk: meta.json lacks the recording's end and counts"
echo "ok: full disk: meta.json complete, with the counts"
# what fitted was kept, whole: more than the first few events
kept=$(($(wc -c <"$out/full/events.jsonl") + $(wc -c <"$out/full/capture.pcapng")))
[ "$kept" -gt 65536 ] ||
	fail "full disk: the recording kept less than 64 KiB of a 192 KiB disk"
echo "ok: full disk: $kept bytes kept"
