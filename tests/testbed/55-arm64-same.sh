#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An arm64 guest gives what an x86-64 guest gives (issue 19, "Must show"):
# the same run on both, on the same Debian kernel ($TB_KERNEL, default
# 6.1; tests/run's 55-arm64-same@arm64-7.3 on 7.3): writes stall on the
# UAS disk (the abort and device reset chain) while usbtrail stress on the
# BOT disk runs into medium-not-present.  Compared (tests/testbed/
# arch_same.py, disks by role): usbtrail.ko's probes, its record kinds
# and the records of both faults, the incidents of usbtrail analyze over the
# console, usbtrail uas --json's verdicts and stress's error.  Each side
# is also checked on its own, so that two runs that both lost a fault do
# not pass as equal.
# arm64: 7.3
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed"
kernel=${TB_KERNEL:-6.1}
for arch in x86-64 arm64; do
	d=$out/$arch
	rm -rf "$d"
	mkdir -p "$d"
	"$top/tools/testbed/run" --out "$d" --arch "$arch" --kernel "$kernel" \
		--devices uas,bot --fault stall@3+4:uas \
		--fault medium-not-present@10240:bot --timeout 300 -- \
		sh /tests/arch-same.sh >"$d/stdout.txt" 2>&1 ||
		fail "$arch: guest command failed: $(tail -n 3 "$d/stdout.txt")"
	expect "$d/stdout.txt" '^arch-same-ok$'
	expect "$d/console.log" "Linux version $kernel"
	no_kernel_warning "$d/console.log"
	"$top/userspace/usbtrail" analyze --json "$d" >"$d/analyze.jsonl" \
		2>"$d/analyze.err"
	rc=$?
	[ "$rc" = 3 ] || fail "$arch: analyze exited $rc: $(cat "$d/analyze.err")"
	python3 "$top/tests/testbed/arch_same.py" "$d" >"$d/facts.txt" ||
		fail "$arch: cannot read what the guest left"
	for f in 'record scsi-done bot op=0x2a lba=10240 sense=02/3a/00' \
		'record blk-complete bot sector=10240 error=-5' \
		'record eh-end kind=device-reset driver=uas uas result=0x2002' \
		'record xhci-command reset-device cc=1' \
		'analyze sense bot key=2 asc=58 ascq=0 op=42 lba=10240 sector=10240' \
		'analyze abort uas chain' 'analyze reset uas chain' \
		'uas uas driver=uas .* active=True reason=active streams=True' \
		'uas bot driver=usb-storage .* reason=no-uas-altsetting' \
		'stress error op=write offset=5242880 ' \
		'probe uas:uas_eh_abort_handler kind=kretprobe state=attached'; do
		expect "$d/facts.txt" "^$f"
	done
	# every probe attached, or another kernel's name of a handler
	if grep '^probe ' "$d/facts.txt" | grep -Ev ' state=(attached|alias)$'
	then
		fail "$arch: probes not attached on $kernel"
	fi
	[ "$(grep -c '^probe .* state=attached$' "$d/facts.txt")" -ge 18 ] ||
		fail "$arch: fewer than 18 probes attached"
done
diff -u "$out/x86-64/facts.txt" "$out/arm64/facts.txt" >"$out/facts.diff" ||
	fail "arm64 differs from x86-64 (- x86-64, + arm64): $(cat "$out/facts.diff")"
echo "ok: arm64 and x86-64 on $kernel: the same $(wc -l <"$out/arm64/facts.txt") facts"
