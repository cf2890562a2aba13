# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Sourced by the test-bed tests: run the guest, check what it left behind.
# $TESTBED_OUT (set by tests/run) receives the logs of the run.

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${TESTBED_OUT:-$top/build/tests/$(basename "$0" .sh)}
mkdir -p "$out"

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# tb [testbed options] -- COMMAND: tools/testbed/run with our --out, on
# $TB_KERNEL when set (tests/run sets it for the tests marked "# kernels:
# all" and "# arm64: ..."; a --kernel in the options comes later and
# wins), in a guest of $TB_ARCH when set (tests/run's NAME@arm64-KERNEL),
# with $TESTBED_CPUS guest CPUs when set (tests/run sets it for the tests
# marked "# cpus: N..."), which the guest's kernel must have brought up
tb() {
	"$top/tools/testbed/run" --out "$out" ${TB_KERNEL:+--kernel "$TB_KERNEL"} \
		${TB_ARCH:+--arch "$TB_ARCH"} \
		${TESTBED_CPUS:+--cpus "$TESTBED_CPUS"} "$@"
	tb_rc=$?
	[ -z "${TESTBED_CPUS:-}" ] || [ "$TESTBED_CPUS" = 1 ] ||
		grep -Eq "smp: Brought up .* $TESTBED_CPUS CPUs" \
			"$out/console.log" ||
		fail "the guest did not bring up $TESTBED_CPUS CPUs: $(grep -m1 'smp: Brought up' "$out/console.log")"
	return "$tb_rc"
}

# no_kernel_warning [FILE]: the guest's console (or FILE) has no kernel
# WARNING, BUG or Oops
no_kernel_warning() {
	f=${1:-$out/console.log}
	if grep -En '(WARNING:|BUG:|Oops|Call Trace:)' "$f" >"$out/warnings.txt"; then
		fail "kernel warning in $(basename "$f"): $(head -n 3 "$out/warnings.txt")"
	fi
	echo "ok: $(basename "$f"): no kernel WARNING, BUG or Oops"
}

# tb_timeout SECONDS: a --timeout for tb, three times as long on the debug
# kernel (KASAN, lockdep and kmemleak slow the guest down)
tb_timeout() {
	if [ "${TB_KERNEL:-}" = debug ]; then
		echo $(($1 * 3))
	else
		echo "$1"
	fi
}

# What the debug kernel's checkers (tools/debug-kernel) print: KASAN,
# lockdep (its WARNINGs and the RCU checker's), DEBUG_ATOMIC_SLEEP, UBSAN,
# and kmemleak (its console line after a scan, and the objects it lists).
debug_report_re='BUG: KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|possible irq lock inversion|bad unlock balance|held lock freed|lock held when returning to user space|Invalid wait context|DEBUG_LOCKS_WARN_ON|BUG: sleeping function called from invalid context|BUG: scheduling while atomic|new suspected memory leaks|unreferenced object 0x'

# no_debug_report [FILE...]: no report of the debug kernel's checkers in
# the guest's console (or these FILEs: kmemleak's list the guest saved)
no_debug_report() {
	[ $# -gt 0 ] || set -- "$out/console.log"
	for f in "$@"; do
		[ -f "$f" ] || fail "no $(basename "$f")"
		if grep -En "$debug_report_re" "$f" >"$out/debug-reports.txt"; then
			fail "debug kernel report in $(basename "$f"): $(head -n 3 "$out/debug-reports.txt")"
		fi
		echo "ok: $(basename "$f"): no KASAN, lockdep, atomic-sleep, UBSAN or kmemleak report"
	done
}

# debug_kernel_clean: on the debug kernel ($TB_KERNEL=debug), the console
# has no checker's report, and what tests/guest/debug-checks.sh end left
# in --out says kmemleak scanned and found nothing and lockdep was still
# checking (a first report turns it off); elsewhere the console has none
debug_kernel_clean() {
	if [ "${TB_KERNEL:-}" != debug ]; then
		no_debug_report
		return
	fi
	no_debug_report "$out/console.log" "$out/kmemleak.txt"
	expect "$out/debug-state.txt" '^kmemleak: scanned$' "kmemleak's state"
	expect "$out/debug-state.txt" '^ *debug_locks: +1$' "lockdep's state"
}

# expect FILE REGEX [WHAT]: FILE has a line matching the extended REGEX
expect() {
	grep -Eq -- "$2" "$1" ||
		fail "${3:-$(basename "$1")} has no line matching '$2'"
	echo "ok: $(basename "$1"): $(grep -Em1 -- "$2" "$1" | cut -c1-160)"
}

# expect_order FILE REGEX...: the regexes match lines in this order
expect_order() {
	f=$1; shift
	last=0
	for re in "$@"; do
		ln=$(re=$re awk -v s="$last" \
			'NR > s && $0 ~ ENVIRON["re"] { print NR; exit }' "$f")
		[ -n "$ln" ] || fail "$(basename "$f"): no '$re' after line $last"
		echo "ok: line $ln: $(sed -n "${ln}p" "$f" | cut -c1-160)"
		last=$ln
	done
}
