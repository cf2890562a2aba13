#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The Debian packages: dpkg-buildpackage -us -uc -b builds usbtrail and
# usbtrail-dkms from a copy of the tree (the work tree gets no debian/
# products), lintian finds no error in them, and apt installs them into a
# Debian 12 chroot (tools/deps.sh --deb makes it: dkms, man-db and the
# test bed's default kernel headers, nothing of usbtrail's libraries), so
# apt resolves their Depends there.  In it usbtrail runs, its man page
# shows, and installing usbtrail-dkms has DKMS build and install
# usbtrail.ko for the test bed's kernel; removing it takes the module
# away again.  About 3 minutes on two cores (the build is half of it).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (chroot, mounts)"
for c in dpkg-buildpackage dh dh_dkms lintian zstd unshare; do
	command -v "$c" >/dev/null ||
		skip "no $c (run tools/deps.sh --deb)"
done
ver=$(cat "$top/VERSION")
abi=$(awk '$1 == "default" { print $2 }' "$top/tools/kernels.conf")
# tools/deps.sh's deb_chroot names it so
tarball=
for t in /var/cache/usbtrail/chroot/bookworm-v*-"$abi".tar.zst; do
	[ -f "$t" ] && tarball=$t
done
[ -n "$tarball" ] || skip "no chroot tarball for $abi (run tools/deps.sh --deb)"

# the changelog's version is VERSION's (debian/rules stops otherwise)
cl=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
[ "$cl" = "$ver" ] || fail "debian/changelog is at $cl, VERSION at $ver"
echo "ok: debian/changelog's version is VERSION's ($ver)"

# A copy of the tree as it is on disk (committed or not), without build/
# and .git: what git knows of, or everything where there is no git.
pkg=$out/pkg
src=$pkg/usbtrail-$ver
rm -rf "$pkg"
mkdir -p "$src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -co --exclude-standard -z |
		(cd "$top" && tar --null -T - -cf -) | tar -x -C "$src"
else
	(cd "$top" && tar --exclude=./build --exclude=./.git -cf - .) |
		tar -x -C "$src"
fi || fail "cannot copy the tree into $src"

echo "+ dpkg-buildpackage -us -uc -b (log: $pkg/build.log)"
start=$(date +%s)
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$pkg/build.log" 2>&1 ||
	fail "dpkg-buildpackage failed: $(tail -n 15 "$pkg/build.log")"
arch=$(dpkg --print-architecture)
deb=$pkg/usbtrail_${ver}_$arch.deb
dkms_deb=$pkg/usbtrail-dkms_${ver}_all.deb
for f in "$deb" "$dkms_deb" "$pkg/usbtrail_${ver}_$arch.changes"; do
	[ -f "$f" ] || fail "dpkg-buildpackage made no ${f##*/}"
done
echo "ok: built ${deb##*/} and ${dkms_deb##*/} in $(($(date +%s) - start)) s"

# lintian: no error; warnings are shown, overrides say why (debian/*.lintian-overrides)
lintian --info --fail-on error "$pkg/usbtrail_${ver}_$arch.changes" \
	>"$pkg/lintian.txt" 2>&1
lrc=$?
grep -v 'running with root privileges' "$pkg/lintian.txt" | sed 's/^/  /'
! grep -q '^E:' "$pkg/lintian.txt" ||
	fail "lintian errors: $(grep '^E:' "$pkg/lintian.txt" | head -n 5)"
[ "$lrc" = 0 ] || fail "lintian exited $lrc"
echo "ok: lintian finds no error ($(grep -c '^W:' "$pkg/lintian.txt") warnings)"

# What each package holds
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$pkg/usbtrail.list"
dpkg-deb -c "$dkms_deb" | awk '{ print $6 }' >"$pkg/usbtrail-dkms.list"
for f in ./usr/bin/usbtrail ./usr/share/man/man1/usbtrail.1.gz \
	./usr/share/doc/usbtrail/README.md ./usr/share/doc/usbtrail/copyright; do
	grep -qx "$f" "$pkg/usbtrail.list" || fail "usbtrail has no $f"
done
for d in "$top"/docs/*.md; do
	grep -qx "./usr/share/doc/usbtrail/docs/${d##*/}" "$pkg/usbtrail.list" ||
		fail "usbtrail has no /usr/share/doc/usbtrail/docs/${d##*/}"
done
echo "ok: usbtrail holds the command, usbtrail(1), README.md and docs/*.md"
# a unit in the tree is a unit in the package (make install's UNITDIR)
for u in "$top"/tools/systemd/*.service.in; do
	[ -f "$u" ] || continue
	u=${u%.in}
	grep -Eqx "\./lib/systemd/system/${u##*/}" "$pkg/usbtrail.list" ||
		fail "usbtrail does not ship ${u##*/} in /lib/systemd/system"
	echo "ok: usbtrail ships ${u##*/}"
done
grep -qx './etc/usbtrail/watch.conf' "$pkg/usbtrail.list" ||
	fail "usbtrail does not ship /etc/usbtrail/watch.conf"
dpkg-deb -e "$deb" "$pkg/usbtrail.control"
grep -qx '/etc/usbtrail/watch.conf' "$pkg/usbtrail.control/conffiles" ||
	fail "/etc/usbtrail/watch.conf is not a conffile"
echo "ok: /etc/usbtrail/watch.conf is a conffile"
# ${shlibs:Depends}: the libraries the command links, by package
depends=$(dpkg-deb -f "$deb" Depends)
for p in libc6 libusb-1.0-0 libbpf1 libsystemd0; do
	case ", $depends," in
	*", $p "*|*", $p,"*) ;;
	*) fail "usbtrail's Depends lack $p: $depends" ;;
	esac
done
echo "ok: usbtrail Depends: $depends"

# the module's source: dkms.conf, and every file of the tree's module/
# (with the ABI header), Kbuild, Makefile, VERSION and what the Makefile reads
usrc=./usr/src/usbtrail-$ver
for f in dkms.conf Kbuild Makefile VERSION tools/kernels.conf; do
	grep -qx "$usrc/$f" "$pkg/usbtrail-dkms.list" ||
		fail "usbtrail-dkms has no /usr/src/usbtrail-$ver/$f"
done
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files module | sed "s|^|$usrc/|" | sort >"$pkg/module.want"
	grep "^$usrc/module/.*[^/]\$" "$pkg/usbtrail-dkms.list" | sort \
		>"$pkg/module.got"
	diff -u "$pkg/module.want" "$pkg/module.got" >"$pkg/module.diff" ||
		fail "usbtrail-dkms's module/ is not the tree's (- tree, + package): $(cat "$pkg/module.diff")"
	echo "ok: usbtrail-dkms holds module/ as git has it ($(wc -l <"$pkg/module.got") files) and dkms.conf"
fi

# The chroot, in a mount namespace of its own (nothing stays mounted),
# unpacked fresh each time; the .debs apt fetches for Depends are kept in
# /var/cache/usbtrail/chroot/archives for the next run.
root=$out/root
archives=/var/cache/usbtrail/chroot/archives
rm -rf "$root"
mkdir -p "$root" "$archives/partial"
cleanup_hooks="rm -rf '$root'; $cleanup_hooks"
zstd -dc "$tarball" | tar -x -C "$root" ||
	fail "cannot unpack $tarball"
cp "$deb" "$dkms_deb" "$root/tmp/"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cat >"$root/tmp/in-chroot.sh" <<'EOF'
set -u
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin
apt="apt-get -q -y -o APT::Sandbox::User=root"
install() {
	$apt install --no-install-recommends /tmp/"$1" /tmp/"$2" >/tmp/apt.log 2>&1
	rc=$?
	cat /tmp/apt.log
	return $rc
}
step() { echo "=== $*"; }
step install
if ! install "$1" "$2"; then
	# the tarball's lists may name versions the mirror has replaced;
	# any other failure is the packages'
	grep -Eq '^E: (Failed|Unable) to fetch' /tmp/apt.log || exit 1
	step update
	$apt update || { echo "apt-get update failed: no network?"; exit 77; }
	step install
	install "$1" "$2" || exit 1
fi
step version
usbtrail --version; echo "rc=$?"
step uas
usbtrail uas; echo "rc=$?"
step man
MANPAGER=cat MANWIDTH=80 man usbtrail 2>&1; echo "rc=$?"
step watch
# the service's command, started and stopped by hand (no systemd in a
# chroot): it records from the kernel log, and SIGTERM completes its files
[ -e /dev/kmsg ] || mknod -m 0644 /dev/kmsg c 1 11
ls /etc/systemd/system/multi-user.target.wants/ 2>/dev/null
cmd=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/usbtrail-watch.service)
$cmd --no-journal --metrics /tmp/usbtrail.prom &
pid=$!
sleep 3
kill -TERM $pid
wait $pid
echo "rc=$?"
grep -l '"complete":true' /var/lib/usbtrail/ring/*/meta.json | wc -l
grep -c '^usbtrail_source_up{source="kmsg"} 1$' /tmp/usbtrail.prom
step dkms
dkms status
step modinfo
modinfo -F version "/lib/modules/$3/updates/dkms/usbtrail.ko"
modinfo -F vermagic "/lib/modules/$3/updates/dkms/usbtrail.ko"
cp "/lib/modules/$3/updates/dkms/usbtrail.ko" /tmp/usbtrail.ko
step remove
$apt remove usbtrail-dkms
step after
ls /lib/modules/"$3"/updates/dkms/ 2>&1
dkms status
EOF
echo "+ apt-get install ./${deb##*/} ./${dkms_deb##*/} in a bookworm chroot (log: $out/chroot.log)"
start=$(date +%s)
# shellcheck disable=SC2016 # expanded by the sh -c, from its arguments
unshare --mount --propagation private sh -c '
	mount --bind "$1" "$2/var/cache/apt/archives" &&
	mount -t proc proc "$2/proc" &&
	mount -t devpts -o newinstance,ptmxmode=0666 devpts "$2/dev/pts" &&
	chroot "$2" sh /tmp/in-chroot.sh "$3" "$4" "$5"' sh \
	"$archives" "$root" "${deb##*/}" "${dkms_deb##*/}" "$abi" \
	>"$out/chroot.log" 2>&1
crc=$?
[ "$crc" = 77 ] && skip "apt cannot reach the mirror to resolve Depends: $(tail -n 3 "$out/chroot.log")"
[ "$crc" = 0 ] || fail "in the chroot (exit $crc): $(tail -n 20 "$out/chroot.log")"
echo "ok: apt installed both with their Depends in $(($(date +%s) - start)) s"

# section STEP: what the chroot printed for one step
section() {
	awk -v s="=== $1" '$0 == s { on = 1; next } /^=== / { on = 0 } on' \
		"$out/chroot.log"
}
section version >"$out/version.txt"
case $(head -n 1 "$out/version.txt") in
"usbtrail $ver" | "usbtrail $ver (git "*")") ;;
*) fail "usbtrail --version in the chroot: $(cat "$out/version.txt")" ;;
esac
grep -qx 'rc=0' "$out/version.txt" || fail "usbtrail --version: $(cat "$out/version.txt")"
echo "ok: usbtrail --version: $(head -n 1 "$out/version.txt")"

# the chroot's /sys is empty: no USB storage, which is status 0 (usbtrail(1))
section uas >"$out/uas.txt"
if ! grep -qx 'No USB mass-storage interfaces found.' "$out/uas.txt" ||
	! grep -qx 'rc=0' "$out/uas.txt"; then
	fail "usbtrail uas in the chroot: $(cat "$out/uas.txt")"
fi
echo "ok: usbtrail uas: $(head -n 1 "$out/uas.txt") (exit 0)"

section watch >"$out/watch.txt"
grep -qx 'rc=0' "$out/watch.txt" || fail "usbtrail watch in the chroot: $(cat "$out/watch.txt")"
grep -q 'usbtrail-watch.service' "$out/watch.txt" &&
	fail "installing usbtrail enabled usbtrail-watch.service"
[ "$(tail -n 2 "$out/watch.txt" | head -n 1)" -ge 1 ] ||
	fail "watch left no complete ring piece: $(cat "$out/watch.txt")"
[ "$(tail -n 1 "$out/watch.txt")" = 1 ] ||
	fail "watch's metrics do not show the kernel log: $(cat "$out/watch.txt")"
echo "ok: the unit's command ran and stopped with its files complete; the unit is not enabled"

section man >"$out/man.txt"
if ! grep -q '^EXIT STATUS' "$out/man.txt" ||
	! grep -qx 'rc=0' "$out/man.txt"; then
	fail "man usbtrail in the chroot: $(head -n 5 "$out/man.txt")"
fi
grep -q "usbtrail $ver" "$out/man.txt" ||
	fail "man usbtrail does not show version $ver"
echo "ok: man usbtrail shows the page ($(wc -l <"$out/man.txt") lines)"

# installing usbtrail-dkms built and installed the module for $abi
section install >"$out/install.txt"
grep -q "Building initial module for $abi" "$out/install.txt" ||
	fail "installing usbtrail-dkms did not build for $abi: $(grep -i -A3 'dkms\|kernel' "$out/install.txt" | tail -n 10)"
section dkms >"$out/dkms.txt"
grep -q "^usbtrail/$ver, $abi, .*: installed" "$out/dkms.txt" ||
	fail "dkms status: $(cat "$out/dkms.txt")"
echo "ok: dkms status: $(grep "^usbtrail/" "$out/dkms.txt")"
section modinfo >"$out/modinfo.txt"
check "the DKMS-built usbtrail.ko's version" "$(sed -n 1p "$out/modinfo.txt")" "$ver"
case $(sed -n 2p "$out/modinfo.txt") in
"$abi "*) echo "ok: its vermagic is $abi's" ;;
*) fail "usbtrail.ko's vermagic: $(sed -n 2p "$out/modinfo.txt"), not $abi" ;;
esac
# for tests/testbed/60-deb-module.sh, which loads it in the guest
cp "$root/tmp/usbtrail.ko" "$out/usbtrail.ko" ||
	fail "cannot keep the DKMS-built usbtrail.ko"

section after >"$out/after.txt"
! grep -q 'usbtrail' "$out/after.txt" ||
	fail "after apt-get remove usbtrail-dkms: $(cat "$out/after.txt")"
echo "ok: removing usbtrail-dkms removes the module and its DKMS entry"
