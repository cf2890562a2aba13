#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro --outputs: a finished campaign's patch, report.html and
# bundle, made from its repro.json and the recording of its first failing
# run (a recording of the test bed, tests/fixtures/recordings/
# uas-medium-stall).  The patch, against each kernel tree of
# tools/kernel-sources.conf (5.10 ... 7.3): git apply takes it, the entry
# lands in VID:PID order in the file of the driver the disk ran on
# (unusual_uas.h for uas, unusual_devs.h for usb-storage), or the flag
# joins the device's entry where the table has one; checkpatch.pl finds
# nothing; the mail holds the failure, each mitigation's runs, the kernel
# lines and the descriptors.  Without a tree: the mail and the entry.  The
# bundle holds the campaign.  Bad input: a clear error, nothing written;
# usbtrail report on the campaign says where its page is.
# The 71-repro-* guest tests make the same files from real campaigns.
. "$(dirname "$0")/lib.sh"

ksrc=${USBTRAIL_KSRC:-/var/cache/usbtrail/src}
checkpatch=/var/cache/usbtrail/checkpatch/scripts/checkpatch.pl
trees=
for d in "$ksrc"/linux-*/; do
	[ -f "$d/drivers/usb/storage/unusual_uas.h" ] && trees="$trees ${d%/}"
done
[ -n "$trees" ] || skip "no kernel trees under $ksrc (tools/deps.sh)"
[ -f "$checkpatch" ] || skip "no $checkpatch (tools/deps.sh)"
command -v git >/dev/null || skip "no git"

# campaign DIR ID DRIVER FIX: a campaign that failed on seq and was fixed
# by the quirk FIX, its first failing run the fixture recording
campaign() {
	mkdir -p "$1/runs"
	cp -r "$top/tests/fixtures/recordings/uas-medium-stall" \
		"$1/runs/002-seq-none"
	cat >"$1/repro.json" <<EOF
{ "usbtrail": "repro", "disk": "sda", "usb": "2-1", "id": "$2",
  "driver": "$3", "failed": true,
  "failure": { "kind": "sense", "step": "seq",
    "incident": "Not Ready, Medium not present on sda (usb 2-1)",
    "rate_low": 0.44, "runs_needed": 6, "recording": "runs/002-seq-none" },
  "confidence": 0.95,
  "runs": [
    { "mitigation": "none", "runs": 3, "failures": 3, "fixed": false,
      "mbps_write": 212.5, "mbps_read": 301.0, "p99_ms": 30012.0 },
    { "mitigation": "f", "runs": 1, "failures": 1, "fixed": false,
      "mbps_write": null, "mbps_read": null, "p99_ms": null,
      "applied": "driver $3" },
    { "mitigation": "$4", "runs": 6, "failures": 0, "fixed": true,
      "mbps_write": 198.25, "mbps_read": 290.5, "p99_ms": 14.5,
      "applied": "driver $3" } ],
  "fix": { "kind": "usb-storage-quirk", "value": "$2:$4", "persist": [] },
  "verdict": "fixed",
  "recordings": [
    { "recording": "runs/001-seq-none", "workload": "seq",
      "mitigation": "none", "failed": false, "kind": null,
      "incident": null, "secs": 20.5, "mbps_write": 212.5,
      "mbps_read": 301.0 },
    { "recording": "runs/002-seq-none", "workload": "seq",
      "mitigation": "none", "failed": true, "kind": "sense",
      "incident": "Not Ready <on> sda", "secs": 3.5, "mbps_write": 0,
      "mbps_read": 0 } ] }
EOF
}

# outputs DIR ARGS...: usbtrail repro --outputs DIR ARGS, status in $rc
outputs() {
	d=$1; shift
	echo "+ usbtrail repro --outputs $d $*"
	"$bin" repro --outputs "$d" "$@" >"$out/last.out" 2>"$out/last.err"
	rc=$?
	sed 's/^/  /' "$out/last.out" "$out/last.err" | tail -n 6
}

# applied TREE FILE PATCH: the patch applied to a copy of TREE's FILE;
# prints the copy's path
applied() {
	t=$work/applied/$(basename "$1")
	rm -rf "$t"
	mkdir -p "$t/drivers/usb/storage"
	cp "$1/drivers/usb/storage/$2" "$t/drivers/usb/storage/"
	(cd "$t" && git apply "$3") >&2 || fail "$3 does not apply to $1"
	echo "$t/drivers/usb/storage/$2"
}

# neighbours FILE VID:PID: the UNUSUAL_DEV entries before and after the
# one of VID:PID are below and above it
neighbours() {
	python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
keys = [(int(a, 16), int(b, 16)) for a, b in
        re.findall(r'^(?:UNUSUAL|COMPLIANT)_DEV\(\s*(0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+)',
                   text, re.M)]
v, p = (int(x, 16) for x in sys.argv[2].split(':'))
i = keys.index((v, p))
assert i == 0 or keys[i - 1] <= (v, p), (keys[i - 1], (v, p))
assert i + 1 == len(keys) or keys[i + 1] >= (v, p), (keys[i + 1], (v, p))
print("entry %d of %d" % (i + 1, len(keys)))
PY
}

# 1: uas, an id no table lists: a new entry of unusual_uas.h, each tree
c=$work/uas
campaign "$c" 46f4:0003 uas u
for t in $trees; do
	rm -f "$c"/0001-*.patch
	outputs "$c" --kernel-tree "$t" --author "Jane Doe <jane@example.org>"
	check "exit, tree $t" "$rc" 0
	p=$(ls "$c"/0001-*.patch) || fail "no patch for $t"
	check "patch name" "$(basename "$p")" \
		"0001-USB-uas-Add-US_FL_IGNORE_UAS-for-QEMU-USB-Attached-S.patch"
	f=$(applied "$t" unusual_uas.h "$p")
	grep -q '^UNUSUAL_DEV(0x46f4, 0x0003, 0x0000, 0x9999,$' "$f" ||
		fail "$t: the entry is not in unusual_uas.h"
	neighbours "$f" 46f4:0003 || fail "$t: the entry is out of order"
	perl "$checkpatch" --no-tree -q "$p" >"$out/checkpatch.out" 2>&1 ||
		{ cat "$out/checkpatch.out"; fail "$t: checkpatch.pl: $p"; }
	echo "ok: $t: applies in order, checkpatch clean"
done
grep -q '^Subject: \[PATCH\] USB: uas: Add US_FL_IGNORE_UAS for QEMU USB Attached SCSI HBA$' "$p" ||
	fail "no subject"
grep -q '^From: Jane Doe <jane@example.org>$' "$p" || fail "no author"
grep -q '^Signed-off-by: Jane Doe <jane@example.org>$' "$p" ||
	fail "no Signed-off-by"
grep -q '^/\* Reported-by: Jane Doe <jane@example.org> \*/$' "$p" ||
	grep -q '^+/\* Reported-by: Jane Doe <jane@example.org> \*/$' "$p" ||
	fail "no Reported-by comment"
grep -q 'Without a quirk the workload failed 3 of 3 runs' "$p" ||
	fail "the runs without a quirk are not said"
grep -Eq '^  u +6 +0 +198 +290 +14.5$' "$p" || fail "no row of u's runs"
grep -Eq '^\[ *[0-9]+\.[0-9]{6}\] sd 0:0:0:0: \[sda\] tag#12 Sense Key : Not Ready \[current\]$' "$p" ||
	fail "no kernel line of the failure"
grep -q '^  idVendor           0x46f4$' "$p" || fail "no lsusb -v"
grep -q '^ drivers/usb/storage/unusual_uas.h | 7 +++++++$' "$p" ||
	fail "no diffstat"
check "files" "$(python3 -c 'import json,sys
print(sorted(json.load(open(sys.argv[1]))["files"]))' "$c/repro.json")" \
	"['bundle', 'patch', 'report']"

# report.html: the verdict, each mitigation, each run; text escaped
grep -q 'Verdict: <b>fixed</b>' "$c/report.html" || fail "report: no verdict"
grep -q '<td>u</td><td class="n">6</td><td class="n">0</td><td class="passed">yes</td>' \
	"$c/report.html" || fail "report: no row of u"
grep -q 'href="runs/001-seq-none/"' "$c/report.html" ||
	fail "report: no link to a run"
grep -q 'Not Ready &lt;on&gt; sda' "$c/report.html" ||
	fail "report: a run's text not escaped"
grep -q 'href="0001-USB-uas-Add-US_FL_IGNORE_UAS' "$c/report.html" ||
	fail "report: no link to the patch"
grep -q 'href="bundle.tar.gz"' "$c/report.html" ||
	fail "report: no link to the bundle"
[ -s "$c/runs/002-seq-none/report.html" ] ||
	fail "no report of the failing run"

# the bundle: the recording's files and the campaign's, serials hashed
mkdir -p "$work/b"
tar -C "$work/b" -xzf "$c/bundle.tar.gz" || fail "bundle does not unpack"
for f in README.txt report.html events.jsonl kernel-log.txt repro.json \
	repro.html "$(basename "$p")"; do
	[ -s "$work/b/usbtrail-bundle/$f" ] || fail "bundle: no $f"
done
grep -q '^repro.json ' "$work/b/usbtrail-bundle/README.txt" ||
	fail "bundle README: repro.json not named"
if grep -rq usbtrail-uas "$work/b/usbtrail-bundle" "$p"; then
	fail "the device's serial is in the bundle or the patch"
fi
echo "ok: report.html, bundle"

# 2: usb-storage: unusual_devs.h, past its #ifdef blocks, in order
c=$work/bot
campaign "$c" 04e6:0006 usb-storage t
for t in $trees; do
	rm -f "$c"/0001-*.patch
	outputs "$c" --kernel-tree "$t"
	check "exit, usb-storage, $t" "$rc" 0
	p=$(ls "$c"/0001-*.patch) || fail "no patch"
	f=$(applied "$t" unusual_devs.h "$p")
	neighbours "$f" 04e6:0006 || fail "$t: out of order"
	python3 - "$f" <<'PY' || fail "$t: the entry is inside a conditional"
import sys
depth = 0
for line in open(sys.argv[1]):
    if line.startswith('#if'):
        depth += 1
    elif line.startswith('#endif'):
        depth -= 1
    elif line.startswith('UNUSUAL_DEV(0x04e6, 0x0006,'):
        sys.exit(depth != 0)
sys.exit(1)
PY
	perl "$checkpatch" --no-tree -q "$p" >"$out/checkpatch.out" 2>&1 ||
		{ cat "$out/checkpatch.out"; fail "$t: checkpatch.pl: $p"; }
	grep -q '^From: Your Name <you@example.org>$' "$p" ||
		fail "no placeholder author"
	echo "ok: $t: unusual_devs.h, outside #ifdef, checkpatch clean"
done

# 3: an id the table has (Sony PSZ-HA*, NO_REPORT_OPCODES): the flag joins it
c=$work/sony
campaign "$c" 054c:087d uas u
t=${trees##* }
outputs "$c" --kernel-tree "$t"
check "exit, listed id" "$rc" 0
p=$(ls "$c"/0001-*.patch)
grep -q '^+		US_FL_NO_REPORT_OPCODES | US_FL_IGNORE_UAS),$' "$p" ||
	fail "the flag did not join the Sony entry"
applied "$t" unusual_uas.h "$p" >/dev/null
perl "$checkpatch" --no-tree -q "$p" >"$out/checkpatch.out" 2>&1 ||
	{ cat "$out/checkpatch.out"; fail "checkpatch.pl: $p"; }
echo "ok: the flag joins the device's entry"

# 4: no tree: the mail and the entry
c=$work/notree
campaign "$c" 46f4:0003 uas u
outputs "$c"
check "exit, no tree" "$rc" 0
[ -s "$c/unusual-entry.txt" ] || fail "no unusual-entry.txt"
ls "$c"/0001-*.patch >/dev/null 2>&1 && fail "a patch without a tree"
grep -q '^UNUSUAL_DEV(0x46f4, 0x0003, 0x0000, 0x9999,$' "$c/unusual-entry.txt" ||
	fail "no entry"
grep -q -- "--kernel-tree" "$c/unusual-entry.txt" || fail "no way to the patch"

# 5: bad input: a clear error; the campaign's files as they were
cp "$c/repro.json" "$work/repro.json.before"
outputs "$c" --kernel-tree "$work/nothing"
check "exit, no such tree" "$rc" 2
grep -q "nothing/drivers/usb/storage/unusual_uas.h" "$out/last.err" ||
	fail "the missing table is not named"
cmp -s "$c/repro.json" "$work/repro.json.before" || fail "repro.json changed"
outputs "$work/nothing"
check "exit, no campaign" "$rc" 1
grep -q "repro.json" "$out/last.err" || fail "the missing repro.json is not named"
printf '{"verdict": 1}' >"$work/bad.json"
mkdir -p "$work/bad" && cp "$work/bad.json" "$work/bad/repro.json"
outputs "$work/bad"
check "exit, not a campaign" "$rc" 1
grep -q "not a campaign's result" "$out/last.err" || fail "no reason given"
check "bad repro.json kept" "$(cat "$work/bad/repro.json")" '{"verdict": 1}'
outputs "$c" --author "nobody"
check "exit, bad --author" "$rc" 2
# usbtrail report on the campaign: not a recording, and where its page is
"$bin" report "$c" >"$out/last.out" 2>"$out/last.err"
check "exit, report of a campaign" "$?" 1
grep -q "a campaign of usbtrail repro, not a recording: its page is $c/report.html" \
	"$out/last.err" || fail "report does not point to the campaign's page"
echo "PASS"
