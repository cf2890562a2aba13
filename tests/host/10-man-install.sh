#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The man page renders without a warning and names every command the
# binary has; make install puts both where PREFIX says.
. "$(dirname "$0")/lib.sh"

command -v groff >/dev/null || skip "groff is not installed"
make -s -C "$top" man MAN_PAGE="$work/usbtrail.1" >"$out/man.log" 2>&1 ||
	fail "make man failed: $(tail -n 3 "$out/man.log")"
groff -man -ww -z "$work/usbtrail.1" >"$out/groff.err" 2>&1
[ ! -s "$out/groff.err" ] || fail "groff warns: $(head -n 3 "$out/groff.err")"
echo "ok: the man page renders without warnings"

"$bin" --help >"$out/help.txt"
cmds=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' \
	"$out/help.txt")
[ -n "$cmds" ] || fail "usbtrail --help lists no commands"
for c in $cmds; do
	[ "$c" = help ] && continue
	grep -q "^\.SS $c\$" "$work/usbtrail.1" ||
		fail "the man page has no section for '$c'"
done
echo "ok: the man page covers: $(echo "$cmds" | tr '\n' ' ')"

make -s -C "$top" install DESTDIR="$work/root" PREFIX=/usr >/dev/null ||
	fail "make install failed"
[ -x "$work/root/usr/bin/usbtrail" ] || fail "make install: no usr/bin/usbtrail"
[ -f "$work/root/usr/share/man/man1/usbtrail.1" ] ||
	fail "make install: no man page"
"$work/root/usr/bin/usbtrail" --version >/dev/null ||
	fail "the installed usbtrail does not run"
echo "ok: make install DESTDIR= PREFIX=/usr"
