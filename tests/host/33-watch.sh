#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail watch on this host, in a mount namespace whose event sources
# are known (record-ns.inc: the kernel log; no module; tracefs not
# mounted): it starts without the kernel's trace events and takes tracefs
# once it is mounted; --config is read at start and on SIGHUP (a bad one
# refused with its file and line, the settings kept); the metrics file is
# the text format, replaced whole; SIGTERM leaves every ring piece
# complete and readable by report; on a full file system it keeps
# running and completes its files once there is room again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/record-ns.inc"

# 1. --config errors: said with the file (and the line), nothing started
conf=$area/watch.conf
printf 'keep 64MiB\ndir /elsewhere\n' >"$conf"
"$bin" watch --config "$conf" --dir "$area/w0" >/dev/null 2>"$out/conf1.err"
check "exit status, dir in --config" "$?" 2
grep -q "watch.conf:2: 'dir' cannot be set here" "$out/conf1.err" ||
	fail "no line number: $(cat "$out/conf1.err")"
printf '# comment\nkeep lots\n' >"$conf"
"$bin" watch --config "$conf" --dir "$area/w0" >/dev/null 2>"$out/conf2.err"
check "exit status, a bad value in --config" "$?" 2
grep -q "invalid size 'lots' for --keep" "$out/conf2.err" ||
	fail "the bad value is not named: $(cat "$out/conf2.err")"
grep -q "in $conf" "$out/conf2.err" ||
	fail "the file is not named: $(cat "$out/conf2.err")"
[ ! -e "$area/w0" ] || fail "watch made its directory on a usage error"
echo "ok: --config errors"

# 2. a run: tracefs mounted after the start, SIGHUP with a changed config
# and then a broken one, SIGTERM
printf 'keep 64MiB\nafter 3\n' >"$conf"
# shellcheck disable=SC2016 # expanded by the inner sh
in_ns sh -c '
	"$1" watch --dir "$2/w" --config "$3" --no-journal \
		--metrics "$2/usbtrail.prom" --metrics-interval 1 \
		>"$4/run.out" 2>"$4/run.err" &
	pid=$!
	sleep 2
	mount -t tracefs nodev /sys/kernel/tracing
	sleep 7
	printf "keep 32MiB\nbefore 2\n" >"$3"
	kill -HUP $pid
	sleep 2
	printf "keep 1K\n" >"$3"
	kill -HUP $pid
	sleep 2
	kill -TERM $pid
	wait $pid
	echo $? >"$4/run.status"' sh "$bin" "$area" "$conf" "$out"
sed 's/^/  /' "$out/run.err"
check "exit status after SIGTERM" "$(cat "$out/run.status")" 0
e=$out/run.err
grep -q '^usbtrail watch: without the kernel trace events for now' "$e" ||
	fail "it did not say it starts without the trace events"
grep -q '^usbtrail watch: kernel trace events: opened: tracefs' "$e" ||
	fail "tracefs, mounted later, was not taken"
grep -q '^usbtrail watch: SIGHUP: keep 33554432 bytes, 30 days, 2 s before and 30 s after' "$e" ||
	fail "the first SIGHUP did not take the new config"
grep -q "value '1K' for --keep is out of range" "$e" ||
	fail "the broken config's value was not named"
grep -q 'SIGHUP: --config not taken, the settings stay' "$e" ||
	fail "the broken config was not refused"
echo "ok: tracefs taken when mounted; SIGHUP takes a config, refuses a bad one"

m=$area/usbtrail.prom
awk '/^# (HELP|TYPE) / { next }
     /^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+$/ { next }
     { print "bad line " NR ": " $0; bad = 1 }
     END { exit bad }' "$m" || fail "the metrics are not in the text format"
grep -q '^usbtrail_source_up{source="tracefs"} 1$' "$m" ||
	fail "the metrics do not show tracefs up"
grep -q '^usbtrail_source_up{source="kmsg"} 1$' "$m" ||
	fail "the metrics do not show the kernel log up"
ls "$area"/usbtrail.prom.*.tmp 2>/dev/null && fail "a temporary metrics file is left"
echo "ok: the metrics"

n=0
for p in "$area"/w/ring/*/; do
	n=$((n + 1))
	grep -q '"complete":true' "$p/meta.json" ||
		fail "ring piece $p is not complete"
	grep -q '"usbtrail":"unknown"' "$p/meta.json" &&
		fail "ring piece $p does not name usbtrail's version"
	"$bin" report "$p" -o "$work/r$n.html" >/dev/null 2>"$out/report$n.err" ||
		fail "report on $p: $(cat "$out/report$n.err")"
done
[ $n -ge 2 ] || fail "$n ring pieces (SIGHUP starts a new one)"
echo "ok: $n ring pieces, complete, read by report"

# 3. a full file system: watch keeps running; with room again, its files
# are completed
rm -f "$out"/full.*
# shellcheck disable=SC2016 # expanded by the inner sh
in_ns sh -c '
	mkdir -p "$2/full"
	mount -t tmpfs -o size=512k usbtrail-full "$2/full"
	dd if=/dev/zero of="$2/full/filler" bs=4k 2>/dev/null
	"$1" watch --dir "$2/full/w" --no-journal --keep 4MiB \
		>"$3/full.out" 2>"$3/full.err" &
	pid=$!
	sleep 3
	kill -HUP $pid
	sleep 2
	kill -0 $pid && echo alive >"$3/full.alive"
	rm -f "$2/full/filler"
	sleep 2
	kill -TERM $pid
	wait $pid
	echo $? >"$3/full.status"
	for p in "$2"/full/w/ring/*/; do
		grep -q "\"complete\":true" "$p/meta.json" || echo "$p" >>"$3/full.incomplete"
	done' sh "$bin" "$area" "$out"
sed 's/^/  /' "$out/full.err"
[ -e "$out/full.alive" ] || fail "watch did not survive the full file system"
grep -q '^usbtrail watch: cannot write into .*: No space left on device' \
	"$out/full.err" || fail "watch did not say the file system is full"
[ "$(grep -c 'No space left' "$out/full.err")" -le 2 ] ||
	fail "the full file system is said again and again"
check "exit status after a full file system" "$(cat "$out/full.status")" 0
[ ! -e "$out/full.incomplete" ] ||
	fail "ring pieces left incomplete: $(cat "$out/full.incomplete")"
echo "ok: a full file system: it ran on and completed its files"
