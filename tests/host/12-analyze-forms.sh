#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# usbtrail analyze finds the same incidents in one kernel log whatever form
# it was pasted in.  The log is a real failure, the test bed's UAS disk
# with a medium-not-present write and a stall
# (tests/fixtures/kmsg/testbed-uas-medium-stall.dmesg: the sense error and
# I/O error at sector 10240, two aborts, the device reset, its recovery)
# without the four lines the test bed's own script wrote, plus the
# "Buffer I/O error ... lost async page write" of asuswrt-379-offline.syslog
# and the "USB disconnect" of rpi-3404-hc-died.dmesg, put on this disk.
#
# Every form is made by the program that makes it where Debian 12 has one:
# util-linux dmesg -F over the log as the kernel's syslog(2) buffer gives
# it ("<6>[    5.280709] msg"), in each of its time formats;
# systemd-journal-remote turns an export stream into a journal file that
# journalctl prints in each of its -o forms and analyze -k -D reads
# through sd-journal; sed, cat -n, nl, grep, the compressors and split
# wrap it.  The syslog forms are written here, from the same lines, to
# RFC 3164 (rsyslog's RSYSLOG_TraditionalFileFormat, busybox syslogd's
# "%s %.64s %s %s" and -S "%s %s", metalog's "%s [%s] %s", OpenWrt
# logread's ctime and facility.level) and RFC 5424 (rsyslog's
# RSYSLOG_SyslogProtocol23Format; RSYSLOG_FileFormat for RFC 3339 stamps),
# talosctl dmesg's "NODE: kern:    info: [RFC 3339 nano time]: msg",
# /dev/kmsg's records (Documentation/ABI/testing/dev-kmsg) and printk's
# caller ids (CONFIG_PRINTK_CALLER).
#
# For each form analyze --json must name the same incidents as for the
# plain dmesg form: kind, device, disk, USB path, sense key, ASC/ASCQ,
# sector and LBA, in order, and read no line as malformed nor lose a kernel
# message.  Where the form keeps the printk stamp the times must be equal;
# where it keeps a wall clock (which for dmesg -T, ctime and iso is this
# host's boot time plus the stamp) each incident must be the same distance
# from the plain form's, to a microsecond or to the second the form keeps.
# One "ok: FORM" line per form once all ran; a form that differs prints
# the diff.
. "$(dirname "$0")/lib.sh"

for t in dmesg journalctl python3 gzip xz zstd bzip2 nl split; do
	command -v "$t" >/dev/null || skip "no $t (tools/deps.sh installs it)"
done
remote=/lib/systemd/systemd-journal-remote
[ -x "$remote" ] ||
	skip "no $remote (systemd-journal-remote; tools/deps.sh installs it)"

# The syslog and journal forms are written in this zone; dmesg -T, ctime
# and iso use it too.  A POSIX rule, so tzdata is not needed.
TZ=CET-1CEST,M3.5.0,M10.5.0/3
LC_ALL=C
export TZ LC_ALL

fixture=$top/tests/fixtures/kmsg/testbed-uas-medium-stall.dmesg
# the inputs stay in $out/forms/in for a look when a form fails
f=$out/forms/in
rm -rf "$out/forms"
mkdir -p "$f"

# Forms that show a bug of analyze's parser (userspace/lib/kmsg.c): "NAME:
# what it does", a tab before each further line.  They still fail the
# test; take one off when its bug is fixed (a known bug that passes fails
# too, to say so).
known_bugs=''

# --- the base log, and the forms written here ---------------------------

python3 - "$fixture" "$f" <<'PY' || fail "cannot write the forms"
import datetime, json, sys

fixture, d = sys.argv[1:3]

# The kernel's level for each line (6.1 source: scsi_logging.c and
# uas.c print at KERN_INFO, sd.c's probe lines at KERN_NOTICE,
# blk_print_req_error at KERN_ERR, ...); KERN_INFO unless listed.
levels = {"5.393754": 5, "6.458273": 5, "6.478137": 4, "6.484147": 5,
          "6.487815": 5, "6.489291": 5, "6.528310": 5, "8.152051": 5,
          "9.614293": 3, "9.614337": 3, "18.448417": 4, "19.668673": 5,
          "21.572539": 5}
# printk caller ids: the task (T) or CPU (C) that printed each line:
# khubd's kworker, modprobe, the SCSI scan, the block completion
# softirq, the abort work, the SCSI error handler thread
def caller(msg, stamp):
    if msg.startswith("usb 2-1: reset") or "device_reset" in msg:
        return "T170"
    if msg.startswith("usb "):
        return "T52"
    if "uas_eh_abort_handler" in msg or stamp.startswith("14.6"):
        return "T66"
    if stamp.startswith("9.61") or msg.startswith(("clocksource", "random")):
        return "C1"
    if msg.startswith(("sd ", "scsi 0:")):
        return "T58"
    if msg.startswith(("usbcore", "scsi host0")):
        return "T180"
    return "T1"

extra = [
    # asuswrt-379-offline.syslog's line: this disk, the block of sector
    # 10240 in 4 KiB blocks
    ("9.614337", "Buffer I/O error on dev sda, logical block 1280, "
     "lost async page write"),
    # rpi-3404-hc-died.dmesg's line: the disk pulled before shutdown
    ("21.560412", "usb 2-1: USB disconnect, device number 2"),
]
lines = []
for line in open(fixture):
    line = line.rstrip("\n")
    if line.startswith("#") or "] testbed: " in line:
        continue
    stamp, msg = line[1:].split("] ", 1)
    lines.append((stamp.strip(), msg))
lines += extra
lines.sort(key=lambda x: float(x[0]))

recs = []
for stamp, msg in lines:
    s, us = stamp.split(".")
    usec = int(s) * 1000000 + int(us)
    recs.append((levels.get(stamp, 6), caller(msg, stamp), usec, msg))

def stamp(usec):
    return "[%5d.%06d]" % (usec // 1000000, usec % 1000000)

# Booted 2026-11-09 22:09:59.719291381 UTC, 23:09:59 in the CET above
boot_ns = int(datetime.datetime(2026, 11, 9, 22, 9, 59,
              tzinfo=datetime.timezone.utc).timestamp()) * 10**9 + 719291381
boot_us = boot_ns // 1000
host = "debian"
tz = datetime.timezone(datetime.timedelta(hours=1))
utc = datetime.timezone.utc

def local(usec, zone=tz):
    return datetime.datetime.fromtimestamp((boot_us + usec) / 1e6, zone)

def rfc3164(usec):
    t = local(usec)
    return "%s %2d %s" % (t.strftime("%b"), t.day, t.strftime("%H:%M:%S"))

def rfc3339(usec, zone=tz):
    t = local(usec, zone)
    s = t.isoformat(timespec="microseconds")
    return s.replace("+00:00", "Z")

def talos_time(usec):
    ns = boot_ns + usec * 1000
    t = datetime.datetime.fromtimestamp(ns // 10**9, utc)
    frac = ("%09d" % (ns % 10**9)).rstrip("0")   # Go's RFC3339Nano
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac if frac else "") + "Z"

names = ["emerg", "alert", "crit", "err", "warning", "notice", "info",
         "debug"]
logread_names = ["emerg", "alert", "crit", "err", "warn", "notice", "info",
                 "debug"]

def dictionary(msg):
    """/dev/kmsg's dictionary (and the journal's _KERNEL_ fields) of a
    dev_printk() line"""
    if msg.startswith(("sd 0:0:0:0:", "scsi 0:0:0:0:")):
        return "scsi", "+scsi:0:0:0:0"
    if msg.startswith("scsi host0:"):
        return "scsi", "+scsi:host0"
    if msg.startswith("usb 2-1:"):
        return "usb", "c189:129"
    return None

forms = {
    "base.raw": lambda l, c, u, m: "<%d>%s %s" % (l, stamp(u), m),
    "base-caller.raw":
        lambda l, c, u, m: "<%d>%s[%6s] %s" % (l, stamp(u), c, m),
    "console-caller":
        lambda l, c, u, m: "%s[%6s] %s" % (stamp(u), c, m),
    "kern.log": lambda l, c, u, m: "%s %s kernel: %s %s" %
        (rfc3164(u), host, stamp(u), m),
    "busybox": lambda l, c, u, m: "%s %s kern.%s kernel: %s %s" %
        (rfc3164(u), host, names[l], stamp(u), m),
    "busybox-S": lambda l, c, u, m: "%s kernel: %s %s" %
        (rfc3164(u), stamp(u), m),
    "busybox-S-nostamp": lambda l, c, u, m: "%s kernel: %s" % (rfc3164(u), m),
    "logread": lambda l, c, u, m: "%s kern.%s kernel: %s %s" %
        (local(u).strftime("%a %b ") + "%2d" % local(u).day +
         local(u).strftime(" %H:%M:%S %Y"), logread_names[l], stamp(u), m),
    "metalog": lambda l, c, u, m: "%s [kernel] %s" % (rfc3164(u), m),
    "metalog-stamp": lambda l, c, u, m: "%s [kernel] %s %s" %
        (rfc3164(u), stamp(u), m),
    "rfc5424": lambda l, c, u, m: "<%d>1 %s %s kernel - - - %s" %
        (l, rfc3339(u, utc), host, m),
    "rfc3339": lambda l, c, u, m: "%s %s kernel: %s" % (rfc3339(u), host, m),
    "rfc3339-stamp": lambda l, c, u, m: "%s %s kernel: %s %s" %
        (rfc3339(u), host, stamp(u), m),
    "talosctl": lambda l, c, u, m: "10.0.0.2: kern: %7s: [%s]: %s" %
        (names[l], talos_time(u), m),
}
for name, fmt in forms.items():
    with open("%s/%s" % (d, name), "w") as o:
        for r in recs:
            o.write(fmt(*r) + "\n")

# /dev/kmsg: "level,seq,usec,flags[,caller=..];msg" and the dictionary
for name, withcaller in (("kmsg", False), ("kmsg-caller", True)):
    with open("%s/%s" % (d, name), "w") as o:
        for seq, (l, c, u, m) in enumerate(recs, 1204):
            o.write("%d,%d,%d,-%s;%s\n" %
                    (l, seq, u, ",caller=" + c if withcaller else "", m))
            dic = dictionary(m)
            if dic:
                o.write(" SUBSYSTEM=%s\n DEVICE=%s\n" % dic)

# The export stream systemd-journal-remote reads: the boot before (no USB
# trouble), this one, and one entry of systemd's own among the kernel's
machine = "5c8e1a2b9d3f4e6a8b7c0d1e2f3a4b5c"
boot_prev, boot_this = ("0b4a7e1f3c2d4a5b9e8f7a6b5c4d3e2f",
                        "9d2c4b6a8e0f4d1c3b5a7e9f1d3c5b7a")
prev = [(5, 0, "Linux version 6.1.0-57-amd64 "
         "(debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian"),
        (6, 5280611, "usb 2-1: new SuperSpeed USB device number 2 using "
         "xhci_hcd"),
        (5, 3021500000, "reboot: Power down")]
entries = []
# the boot before: powered down an hour before this one
prev_us = boot_us - 3600 * 10**6 - 3021500000
for l, u, m in prev:
    entries.append((boot_prev, prev_us, l, u, m, None))
for l, c, u, m in recs:
    entries.append((boot_this, boot_us, l, u, m, None))
    if u == 9614337:
        entries.append((boot_this, boot_us, 6, 9801733,
                        "Started session-3.scope - Session 3 of User root.",
                        "systemd"))
with open(d + "/message-systemd", "w") as o:
    o.write("Started session-3.scope - Session 3 of User root.\n")
with open(d + "/export", "w") as o:
    for i, (boot, b_us, l, u, m, ident) in enumerate(entries, 1):
        mono = u + 37       # journald reads /dev/kmsg a little later
        real = b_us + mono
        o.write("__CURSOR=s=3f1c2a4b5d6e7f8091a2b3c4d5e6f708;i=%x;b=%s;"
                "m=%x;t=%x;x=%016x\n" % (i, boot, mono, real, i * 7919))
        o.write("__REALTIME_TIMESTAMP=%d\n__MONOTONIC_TIMESTAMP=%d\n"
                % (real, mono))
        o.write("_BOOT_ID=%s\n" % boot)
        if ident:
            o.write("_TRANSPORT=journal\nPRIORITY=%d\nSYSLOG_FACILITY=3\n"
                    "SYSLOG_IDENTIFIER=%s\n_PID=1\n_UID=0\n_GID=0\n"
                    "_COMM=systemd\n" % (l, ident))
        else:
            o.write("_SOURCE_MONOTONIC_TIMESTAMP=%d\n_TRANSPORT=kernel\n"
                    "PRIORITY=%d\nSYSLOG_FACILITY=0\n"
                    "SYSLOG_IDENTIFIER=kernel\n" % (u, l))
            dic = dictionary(m)
            if dic:
                o.write("_KERNEL_SUBSYSTEM=%s\n_KERNEL_DEVICE=%s\n" % dic)
        o.write("MESSAGE=%s\n_MACHINE_ID=%s\n_HOSTNAME=%s\n\n"
                % (m, machine, host))
# Where the clock of each form puts the boot: analyze's t is seconds since
# the epoch for a stamp that gives its zone ("real"), the local time as
# written for one that does not or names it (short-full's "CET"), and for
# a stamp without a year seconds since 1 January 00:00 ("wall",
# docs/analyze.md); "+j": the journal's receive time, 37 us on
j = 37e-6
wall = (datetime.datetime.fromtimestamp(boot_us / 1e6, tz) -
        datetime.datetime(2026, 1, 1, tzinfo=tz)).total_seconds()
with open(d + "/clocks.json", "w") as o:
    json.dump({"real": boot_us / 1e6, "real+j": boot_us / 1e6 + j,
               "local+j": boot_us / 1e6 + 3600 + j,
               "wall": wall, "wall+j": wall + j}, o)
# the messages, for what analyze --rows says it read as kernel messages
for name, msgs in (("messages", [m for l, c, u, m in recs]),
                   ("messages-prev", [m for l, u, m in prev])):
    with open("%s/%s" % (d, name), "w") as o:
        o.write("".join(m + "\n" for m in msgs))
PY
count=$(wc -l <"$f/messages")

# --- running analyze on each form ----------------------------------------

# form NAME MODE ANALYZE-ARGS...: run analyze --json --rows ARGS; the
# checks come at the end, in one Python run: MODE says how times are
# compared, and $extra (reset here) names files of messages the form holds
# besides the base log's
nfail=0
extra=
form() {
	name=$1 mode=$2
	shift 2
	"$bin" analyze --json --rows "$@" >"$out/forms/$name.json" \
		2>"$out/forms/$name.err"
	printf '%s\t%s\t%s\t%s\n' "$name" "$mode" $? "$extra" >>"$work/forms"
	extra=
}

# The reference: the plain dmesg form, as dmesg prints the buffer
dmesg -F "$f/base.raw" --color=never >"$f/dmesg" || fail "dmesg -F failed"
ref=$out/forms/reference.json
"$bin" analyze --json "$f/dmesg" >"$ref" 2>"$out/forms/reference.err"
rc=$?
check "analyze on the plain dmesg form: exit status" "$rc" 3
grep -q '"kind":"sense".*"sector":10240' "$ref" ||
	fail "the plain form has no sense incident at sector 10240"
: >"$work/forms"

# -- util-linux dmesg: every time format -----------------------------------
dm() {	# NAME MODE DMESG-OPTIONS...
	n=$1 m=$2
	shift 2
	dmesg -F "$f/base.raw" "$@" >"$f/$n" 2>"$f/$n.err" ||
		fail "dmesg -F $*: $(cat "$f/$n.err")"
	form "$n" "$m" "$f/$n"
}
dm dmesg mono --color=never
dm dmesg-T wall-s --color=never -T
dm dmesg-x mono --color=never -x
dm dmesg-d mono --color=never -d
dm dmesg-H none --color=never -H
dm dmesg-reltime none --color=never --time-format reltime
dm dmesg-iso wall-us --color=never --time-format iso
dm dmesg-ctime wall-s --color=never --time-format ctime
dm dmesg-delta none --color=never --time-format delta
# -r refuses --color (mutually exclusive in util-linux 2.38)
dmesg -F "$f/base.raw" -r --color=never >/dev/null 2>&1 &&
	echo "note: this dmesg takes -r with --color"
dm dmesg-r mono -r
dm dmesg-t none --color=never -t
dm dmesg-color mono --color=always
dm dmesg-H-color none --color=always -H

# -- the same with printk caller ids ("[    5.280709][  T52] msg" in the
# buffer; dmesg puts a space before the id)
form console-caller mono "$f/console-caller"
dmc() {	# NAME MODE DMESG-OPTIONS...
	n=$1 m=$2
	shift 2
	dmesg -F "$f/base-caller.raw" --color=never "$@" >"$f/$n" ||
		fail "dmesg -F $*"
	form "$n" "$m" "$f/$n"
}
dmc dmesg-caller mono
dmc dmesg-caller-x mono -x
dmc dmesg-caller-T wall-s -T
dmc dmesg-caller-iso wall-us --time-format iso

# -- the journal -------------------------------------------------------------
jdir=$work/journal
mkdir -p "$jdir"
"$remote" -o "$jdir/remote.journal" "$f/export" >"$out/remote.log" 2>&1 ||
	fail "systemd-journal-remote: $(tail -n 3 "$out/remote.log")"
jn=$(journalctl --file "$jdir/remote.journal" -o cat | wc -l)
[ "$jn" -ge "$count" ] || fail "the journal file has $jn entries"
for o in short short-precise short-iso short-iso-precise short-full \
	short-unix short-monotonic short-delta json json-seq json-sse \
	json-pretty verbose export cat; do
	journalctl --file "$jdir/remote.journal" -o "$o" >"$f/journalctl-$o" \
		2>"$f/journalctl-$o.err" ||
		fail "journalctl -o $o: $(cat "$f/journalctl-$o.err")"
	case $o in
	short) m=wall-s@wall+j ;;
	short-precise) m=wall-us@wall+j ;;
	short-iso) m=wall-s@real+j ;;
	short-iso-precise|short-unix) m=wall-us@real+j ;;
	short-full) m=wall-s@local+j ;;
	cat) m=none ;;
	*) m=mono ;;
	esac
	# the boot before is there; -o cat cannot tell systemd's line
	extra=$f/messages-prev
	[ "$o" = cat ] && extra="$extra $f/message-systemd"
	form "journalctl-$o" "$m" "$f/journalctl-$o"
done
journalctl --file "$jdir/remote.journal" -o export |
	{ extra=$f/messages-prev; form journalctl-export-stdin mono -; }
extra=$f/messages-prev
form "analyze-k-D" mono -k -D "$jdir"
form "analyze-k-D-b0" mono -k -D "$jdir" -b 0
# the boot before: its three messages and no incident
for b in -1 0b4a7e1f3c2d4a5b9e8f7a6b5c4d3e2f; do
	"$bin" analyze --json -k -D "$jdir" -b $b >"$out/boot$b.json" 2>&1
	rc=$?
	if [ $rc -eq 0 ] &&
	   grep -q '"summary":true.*"kernel":3,.*"incidents":0,' \
		"$out/boot$b.json"; then
		echo "ok: analyze -k -D DIR -b $b: 3 kernel messages, no incident"
	else
		nfail=$((nfail + 1))
		echo "FAIL: analyze -k -D DIR -b $b: exit $rc"
		tail -n 3 "$out/boot$b.json"
	fi
done

# -- syslog forms ---------------------------------------------------------
form kern.log mono "$f/kern.log"
form busybox mono "$f/busybox"
form busybox-S mono "$f/busybox-S"
form busybox-S-nostamp wall-s@wall "$f/busybox-S-nostamp"
form logread mono "$f/logread"
form metalog wall-s@wall "$f/metalog"
form metalog-stamp mono "$f/metalog-stamp"
form rfc5424 wall-us@real "$f/rfc5424"
form rfc3339 wall-us@real "$f/rfc3339"
form rfc3339-stamp mono "$f/rfc3339-stamp"
form talosctl wall-us@real "$f/talosctl"
form kmsg mono "$f/kmsg"
form kmsg-caller mono "$f/kmsg-caller"

# -- what people wrap around it: the dmesg form and the kern.log form ------
k=$f/kern.log
wrap() {	# NAME MODE SRC COMMAND...: COMMAND <SRC >FORM
	n=$1 m=$2 in=$3
	shift 3
	"$@" <"$in" >"$f/$n" || fail "$n: $* failed"
	form "$n" "$m" "$f/$n"
}
for src in dmesg kern.log; do
	s=$f/$src
	wrap "$src-indent4" mono "$s" sed 's/^/    /'
	wrap "$src-tab" mono "$s" sed 's/^/\t/'
	wrap "$src-quote" mono "$s" sed 's/^/> /'
	wrap "$src-quote2" mono "$s" sed 's/^/> > /'
	wrap "$src-cat-n" mono "$s" cat -n
	wrap "$src-nl-ba" mono "$s" nl -ba
	wrap "$src-grep-n" mono "$s" grep -n ''
	if command -v unix2dos >/dev/null; then
		wrap "$src-crlf" mono "$s" unix2dos
	else
		wrap "$src-crlf" mono "$s" sed 's/$/\r/'
	fi
	# a browser's copy: the space before the number a non-breaking one,
	# as in ../shared/field-logs/ (U+00A0, UTF-8 c2 a0), or every space
	wrap "$src-nbsp" mono "$s" \
		sed 's/\[\( *\) \([0-9][0-9]*\.[0-9]\{6\}\]\)/[\1\xc2\xa0\2/'
	wrap "$src-nbsp-all" mono "$s" \
		sed ':a;s/\(\[\(\xc2\xa0\)*\) \([ 0-9]*[0-9]\.[0-9]\{6\}\]\)/\1\xc2\xa0\3/;ta'
	# one line broken in two at column 60, as a browser or blog breaks it
	wrap "$src-broken" mono "$s" \
		sed '/Add\. Sense/s/^\(.\{60\}\)/\1\n/'
	# a Markdown fence with a sentence before and after it
	{
		echo "Here is what dmesg said when the copy stopped:"
		echo
		echo '```'
		cat "$s"
		echo '```'
		echo
		echo "Any idea? The enclosure is a QEMU one."
	} >"$f/$src-fence"
	sed -n '1p;$p' "$f/$src-fence" >"$f/prose"
	extra="?$f/prose"
	form "$src-fence" mono "$f/$src-fence"
	# grep -H and -nH over a file by name, as in a bug report
	cp "$s" "$work/$src.1"
	(cd "$work" && grep -H '' "$src.1") >"$f/$src-grep-H"
	form "$src-grep-H" mono "$f/$src-grep-H"
	(cd "$work" && grep -nH '' "$src.1") >"$f/$src-grep-nH"
	form "$src-grep-nH" mono "$f/$src-grep-nH"
	# compressed, named without an extension: content detection
	for z in gzip xz zstd bzip2; do
		"$z" -c -q <"$s" >"$f/$src-$z" || fail "$z failed"
		form "$src-$z" mono "$f/$src-$z"
	done
	# split in two at half its lines, given in order
	split -n l/2 "$s" "$f/$src-part."
	form "$src-split" mono "$f/$src-part.aa" "$f/$src-part.ab"
	# rotated logs joined: two gzip streams in one file
	{ gzip -c <"$f/$src-part.aa"; gzip -c <"$f/$src-part.ab"; } \
		>"$f/$src-gzip2"
	form "$src-gzip2" mono "$f/$src-gzip2"
	# standard input, plain and compressed
	form "$src-stdin" mono - <"$s"
	form "$src-stdin-zstd" mono - <"$f/$src-zstd"
done
# -- issue 34's families: what forums, pages, vendor kernels and log
# viewers put around or in a line.  BBCode and HTML markup around each
# line (forum colour and bold, a page's span and line break), as
# several posts do it
d=$f/dmesg
wrap dmesg-bbcode-color mono "$d" sed 's/^/[COLOR=#ff0000]/; s/$/[\/COLOR]/'
wrap dmesg-bbcode-b mono "$d" sed 's/^/[b]/; s/$/[\/b]/'
wrap dmesg-bbcode-nested mono "$d" \
	sed 's/^/[color=red][b]/; s/$/[\/b][\/color]/'
wrap dmesg-html-span mono "$d" \
	sed 's/^/<span style="color:red">/; s/$/<\/span><br>/'
wrap dmesg-html-br mono "$d" sed 's/$/<br \/>/'
# a vendor kernel's CPU field before the caller id ("[ 7.47][ 0] [ C0]")
wrap dmesg-vendor-cpu mono "$d" \
	sed 's/^\(\[ *[0-9]*\.[0-9]*\]\)/\1[ 0] [    C0]/'
wrap dmesg-samsung-task mono "$d" \
	sed 's/^\(\[ *[0-9]*\.[0-9]*\]\)/\1 [1:  kworker\/1:2:  123]/'
# a journal line cut to its "kernel: " tag, with and without the stamp
wrap kern.log-kernel-tag mono "$k" sed 's/^.* kernel: /kernel: /'
wrap dmesg-t-kernel-tag none "$f/dmesg-t" sed 's/^/kernel: /'
# a time of day and no date: a log viewer's "21:11:10 kernel: ", a
# terminal's "[18:14:04] " (made from dmesg -T's stamps, kept to the second)
dt='s/^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9]* \([0-9:]*\) [0-9]*\] */'
wrap dmesg-clock-bracket wall-s "$f/dmesg-T" sed "${dt}[\\1] /"
wrap dmesg-clock-kernel wall-s "$f/dmesg-T" sed "$dt\\1 kernel: /"
wrap dmesg-clock-host wall-s "$f/dmesg-T" sed "$dt\\1 nas kernel: /"

# zgrep -H over a rotated, compressed kern.log
gzip -c <"$k" >"$work/kern.log.2.gz"
(cd "$work" && zgrep -H '' kern.log.2.gz) >"$f/kern.log-zgrep-H"
form kern.log-zgrep-H mono "$f/kern.log-zgrep-H"

# -- not a kernel log (checked here; the forms are checked below) --------
"$bin" analyze --json /etc/os-release >"$out/os-release.out" \
	2>"$out/os-release.err"
rc=$?
if [ $rc -eq 4 ] && [ -s "$out/os-release.err" ]; then
	echo "ok: /etc/os-release: exit 4, $(head -n 1 "$out/os-release.err")"
else
	nfail=$((nfail + 1))
	echo "FAIL: /etc/os-release: exit $rc, stderr '$(cat "$out/os-release.err")'"
fi
: >"$work/empty"
"$bin" analyze --json "$work/empty" >"$out/empty.out" 2>"$out/empty.err"
rc=$?
case $rc in
0|4) echo "ok: empty file: exit $rc" ;;
*)	nfail=$((nfail + 1))
	echo "FAIL: empty file: exit $rc: $(cat "$out/empty.err")" ;;
esac

# Every form of $work/forms against the reference, one line each.  A form
# must exit 3 and give the reference's incidents: kind, device, disk, USB
# path, sense key, ASC/ASCQ, sector and LBA, in order, and their times as
# MODE says: mono the same; wall-us or wall-s the same distance from the
# reference's, to a microsecond or to the second the form keeps (with
# @CLOCK the distance clocks.json gives, else the smallest); none not
# compared.  No line may be malformed, and the kernel messages analyze
# --rows lists must be the base log's and those of the form's extra files
# (one named after a '?' may be there or not).
printf '%s\n' "$known_bugs" >"$work/known"
python3 - "$ref" "$out/forms" "$work/forms" "$work/known" "$f/messages" \
	"$f/clocks.json" <<'PY' || nfail=$((nfail + 1))
import collections, difflib, json, re, sys

ref, outdir, forms, known, messages, clocks = sys.argv[1:7]
clocks = json.load(open(clocks))
keys = ("kind", "dev", "disk", "usb", "key", "asc", "ascq", "sector", "lba")
known = dict(l.split(": ", 1) for l in re.sub(r"\n\t", " ",
             open(known).read()).splitlines() if ": " in l)

def incidents(path):
    incs, summary = [], None
    for line in open(path):
        j = json.loads(line)
        if j.get("summary"):
            summary = j
        else:
            incs.append(j)
    return incs, summary

def lines(path):
    return [m.rstrip() for m in open(path).read().splitlines()]

r, _ = incidents(ref)
wanted = {"sense:sda", "timeout:sda", "abort:sda", "reset:2-1",
          "recovered:host0", "disconnect:2-1"}
have = {"%s:%s" % (j["kind"], j["dev"]) for j in r}
if not wanted <= have:
    print("FAIL: the plain form lacks %s" % " ".join(sorted(wanted - have)))
    sys.exit(1)
print("reference: %s" % " ".join("%s:%s" % (j["kind"], j["dev"]) for j in r))

def row(j, rj, mode, base):
    """incident j as a line; rj is the reference's at the same place, base
    the distance of the form's wall clock from the reference's (None for
    the reference itself)"""
    cols = ["%s=%s" % (k, j.get(k)) for k in keys]
    if mode == "mono":
        cols.append("t=%.6f" % j["t"] if j.get("t") is not None else "t=-")
        cols.append("clock=%s" % j.get("clock"))
    elif mode.startswith("wall"):
        tol = 2e-6 if mode == "wall-us" else 1.0 + 2e-6
        if j.get("t") is None or j.get("clock") in (None, "none"):
            cols.append("t=-")
        elif base is None:
            cols.append("t=same")
        elif rj is not None and rj.get("t") is not None:
            off = j["t"] - rj["t"] - base
            cols.append("t=%s" % ("same" if -2e-6 <= off <= tol
                                  else "%+.6f" % off))
    return " ".join(cols)

def check(name, mode, rc, extra):
    problems = []
    if rc != 3:
        err = [l for l in lines("%s/%s.err" % (outdir, name))
               if not re.match(r"^\d+ ", l)]
        return ["exit status %d, want 3" % rc] + err[-2:], ""
    g, s = incidents("%s/%s.json" % (outdir, name))
    if s is None:
        problems.append("no summary object")
    elif s["malformed"]:
        problems.append("%d lines malformed" % s["malformed"])
    # "LINE ROW MESSAGE" on stderr for each kernel message (trailing
    # blanks cut), among analyze's other words there
    want, maybe = collections.Counter(lines(messages)), collections.Counter()
    for e in extra.split():
        (maybe if e.startswith("?") else want).update(lines(e.lstrip("?")))
    read = collections.Counter()
    for line in open("%s/%s.err" % (outdir, name), errors="replace"):
        m = re.match(r"^\d+ \S+ (.*)$", line.rstrip("\n"))
        if m:
            read[m.group(1).rstrip()] += 1
    for m in sorted((read - want - maybe).elements()):
        problems.append("read as a kernel message: '%s'" % m)
    for m in sorted((want - read).elements()):
        problems.append("kernel message lost: '%s'" % m)
    # a wall clock's distance from the printk time: where the boot is on
    # that clock (mode@clock), or else the smallest distance over the
    # incidents; a form that keeps whole seconds cuts up to one
    mode, _, clock = mode.partition("@")
    offs = [j["t"] - i["t"] for i, j in zip(r, g)
            if j.get("t") is not None and i.get("t") is not None]
    if clock:
        base = clocks[clock] - (1.0 if mode == "wall-s" else 0.0)
    else:
        base = min(offs) if offs else 0.0
    diff = difflib.unified_diff(
        [row(j, None, mode, None) for j in r],
        [row(j, r[n] if n < len(r) else None, mode, base)
         for n, j in enumerate(g)], "plain dmesg", name, lineterm="")
    return problems[:10] + list(diff), \
        "%d incidents, %d kernel messages" % (len(g), sum(read.values()))

# the failures last, where a log's tail shows them
failed, report = [], []
for line in open(forms).read().splitlines():
    name, mode, rc, extra = line.split("\t")
    problems, summary = check(name, mode, int(rc), extra)
    if not problems and name not in known:
        print("ok: %s (%s)" % (name, summary))
        continue
    failed.append(name)
    if not problems:
        report.append("FIXED?: %s passes; take it off known_bugs" % name)
    elif name in known:
        report.append("KNOWN BUG: %s: %s" % (name, known[name]))
    else:
        report.append("FAIL: %s" % name)
    report += ["  " + p for p in problems[:40]]
print("\n".join(report))
if failed:
    print("%d forms differ: %s" % (len(failed), " ".join(failed)))
sys.exit(1 if failed else 0)
PY
[ $nfail -eq 0 ] || fail "see above; the inputs are in $f"
echo "PASS: every form gives the plain dmesg form's incidents"
