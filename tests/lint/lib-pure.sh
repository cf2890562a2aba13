#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# userspace/lib/ is the pure core (userspace/README.md), as TAP:
#  1. no object of it opens anything: no open, fopen, opendir, openat
#     (nor their 64-bit, fortified or fd variants);
#  2. none calls a function of the command's own files (userspace/*.c);
#  3. its files include no header of the command's.
#   tests/lint/lib-pure.sh [BUILD-DIR]   (default build: userspace/build)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
u=$top/userspace
b=$u/${1:-build}
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; echo "$2" | sed 's/^/# /'; }

# the objects of lib/*.c and of the command's files but main.c, as make
# targets; appo, the command's as paths: of the sources there are (not
# what an older layout left in the build directory)
targets='' appo=''
for f in "$u"/lib/*.c; do
	f=${f##*/}
	targets="$targets ${1:-build}/lib/${f%.c}.o"
done
for f in "$u"/*.c; do
	f=${f##*/}
	[ "$f" = main.c ] && continue
	targets="$targets ${1:-build}/${f%.c}.o"
	appo="$appo $b/${f%.c}.o"
done
# shellcheck disable=SC2086 # a list of file names, split on purpose
if ! make -s -C "$u" $targets >/dev/null 2>&1; then
	echo "not ok 1 - build the objects"
	echo "1..1"
	exit 1
fi
libo=$(ls "$b"/lib/*.o)

opens='^(open|open64|__open_2|__open64_2|fopen|fopen64|freopen|fdopen|opendir|fdopendir|openat|openat64|__openat_2|creat|popen)$'
bad=$(for o in $libo; do
	nm -u "$o" | awk '{ print $2 }' | grep -E "$opens" |
		sed "s|^|$(basename "$o"): |"
done)
if [ -z "$bad" ]; then
	ok "lib/ opens nothing ($(echo "$libo" | wc -w) objects)"
else
	nok "lib/ opens files" "$bad"
fi

# what the command's objects define, against what lib/ needs
# shellcheck disable=SC2086 # a list of file names, split on purpose
nm -g --defined-only $appo 2>/dev/null | awk 'NF == 3 { print $3 }' |
	sort -u >"$b/.app-defs"
bad=$(for o in $libo; do
	nm -u "$o" | awk '{ print $2 }' | grep -Fxf "$b/.app-defs" |
		sed "s|^|$(basename "$o") calls |"
done)
rm -f "$b/.app-defs"
if [ -z "$bad" ]; then
	ok "lib/ calls nothing of the command's"
else
	nok "lib/ calls the command's code" "$bad"
fi

bad=$(cd "$u" && for f in lib/*.c lib/*.h; do
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		[ -f "lib/$h" ] || [ -f "../module/$h" ] ||
			[ -f "../module/uapi/$h" ] || echo "$f includes $h"
	done
done)
if [ -z "$bad" ]; then
	ok "lib/ includes only lib/ and the module's shared headers"
else
	nok "lib/ includes the command's headers" "$bad"
fi
echo "1..$n"
exit $failed
