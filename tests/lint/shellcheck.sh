#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every shell script of the tree passes shellcheck with no finding of any
# severity, as TAP.  A script is a *.sh or *.inc file or one whose first
# line runs sh, dash or bash; the files that are only sourced say
# "# shellcheck shell=sh".  .shellcheckrc at the top lets shellcheck follow
# `. "$(dirname "$0")/lib.sh"`.  Where a warning is wrong, the line says so
# with a `# shellcheck disable=SCnnnn # reason` of its own.
#   tests/lint/shellcheck.sh
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2

if ! command -v shellcheck >/dev/null 2>&1; then
	echo "ok 1 - shellcheck # SKIP shellcheck is not installed (tools/deps.sh)"
	echo "1..1"
	exit 0
fi

# the tree's files: git's list in a clone, else all but the build output
# (a fuzz corpus may hold anything)
list_files() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files
	else
		find . -name .git -prune -o -name 'build*' -prune -o \
			-type f -print | sed 's|^\./||'
	fi
}

scripts=$(list_files | while read -r f; do
	[ -f "$f" ] || continue
	case $f in
	*.sh|*.inc) echo "$f"; continue ;;
	esac
	head -n 1 "$f" 2>/dev/null | grep -qE '^#!.*[/ ](sh|dash|bash)( |$)' &&
		echo "$f"
done)
count=$(echo "$scripts" | wc -w)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # the tree's file names, without blanks
if shellcheck -f gcc $scripts >"$log" 2>&1 && [ ! -s "$log" ]; then
	echo "ok 1 - shellcheck: $count scripts, no findings"
	rc=0
else
	echo "not ok 1 - shellcheck: $(wc -l <"$log") findings in $count scripts"
	sed 's/^/# /' "$log" | head -n 60
	rc=1
fi
echo "1..1"
exit $rc
