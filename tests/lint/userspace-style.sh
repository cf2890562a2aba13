#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The userspace C is in the kernel's style (docs: /work/shared/STYLE.md,
# "the same indentation as the kernel"), so the kernel's checker is its
# style check: checkpatch.pl --no-tree -f over userspace/, userspace/lib/,
# the unit tests, fuzzers, test tools and benchmarks, as TAP (one point a
# directory).
#
# Not checked, as they are kernel rules with no userspace counterpart:
#   SPLIT_STRING   one-line kernel messages are for grepping the kernel's
#                  log; help texts, HTML and JSON here are split at 80
#                  columns on purpose, as usbutils does
#   ARRAY_SIZE     the kernel's ARRAY_SIZE() is not in userspace's headers
#                  (kshim/ has one for the module's shared files only)
#   PREFER_DEFINED_ATTRIBUTE_MACRO  __printf() and the like are the
#                  kernel's compiler_attributes.h, not userspace's
#
# What the tree had when this check came (tests/lint/userspace-style.known,
# "FILE TYPE COUNT") is tolerated, not more: a file may not gain a finding
# of a type, and a file not listed must be clean.  When a count goes down
# the check says so; rewrite the list with
#   UPDATE=1 tests/lint/userspace-style.sh
# and review its diff.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
checkpatch=${CHECKPATCH:-/var/cache/usbtrail/checkpatch/scripts/checkpatch.pl}
known=tests/lint/userspace-style.known
ignore=SPLIT_STRING,ARRAY_SIZE,PREFER_DEFINED_ATTRIBUTE_MACRO
dirs="userspace userspace/lib tests/unit tests/fuzz tests/tools bench"

if [ ! -f "$checkpatch" ]; then
	echo "ok 1 - userspace style # SKIP no $checkpatch (tools/deps.sh)"
	echo "1..1"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=''
for d in $dirs; do
	for f in "$d"/*.c "$d"/*.h; do
		[ -f "$f" ] && files="$files $f"
	done
done
# checkpatch takes a second or more a file: all cores at once, one
# output file each
jobs=$(nproc 2>/dev/null || echo 2)
# shellcheck disable=SC2016,SC2086 # $0.. are the inner sh's; the tree's
# file names have no blanks
printf '%s\n' $files | xargs -P "$jobs" -n 1 sh -c '
	perl "$0" --no-tree -f --terse --show-types --ignore "$1" "$3" \
		>"$2/$(echo "$3" | tr / _).cp" 2>&1' "$checkpatch" "$ignore" "$tmp"
# "FILE:LINE: LEVEL:TYPE: text" -> "FILE TYPE COUNT", sorted
cat "$tmp"/*.cp | sed -n 's/^\([^:]*\):[0-9]*: [A-Z]*:\([A-Z0-9_]*\):.*/\1 \2/p' |
	sort | uniq -c | awk '{ print $2, $3, $1 }' >"$tmp/found"
# anything but findings and "total:" lines: checkpatch itself failed
cat "$tmp"/*.cp | grep -v -e '^[^:]*:[0-9]*: [A-Z]*:[A-Z0-9_]*:' \
	-e '^total: ' -e '^$' >"$tmp/broken"

if [ "${UPDATE:-}" = 1 ]; then
	{
		echo "# checkpatch findings tests/lint/userspace-style.sh tolerates:"
		echo "# FILE TYPE COUNT (UPDATE=1 tests/lint/userspace-style.sh)"
		cat "$tmp/found"
	} >"$known"
fi

n=0 failed=0
for d in $dirs; do
	n=$((n + 1))
	nfiles=0
	for f in $files; do
		[ "${f%/*}" = "$d" ] && nfiles=$((nfiles + 1))
	done
	# findings over the list, and counts the list can lose
	awk -v d="$d" '
		function indir(f) { sub("/[^/]*$", "", f); return f == d }
		FNR == NR { if ($1 !~ /^#/ && indir($1)) had[$1 " " $2] = $3; next }
		indir($1) {
			k = $1 " " $2; now[k] = $3
			if ($3 > had[k] + 0)
				printf "over %s: %d, known %d\n", k, $3, had[k] + 0
		}
		END {
			for (k in had)
				if (now[k] + 0 < had[k])
					printf "less %s: %d, known %d\n", k, now[k] + 0, had[k]
		}' "$known" "$tmp/found" | sort >"$tmp/diff"
	if grep -q '^over ' "$tmp/diff"; then
		echo "not ok $n - checkpatch $d/ ($nfiles files): new findings"
		failed=1
		sed -n 's/^over \([^ ]*\) \([^:]*\):.*/\1 \2/p' "$tmp/diff" |
			while read -r f t; do
				grep -h ": [A-Z]*:$t:" "$tmp/$(echo "$f" | tr / _).cp"
			done | head -n 40 | sed 's/^/# /'
		grep '^over ' "$tmp/diff" | sed 's/^over /# count: /'
	else
		echo "ok $n - checkpatch $d/ ($nfiles files)"
	fi
	grep '^less ' "$tmp/diff" | sed "s|^less |# fixed, lower $known: |"
done
if [ -s "$tmp/broken" ]; then
	n=$((n + 1))
	echo "not ok $n - checkpatch ran on every file"
	head -n 20 "$tmp/broken" | sed 's/^/# /'
	failed=1
fi
echo "1..$n"
exit $failed
