#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/70-bridge-*.sh: drive the workload that
# trips the bridge's defect, then apply the kernel's documented fix live
# (the usb-storage quirks parameter and a rebind, or a sysfs write: no
# reboot, no replug) and drive it again.  Each phase P leaves in /out:
#   P.klog     the kernel's log lines of that phase
#   P.driver   the interface's driver, P.disk the disk, P.size its size
#   P.*        the phase's own results (stress JSON, utscsi lines, ...)
# The host side checks them.
#   bridge.sh PERSONALITY VIDPID
set -u
name=$1 vidpid=$2
# plugged at boot: the test bed's name for it; plugged as we start
# (--bridge NAME,plug=late): found by its serial once it enumerates
usb=${TESTBED_BRIDGE_USB:-}
i=0
while [ -z "$usb" ] && [ $i -lt 300 ]; do
	for d in /sys/bus/usb/devices/*; do
		[ "$(cat "$d/serial" 2>/dev/null)" = usbtrail-bridge ] &&
			usb=${d##*/}
	done
	[ -n "$usb" ] || sleep 0.1
	i=$((i + 1))
done
[ -n "$usb" ] || { echo "bridge.sh: no bridge (serial usbtrail-bridge)" >&2; exit 1; }
iface=$usb:1.0
# Commands time out after this long on the bridge's disk (the kernel's
# default is 30 s): the error handler starts sooner, the signature is the
# same.
scsi_timeout=5

log() { echo "bridge.sh: $*"; echo "bridge.sh: $*" >/dev/kmsg; }

# The bridge's disk once it is there (up to $1 s): /dev/sdX
bridge_disk() {
	i=0
	while [ "$i" -lt $(($1 * 10)) ]; do
		for b in /sys/block/sd*; do
			[ -e "$b" ] || continue
			case "$(readlink -f "$b/device")" in
			*/"$usb"/*)
				if [ -b "/dev/${b##*/}" ]; then
					echo "/dev/${b##*/}"
					return 0
				fi ;;
			esac
		done
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

driver() {
	d=$(readlink "/sys/bus/usb/devices/$iface/driver") || { echo none; return; }
	basename "$d"
}

# phase P [DISK_WAIT_S]: start phase P; its disk in $disk ('' if none
# came within DISK_WAIT_S, default 30), its SCSI timeout set.  Its kernel
# log starts where the last phase's ended (the first's at boot): a quirk
# and the probe it causes belong to the phase after.  (The kernel's ring
# buffer is read and cleared: it never wraps between two phases; the
# console has it all.)
phase() {
	p=$1
	log "phase $p"
	disk=$(bridge_disk "${2:-30}") || disk=
	echo "${disk:-none}" >"/out/$p.disk"
	driver >"/out/$p.driver"
	if [ -n "$disk" ]; then
		b=${disk#/dev/}
		echo "$scsi_timeout" >"/sys/block/$b/device/timeout"
		cat "/sys/block/$b/size" >"/out/$p.size"
	fi
}

# end_phase: the kernel's lines of the phase into /out/$p.klog
end_phase() {
	log "phase $p done"
	dmesg -c >"/out/$p.klog"
}

# quirk FLAGS: the usb-storage quirk of the bridge set at run time, and
# the interface probed again (by uas or usb-storage, as the quirk says)
quirk() {
	echo "$vidpid:$1" >/sys/module/usb_storage/parameters/quirks
	d=$(driver)
	[ "$d" = none ] || echo "$iface" >"/sys/bus/usb/drivers/$d/unbind"
	echo "$iface" >/sys/bus/usb/drivers_probe
	log "quirk $vidpid:$1, probed again: $(driver)"
}

# stress P [OPTIONS]: usbtrail stress on the disk, its JSON in /out/P.json
stress() {
	p_=$1; shift
	usbtrail stress "$disk" --destroy-data --json -q "$@" \
		>"/out/$p_.json" 2>"/out/$p_.err"
	echo $? >"/out/$p_.rc"
}

# write P MIB: MIB MiB of a pattern written with 1 MiB O_DIRECT writes
# and an fsync (a SYNCHRONIZE CACHE), its exit status in /out/P.write
write() {
	dd if=/tmp/pattern of="$disk" bs=1M count="$2" oflag=direct \
		conv=fsync 2>"/out/$1.write-err"
	echo $? >"/out/$1.write"
}

# compare P MIB: the first MIB MiB of the disk against the pattern
compare() {
	dd if="$disk" of=/tmp/back bs=1M count="$2" iflag=direct 2>/dev/null
	if cmp -s /tmp/pattern /tmp/back; then
		echo same >"/out/$1.compare"
	else
		cmp /tmp/pattern /tmp/back 2>&1 | head -n 1 >"/out/$1.compare"
	fi
}

# rate P: sectors written, sampled every 0.1 s into /out/P.rate
# ("uptime sectors") until stop_rate
rate() {
	b=${disk#/dev/}
	(
		while :; do
			echo "$(cut -d' ' -f1 /proc/uptime) $(awk '{ print $7 }' \
				"/sys/block/$b/stat" 2>/dev/null)"
			sleep 0.1
		done
	) >"/out/$1.rate" &
	rate_pid=$!
}
# stop_rate P: stop the sampler, then one last sample (the sampler's
# 0.1 s sleep and its forks can leave the last MiB unsampled)
stop_rate() {
	kill "$rate_pid"
	wait "$rate_pid" 2>/dev/null
	echo "$(cut -d' ' -f1 /proc/uptime) $(awk '{ print $7 }' \
		"/sys/block/${disk#/dev/}/stat" 2>/dev/null)" >>"/out/$1.rate"
}

scsi_all() {	# scsi_all P: the commands bridges choke on, 8 s each
	for c in rc10 rc16 rsoc ata16 ata12; do
		/tests/utscsi "$disk" "$c" 8 >>"/out/$1.scsi" 2>&1
	done
}

case $name in
healthy)
	# every workload, over UAS and then over BOT (quirk u)
	for mode in uas bot; do
		[ "$mode" = bot ] && quirk u
		phase "$mode"
		stress "$mode-seq" --size 32M --block 64K --qd 8
		stress "$mode-mixed" --profile mixed --size 16M
		scsi_all "$mode"
		head -c 16777216 /dev/urandom >/tmp/pattern
		write "$mode" 16
		compare "$mode" 16
		usbtrail uas --json >"/out/$mode.uas.json" 2>"/out/$mode.uas.err"
		end_phase
	done
	;;
uas-load)
	# CrystalDiskMark's set: Q8 and Q32 put the bridge under load
	phase uas
	stress uas-cdm --profile cdm --size 64M --passes 1 --duration 2
	end_phase
	quirk u
	phase bot
	usbtrail uas --json >/out/bot.uas.json 2>/out/bot.uas.err
	usbtrail uas >/out/bot.uas.txt 2>&1
	stress bot-cdm --profile cdm --size 64M --passes 1 --duration 2
	end_phase
	;;
max-sectors)
	head -c 4194304 /dev/urandom >/tmp/pattern
	phase uas
	write uas 1
	end_phase
	quirk g
	phase g
	cat "/sys/block/${disk#/dev/}/queue/max_sectors_kb" >/out/g.max_sectors_kb
	write g 4
	compare g 4
	end_phase
	# the same fix through sysfs, for any driver: no quirk, 120 KiB
	quirk ""
	phase sysfs
	echo 120 >"/sys/block/${disk#/dev/}/queue/max_sectors_kb"
	write sysfs 4
	compare sysfs 4
	end_phase
	;;
rsoc)
	# sd sends REPORT SUPPORTED OPERATION CODES while it probes the disk
	# (for INQUIRY, WRITE SAME(16), WRITE SAME(10), each tried 4 times
	# with a 30 s timeout: left alone, the probe ends after 6 minutes).
	# The first abort is enough: then the fix, as a user who unplugs.
	i=0
	while [ $i -lt 100 ] && [ "$(driver)" = none ]; do
		sleep 0.1
		i=$((i + 1))
	done
	phase probe 0
	i=0
	while [ $i -lt 900 ] && ! dmesg | grep -q uas_eh_abort_handler; do
		sleep 0.1
		i=$((i + 1))
	done
	bridge_disk 0 >/out/probe.disk-at-abort || echo none >/out/probe.disk-at-abort
	while [ $i -lt 1000 ] &&
	      ! dmesg | grep -q 'uas_eh_device_reset_handler success'; do
		sleep 0.1
		i=$((i + 1))
	done
	end_phase
	quirk f
	phase f
	end_phase
	;;
ata-pt)
	phase uas
	/tests/utscsi "$disk" ata16 5 >/out/uas.scsi 2>&1
	end_phase
	quirk t
	phase t
	/tests/utscsi "$disk" ata16 5 >/out/t.scsi 2>&1
	/tests/utscsi "$disk" ata12 5 >>/out/t.scsi 2>&1
	end_phase
	;;
rc16)
	phase uas
	/tests/utscsi "$disk" rc16 5 >/out/uas.scsi 2>&1
	/tests/utscsi "$disk" rc10 5 >>/out/uas.scsi 2>&1
	end_phase
	quirk e
	phase e
	end_phase
	;;
volatile-cache)
	head -c 8388608 /dev/urandom >/tmp/pattern
	# power lost 12 s after the last write: the cache was written out
	phase late
	write late 8
	sleep 12
	testbed-mark late
	sleep 3
	end_phase
	phase late-after 60
	compare late 8
	end_phase
	# power lost right after the fsync: acknowledged writes are gone
	head -c 8388608 /dev/urandom >/tmp/pattern
	phase early
	write early 8
	testbed-mark early
	sleep 3
	end_phase
	phase early-after 60
	compare early 8
	end_phase
	;;
collapse)
	phase write
	rate write
	dd if=/dev/zero of="$disk" bs=1M count=512 oflag=direct 2>/out/write.dd
	stop_rate write
	# idle: the disk's cache drains, full speed again
	sleep 7
	t0=$(cut -d' ' -f1 /proc/uptime)
	dd if=/dev/zero of="$disk" bs=1M count=128 oflag=direct 2>/out/again.dd
	awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime >/out/again.secs
	end_phase
	;;
brownout)
	phase copy
	dd if=/dev/zero of="$disk" bs=1M count=256 oflag=direct \
		2>/out/copy.dd
	echo $? >/out/copy.rc
	# dd can fail before the kernel has logged the failed commands:
	# the phase ends when the disk is gone (its removal fails the rest)
	i=0
	while [ -e "/sys/block/${disk#/dev/}" ] && [ $i -lt 150 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	end_phase
	sleep 3
	phase back 60
	end_phase
	;;
*)
	echo "bridge.sh: unknown personality '$name'" >&2
	exit 2 ;;
esac
echo guest-done
