#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A clean file passes: seq with io_uring and with the sync engine, the
# re-verify, cdm and soak briefly; exit 0, JSON "pass", an interval log.
. "$(dirname "$0")/lib.sh"

f=$work/clean.img
stress "$f" --size 32M --json --interval 100 --log "$out/interval.log"
check "exit status" "$rc" 0
check "result" "$(json 'j["result"]')" pass
check "generation" "$(json 'j["generation"]')" 1
check "bad sectors" "$(json 'j["verify"]["bad_sectors"]')" 0
check "bytes checked" "$(json 'j["verify"]["bytes_checked"]')" 33554432
check "phases" "$(json '",".join(p["name"] for p in j["phases"])')" write,read
grep -Eq '^[0-9.]+ [0-9.]+ write [0-9.]+ [0-9]+' "$out/interval.log" ||
	fail "no write lines in the interval log"
echo "ok: interval log has $(grep -vc '^#' "$out/interval.log") lines"

stress "$f" --verify-only --json
check "verify-only exit" "$rc" 0
check "verify-only finds the run" "$(json 'j["generation"]')" 1
# whatever the profile: it wrote on the read-only target before
for p in cdm sweep soak mixed; do
	stress "$f" --verify-only --profile "$p" --json
	check "verify-only --profile $p" "$rc $(json '[p["name"] for p in j["phases"]]')" "0 ['verify']"
done

stress "$f" --size 32M --engine sync --qd 1 --json
check "sync exit" "$rc" 0
check "sync engine" "$(json 'j["engine"]')" sync
check "sync continues the run" "$(json 'j["generation"]')" 2

stress "$f" --size 32M --profile cdm --duration 1 --passes 1 --json
check "cdm exit" "$rc" 0
check "cdm rows" "$(json '[t["test"] for t in j["cdm"]["tests"]]')" \
	"['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1']"

stress "$f" --size 8M --profile soak --duration 1
check "soak exit" "$rc" 0
cycles=$(sed -n 's/^soak: \([0-9]*\) cycles in .*/\1/p' "$out/last.out")
[ "${cycles:-0}" -ge 2 ] || fail "soak ran one cycle only"
echo "ok: soak cycles $cycles"

stress "$f" --size 32M --profile mixed
check "mixed exit" "$rc" 0
stress "$f" --size 8M --profile sweep --duration 1
check "sweep exit" "$rc" 0
grep -q '^read 8MiB ' "$out/last.out" || fail "sweep did not reach 8 MiB"

# Timeline markers, to a stand-in for the kernel's trace_marker.
: >"$work/marker"
USBTRAIL_TRACE_MARKER=$work/marker stress "$f" --size 4M
check "marker run exit" "$rc" 0
cp "$work/marker" "$out/marker.txt"
for re in '^usbtrail-stress: phase=run event=start run=[0-9a-f]{16} gen=[0-9]+ size=4194304 sector=512 disk=[^ ]+ usb=- target=' \
	  '^usbtrail-stress: phase=write event=start run=[0-9a-f]{16} gen=[0-9]+ block=1048576 qd=4 size=4194304 op=write$' \
	  '^usbtrail-stress: phase=write event=end .* bytes=4194304 secs=[0-9.]+ errors=0 mbps=[0-9.e+]+$' \
	  '^usbtrail-stress: phase=read event=end ' \
	  '^usbtrail-stress: phase=run event=end .* errors=0 bad=0$'; do
	grep -Eq "$re" "$work/marker" || fail "no marker matching '$re'"
done
echo "ok: $(wc -l <"$work/marker") markers"
