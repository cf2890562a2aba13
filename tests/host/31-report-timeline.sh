#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The timeline of report.html as headless Chromium lays it out, over the
# test bed's recording of a UAS stall (the fixture uas-medium-stall): six
# lanes, each inside the page at a wide and at a narrow window, each with
# a title naming UAS and the link speed that fits inside the plot; the
# dip's explanation names the stall (timeouts, abort, reset, recovery);
# report --timeline is an SVG Chromium opens, and its screenshot shows it.
# The page forbids scripts; the layout is read from a copy with a script
# added, the copy only.
. "$(dirname "$0")/lib.sh"

chromium=$(command -v chromium || command -v chromium-browser) ||
	skip "no chromium (tools/deps.sh installs it)"
rec=$work/rec
cp -r "$top/tests/fixtures/recordings/uas-medium-stall" "$rec"
"$bin" report "$rec" >"$out/report.out" 2>"$out/report.err" ||
	fail "usbtrail report failed: $(cat "$out/report.err")"
"$bin" report --timeline "$rec" -o "$work/timeline.svg" >/dev/null \
	2>"$out/timeline.err" || fail "report --timeline: $(cat "$out/timeline.err")"
cp "$rec/report.html" "$rec/report.txt" "$work/timeline.svg" "$out/"

# chrome URL ARGS...: headless Chromium, nothing of this machine's profile
chrome() {
	url=$1; shift
	timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$work/profile" "$@" "$url"
}

# the copy that measures: each lane's box, its title's, the page's width
python3 - "$rec/report.html" "$work/measure.html" <<'PY' || fail "cannot make the copy"
import sys
h = open(sys.argv[1]).read()
csp = h.index("<meta http-equiv='Content-Security-Policy'")
h = h[:csp] + h[h.index(">", csp) + 1:]
js = """<script>
const W = document.documentElement.clientWidth, out = {W: W, lanes: []};
const svg = document.querySelector("svg.plot"), sb = svg.getBoundingClientRect();
out.svg = {left: sb.left, right: sb.right, height: sb.height};
for (const g of svg.querySelectorAll("g[class^='lane-']")) {
  const b = g.getBoundingClientRect(), t = g.querySelector("text.lane-title");
  out.lanes.push({name: g.getAttribute("class"), left: b.left, right: b.right,
    height: b.height, title: t ? t.textContent : "",
    tright: t ? t.getBoundingClientRect().right : 1e9});
}
const pre = document.createElement("pre");
pre.id = "geometry"; pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>"""
open(sys.argv[2], "w").write(h.replace("</body>", js + "</body>"))
PY

for w in 1200 700; do
	chrome "file://$work/measure.html" --window-size=$w,1000 --dump-dom \
		>"$out/measure-$w.html" 2>"$out/measure-$w.err" ||
		fail "chromium --dump-dom failed: $(tail -n 3 "$out/measure-$w.err")"
	python3 - "$out/measure-$w.html" "$w" <<'PY' || fail "the lanes at $w px: see $out/measure-$w.html"
import html, json, re, sys
dom, w = open(sys.argv[1]).read(), int(sys.argv[2])
m = re.search(r'<pre id="geometry">(.*?)</pre>', dom, re.S)
assert m, "no geometry: the script did not run"
g = json.loads(html.unescape(m.group(1)))
names = [l["name"] for l in g["lanes"]]
want = ["lane-" + n for n in ("throughput", "latency", "inflight", "xhci",
                              "incidents", "markers")]
assert names == want, names
assert 0 <= g["svg"]["left"] and g["svg"]["right"] <= g["W"] + 0.5, g["svg"]
for l in g["lanes"]:
    assert l["height"] > 10, l
    assert l["left"] >= g["svg"]["left"] - 0.5, l
    assert l["right"] <= g["svg"]["right"] + 0.5, l
    assert "UAS" in l["title"] and "5000 Mbit/s" in l["title"], l
    # the title is read whole: it ends inside the plot
    assert l["tright"] <= g["svg"]["right"] + 0.5, l
print("ok: %d px window (page %d px): six lanes inside the %d px plot, "
      "titled: %s" % (w, g["W"], g["svg"]["right"] - g["svg"]["left"],
                      "; ".join(l["title"].split(" sda")[0]
                                for l in g["lanes"])))
PY
done

# what Chromium shows of the dip's explanation, in the page itself
chrome "file://$rec/report.html" --dump-dom >"$out/dom.html" 2>"$out/dom.err" ||
	fail "chromium --dump-dom failed: $(tail -n 3 "$out/dom.err")"
python3 - "$out/dom.html" <<'PY' || fail "the dip's explanation does not name the stall"
import html, re, sys
dom = open(sys.argv[1]).read()
def text(s):
    return html.unescape(re.sub(r"<[^>]+>", "", s))
why = [text(m) for m in re.findall(r'<p class="dip-why">(.*?)</p>', dom, re.S)]
assert len(why) == 1, why
for word in ("stopped answering", "8 commands timed out", "abort", "reset",
             "recovered"):
    assert word in why[0], (word, why[0])
row = re.search(r'<div class="why">(.*?)</div>', dom, re.S)
assert row, "no explanation in the dip's row"
items = [text(i) for i in re.findall(r"<li>(.*?)</li>", row.group(1), re.S)]
assert any(i.startswith("SCSI error handling: 8 commands timed out") and
           "8 aborts" in i and "1 reset" in i for i in items), items
print("ok: the dip: " + why[0])
PY

# report --timeline: an SVG of its own; its screenshot shows the lanes
chrome "file://$work/timeline.svg" --window-size=960,620 \
	--screenshot="$out/timeline.png" >/dev/null 2>"$out/shot.err" ||
	fail "chromium --screenshot failed: $(tail -n 3 "$out/shot.err")"
python3 - "$out/timeline.png" <<'PY' || fail "the screenshot is not the timeline"
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", d[16:24])
assert (w, h) == (960, 620), (w, h)
# a blank page compresses to a few kB; the lanes' lines and text do not
assert len(d) > 20000, len(d)
print("ok: report --timeline renders: %dx%d, %d bytes" % (w, h, len(d)))
PY
