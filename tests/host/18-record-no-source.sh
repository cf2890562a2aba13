#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record without its event sources (record-ns.inc: no module,
# tracefs or usbmon; /dev/kmsg unreadable to nobody).  None opens: exit
# status 3, one line that names what each source needs, COMMAND not run,
# no directory left that record made, one that was there kept.  Some
# open (root: the kernel log): the recording goes on, the others named
# once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/record-ns.inc"

# first_line_has NAME TEXT...: the first line of NAME.err holds each TEXT
first_line_has() {
	f=$out/$1.err
	shift
	for t in "$@"; do
		head -n 1 "$f" | grep -qF -- "$t" ||
			fail "first line lacks '$t': $(head -n 1 "$f")"
	done
}

# lines NAME: how many lines NAME.err has
lines() {
	wc -l <"$out/$1.err" | tr -d ' '
}

# 1. as nobody, nothing opens
KMSG=unreadable
record none nobody -o "$area/new" -- touch "$area/ran"
check "exit status, no source" "$rc" 3
check "lines on stderr" "$(lines none)" 1
first_line_has none "usbtrail record: no event source could be opened: " \
	"the module needs root and usbtrail.ko loaded" "make module" \
	"tracefs needs root and mount -t tracefs nodev /sys/kernel/tracing" \
	"the kernel log needs " "usbmon needs root and modprobe usbmon"
if [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" = 1 ]; then
	first_line_has none "root or CAP_SYSLOG" "dmesg_restrict"
else
	first_line_has none "read access to /dev/kmsg (root)"
fi
[ -e "$area/new" ] && fail "record left $area/new: $(ls -la "$area/new")"
[ -e "$area/ran" ] && fail "COMMAND ran though nothing was recorded"
echo "ok: nothing made, COMMAND not run"

# the same with --duration (no COMMAND), and with --no-pcap: usbmon not
# tried, not named
record none-pcap nobody -o "$area/new" --duration 1 --no-pcap
check "exit status, no source, --no-pcap" "$rc" 3
check "lines on stderr, --no-pcap" "$(lines none-pcap)" 1
grep -q usbmon "$out/none-pcap.err" && fail "usbmon named under --no-pcap"
[ -e "$area/new" ] && fail "record left $area/new"

# 2. a directory that was there, empty or not, is left as it was
mkdir "$area/pre" "$area/full"
echo mine >"$area/full/notes.txt"
chown 65534:65534 "$area/pre" "$area/full" "$area/full/notes.txt"
record pre nobody -o "$area/pre" --duration 1
check "exit status, existing DIR" "$rc" 3
[ -d "$area/pre" ] || fail "record removed the empty directory it did not make"
[ -z "$(ls -A "$area/pre")" ] || fail "record left files: $(ls -A "$area/pre")"
record full nobody -o "$area/full" --duration 1
check "exit status, existing DIR with a file" "$rc" 3
check "the user's file" "$(cat "$area/full/notes.txt")" mine
check "files in it" "$(ls -A "$area/full")" notes.txt
echo "ok: existing directories kept as they were"

# 3. a source named by --source that does not open: status 3, that one
record named nobody -o "$area/new" --source tracefs --duration 1
check "exit status, --source tracefs" "$rc" 3
check "lines on stderr, --source tracefs" "$(lines named)" 1
first_line_has named "usbtrail record: --source tracefs: tracefs needs root and mount -t tracefs nodev /sys/kernel/tracing"
[ -e "$area/new" ] && fail "record left $area/new"

# 4. as root the kernel log opens: it records, and says once what is
# missing and why; not "needs root", not the kernel log
KMSG=real
record some root -q -o "$area/some" -- true
[ "$rc" = 3 ] && skip "/dev/kmsg cannot be read here even as root"
check "exit status, the kernel log only" "$rc" 0
grep -q '^usbtrail record: recording into ' "$out/some.err" ||
	fail "no 'recording into' line"
check "'recording without' lines" \
	"$(grep -c '^usbtrail record: recording without ' "$out/some.err")" 1
grep -qF "usbtrail record: recording without the kernel's trace events and usbmon: the module needs usbtrail.ko loaded (insmod usbtrail.ko, built by make module); tracefs needs mount -t tracefs nodev /sys/kernel/tracing; usbmon needs modprobe usbmon" \
	"$out/some.err" || fail "not the line on what is missing"
check "lines naming tracefs" "$(grep -c tracefs "$out/some.err")" 1
check "lines naming usbmon" "$(grep -c usbmon "$out/some.err")" 1
grep -qi 'kernel log\|kmsg\|needs root' "$out/some.err" &&
	fail "a source that opened, or root, is named"
python3 - "$area/some/meta.json" <<'PY' || fail "meta.json's notes"
import json, sys
notes = json.load(open(sys.argv[1]))["notes"]
print("notes:", notes)
assert any(n.startswith("no kernel trace events: the module needs") for n in notes)
assert any(n.startswith("no usbmon capture: usbmon needs modprobe") for n in notes)
assert not any("kernel log" in n for n in notes)
PY
echo "ok: the kernel log alone: recorded, the rest named once"
