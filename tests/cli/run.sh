#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Golden tests of the usbtrail command line, in the manner of usbutils:
# run each case of tests/cli/cases and compare stdout, stderr and the exit
# status with tests/cli/expected/NAME.out by diff -u.  Output is TAP.
#
#   sh tests/cli/run.sh BINARY            run all cases
#   UPDATE=1 sh tests/cli/run.sh BINARY   rewrite expected/ from BINARY
#                                         (review the git diff after!)
#
# Exit status: 0 if every case passed, 1 if any failed, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BINARY" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
case $1 in
/*)	bin=$1 ;;
*)	bin=$(pwd)/$1 ;;
esac
if [ ! -x "$bin" ]; then
	echo "$0: $1 is not an executable" >&2
	exit 2
fi

# Messages and getopt must not change with the caller's locale.
LC_ALL=C
export LC_ALL
unset POSIXLY_CORRECT

work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# Cases run inside an empty directory, so relative paths in them touch
# nothing of the tree; only "fixtures" there leads to tests/fixtures (read
# only), for commands that take a fake sysfs root.
mkdir "$work/cwd"
ln -s "$here/../fixtures" "$work/cwd/fixtures"

ncases=$(grep -cv '^[[:space:]]*\(#\|$\)' "$here/cases")
echo "1..$((ncases + 2))"

n=0
failed=0

report() {	# report OK NAME [DETAILS-FILE]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
		[ $# -ge 3 ] && sed 's/^/# /' "$3"
	fi
}

# run_case NAME ARGS... -> $work/actual
run_case() {
	name=$1
	shift
	(cd "$work/cwd" && "$bin" "$@" >"$work/stdout" 2>"$work/stderr" \
		</dev/null)
	status=$?
	# the version changes every commit: analyze's JSON summary names it
	{
		echo "--- stdout"
		sed 's/"version":"[^"]*"/"version":"VERSION"/' "$work/stdout"
		echo "--- stderr"
		cat "$work/stderr"
		echo "--- exit $status"
	} >"$work/actual"
}

# --version: "usbtrail VERSION[ (git COMMIT)]" on stdout, nothing on
# stderr, status 0 (tests/host/16-version.sh checks VERSION itself).
version_re='^usbtrail [0-9][0-9A-Za-z.+~_-]*( [(]git [0-9a-f][0-9a-z-]*[)])?$'
for opt in --version -V; do
	run_case version "$opt"
	ok=1
	if [ "$status" = 0 ] && [ ! -s "$work/stderr" ] &&
	   [ "$(wc -l <"$work/stdout")" -eq 1 ] &&
	   grep -Eq "$version_re" "$work/stdout"; then
		ok=0
	fi
	report $ok "version $opt" "$work/actual"
done

grep -v '^[[:space:]]*\(#\|$\)' "$here/cases" >"$work/cases"
while read -r name args; do
	# The cases file is ours; eval only splits and unquotes its words.
	eval "set -- $args"
	run_case "$name" "$@"
	expected=$here/expected/$name.out
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$work/actual" "$expected"
	fi
	if [ ! -f "$expected" ]; then
		echo "no $expected (create it with UPDATE=1)" >"$work/diff"
		report 1 "$name" "$work/diff"
	elif diff -u "$expected" "$work/actual" >"$work/diff"; then
		report 0 "$name"
	else
		report 1 "$name" "$work/diff"
	fi
done <"$work/cases"

exit $failed
