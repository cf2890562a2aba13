# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Sourced by the host tests: usbtrail on files (and loop devices) of this
# machine, no guest.  Each test exits 0 (pass), 77 (skip) or 1 (fail).

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${USBTRAIL:-$top/userspace/usbtrail}
out=${HOST_OUT:-$top/build/tests/$(basename "$0" .sh)}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/usbtrail-host.XXXXXX") || exit 1
cleanup_hooks=
trap 'eval "$cleanup_hooks"; rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

[ -x "$bin" ] || { echo "SKIP: no $bin (run make)"; exit 77; }

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# stress ARGS...: run usbtrail stress, stdout to $out/last.out, status in $rc
stress() {
	echo "+ usbtrail stress $*"
	"$bin" stress "$@" >"$out/last.out" 2>"$out/last.err"
	# shellcheck disable=SC2034 # read by the tests after stress()
	rc=$?
	sed 's/^/  /' "$out/last.err" | tail -n 5
	return 0
}

# json EXPR: evaluate a Python expression over the JSON in $out/last.out
# (bound to j); prints the value
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$out/last.out" "$1"
}

# check WHAT GOT WANT
check() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1 = $3"
}

# poke FILE OFFSET: flip the lowest bit of the byte at OFFSET
poke() {
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2]))
b = f.read(1); f.seek(int(sys.argv[2])); f.write(bytes([b[0] ^ 1]))' "$1" "$2"
}

# copy SRC SRC_OFFSET DST DST_OFFSET LEN: bytes from one file into another
copy() {
	python3 -c 'import sys
s = open(sys.argv[1], "rb"); s.seek(int(sys.argv[2]))
d = open(sys.argv[3], "r+b"); d.seek(int(sys.argv[4]))
d.write(s.read(int(sys.argv[5])))' "$@"
}

# fill FILE OFFSET LEN BYTE: LEN bytes of value BYTE
fill() {
	python3 -c 'import sys
d = open(sys.argv[1], "r+b"); d.seek(int(sys.argv[2]))
d.write(bytes([int(sys.argv[4])]) * int(sys.argv[3]))' "$@"
}

# start_bg SECS CMD ARGS...: CMD in the background in a process group of
# its own, SIGINT and SIGTERM at their defaults (sh has a background job
# ignore SIGINT), stdout and stderr to $out/last.out and last.err; the
# group killed after SECS whatever happens; its pid in $pid
start_bg() {
	limit=$(($1 * 10))
	shift
	: >"$out/last.out"
	: >"$out/last.err"	# before the job starts: readers wait on it
	setsid env --default-signal=INT,TERM "$@" \
		>"$out/last.out" 2>"$out/last.err" &
	pid=$!
	(
		i=0
		while kill -0 "$pid" 2>/dev/null; do
			i=$((i + 1))
			[ "$i" -le "$limit" ] || { kill -KILL "-$pid"; break; }
			sleep 0.1
		done
	) 2>/dev/null &
}
