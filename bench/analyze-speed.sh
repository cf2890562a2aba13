#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# usbtrail analyze over a million log lines, on one core, against grep
# (what people run on a kernel log today: grep -ciE for the usual words)
# in the same run: elapsed time (best of ROUNDS), lines a second, the
# ratio to grep, and the largest resident set, at the size asked and at
# four times it (memory must not grow with the input).
#
#   bench/analyze-speed.sh [LINES] [ROUNDS]    (default 1000000, 5)
#   OLD=path/to/usbtrail bench/analyze-speed.sh   also times another build
#                                                 (text output), as "old"
#
# Inputs, each cut to LINES lines:
#   corpus   the real logs of tests/fixtures/logs, one after the other,
#            again and again (every form, kernels 2.4 to 6.12)
#   failing  the field log this project started from, in the tree
#            (tests/fixtures/logs/field-2013-asm1053-plextor-not-ready.log),
#            again and again: a log that is mostly failed commands
# Issue 13's goal: a million lines in under 2 s on one core.
# Prints a Markdown table for docs/performance.md.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lines=${1:-1000000}
rounds=${2:-5}
bin=$top/userspace/usbtrail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -x "$bin" ] || make -s -C "$top/userspace" >/dev/null
core=
command -v taskset >/dev/null && core="taskset -c 0"

# N lines of the files given, repeated
repeat() {	# N OUT FILE...
	n=$1 o=$2
	shift 2
	: >"$o.one"
	for f in "$@"; do
		# a file that is not there or does not decode is an error: a
		# newline in its place would make an input of nothing
		[ -f "$f" ] || { echo "analyze-speed.sh: no input $f" >&2; exit 1; }
		case $f in
		*.gz) gzip -dc "$f" ;;
		*.xz) xz -dc "$f" ;;
		*.zst) zstd -qdc "$f" ;;
		*.bz2) bzip2 -dc "$f" ;;
		*) cat "$f" ;;
		esac >>"$o.one" ||
			{ echo "analyze-speed.sh: $f: cannot be read" >&2; exit 1; }
		echo >>"$o.one"
	done
	have=$(wc -l <"$o.one")
	[ "$have" -gt 0 ] || { echo "no lines in $*" >&2; exit 1; }
	k=$(( (n + have - 1) / have ))
	i=0
	while [ $i -lt $k ]; do
		cat "$o.one"
		i=$((i + 1))
	done | head -n "$n" >"$o"
	rm -f "$o.one"
}

# best elapsed seconds and largest RSS (KiB) of ROUNDS runs: "S KB"
best() {	# COMMAND...
	r=0
	: >"$out/times"
	while [ $r -lt "$rounds" ]; do
		# not >/dev/null: grep stops at its first match there
		# shellcheck disable=SC2086 # $core: a command and its arguments
		/usr/bin/time -q -f '%e %M' -o "$out/t1" $core "$@" \
			>"$out/stdout" 2>"$out/err" || [ $? -le 4 ] ||
			{ cat "$out/err" >&2; exit 1; }
		cat "$out/t1" >>"$out/times"
		r=$((r + 1))
	done
	sort -n "$out/times" | awk 'NR == 1 { s = $1 } { if ($2 > m) m = $2 }
		END { print s, m }'
}

[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian: time)" >&2; exit 1; }
logs=''
for f in "$top"/tests/fixtures/logs/*; do
	case $f in *.expect|*.md) continue ;; esac
	logs="$logs $f"
done
# shellcheck disable=SC2086 # the tree's file names, split on purpose
repeat "$lines" "$out/corpus" $logs
repeat "$lines" "$out/failing" \
	"$top"/tests/fixtures/logs/field-2013-asm1053-plextor-not-ready.log
repeat $((4 * lines)) "$out/corpus4" "$out/corpus"

pat='error|reset|sense|abort|timeout|offline|disconnect'
old=${OLD:-}
echo "| input | lines | grep -ciE | analyze | analyze --json | analyze/grep | lines/s | max RSS |${old:+ old analyze | analyze/old |}"
echo "|---|---:|---:|---:|---:|---:|---:|---:|${old:+---:|---:|}"
# shellcheck disable=SC2046 # best prints "SECONDS KB": split on purpose
for in in corpus failing corpus4; do
	n=$(wc -l <"$out/$in")
	set -- $(best grep -ciE "$pat" "$out/$in")
	g=$1
	set -- $(best "$bin" analyze "$out/$in")
	a=$1 rss=$2
	set -- $(best "$bin" analyze --json "$out/$in")
	j=$1
	[ "$2" -gt "$rss" ] && rss=$2
	o=
	if [ -n "$old" ]; then
		set -- $(best "$old" analyze "$out/$in")
		o=$1
	fi
	awk -v name="$in" -v n="$n" -v g="$g" -v a="$a" -v j="$j" -v m="$rss" \
		-v o="$o" \
		'BEGIN { printf "| %s | %d | %.2f s | %.2f s | %.2f s | %.1fx | %.0f | %.1f MiB |",
			name, n, g, a, j, (g > 0 ? a / g : 0), (a > 0 ? n / a : 0),
			m / 1024
			if (o != "")
				printf " %.2f s | %.2fx |", o, (o > 0 ? a / o : 0)
			printf "\n" }'
done
