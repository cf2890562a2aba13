#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A fleet's logs: three test-bed machines (pi-a, pi-b, nas-c: a host name
# and a machine id each) run usbtrail watch under journald, each meeting a
# fault of its own (a stall, a medium error, an unplug); their journals,
# exported as systemd-journal-upload sends them, are merged by the real
# systemd-journal-remote into one directory, as a log server keeps them.
# journalctl -D answers per kind with each host's entries, and usbtrail
# analyze --journal -D names each host's incidents under its own name.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || skip "jq is not installed"
[ -x /lib/systemd/systemd-journald ] || skip "no systemd-journald to pack"
remote=/lib/systemd/systemd-journal-remote
[ -x "$remote" ] || skip "no $remote (tools/deps.sh installs it)"
bin=$top/userspace/usbtrail

# host fault: the three machines
set -- pi-a stall@9+6 pi-b medium-not-present@10240 nas-c unplug@10+2
d=$out/remote
rm -rf "$d"
mkdir -p "$d"
while [ $# -ge 2 ]; do
	h=$1 fault=$2
	shift 2
	mkdir -p "$out/$h"
	# shellcheck disable=SC2016 # expanded in the guest
	"$top/tools/testbed/run" --out "$out/$h" --journald --devices uas \
		--append "testbed.hostname=$h" --fault "$fault" --timeout 240 \
		-- sh -c 'sh /tests/fleet-host.sh $TESTBED_UAS' \
		>"$out/$h/stdout.txt" 2>&1 || fail "guest $h failed"
	[ "$(cat "$out/$h/fleet/watch.status")" = 0 ] ||
		fail "watch on $h: $(cat "$out/$h/fleet/watch.err")"
	# as a log server's journal-remote writes what a host uploads
	"$remote" --output="$d/remote-$h.journal" \
		"$out/$h/fleet/journal.export" >"$out/$h/remote.log" 2>&1 ||
		fail "systemd-journal-remote on $h's export: $(tail -n 3 "$out/$h/remote.log")"
	echo "ok: $h's journal merged ($(grep -c '^__CURSOR=' \
		"$out/$h/fleet/journal.export") entries)"
done

hosts=$(journalctl -D "$d" -F _HOSTNAME | sort | tr '\n' ' ')
check() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
	echo "ok: $1: $2"
}
check "hosts in the merged journal" "$hosts" "nas-c pi-a pi-b "
ids=$(journalctl -D "$d" -F _MACHINE_ID | sort -u | wc -l)
check "machine ids" "$ids" 3

# journalctl -D DIR USBTRAIL_KIND=...: each kind from the host that had it
kind_hosts() {
	journalctl -D "$d" -o json "$@" |
		jq -r '._HOSTNAME' | sort -u | tr '\n' ' '
}
check "hosts with USBTRAIL_KIND=reset" "$(kind_hosts USBTRAIL_KIND=reset)" "pi-a "
# (a disk plugged back says "Power on, reset" in a sense of its own)
check "hosts with a medium-not-present sense" \
	"$(kind_hosts USBTRAIL_KIND=sense USBTRAIL_ASC=58)" "pi-b "
check "hosts with USBTRAIL_KIND=disconnect" \
	"$(kind_hosts USBTRAIL_KIND=disconnect)" "nas-c "

# usbtrail analyze --journal -D DIR: each host apart, under its name
"$bin" analyze --journal -D "$d" >"$out/analyze.txt" 2>"$out/analyze.err"
rc=$?
[ $rc = 3 ] || fail "analyze -k -D: exit $rc: $(cat "$out/analyze.err")"
for h in nas-c pi-a pi-b; do
	id=$(journalctl -D "$d" -o json "_HOSTNAME=$h" -n 1 | jq -r ._MACHINE_ID)
	expect "$out/analyze.txt" "^== host $h \\(machine $id\\)$"
done
expect_order "$out/analyze.txt" '^== host nas-c ' ' disconnect ' \
	'^== host pi-a ' ' reset ' '^== host pi-b ' 'Medium not present'
# each block has its own incidents only
awk '/^== host / { h = $3 } / (timeout|abort) / && h != "pi-a" ||
     /Medium not present/ && h != "pi-b" || / disconnect / && h != "nas-c" {
	print h ": " $0; bad = 1 } END { exit bad }' "$out/analyze.txt" ||
	fail "an incident is under another host's heading"
"$bin" analyze --journal -D "$d" --json >"$out/analyze.json" 2>>"$out/analyze.err"
for h in nas-c pi-a pi-b; do
	id=$(journalctl -D "$d" -o json "_HOSTNAME=$h" -n 1 | jq -r ._MACHINE_ID)
	n=$(jq -s --arg h "$h" --arg id "$id" 'map(select(.hostname == $h and
		.machine_id == $id and (.summary | not))) | length' "$out/analyze.json")
	[ "$n" -ge 1 ] || fail "analyze --json names no incident of $h ($id)"
	jq -se --arg h "$h" 'map(select(.summary and .hostname == $h)) | length == 1' \
		"$out/analyze.json" >/dev/null || fail "no summary of $h"
	echo "ok: analyze --json: $n incidents of $h, and its summary"
done
