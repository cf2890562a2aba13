#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail report over a recording of the test bed (medium not present,
# then the UAS reset chain): report.html rendered by headless Chromium
# shows the plot (throughput line, dip shading, incident marks) and the
# incident rows, logs no console error and requests nothing from the
# network.  Both detectors are checked against pages that do fetch and do
# log, so a silent Chromium cannot pass the test.
. "$(dirname "$0")/lib.sh"

chromium=$(command -v chromium || command -v chromium-browser) ||
	skip "no chromium (tools/deps.sh installs it)"
rec=$work/rec
cp -r "$top/tests/fixtures/recordings/uas-medium-stall" "$rec"

"$bin" report "$rec" >"$out/report.out" 2>"$out/report.err" ||
	fail "usbtrail report failed: $(cat "$out/report.err")"
[ -s "$rec/report.html" ] || fail "no report.html"
[ -s "$rec/report.txt" ] || fail "no report.txt"
cp "$rec/report.html" "$rec/report.txt" "$out/"
echo "ok: report.html ($(wc -c <"$rec/report.html") bytes) and report.txt"

# -o -: the same HTML on standard output, no file named "-" or "-.txt",
# and a full disk is an error, not a cut page
find "$rec" | sort >"$out/ls-before.txt"
"$bin" report "$rec" -o - >"$out/stdout.html" 2>"$out/stdout.err" ||
	fail "report -o - failed: $(cat "$out/stdout.err")"
cmp -s "$out/stdout.html" "$rec/report.html" ||
	fail "report -o - differs from report.html"
find "$rec" | sort | cmp -s - "$out/ls-before.txt" ||
	fail "report -o - wrote into $rec: $(find "$rec" | sort |
		diff "$out/ls-before.txt" - | tr '\n' ' ')"
if [ -w /dev/full ]; then
	if "$bin" report "$rec" -o - >/dev/full 2>"$out/full.err"; then
		fail "report -o - >/dev/full succeeded"
	fi
	grep -q "No space left" "$out/full.err" ||
		fail "report -o - >/dev/full: $(cat "$out/full.err")"
fi
echo "ok: report -o - writes the HTML to standard output and no file"

# A proxy that answers 404 to everything and logs what it was asked:
# every request Chromium makes goes there (loopback included).
cat >"$work/proxy.py" <<'PY'
import http.server, socketserver, sys
log = open(sys.argv[1], "a", buffering=1)
class H(http.server.BaseHTTPRequestHandler):
    def handle_one_request(self):
        try:
            super().handle_one_request()
        except Exception:
            pass
    def any(self):
        log.write(self.command + " " + self.path + "\n")
        self.send_error(404)
    do_GET = do_POST = do_HEAD = do_CONNECT = do_PUT = do_OPTIONS = any
    def log_message(self, *a):
        pass
s = socketserver.ThreadingTCPServer(("127.0.0.1", 0), H)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.serve_forever()
PY
: >"$work/requests.log"
python3 "$work/proxy.py" "$work/requests.log" "$work/port" &
proxy_pid=$!
cleanup_hooks="kill $proxy_pid 2>/dev/null;"
i=0
while [ ! -s "$work/port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
port=$(cat "$work/port") || fail "the proxy did not start"

# chrome PAGE ARGS...: headless Chromium on PAGE, console on stderr
chrome() {
	page=$1; shift
	timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--disable-default-apps --hide-scrollbars --no-pings \
		--disable-domain-reliability --disable-breakpad \
		--disable-client-side-phishing-detection \
		--disable-features=NetworkTimeServiceQuerying,Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater \
		--user-data-dir="$work/profile" \
		--proxy-server="http://127.0.0.1:$port" \
		--proxy-bypass-list='<-loopback>' \
		--enable-logging=stderr --v=0 "$@" "file://$page"
}

# The detectors, on pages built to trip them
cat >"$work/fetch.html" <<'EOF'
<!DOCTYPE html><html><body><img src="http://usbtrail-test.invalid/x.png">
</body></html>
EOF
cat >"$work/console.html" <<'EOF'
<!DOCTYPE html><html><body><script>console.error("usbtrail-test-error")
</script></body></html>
EOF
chrome "$work/fetch.html" --dump-dom >/dev/null 2>"$out/fetch.err"
grep -q 'usbtrail-test.invalid' "$work/requests.log" ||
	fail "the proxy saw no request from a page that makes one"
echo "ok: the proxy sees a page's request"
chrome "$work/console.html" --dump-dom >/dev/null 2>"$out/console.err"
grep -q 'CONSOLE.*usbtrail-test-error' "$out/console.err" ||
	fail "Chromium's log shows no console error of a page that logs one"
echo "ok: Chromium's log shows a page's console error"
: >"$work/requests.log"

# The report: its DOM, then a screenshot
chrome "$rec/report.html" --dump-dom >"$out/dom.html" 2>"$out/dom.err" ||
	fail "chromium --dump-dom failed: $(tail -n 3 "$out/dom.err")"
chrome "$rec/report.html" --window-size=1200,1200 \
	--screenshot="$out/report.png" >/dev/null 2>"$out/shot.err" ||
	fail "chromium --screenshot failed: $(tail -n 3 "$out/shot.err")"
[ -s "$out/report.png" ] || fail "no screenshot"

# Chromium itself talks to Google's update, time and account services
# whatever the flags (component updater); those are the browser's, not
# the page's.  Anything else is the page's.
browser='^(CONNECT|GET|POST) (http://)?([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com|gstatic\.com)(:443)?(/|$)'
grep -Ev "$browser" "$work/requests.log" >"$out/requests.txt"
if grep -q . "$out/requests.txt"; then
	fail "report.html made requests: $(head -n 3 "$out/requests.txt")"
fi
echo "ok: no network request ($(grep -Ec "$browser" "$work/requests.log") of Chromium's own ignored)"
# and nothing in the file could fetch: no src, no external link, a CSP
# that forbids every fetch
python3 - "$rec/report.html" <<'PY' || fail "report.html refers to something outside"
import re, sys
h = open(sys.argv[1]).read()
assert "default-src 'none'" in h, "no CSP"
urls = set(re.findall(r'(?:src|href|xlink:href|url)\s*[=(]\s*[\'"]?([^\'" )>]*)', h))
outside = [u for u in urls if not u.startswith("#")]
assert not outside, outside
assert set(re.findall(r'https?://[^\'" <]*', h)) <= {"http://www.w3.org/2000/svg"}
print("ok: report.html: only in-page links (%d), a CSP of default-src 'none'" % len(urls))
PY
if grep -h 'CONSOLE' "$out/dom.err" "$out/shot.err"; then
	fail "console messages while showing report.html"
fi
echo "ok: no console message"

python3 - "$out/dom.html" <<'PY' || fail "the DOM lacks the plot or the incidents"
import re, sys
dom = open(sys.argv[1]).read()
plots = re.findall(r'<svg class="plot"', dom)
rows = re.findall(r'<tr class="incident" id="inc-(\d+)"', dom)
assert plots, "no plot svg"
assert 'class="throughput"' in dom, "no throughput line"
assert 'class="dip"' in dom, "no dip shading"
marks = dom.count('<g class="mark">')
assert len(rows) == 14, rows
assert marks == 14, marks
assert "Medium not present" in dom and "uas_eh_device_reset_handler" in dom
print("ok: DOM: %d plot(s), %d incident rows, %d marks" %
      (len(plots), len(rows), marks))
PY

# The screenshot is not blank, and shows the plot's colours: the
# throughput line (#1f5fbf), the dip shading (#e08000 at 18 %) and the
# red incident marks (#c00020).
python3 - "$out/report.png" <<'PY' || fail "the screenshot does not show the plot"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
rows = []
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pr) & 255
    rows.append(line)
    prev = line
def near(px, rgb, tol=40):
    return all(abs(px[k] - rgb[k]) <= tol for k in range(3))
nonwhite = blue = orange = red = 0
for line in rows:
    for x in range(0, stride, bpp):
        px = line[x:x + 3]
        if px[0] < 245 or px[1] < 245 or px[2] < 245:
            nonwhite += 1
        if near(px, (0x1f, 0x5f, 0xbf)): blue += 1
        if near(px, (0xf9, 0xe5, 0xcc), 12): orange += 1
        if near(px, (0xc0, 0x00, 0x20)): red += 1
total = w * h
print("screenshot %dx%d: %.1f %% not white, line %d, dip %d, marks %d px" %
      (w, h, 100.0 * nonwhite / total, blue, orange, red))
assert nonwhite > total * 0.02, "nearly blank"
assert blue > 200, "no throughput line"
assert orange > 2000, "no dip shading"
assert red > 100, "no incident marks"
PY
echo "ok: report.html renders the plot, the incidents, fetches nothing"
