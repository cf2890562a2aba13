#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install every build, test and benchmark dependency of usbtrail from
# Debian's packages.  Idempotent: packages already present are not touched,
# and apt is only called when something is missing.
#
#   tools/deps.sh            everything (build, unit tests, test bed kernels)
#   tools/deps.sh --build    only what `make` needs
#   tools/deps.sh --deb      what `make` needs, what dpkg-buildpackage
#                            needs for debian/ (debhelper, dh-dkms), lintian,
#                            mmdebstrap, and the chroot the packages are
#                            installed into by tests/host/40-deb-package.sh
#                            (the full run does this too)
#   tools/deps.sh --debug-kernel
#                            everything, and the debug kernel
#                            (tools/debug-kernel build: about 35
#                            CPU-minutes the first time, so not part of
#                            the full run; `make check-debug` runs it)
#
# The test bed kernels are pinned in tools/kernels.conf: image and headers
# are installed by ABI name so they always match.  Kernel images are not
# installed into /boot (that would touch the host's boot loader): they are
# unpacked into $USBTRAIL_KCACHE (default /var/cache/usbtrail/kernels).
#
# The kernel source trees data/kmsg-formats.tsv is checked against
# (tests/lint/kmsg-formats.sh) are listed in tools/kernel-sources.conf:
# linux-source-5.10 (bullseye-security), linux-source-6.12 (trixie) and
# linux-source-7.3 (trixie-backports) are fetched from Debian's archive
# with an apt setup of their own under /var/cache/usbtrail/apt (the host's
# apt sources stay as they are), each at its pinned version, and the .deb
# is kept there; linux-source-6.1 is the host's package.  Only the
# subtrees the table's `where` files live in are unpacked, into
# /var/cache/usbtrail/src/linux-VERSION, once: a .complete marker naming
# the package version and the subtrees says a tree is done.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
kcache=${USBTRAIL_KCACHE:-/var/cache/usbtrail/kernels}
what=${1:-all}
case $what in
all|--build|--deb|--debug-kernel) ;;
*) echo "deps.sh: unknown argument '$what' (--build, --deb, --debug-kernel or nothing)" >&2
   exit 2 ;;
esac
srcdir=/var/cache/usbtrail/src
aptdir=/var/cache/usbtrail/apt
rootdir=/var/cache/usbtrail/roots
# where the `where` files of data/kmsg-formats.tsv live
src_subtrees="drivers/usb drivers/scsi drivers/ata drivers/md drivers/base drivers/hwmon
	block fs lib include kernel/printk"

build_pkgs="build-essential pkg-config libusb-1.0-0-dev libbpf-dev libsystemd-dev
	libevdev-dev libtracefs-dev libtraceevent-dev liburing-dev
	libjson-c-dev zlib1g-dev libssl-dev liblzma-dev libzstd-dev
	libbz2-dev"
# debian/control's Build-Depends beyond build_pkgs, and what
# tests/host/40-deb-package.sh runs
deb_pkgs="debhelper dh-dkms lintian mmdebstrap zstd"
test_pkgs="libcmocka-dev python3 qemu-system-x86 qemu-utils busybox-static
	cpio xz-utils kmod sparse file procps dkms linux-source-6.1 fio
	clang libclang-rt-14-dev jq tshark trace-cmd tcpdump chromium
	systemd systemd-journal-remote sg3-utils gzip bzip2 zstd dos2unix
	usb.ids shellcheck pv dmsetup mmdebstrap"
# what tools/testbed/qemu/build needs to build the bridge's QEMU from
# Debian's source package
qemu_build_pkgs="dpkg-dev meson ninja-build libglib2.0-dev libpixman-1-dev
	libfdt-dev libslirp-dev libcap-ng-dev libattr1-dev flex bison
	python3-venv pkg-config patch"

die() { echo "deps.sh: $*" >&2; exit 1; }

if [ "$(id -u)" != 0 ]; then
	die "must run as root (it installs Debian packages)"
fi

missing() {
	for p in "$@"; do
		dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
			grep -qx installed || echo "$p"
	done
}

apt_updated=
apt_install() {
	[ -n "$*" ] || return 0
	if [ -z "$apt_updated" ]; then
		apt-get update -qq || die "apt-get update failed"
		apt_updated=1
	fi
	echo "deps.sh: installing $*" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@" >/dev/null ||
		die "apt-get install $* failed"
}

ensure_backports() {
	grep -rqs 'bookworm-backports' /etc/apt/sources.list \
		/etc/apt/sources.list.d/ && return 0
	echo "deps.sh: adding the bookworm-backports suite" >&2
	cat >/etc/apt/sources.list.d/usbtrail-backports.sources <<EOT
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	apt_updated=
}

# Unpack linux-image-ABI (and its module tree) into $kcache/ABI, so the test
# bed has vmlinuz and the .ko files without a second kernel on the host.
kernel_image() {
	abi=$1
	[ -f "$kcache/$abi/.complete" ] && return 0
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# apt's _apt user downloads into it
	(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "linux-image-$abi" >/dev/null) ||
		{ rm -rf "$tmp"; die "cannot download linux-image-$abi"; }
	rm -rf "${kcache:?}/$abi"
	mkdir -p "$kcache/$abi"
	dpkg-deb -x "$tmp"/linux-image-*.deb "$kcache/$abi"
	rm -rf "$tmp"
	# The package ships no modules.dep: the postinst makes it.
	for v in "$kcache/$abi"/lib/modules/*; do
		depmod -b "$kcache/$abi" "$(basename "$v")" ||
			die "depmod failed for $abi"
	done
	touch "$kcache/$abi/.complete"
}

# The chroot tests/host/40-deb-package.sh installs the packages into:
# Debian 12 (apt variant) with dkms, man-db and the headers of the test
# bed's default kernel, its apt lists kept so apt can resolve the
# packages' Depends there; a tarball of 150 MB, made once (3.5 minutes
# here, most of it the download).  Its name carries the kernel's ABI and
# what it holds, so a change to either makes a new one.
chrootdir=/var/cache/usbtrail/chroot
chroot_v=1	# bump when the --include list below changes
deb_chroot() {
	abi=$(awk '$1 == "default" { print $2 }' "$here/kernels.conf")
	suite=$(awk '$1 == "default" { print $3 }' "$here/kernels.conf")
	tarball=$chrootdir/bookworm-v$chroot_v-$abi.tar.zst
	[ -f "$tarball" ] && return 0
	mkdir -p "$chrootdir"
	echo "deps.sh: making $tarball" >&2
	extra=
	[ "$suite" = bookworm-backports ] &&
		extra="deb http://deb.debian.org/debian bookworm-backports main"
	# .tar.zst: mmdebstrap compresses with zstd itself
	tmp=$chrootdir/.new-$abi.tar.zst
	mmdebstrap --quiet --variant=apt --skip=cleanup/apt/lists \
		--include="dkms,man-db,linux-headers-$abi" bookworm "$tmp" \
		"deb http://deb.debian.org/debian bookworm main" \
		"deb http://deb.debian.org/debian bookworm-updates main" \
		"deb http://deb.debian.org/debian-security bookworm-security main" \
		${extra:+"$extra"} ||
		{ rm -f "$tmp"; die "mmdebstrap of the package test's chroot failed"; }
	mv "$tmp" "$tarball"
}

# shellcheck disable=SC2046,SC2086 # lists of package names, split on purpose
apt_install $(missing $build_pkgs)
[ "$what" = "--build" ] && exit 0
# shellcheck disable=SC2046,SC2086 # lists of package names, split on purpose
apt_install $(missing $deb_pkgs)
deb_chroot
[ "$what" = "--deb" ] && exit 0
# shellcheck disable=SC2046,SC2086 # lists of package names, split on purpose
apt_install $(missing $test_pkgs)
# shellcheck disable=SC2046,SC2086 # lists of package names, split on purpose
apt_install $(missing $qemu_build_pkgs)

# checkpatch.pl and its data files, from Debian's kernel source tarball
# (the headers packages do not ship it)
cp_dir=/var/cache/usbtrail/checkpatch
if [ ! -f "$cp_dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -C "$cp_dir" --strip-components=1 -xJf \
		/usr/src/linux-source-6.1.tar.xz --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' ||
		die "cannot extract checkpatch.pl from linux-source-6.1"
fi

# The apt setup of our own for the suites of tools/kernel-sources.conf.
own_apt() {	# apt-get|apt-cache ARGS...
	cmd=$1; shift
	"$cmd" -o Dir::Etc::sourcelist="$aptdir/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$aptdir/lists" \
		-o Dir::Cache="$aptdir" \
		-o APT::Sandbox::User=root "$@"
}

own_apt_updated=
own_apt_update() {
	[ -z "$own_apt_updated" ] || return 0
	mkdir -p "$aptdir/lists/partial" "$aptdir/archives/partial"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	{ awk '!/^#/ && NF == 4 && $4 != "host" { print $4 }' \
		"$here/kernel-sources.conf"
	  # not bookworm's (the host's apt has those), nor the debug kernel,
	  # built here (its "suite" is `debug`)
	  awk '!/^#/ && NF == 3 && $3 !~ /^bookworm/ && $3 != "debug" {
		print $3 }' "$here/kernels.conf"; } |
	sort -u | while read -r suite; do
		case "$suite" in
		*-security) url=http://deb.debian.org/debian-security ;;
		*) url=http://deb.debian.org/debian ;;
		esac
		echo "deb [signed-by=$keyring] $url $suite main"
	done >"$aptdir/sources.list"
	own_apt apt-get update -qq ||
		die "apt-get update of $aptdir/sources.list failed"
	own_apt_updated=1
}

# Fetch PACKAGE=VERSION into DEB unless it is there already.
kernel_source_deb() {	# PACKAGE VERSION SUITE DEB
	[ -f "$4" ] && return 0
	own_apt_update
	echo "deps.sh: fetching $1 $2 from $3" >&2
	dl=$(mktemp -d "$aptdir/archives/partial/dl.XXXXXX")
	chmod 755 "$dl"
	if ! (cd "$dl" && own_apt apt-get download -qq "$1=$2" >/dev/null); then
		offered=$(own_apt apt-cache madison "$1" |
			awk '{ printf " %s", $3 }')
		rm -rf "$dl"
		die "cannot fetch $1 $2 from $3 (it offers:${offered:- nothing});" \
			"update tools/kernel-sources.conf"
	fi
	mv "$dl"/*.deb "$4"
	rm -rf "$dl"
}

# Unpack the subtrees of one kernel source tree into $srcdir/linux-VERSION.
# xz is the slow part (10-20 s a tarball): all subtrees come out of one
# pass, into a temporary directory renamed when it is whole.
kernel_source() {	# VERSION PACKAGE PACKAGE-VERSION SUITE
	tree=$srcdir/linux-$1
	if [ "$4" = host ]; then
		pv=$(dpkg-query -W -f='${Version}' "$2") ||
			die "$2 is not installed"
	else
		pv=$3
		deb=$aptdir/archives/$2_$(echo "$pv" | sed 's/:/%3a/')_all.deb
	fi
	stamp="$2 $pv: $(printf '%s' "$src_subtrees" | tr -s ' \n\t' ' ')"
	if [ -f "$tree/.complete" ] &&
	   [ "$(cat "$tree/.complete")" = "$stamp" ]; then
		return 0
	fi
	[ "$4" = host ] || kernel_source_deb "$2" "$pv" "$4" "$deb"
	echo "deps.sh: unpacking $2 $pv into $tree" >&2
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	members=
	for s in $src_subtrees; do
		members="$members $2/$s"
	done
	# shellcheck disable=SC2086
	if [ "$4" = host ]; then
		xz -dc "/usr/src/$2.tar.xz" |
			tar -C "$tree.tmp" --strip-components=1 -xf - $members
	else
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xOf - "./usr/src/$2.tar.xz" | xz -dc |
			tar -C "$tree.tmp" --strip-components=1 -xf - $members
	fi || { rm -rf "$tree.tmp"; die "cannot unpack $2 $pv"; }
	for s in $src_subtrees; do
		[ -d "$tree.tmp/$s" ] ||
			{ rm -rf "$tree.tmp"; die "$2 $pv has no $s"; }
	done
	echo "$stamp" >"$tree.tmp/.complete"
	mv "$tree.tmp" "$tree"
}

# Fetch PACKAGE through the apt setup APT (own_apt or arm64_apt; APT_update
# brings its lists up to date, once) into DIR unless a .deb of it is there;
# print its path.  CONF names the list that asked for it, for the error.
apt_deb() {	# APT DIR PACKAGE CONF
	for d in "$2/$3"_*.deb; do
		[ -f "$d" ] && { echo "$d"; return 0; }
	done
	"$1_update"
	echo "deps.sh: fetching $3" >&2
	mkdir -p "$2"
	dl=$(mktemp -d "$2/.dl.XXXXXX")
	chmod 755 "$dl"		# apt's _apt user downloads into it
	(cd "$dl" && "$1" apt-get download -qq "$3" >/dev/null) ||
		{ rm -rf "$dl"; die "cannot fetch $3 (see $4)"; }
	for d in "$dl"/*.deb; do
		mv "$d" "$2/"
		echo "$2/${d##*/}"
	done
	rm -rf "$dl"
}

# A kernel of the apt setup APT (its .debs kept in DIR, apt_deb): its image
# unpacked into $kcache/ABI as kernel_image() lays it out.  7.x splits the
# image: linux-image-ABI is an empty metapackage, the kernel is
# usr/lib/modules/ABI/vmlinuz in linux-binary-ABI and the modules are in
# linux-modules-ABI; trixie's packages are merged-/usr.  The test bed reads
# boot/vmlinuz-ABI and lib/modules/ABI: kernel_tree_done makes both be there.
apt_kernel_image() {	# APT DIR ABI CONF
	[ -f "$kcache/$3/.complete" ] && return 0
	"$1_update"
	if "$1" apt-cache show "linux-binary-$3" >/dev/null 2>&1; then
		pkgs="linux-binary-$3 linux-modules-$3"
	else
		pkgs="linux-image-$3"
	fi
	rm -rf "${kcache:?}/$3"
	mkdir -p "$kcache/$3"
	for p in $pkgs; do
		dpkg-deb -x "$(apt_deb "$1" "$2" "$p" "$4")" "$kcache/$3" ||
			die "cannot unpack $p"
	done
	kernel_tree_done "$3" "$pkgs"
}

# A kernel of another Debian release (tools/kernels.conf, a suite not
# bookworm's), from our own apt setup.
foreign_image() {	# ABI
	apt_kernel_image own_apt "$aptdir/archives" "$1" tools/kernels.conf
}

# The test bed reads boot/vmlinuz-ABI and lib/modules/ABI of $kcache/ABI:
# make both be there (merged-/usr packages, 7.x's vmlinuz in the module
# tree), make modules.dep and mark the tree whole.
kernel_tree_done() {	# ABI PACKAGES
	r=$kcache/$1
	if [ ! -e "$r/lib/modules" ] && [ -d "$r/usr/lib/modules" ]; then
		mkdir -p "$r/lib"
		ln -s ../usr/lib/modules "$r/lib/modules"
	fi
	if [ ! -f "$r/boot/vmlinuz-$1" ]; then
		[ -f "$r/lib/modules/$1/vmlinuz" ] || die "no vmlinuz in $2"
		mkdir -p "$r/boot"
		ln -s "../lib/modules/$1/vmlinuz" "$r/boot/vmlinuz-$1"
	fi
	depmod -b "$r" "$1" || die "depmod failed for $1"
	touch "$r/.complete"
}

# The sources line of a suite of Debian's archive.
deb_line() {	# SUITE
	case "$1" in
	*-security) echo "deb http://deb.debian.org/debian-security $1 main" ;;
	*) echo "deb http://deb.debian.org/debian $1 main" ;;
	esac
}

# The build root of a release (bullseye, trixie): a chroot made from
# Debian's archive with the compiler its kernel headers ask for (gcc-10,
# gcc-14, which bookworm lacks), sparse and DKMS, for tools/kbuild.
# mmdebstrap makes it into a temporary directory renamed when whole.
build_root() {	# RELEASE
	root=$rootdir/$1
	[ -f "$root/.complete" ] && return 0
	echo "deps.sh: making the $1 build root $root (a few minutes)" >&2
	rm -rf "$root" "$root.tmp"
	mkdir -p "$rootdir"
	mmdebstrap --quiet --variant=apt \
		--include=build-essential,kmod,xz-utils,zstd,sparse,dkms \
		"$1" "$root.tmp" "$(deb_line "$1")" ||
		{ rm -rf "$root.tmp"; die "mmdebstrap $1 failed"; }
	touch "$root.tmp/.complete"
	mv "$root.tmp" "$root"
}

# Install linux-headers-ABI (and through its dependencies the kbuild
# programs and the compiler) into a build root, by the root's own apt.
# The suite (bullseye-security, trixie-backports) is added to the root's
# own sources first.
root_headers() {	# RELEASE ABI SUITE
	root=$rootdir/$1
	# shellcheck disable=SC2016 # dpkg-query's format
	chroot "$root" dpkg-query -W -f='${db:Status-Status}\n' \
		"linux-headers-$2" 2>/dev/null | grep -qx installed && return 0
	echo "deps.sh: installing linux-headers-$2 into $root" >&2
	line=$(deb_line "$3")
	grep -qxF "$line" "$root/etc/apt/sources.list" ||
		echo "$line" >>"$root/etc/apt/sources.list"
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -m sh -c 'mount --make-rprivate / &&
		mount -t proc proc "$1/proc" &&
		chroot "$1" apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive chroot "$1" apt-get install \
			-y -qq --no-install-recommends "linux-headers-$2" \
			>/dev/null' sh "$root" "$2" ||
		die "cannot install linux-headers-$2 into $root"
}

# Install PACKAGE... into a build root by its own apt.
root_install() {	# RELEASE PACKAGE...
	root=$rootdir/$1; shift
	echo "deps.sh: installing $* into $root" >&2
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -m sh -c 'mount --make-rprivate / &&
		mount -t proc proc "$1/proc" && r=$1 && shift &&
		chroot "$r" apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive chroot "$r" apt-get install \
			-y -qq --no-install-recommends "$@" >/dev/null' \
		sh "$root" "$@" || die "cannot install $* into $root"
}

# The arm64 test bed (tools/testbed/run --arch arm64): an apt setup of its
# own under $aptdir/arm64 (APT::Architecture=arm64, its own lists and an
# empty dpkg status, so the host's dpkg keeps its one architecture), from
# which come the kernels of tools/kernels-arm64.conf (unpacked into
# $kcache/ABI as foreign_image() lays them out; their headers beside the
# amd64 headers of the same release, whose kbuild programs they use) and
# the sysroot $arm64dir/sysroot: busybox-static and the -dev packages of
# build_pkgs' libraries with everything they depend on (what apt would
# install on an empty arm64 system), against which userspace/ is
# cross-built (make -C userspace ARCH=arm64) and whose shared libraries go
# into the guest.  The host gets qemu-system-arm and gcc-aarch64-linux-gnu;
# trixie's build root gets gcc-14-aarch64-linux-gnu.
arm64dir=/var/cache/usbtrail/arm64
arm64_apt_dir=$aptdir/arm64
arm64_sysroot_v=1	# bump when arm64_sysroot_pkgs changes
arm64_sysroot_pkgs="busybox-static libc6-dev libevdev-dev libusb-1.0-0-dev
	libbpf-dev liburing-dev libjson-c-dev libtracefs-dev
	libtraceevent-dev libsystemd-dev zlib1g-dev libssl-dev liblzma-dev
	libzstd-dev libbz2-dev"
arm64_apt() {	# apt-get|apt-cache ARGS...
	cmd=$1; shift
	d=$arm64_apt_dir
	"$cmd" -o Dir::Etc::sourcelist="$d/sources.list" \
		-o Dir::Etc::sourceparts="$d/empty" \
		-o Dir::Etc::preferences="$d/empty/none" \
		-o Dir::Etc::preferencesparts="$d/empty" \
		-o Dir::State::Lists="$d/lists" \
		-o Dir::State::status="$d/status" \
		-o Dir::Cache="$d" \
		-o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o APT::Sandbox::User=root "$@"
}
arm64_apt_updated=
arm64_apt_update() {
	[ -z "$arm64_apt_updated" ] || return 0
	d=$arm64_apt_dir
	mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/empty"
	[ -f "$d/status" ] || : >"$d/status"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	{ echo bookworm; echo bookworm-updates; echo bookworm-security
	  awk '!/^#/ && NF == 3 { print $3 }' "$here/kernels-arm64.conf"; } |
		sort -u | while read -r suite; do
		deb_line "$suite" | sed "s|^deb |deb [signed-by=$keyring] |"
	done >"$d/sources.list"
	arm64_apt apt-get update -qq ||
		die "apt-get update of $d/sources.list failed"
	arm64_apt_updated=1
}

# Fetch arm64 PACKAGE (an ABI name pins it) into $arm64_apt_dir/kernels
# unless a .deb of it is there; print its path.
arm64_deb() {	# PACKAGE
	apt_deb arm64_apt "$arm64_apt_dir/kernels" "$1" tools/kernels-arm64.conf
}

# An arm64 kernel: image and modules into $kcache/ABI (boot/vmlinuz-ABI,
# lib/modules/ABI), its headers into HEADERS-ROOT/usr/src.
arm64_kernel() {	# ABI HEADERS-ROOT
	abi=$1 hroot=$2
	apt_kernel_image arm64_apt "$arm64_apt_dir/kernels" "$abi" \
		tools/kernels-arm64.conf
	h=$hroot/usr/src/linux-headers-$abi
	[ -f "$h/.complete" ] && return 0
	rm -rf "$h" "$hroot/.h-$abi"
	mkdir -p "$hroot/.h-$abi"
	dpkg-deb -x "$(arm64_deb "linux-headers-$abi")" "$hroot/.h-$abi" ||
		die "cannot unpack linux-headers-$abi (arm64)"
	mkdir -p "$hroot/usr/src"
	mv "$hroot/.h-$abi/usr/src/linux-headers-$abi" "$h"
	rm -rf "$hroot/.h-$abi"
	touch "$h/.complete"
}

# The arm64 sysroot: every package of arm64_sysroot_pkgs and what it
# depends on, unpacked into a temporary directory renamed when whole.
arm64_sysroot() {
	s=$arm64dir/sysroot
	[ "$(cat "$s/.complete" 2>/dev/null)" = "v$arm64_sysroot_v" ] &&
		return 0
	arm64_apt_update
	echo "deps.sh: making the arm64 sysroot $s" >&2
	# shellcheck disable=SC2086 # a list of package names
	arm64_apt apt-get install --download-only -y -qq \
		--no-install-recommends $arm64_sysroot_pkgs >/dev/null ||
		die "cannot fetch the arm64 sysroot's packages"
	rm -rf "$s" "$s.tmp"
	mkdir -p "$s.tmp"
	# what apt would install on an empty system: its own plan, by name
	# shellcheck disable=SC2086
	arm64_apt apt-get install --simulate -qq --no-install-recommends \
		$arm64_sysroot_pkgs | awk '$1 == "Inst" { print $2 }' |
	while read -r p; do
		set -- "$arm64_apt_dir/archives/${p%:arm64}"_*_arm64.deb \
			"$arm64_apt_dir/archives/${p%:arm64}"_*_all.deb
		for d in "$@"; do
			[ -f "$d" ] || continue
			dpkg-deb -x "$d" "$s.tmp" ||
				{ rm -rf "$s.tmp"; die "cannot unpack $d"; }
		done
	done
	if [ ! -x "$s.tmp/bin/busybox" ] ||
	   [ ! -f "$s.tmp/usr/include/libusb-1.0/libusb.h" ]; then
		rm -rf "$s.tmp"
		die "the arm64 sysroot is incomplete"
	fi
	echo "v$arm64_sysroot_v" >"$s.tmp/.complete"
	mv "$s.tmp" "$s"
}

arm64_all() {
	# shellcheck disable=SC2046 # nothing, or package names
	apt_install $(missing qemu-system-arm gcc-aarch64-linux-gnu)
	arm64_sysroot
	grep -v '^#' "$here/kernels-arm64.conf" | while read -r name abi suite; do
		[ -n "$name" ] || continue
		[ "$name" = default ] && continue
		case "$suite" in
		bookworm*)
			# the amd64 headers of the same release give kbuild
			# (/usr/lib/linux-kbuild-X.Y) and -common
			amd=$(echo "$abi" | sed 's/-arm64$/-amd64/')
			# shellcheck disable=SC2046
			apt_install $(missing "linux-headers-$amd")
			arm64_kernel "$abi" "$arm64dir"
			mkdir -p "$arm64dir/usr/lib"
			kb=$(readlink "$arm64dir/usr/src/linux-headers-$abi/scripts")
			kb=${kb#../../lib/}
			kb=${kb%/scripts}
			[ -e "$arm64dir/usr/lib/$kb" ] ||
				ln -s "/usr/lib/$kb" "$arm64dir/usr/lib/$kb"
			;;
		*)
			rel=${suite%%-*}
			build_root "$rel"
			root_headers "$rel" "$(echo "$abi" | sed 's/-arm64$/-amd64/')" "$suite"
			arm64_kernel "$abi" "$rootdir/$rel"
			gcc=$(sed -n 's/^CC = .*(CROSS_COMPILE)\(gcc-[0-9]*\)$/\1/p' \
				"$rootdir/$rel/usr/src/linux-headers-$abi/.kernelvariables")
			# shellcheck disable=SC2016 # dpkg-query's format
			chroot "$rootdir/$rel" dpkg-query -W -f='${db:Status-Status}\n' \
				"$gcc-aarch64-linux-gnu" 2>/dev/null | grep -qx installed ||
				root_install "$rel" "$gcc-aarch64-linux-gnu"
			;;
		esac
	done
}

grep -v '^#' "$here/kernels.conf" | while read -r name abi suite; do
	[ -n "$name" ] || continue
	[ "$name" = default ] && continue
	case "$suite" in
	debug)	# built from linux-source-6.1 (test_pkgs), cached; only asked
		[ "$what" != --debug-kernel ] || "$here/debug-kernel" build
		;;
	bookworm*)
		[ "$suite" = bookworm-backports ] && ensure_backports
		# shellcheck disable=SC2046 # nothing, or one package name
		apt_install $(missing "linux-headers-$abi")
		kernel_image "$abi"
		;;
	*)
		foreign_image "$abi"
		build_root "${suite%%-*}"
		root_headers "${suite%%-*}" "$abi" "$suite"
		;;
	esac
done

grep -v '^#' "$here/kernel-sources.conf" | while read -r ver pkg pv suite; do
	[ -n "$ver" ] || continue
	kernel_source "$ver" "$pkg" "$pv" "$suite"
done

arm64_all

# The test bed's --bridge enclosures: QEMU 7.2 from Debian's source with
# usbtrail's patch (about 8 minutes the first time, cached after)
"$here/testbed/qemu/build" >/dev/null
