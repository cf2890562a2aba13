#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The journal sink against a real systemd-journald in the guest: a write
# hits a sector whose medium is "not present" while usbtrail record runs,
# and "journalctl -o json USBTRAIL_KIND=sense" returns the incident with
# its USBTRAIL_* fields.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || skip "jq is not installed"
[ -x /lib/systemd/systemd-journald ] || skip "no systemd-journald to pack"

# shellcheck disable=SC2016 # expanded in the guest
tb --journald --devices uas --fault medium-not-present@10240 --timeout 240 \
	-- sh -c 'sh /tests/journal.sh $TESTBED_UAS; basename $TESTBED_UAS >/out/disk.txt' \
	>"$out/stdout.txt" 2>&1 || fail "guest command failed"
j=$out/journal
disk=$(cat "$out/disk.txt")
expect "$out/console.log" 'testbed: journald running'
expect "$j/record.out" '^record exit [1-9]' "record (dd fails on the sector)"
expect "$out/faults.log" 'medium-not-present@10240 fired'
[ -s "$j/sense.json" ] || fail "journalctl found no USBTRAIL_KIND=sense entry"

# one entry (the first, should a retry make more) and its fields
jq -se 'length >= 1' "$j/sense.json" >/dev/null ||
	fail "sense.json is not JSON entries: $(head -c 300 "$j/sense.json")"
e=$(jq -sc '.[0]' "$j/sense.json")
printf "entry: %s\n" "$e" | cut -c1-400
field() { printf "%s\n" "$e" | jq -r --arg f "$1" '.[$f] // empty'; }
check() {
	v=$(field "$1")
	printf "%s\n" "$v" | grep -Eq -- "$2" || fail "$1 is '$v', expected /$2/"
	echo "ok: $1=$v"
}
check USBTRAIL_KIND '^sense$'
check USBTRAIL_DISK "^$disk\$"
check USBTRAIL_DEVICE "^$disk\$"
check USBTRAIL_USB_PATH '^2-1$'
check USBTRAIL_SENSE_KEY '^2$'
check USBTRAIL_ASC '^58$'
check USBTRAIL_ASCQ '^0$'
check USBTRAIL_SENSE '^02/3a/00$'
check MESSAGE "sense 02/3a/00 \\(Not Ready: Medium not present\\) on $disk"
check PRIORITY '^3$'
check SYSLOG_IDENTIFIER '^usbtrail$'
check _TRANSPORT '^journal$'
check USBTRAIL_EVENT_ID '^[0-9]+$'
# the failed write's request is part of it: its sector, no io-error beside
check USBTRAIL_SECTOR '^10240$'
check USBTRAIL_LBA '^10240$'
check USBTRAIL_RECORDING '^/out/journal/rec$'

# the same incident is in the recording, with the same id
id=$(field USBTRAIL_EVENT_ID)
# (jq 1.6: -e looks at the last input only, so count with -s)
n=$(jq -s --argjson id "$id" \
	'map(select(.id == $id and .type == "incident" and .kind == "sense"))
	 | length' "$j/rec/events.jsonl")
[ "$n" = 1 ] || fail "events.jsonl has no sense incident with id $id"
echo "ok: events.jsonl has incident $id"
# the block layer's I/O error of that write is not an entry of its own
jq -se 'map(select(.USBTRAIL_KIND == "io-error" and
	.USBTRAIL_SECTOR == "10240")) | length == 0' \
	"$j/all.json" >/dev/null ||
	fail "the failed write is in the journal twice (sense and io-error)"
echo "ok: the failed write is one entry"
