#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A lost write: a stale copy of an older generation, and an earlier run's
# sector, are reported as "stale" at their exact offsets.
. "$(dirname "$0")/lib.sh"

f=$work/stale.img
other=$work/other.img
stress "$f" --size 8M --json
check "generation 1" "$rc" 0
run=$(json 'j["run_id"]')
cp "$f" "$work/gen1.img"
stress "$f" --size 8M --json
check "generation 2" "$(json 'j["generation"]')" 2
check "same run" "$(json 'j["run_id"]')" "$run"

# Generation 1 of 16 sectors put back: the rewrite "was lost".
copy "$work/gen1.img" 409600 "$f" 409600 8192
stress "$f" --verify-only --json
check "exit status" "$rc" 1
check "generation found in-band" "$(json 'j["generation"]')" 2
check "range" "$(json '" ".join("%d-%d:%s:%d" % (r["start"], r["end"], r["class"], r["found_generation"]) for r in j["verify"]["ranges"])')" \
	"409600-417792:stale:1"

# Another run's sector at the same offset is stale too.
stress "$other" --size 1M --json
orun=$(json 'j["run_id"]')
[ "$orun" != "$run" ] || fail "two files got the same run id"
copy "$work/gen1.img" 409600 "$f" 409600 8192
copy "$other" 8192 "$f" 8192 512
stress "$f" --verify-only --json
check "ranges" "$(json '" ".join("%d-%d:%s:%s" % (r["start"], r["end"], r["class"], r["found_run_id"]) for r in j["verify"]["ranges"])')" \
	"8192-8704:stale:$orun 409600-417792:stale:$run"
