#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One version, in VERSION: the command prints it, make man writes it into
# the man page, dkms.conf and debian/changelog carry the same (the
# module's is checked where it is built, tests/lint/module.sh).
. "$(dirname "$0")/lib.sh"

ver=$(cat "$top/VERSION")
case $ver in
[0-9]*.[0-9]*) ;;
*) fail "VERSION holds '$ver', not a version" ;;
esac
echo "ok: VERSION is $ver"

got=$("$bin" --version)
case $got in
"usbtrail $ver" | "usbtrail $ver (git "*")") ;;
*) fail "usbtrail --version says '$got', VERSION $ver" ;;
esac
echo "ok: usbtrail --version: $got"

dk=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
[ "$dk" = "$ver" ] || fail "dkms.conf's PACKAGE_VERSION is '$dk', VERSION $ver"
echo "ok: dkms.conf PACKAGE_VERSION=$dk"

# the man page's source has no version of its own: make man puts VERSION's in
th=$(grep '^\.TH ' "$top/man/usbtrail.1.in")
case $th in
*'"usbtrail @VERSION@"'*) ;;
*) fail "man/usbtrail.1.in's .TH is '$th', not \"usbtrail @VERSION@\"" ;;
esac
make -s -C "$top" man MAN_PAGE="$work/usbtrail.1" >"$out/man.log" 2>&1 ||
	fail "make man failed: $(tail -n 3 "$out/man.log")"
th=$(grep '^\.TH ' "$work/usbtrail.1")
case $th in
*"\"usbtrail $ver\""*) ;;
*) fail "make man's .TH is '$th', VERSION $ver" ;;
esac
echo "ok: make man: $th"

# the Debian packages' version (debian/rules refuses a mismatch;
# tests/host/40-deb-package.sh builds them)
if command -v dpkg-parsechangelog >/dev/null; then
	cl=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
	[ "$cl" = "$ver" ] ||
		fail "debian/changelog is at '$cl', VERSION $ver (add an entry: dch -v $ver)"
	echo "ok: debian/changelog is at $cl"
fi

grep -q 'MODULE_VERSION(USBTRAIL_VERSION)' "$top/module/ut_main.c" ||
	fail "module/ut_main.c does not take its version from VERSION"
echo "ok: the module's MODULE_VERSION comes from VERSION"

# 'sudo make install' after 'make': root reads a tree the user owns, where
# git refuses ("dubious ownership"); the git commit must still be found,
# or the stamp changes and install rebuilds a binary without it
if [ "$(id -u)" = 0 ] && command -v git >/dev/null &&
	git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git clone -q "$top" "$work/tree" || fail "git clone"
	cp "$top/userspace/Makefile" "$work/tree/userspace/Makefile"
	chown -R 65534:65534 "$work/tree"
	rev=$(make -n -p -C "$work/tree/userspace" build/stamp 2>/dev/null |
		sed -n 's/^GIT_REV := //p')
	case $rev in
	''|*' '*) fail "as root in a tree of another user, no git commit: '$rev'" ;;
	esac
	echo "ok: as root in another user's tree, the commit is found ($rev)"
fi
