#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# sudo usbtrail record: the recording belongs to the user who ran sudo
# (SUDO_UID, SUDO_GID), so that usbtrail report runs on it without sudo
# (docs/user-guide.md).  A DIR record makes is theirs; one that was there
# keeps its owner, the files in it are theirs; SUDO_UID=0 or garbage is
# ignored.  record-ns.inc gives a kernel log root can read.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/record-ns.inc"

# owners DIR: "UID:GID" of DIR and of each file in it, one line each
owners() {
	find "$1" -exec stat -c '%u:%g %n' {} + | sort -k 2
}

# all_owned DIR UID:GID [ALSO_DIR_OWNER]: DIR's files owned so (and DIR
# itself by ALSO_DIR_OWNER, default the same)
all_owned() {
	owners "$1" >"$out/owners"
	sed 's/^/  /' "$out/owners"
	want_dir=${3:-$2}
	while read -r who path; do
		want=$2
		[ "$path" = "$1" ] && want=$want_dir
		[ "$who" = "$want" ] || fail "$path is $who's, not $want's"
	done <"$out/owners"
	for f in events.jsonl capture.pcapng meta.json; do
		[ -f "$1/$f" ] || fail "no $1/$f"
	done
}

KMSG=real
record made sudo:65534:65534 -q -o "$area/rec" -- true
[ "$rc" = 3 ] && skip "/dev/kmsg cannot be read here even as root"
check "exit status under sudo" "$rc" 0
all_owned "$area/rec" 65534:65534
echo "ok: DIR made by record and its files are the user's"

# what docs/user-guide.md does next, as that user: the report goes into DIR
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$bin" report "$area/rec" >"$out/report.out" 2>"$out/report.err" ||
	fail "usbtrail report as the user: $(cat "$out/report.err")"
for f in report.html report.txt; do
	[ -s "$area/rec/$f" ] || fail "no $f in $area/rec"
done
echo "ok: usbtrail report as the user writes into the recording"

# a DIR that was there keeps its owner; what record writes is the user's
mkdir "$area/pre"
record pre sudo:65534:65534 -q -o "$area/pre" --duration 1
check "exit status, existing DIR" "$rc" 0
all_owned "$area/pre" 65534:65534 0:0
echo "ok: an existing DIR keeps its owner, the files are the user's"

# SUDO_GID garbled: the user's, the group root's
record gid sudo:65534:x -q -o "$area/gid" -- true
check "exit status, SUDO_GID=x" "$rc" 0
all_owned "$area/gid" 65534:0

# SUDO_UID of root, or garbled: ignored, all root's
for u in 0 65534x -1 ''; do
	record "uid$u" "sudo:$u:65534" -q -o "$area/uid$u" -- true
	check "exit status, SUDO_UID='$u'" "$rc" 0
	all_owned "$area/uid$u" 0:0
done
echo "ok: SUDO_UID 0 or garbage is ignored"

