#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make install puts the command, the man page and the documents the page
# points at where PREFIX says; the installed page renders without a
# warning (groff, and man -l where man-db is installed) and names every
# command the binary has; make uninstall takes it all away again.
. "$(dirname "$0")/lib.sh"

command -v groff >/dev/null || skip "groff is not installed"

root=$work/root
make -s -C "$top" install DESTDIR="$root" PREFIX=/usr >"$out/install.log" 2>&1 ||
	fail "make install failed: $(tail -n 3 "$out/install.log")"
[ -x "$root/usr/bin/usbtrail" ] || fail "make install: no usr/bin/usbtrail"
page=$root/usr/share/man/man1/usbtrail.1
[ -f "$page" ] || fail "make install: no usr/share/man/man1/usbtrail.1"
"$root/usr/bin/usbtrail" --version >/dev/null ||
	fail "the installed usbtrail does not run"
echo "ok: make install DESTDIR= PREFIX=/usr"

# the dissector where this machine's Wireshark looks for Lua plugins
lua=$root/usr/lib/$(cc -print-multiarch)/wireshark/plugins/usbtrail.lua
[ -f "$lua" ] || fail "make install: no ${lua#"$root"}"
if command -v tshark >/dev/null; then
	want=$(tshark -G folders 2>/dev/null |
		sed -n 's/^Global Lua Plugins:[[:space:]]*//p')
	[ "$root$want/usbtrail.lua" = "$lua" ] ||
		fail "the dissector went to ${lua#"$root"}, Wireshark looks in $want"
fi
echo "ok: the Wireshark dissector installed as ${lua#"$root"}"

! grep -n '@[A-Z_]*@' "$page" >"$out/placeholders" ||
	fail "the installed man page keeps $(head -n 1 "$out/placeholders")"
groff -man -ww -z "$page" >"$out/groff.err" 2>&1
[ ! -s "$out/groff.err" ] || fail "groff warns: $(head -n 3 "$out/groff.err")"
echo "ok: the installed man page renders without warnings"

if command -v man >/dev/null; then
	MANWIDTH=80 MANPAGER=cat man -l "$page" >"$out/man.txt" 2>"$out/man.err" ||
		fail "man -l failed: $(head -n 3 "$out/man.err")"
	! grep -i 'warning' "$out/man.err" ||
		fail "man -l warns: $(head -n 3 "$out/man.err")"
	grep -q '^EXIT STATUS' "$out/man.txt" ||
		fail "man -l shows no EXIT STATUS"
	echo "ok: man -l renders it ($(wc -l <"$out/man.txt") lines)"
else
	echo "# man-db is not installed: man -l not tried"
fi

"$bin" --help >"$out/help.txt"
cmds=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' \
	"$out/help.txt")
[ -n "$cmds" ] || fail "usbtrail --help lists no commands"
for c in $cmds; do
	grep -q "^\.SS $c\$" "$page" ||
		fail "the man page has no section for '$c'"
done
echo "ok: the man page covers: $(echo "$cmds" | tr '\n' ' ')"

# The documents: the directory the page names, with what it names in it
docdir=$(grep -o '/[^ ]*/share/doc/usbtrail' "$page" | sort -u)
[ "$docdir" = /usr/share/doc/usbtrail ] ||
	fail "the page names the documents in '$docdir', not /usr/share/doc/usbtrail"
[ -f "$root$docdir/README.md" ] || fail "make install: no $docdir/README.md"
for d in "$top"/docs/*.md; do
	[ -f "$root$docdir/docs/${d##*/}" ] ||
		fail "make install: no $docdir/docs/${d##*/}"
done
named=$(sed 's/\\-/-/g' "$page" | grep -o '[A-Za-z][A-Za-z/-]*\.md' | sort -u)
for n in $named; do
	case $n in
	README.md) f=$docdir/README.md ;;
	*) f=$docdir/docs/${n#docs/} ;;
	esac
	[ -f "$root$f" ] || fail "the page names $n, but $f is not installed"
done
echo "ok: $docdir holds README.md, docs/*.md and all the page names:" \
	"$(echo "$named" | tr '\n' ' ')"

# The service of usbtrail watch: installed with this PREFIX's paths, its
# settings beside it; systemd-analyze finds nothing wrong with the unit
unit=$root/usr/lib/systemd/system/usbtrail-watch.service
[ -f "$unit" ] || fail "make install: no usr/lib/systemd/system/usbtrail-watch.service"
grep -q '^ExecStart=/usr/bin/usbtrail watch .*--config /etc/usbtrail/watch.conf' \
	"$unit" || fail "the unit runs: $(grep ^ExecStart "$unit")"
[ -f "$root/etc/usbtrail/watch.conf" ] || fail "make install: no etc/usbtrail/watch.conf"
"$root/usr/bin/usbtrail" watch --config "$root/etc/usbtrail/watch.conf" \
	--dir /nonexistent/x >/dev/null 2>"$out/conf.err"
grep -q "cannot write into /nonexistent/x" "$out/conf.err" ||
	fail "watch did not get past the shipped watch.conf: $(cat "$out/conf.err")"
echo "ok: the unit and watch.conf are installed, watch.conf parses"
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$work/unit"
	make -s -C "$top" unit BINDIR="$top/userspace" \
		UNIT="$work/unit/usbtrail-watch.service" >/dev/null
	systemd-analyze verify --man=no "$work/unit/usbtrail-watch.service" \
		>"$out/verify.out" 2>&1 || fail "systemd-analyze verify failed"
	[ ! -s "$out/verify.out" ] ||
		fail "systemd-analyze verify: $(head -n 3 "$out/verify.out")"
	echo "ok: systemd-analyze verify: no finding"
else
	echo "# systemd-analyze is not installed: the unit not verified"
fi

make -s -C "$top" uninstall DESTDIR="$root" PREFIX=/usr >"$out/uninstall.log" 2>&1 ||
	fail "make uninstall failed: $(tail -n 3 "$out/uninstall.log")"
left=$(cd "$root" && find . -type f)
[ -z "$left" ] || fail "make uninstall left: $(echo "$left" | head -n 3)"
[ ! -d "$root$docdir" ] || fail "make uninstall left $docdir"
echo "ok: make uninstall removes it all"
