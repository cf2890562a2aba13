#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of bench/usbmon-vs-dumpcap.sh: the same O_DIRECT write
# workload on the UAS disk, captured by each recorder in turn, ROUNDS
# times; each capture is copied to /out/captures/ for the host to count
# its packets.  Prints one line per run:
#   RESULT CONFIG ROUND WORKLOAD_SECS USER_SECS SYS_SECS PACKETS DROPPED
# CPU times are the capturing process's own (busybox time -p); captures go
# to /tmp (RAM) for every tool alike.  /out/bench holds tcpdump and dumpcap
# with their libraries (packed by the host script), run through their
# dynamic loader.
set -u
rounds=${1:-3}
count=${2:-3000}
B=/out/bench
# The workload, timing itself into /tmp/wl.secs (run under the recorders)
cat >/tmp/wl.sh <<WL
t0=\$(cut -d' ' -f1 /proc/uptime)
dd if=/dev/zero of=$TESTBED_UAS bs=4k count=$count oflag=direct 2>/dev/null
t1=\$(cut -d' ' -f1 /proc/uptime)
awk -v a="\$t0" -v b="\$t1" 'BEGIN { printf "%.2f", b - a }' >/tmp/wl.secs
WL
# tcpdump looks its user up (-Z root: it stays root): give it one
grep -qs '^root:' /etc/passwd || echo 'root:x:0:0:root:/root:/bin/sh' >>/etc/passwd

# ready FILE TEXT: wait (up to 60 s) until a capturer says it listens
ready() {
	i=0
	while ! grep -qs "$2" "$1" && [ $i -lt 600 ]; do
		usleep 100000
		i=$((i + 1))
	done
	grep -qs "$2" "$1" || echo "# not ready: $(cat "$1")"
}
mkdir -p /out/captures

workload() {
	sh /tmp/wl.sh
	cat /tmp/wl.secs
}

times_of() {	# FILE: "USER SYS" from time -p
	awk '$1 == "user" { u = $2 } $1 == "sys" { s = $2 }
		END { printf "%s %s", u, s }' "$1"
}

for r in $(seq 1 "$rounds"); do
	secs=$(workload)
	echo "RESULT bare $r $secs 0 0 0 0"

	rm -rf /tmp/rec
	time -p -o /tmp/t.usbtrail usbtrail record -o /tmp/rec --quiet \
		--payload 64 -- sh /tmp/wl.sh >/dev/null 2>&1
	m=$(tr -d ' \n' </tmp/rec/meta.json |
		grep -o '"name":"usbmon","events":[0-9]*,"lost":[0-9]*')
	ev=$(echo "$m" | sed 's/.*"events":\([0-9]*\).*/\1/')
	lost=$(echo "$m" | sed 's/.*"lost":\([0-9]*\).*/\1/')
	echo "RESULT usbtrail-record $r $(cat /tmp/wl.secs) $(times_of /tmp/t.usbtrail) ${ev:-?} ${lost:-?}"
	cp /tmp/rec/capture.pcapng "/out/captures/usbtrail-record.$r.pcapng"

	rm -rf /tmp/um && mkdir /tmp/um
	time -p -o /tmp/t.utmon /tests/utmon --record /tmp/um --payload 64 \
		-- sh /tmp/wl.sh >/dev/null 2>/tmp/utmon.err
	# shellcheck disable=SC2046 # "EVENTS LOST", split on purpose
	set -- $(sed -n 's/^utmon: usbmon events \([0-9]*\) lost \([0-9]*\).*/\1 \2/p' /tmp/utmon.err)
	echo "RESULT usbmon-source $r $(cat /tmp/wl.secs) $(times_of /tmp/t.utmon) ${1:-?} ${2:-?}"
	cp /tmp/um/capture.pcapng "/out/captures/usbmon-source.$r.pcapng"

	if [ -x "$B/tcpdump" ]; then
		rm -f /tmp/td.pcap
		time -p -o /tmp/t.tcpdump "$B/lib/ld-linux-x86-64.so.2" \
			--library-path "$B/lib" "$B/tcpdump" -Z root -i usbmon0 \
			-s 128 -w /tmp/td.pcap 2>/tmp/tcpdump.err &
		ready /tmp/tcpdump.err 'listening on'
		sleep 1
		secs=$(workload)
		sleep 1
		# shellcheck disable=SC2046 # a list of pids
		kill -INT $(pidof ld-linux-x86-64.so.2 tcpdump 2>/dev/null) 2>/dev/null
		wait
		cap=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' /tmp/tcpdump.err)
		drop=$(sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' /tmp/tcpdump.err)
		echo "RESULT tcpdump $r $secs $(times_of /tmp/t.tcpdump) ${cap:-?} ${drop:-?}"
		cp /tmp/td.pcap "/out/captures/tcpdump.$r.pcap"
		[ -n "$cap" ] || sed 's/^/# tcpdump: /' /tmp/tcpdump.err
	fi
	if [ -x "$B/dumpcap" ]; then
		rm -f /tmp/dc.pcapng
		time -p -o /tmp/t.dumpcap "$B/lib/ld-linux-x86-64.so.2" \
			--library-path "$B/lib" "$B/dumpcap" -i usbmon0 -s 128 \
			-w /tmp/dc.pcapng 2>/tmp/dumpcap.err &
		ready /tmp/dumpcap.err 'Capturing on'
		sleep 1
		secs=$(workload)
		sleep 1
		# shellcheck disable=SC2046 # a list of pids
		kill -INT $(pidof ld-linux-x86-64.so.2 dumpcap 2>/dev/null) 2>/dev/null
		wait
		cap=$(sed -n 's/.*Packets received\/dropped on interface .usbmon0.: \([0-9]*\)\/\([0-9]*\).*/\1/p' /tmp/dumpcap.err)
		drop=$(sed -n 's/.*Packets received\/dropped on interface .usbmon0.: \([0-9]*\)\/\([0-9]*\).*/\2/p' /tmp/dumpcap.err)
		echo "RESULT dumpcap $r $secs $(times_of /tmp/t.dumpcap) ${cap:-?} ${drop:-?}"
		cp /tmp/dc.pcapng "/out/captures/dumpcap.$r.pcapng"
		[ -n "$cap" ] || sed 's/^/# dumpcap: /' /tmp/dumpcap.err
	fi
done
