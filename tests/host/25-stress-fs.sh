#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail stress DIR: the large-file and the tree mode pass on a directory
# and leave it as they found it; --keep keeps the run's directory, and a
# later --verify-only names the file with a changed byte, the deleted one
# and the two swapped; a directory that is not a run's is refused, and
# nothing of anyone else's is touched.
. "$(dirname "$0")/lib.sh"

d=$work/fs
mkdir "$d"
# someone's data beside the runs, and a symlink out of DIR
mkdir "$work/outside"
echo "keep me" >"$d/precious.txt"
echo "secret" >"$work/outside/secret"
ln -s "$work/outside" "$d/link"
sums() {
	(cd "$work" && find fs outside -type f -print0 | sort -z |
		xargs -0 md5sum
	 find fs -mindepth 1 -maxdepth 1 -printf '%M %P %l\n' | sort)
}
sums >"$out/before.txt"

# only_ours: DIR holds what it held before the run, nothing more
only_ours() {
	sums >"$out/after.txt"
	diff -u "$out/before.txt" "$out/after.txt" ||
		fail "$1: DIR is not as it was"
	echo "ok: $1: DIR as it was, precious.txt and the symlink untouched"
}

# The large file, pv's copy: two files of 8 MiB.
stress "$d" --size 8M --files 2 --json
cp "$out/last.out" "$out/large.json"
check "large: exit status" "$rc" 0
check "large: result" "$(json 'j["result"]')" pass
check "large: mode" "$(json 'j["fs_mode"], j["kind"]')" "('large', 'directory')"
check "large: phases" "$(json '",".join(p["name"] for p in j["phases"])')" \
	write,fsync,write+fsync,read,remove
check "large: verified" \
	"$(json 'j["verify"]["files_checked"], j["verify"]["bytes_checked"], j["verify"]["bad_files"]')" \
	"(2, 16777216, 0)"
check "large: rates" "$(json 'all(p["mbps"] > 0 for p in j["phases"][:4])')" True
check "large: intervals of the write and read" \
	"$(json 'sorted(set(i["phase"] for i in j["intervals"]) & {"write", "read"})')" \
	"['read', 'write']"
check "large: page cache checked" "$(json 'j["page_cache"]["pages"]')" 4096
check "large: removed" "$(json 'j["removed"], j["kept"]')" "(True, False)"
only_ours "large"

# The tree: ls -lR and find -exec cat, in text.
stress "$d" --fs-mode tree --files 300 --file-size 1000
cp "$out/last.out" "$out/tree.txt"
check "tree: exit status" "$rc" 0
for ph in create sync "create\\+sync" stat read remove; do
	grep -Eq "^$ph +[1-9][0-9]* " "$out/last.out" ||
		fail "tree: no $ph row with files"
done
grep -q '^verify: 300 files, 300000 bytes read back, 0 bad files$' \
	"$out/last.out" || fail "tree: no clean verify line"
grep -q '^page cache: ' "$out/last.out" || fail "tree: no page cache line"
grep -q '^result: PASS$' "$out/last.out" || fail "tree: no PASS"
echo "ok: tree: every phase, 300 files verified"
only_ours "tree"

# --duration stops the writes (not an error), --log has the intervals.
stress "$d" --fs-mode tree --files 1000000 --duration 1 --interval 200 \
	--log "$out/tree.log" --json
cp "$out/last.out" "$out/duration.json"
check "duration: exit status" "$rc" 0
check "duration: the create ended as asked" \
	"$(json 'j["phases"][0]["name"], j["phases"][0]["completed"], 0 < j["written_files"] < 1000000')" \
	"('create', True, True)"
check "duration: what was written verified" \
	"$(json 'j["verify"]["files_checked"] == j["written_files"], j["verify"]["bad_files"]')" \
	"(True, 0)"
grep -q '^# t_s secs phase MB/s files/s \[dip\]$' "$out/tree.log" ||
	fail "--log: no header"
for ph in create read; do
	grep -Eq "^[0-9.]+ 0\.[0-9]+ $ph [0-9.]+ [0-9.]+( dip)?\$" \
		"$out/tree.log" || fail "--log: no $ph interval"
done
echo "ok: --log: $(grep -c '^[0-9]' "$out/tree.log") intervals"
only_ours "duration"

# --keep, then --verify-only finds it again.
stress "$d" --fs-mode tree --files 200 --file-size 1500 --keep --json
check "keep: exit status" "$rc" 0
check "keep: kept" "$(json 'j["kept"], j["removed"]')" "(True, False)"
run=$d/$(json 'j["run_dir"]')
[ -f "$run/.usbtrail-stress" ] || fail "keep: no manifest in $run"
check "keep: files kept" "$(find "$run" -name 'f*.dat' -type f | wc -l)" 200
stress --verify-only "$d" --json
check "verify-only: exit status" "$rc" 0
check "verify-only: the run found" "$(json 'j["run_dir"], j["verify_only"]')" \
	"('$(basename "$run")', True)"
check "verify-only: all good" \
	"$(json 'j["verify"]["files_checked"], j["verify"]["bad_files"]')" \
	"(200, 0)"
[ -d "$run" ] || fail "verify-only removed the run"

# A changed byte, a deleted file, two files swapped; someone's file in
# there and a symlink out, named as one of ours.
poke "$run/d000/d00/f0000003.dat" 700
rm "$run/d000/d00/f0000010.dat"
mv "$run/d000/d01/f0000070.dat" "$run/tmp"
mv "$run/d000/d01/f0000071.dat" "$run/d000/d01/f0000070.dat"
mv "$run/tmp" "$run/d000/d01/f0000071.dat"
echo mine >"$run/d000/notes.txt"
rm "$run/d000/d00/f0000020.dat"
ln -s "$work/outside/secret" "$run/d000/d00/f0000020.dat"
(cd "$run" && find . -type f -print0 | sort -z | xargs -0 md5sum) \
	>"$out/run-before.txt"
stress --verify-only "$run" --json
cp "$out/last.out" "$out/damaged.json"
check "damaged: exit status" "$rc" 1
check "damaged: result" "$(json 'j["result"]')" fail
check "damaged: problems" \
	"$(json 'sorted((f["file"], f["problem"]) for f in j["verify"]["files"])')" \
	"[('d000/d00/f0000003.dat', 'changed'), ('d000/d00/f0000010.dat', 'missing'), ('d000/d00/f0000020.dat', 'missing'), ('d000/d01/f0000070.dat', 'misplaced'), ('d000/d01/f0000071.dat', 'misplaced')]"
check "damaged: the changed byte's sector" \
	"$(json '[(f["offset"], f["class"], f["bits"]) for f in j["verify"]["files"] if f["problem"] == "changed"]')" \
	"[(512, 'changed', 1)]"
check "damaged: the swapped pair" \
	"$(json 'sorted((f["file"], f["holds"]) for f in j["verify"]["files"] if f["problem"] == "misplaced")')" \
	"[('d000/d01/f0000070.dat', 'd000/d01/f0000071.dat'), ('d000/d01/f0000071.dat', 'd000/d01/f0000070.dat')]"
check "damaged: not ours, left alone" \
	"$(json 'sorted(j["verify"]["not_ours_names"])')" \
	"['d000/d00/f0000020.dat', 'd000/notes.txt']"
(cd "$run" && find . -type f -print0 | sort -z | xargs -0 md5sum) \
	>"$out/run-after.txt"
diff -u "$out/run-before.txt" "$out/run-after.txt" ||
	fail "--verify-only changed the run's directory"
stress --verify-only "$d"
cp "$out/last.out" "$out/damaged.txt"
check "damaged (text): exit status" "$rc" 1
for re in '^verify: 198 files, .* 5 bad files, 2 missing, 2 misplaced, 1 changed$' \
	  '^  d000/d00/f0000003\.dat: changed at byte 512: 512 bad bytes in 1 range, the first changed \(1 bit\)$' \
	  '^  d000/d00/f0000010\.dat: missing$' \
	  '^  d000/d01/f0000070\.dat: misplaced: holds the data of d000/d01/f0000071\.dat' \
	  '^  d000/notes\.txt$' '^result: FAIL$'; do
	grep -Eq "$re" "$out/last.out" || fail "damaged (text): no '$re'"
done
echo "ok: damaged (text): each bad file named"
rm -r "$run"

# The large mode's files swapped: each names the other.
stress "$d" --size 1M --files 2 --keep
check "large keep: exit status" "$rc" 0
run=$(find "$d" -maxdepth 1 -name 'usbtrail-stress-*')
mv "$run/large0000.dat" "$run/x" && mv "$run/large0001.dat" "$run/large0000.dat"
mv "$run/x" "$run/large0001.dat"
stress --verify-only "$d" --json
check "large swapped: exit status" "$rc" 1
check "large swapped" \
	"$(json '[(f["file"], f["problem"], f["holds"]) for f in j["verify"]["files"]]')" \
	"[('large0000.dat', 'misplaced', 'large0001.dat'), ('large0001.dat', 'misplaced', 'large0000.dat')]"
rm -r "$run"
only_ours "after the kept runs"

# Directories that are not a run's.
fake=$d/usbtrail-stress-0000000000000001
mkdir "$fake"
echo "not a manifest" >"$fake/.usbtrail-stress"
echo data >"$fake/f0000000.dat"
stress --verify-only "$d"
check "fake run: exit status" "$rc" 1
grep -q "usbtrail-stress-0000000000000001 is not a directory of usbtrail stress" \
	"$out/last.err" || fail "fake run: no clear refusal"
stress "$fake" --fs-mode tree --files 10
check "write into a run's directory: exit status" "$rc" 1
grep -q "is the directory of a run of usbtrail stress" "$out/last.err" ||
	fail "write into a run's directory: no clear refusal"
check "fake run untouched" \
	"$(find "$fake" -mindepth 1 -printf '%P\n' | sort | tr '\n' ' ')" \
	".usbtrail-stress f0000000.dat "
rm -r "$fake"
stress --verify-only "$d"
check "no run: exit status" "$rc" 1
grep -q "no usbtrail stress run in it" "$out/last.err" ||
	fail "no run: no clear message"
only_ours "after the refusals"
