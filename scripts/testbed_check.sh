#!/usr/bin/env bash
# The browser testbed in a real browser: builds the page (scripts/testbed.sh --build) and the
# native runner (testbed-native), serves the page on 127.0.0.1, and for every scene loads a
# scripted query in headless Chromium. For each query it checks that
#   - the page finished (<div id="status">done</div>),
#   - the numbers it wrote into <pre id="result"> are bit for bit those of the same query run
#     natively (x86-64 code against WebAssembly, both through libm),
#   - a screenshot of the page is not blank (the canvas has drawn pixels in several colours).
# The browser part runs with no network (a fresh network namespace with only loopback) when
# the machine allows it, to show the page needs nothing from outside.
#
# Needs chromium (Debian's package) and python3; .ci/run installs them. Fails, never skips,
# when either is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/testbed/check
queries=(
    "scene=pair&a=box&b=capsule&bx=0.9&by=0.45&ba=0.3"
    "scene=pair&a=circle&b=polygon&ax=0.1&bx=1.05&by=-0.2&ba=1.1"
    "scene=pair&a=rounded&b=segment&bx=0.3&by=0.52&ba=-0.2"
    "scene=pair&a=polygon&b=box&bx=2.5&by=0.4&ba=0.7"
    "scene=pair&a=capsule&b=circle&aa=0.5&bx=-0.2&by=0.75"
    "scene=cast&mode=ray&x0=-5&y0=3.5&x1=4&y1=-3.5"
    "scene=cast&mode=ray&x0=-5.5&y0=-1&x1=5.5&y1=-3.5"
    "scene=cast&mode=shape&shape=capsule&angle=0.4&x0=-5&y0=0.5&x1=5&y1=0.2"
    "scene=cast&mode=shape&shape=rounded&angle=1.2&x0=4&y0=3.5&x1=-1&y1=-3.5"
    "scene=toi"
    "scene=toi&a=box&b=circle"
    "scene=toi&a=capsule&b=polygon&a1x=-3&a1y=0&a1a=0&a2x=3&a2y=0.3&a2a=2.5&b1x=0&b1y=-2&b2x=0.2&b2y=2"
    "scene=tree&n=300&seed=5&moves=100&removes=40&qx0=-8&qy0=-5&qx1=6&qy1=4"
    "scene=pyramid&size=20&steps=200&pause=1"
    "scene=pyramid&size=10&steps=90&sleep=0&draw=31&pause=1"
    "scene=tumbler&size=20&steps=120&pause=1"
    "scene=tiles&steps=300&input=R100,RJ1,R80,L40,LJ1,L60&pause=1"
)

# The page's own input handlers, driven by events it dispatches to itself (`ui=`, see
# testbed.js): QUERY @@ a Python condition on the scene's numbers `v` afterwards @@ what it shows.
# Screen pixels round the world coordinates, so these check effects, not bits.
ui_checks=(
    "scene=pair&ui=drag:1:0.6:3:2.5 @@ v[0] == 0 and v[12] > 1.0 @@ dragging B away separates the pair"
    "scene=cast&ui=drag:-5.5:2.2:5.5:2.2 @@ v[1] == 1 and v[2] == 1 and abs(v[4] + 1.5) < 0.05 and v[6] < -0.99 @@ a dragged ray hits the circle's left side"
    "scene=tree&n=50&seed=9&ui=click:0:0:2 @@ v[0] in (49, 51) and v[7] == 1 @@ a right-click adds or removes a box"
    "scene=tree&n=50&seed=9&ui=drag:-21.9:-13.9:21.9:13.9 @@ v[0] == 50 and v[3] == 50 and v[5] == 50 @@ a query box dragged over everything finds every box"
    "scene=tiles&ui=key:ArrowRight:45 @@ v[8] > 4.0 and v[10] == 1 @@ holding the right arrow walks the character right"
    "scene=tiles&ui=key:ArrowUp:2 @@ v[9] > 2.7 @@ the up arrow makes the character jump"
    "scene=pair&a=box%zz&ui=wheel:0 @@ len(v) > 10 @@ a stray % in the URL still starts the page"
)

if [ "${TESTBED_CHECK_INNER:-}" != 1 ]; then
    chromium_bin=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$chromium_bin" ]; then
        echo "testbed_check: chromium is not installed (apt-get install chromium)" >&2
        exit 1
    fi
    bash scripts/testbed.sh --build
    cargo build --release --bin testbed-native --manifest-path testbed/Cargo.toml \
        --target-dir target/testbed
    rm -rf "$out"
    mkdir -p "$out"
    target/testbed/release/testbed-native "${queries[@]}" > "$out/native.txt"
    # The browser part without network, when a network namespace can be made here.
    if command -v unshare > /dev/null && unshare -n true 2> /dev/null; then
        echo "testbed_check: the browser runs with no network (unshare -n)"
        exec unshare -n env TESTBED_CHECK_INNER=1 CHROMIUM="$chromium_bin" NO_NETWORK=1 bash "$0"
    fi
    echo "testbed_check: no network namespace here; the browser runs with the machine's network"
    exec env TESTBED_CHECK_INNER=1 CHROMIUM="$chromium_bin" bash "$0"
fi

# ---- inside: serve, load every query, compare -----------------------------------------------
if [ "${NO_NETWORK:-}" = 1 ]; then
    # A new network namespace starts with loopback down.
    if command -v ip > /dev/null; then ip link set lo up; else ifconfig lo up; fi
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory target/testbed/site \
    > "$out/http.log" 2>&1 &
server=$!
trap 'kill $server 2> /dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" \
        2> /dev/null && break
    sleep 0.1
done

profile=$(mktemp -d)
browser() {
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
        --disable-background-networking --user-data-dir="$profile" --hide-scrollbars \
        --window-size=1100,700 --virtual-time-budget=20000 "$@" 2> /dev/null
}

# The page's DOM for query $1 into file $2. Virtual time can (rarely) run out before the page's
# start finishes; a page that did not finish is loaded again, up to 3 times, and then reported
# as failed.
dump() {
    for attempt in 1 2 3; do
        browser --dump-dom "http://127.0.0.1:$port/?$1" > "$2" || true
        if grep -q '<div id="status">done</div>' "$2"; then
            return
        fi
        echo "testbed_check: $1 did not finish (attempt $attempt)"
    done
}

i=0
for q in "${queries[@]}"; do
    i=$((i + 1))
    dump "$q" "$out/dom-$i.html"
    browser --screenshot="$out/shot-$i.png" "http://127.0.0.1:$port/?$q" > /dev/null
done

j=0
for check in "${ui_checks[@]}"; do
    j=$((j + 1))
    dump "${check%% @@ *}" "$out/ui-$j.html"
done

python3 - "$out" "${#queries[@]}" "${queries[@]}" "${ui_checks[@]}" << 'EOF'
import html, re, struct, sys, zlib

out, count = sys.argv[1], int(sys.argv[2])
queries, ui_checks = sys.argv[3:3 + count], sys.argv[3 + count:]
native = {}
for line in open(f"{out}/native.txt"):
    q, _, bits = line.strip().partition(" ")
    native[q] = bits


def png_pixels(path):
    """RGB(A) rows of an 8-bit PNG (the filters undone)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


failures = 0
for i, q in enumerate(queries, 1):
    dom = open(f"{out}/dom-{i}.html").read()
    status = re.search(r'<div id="status">(.*?)</div>', dom, re.S)
    result = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    problems = []
    if not status or status.group(1) != "done":
        problems.append(f"status {status.group(1) if status else 'missing'}")
    page = html.unescape(result.group(1)) if result else ""
    page_q, _, page_bits = page.partition(" ")
    if page_q != q:
        problems.append(f"the page ran {page_q!r}")
    if page_bits != native.get(q):
        problems.append(f"results differ:\n    page   {page_bits}\n    native {native.get(q)}")
    # The canvas starts right of the 300 px side panel; its background is #111216.
    w, h, bpp, rows = png_pixels(f"{out}/shot-{i}.png")
    drawn, colours = 0, set()
    for row in rows[::2]:
        for x in range(310, w, 2):
            px = row[x * bpp:x * bpp + 3]
            if px != b"\x11\x12\x16":
                drawn += 1
                colours.add(px)
    share = drawn / (((w - 310) // 2) * (h // 2))
    if share < 0.002 or len(colours) < 3:
        problems.append(f"blank screenshot ({share:.4%} drawn, {len(colours)} colours)")
    values = len(page_bits.split()) if page_bits else 0
    same = " equal to native" if page_bits == native.get(q) else ""
    print(f"{'ok ' if not problems else 'FAIL'} {q}: {values} values{same}, "
          f"canvas {share:.2%} drawn in {len(colours)} colours")
    for p in problems:
        print("    " + p)
    failures += bool(problems)
for j, check in enumerate(ui_checks, 1):
    q, expect, what = check.split(" @@ ")
    dom = open(f"{out}/ui-{j}.html").read()
    status = re.search(r'<div id="status">(.*?)</div>', dom, re.S)
    ui = re.search(r'<pre id="ui">(.*?)</pre>', dom, re.S)
    v = [float(x) for x in ui.group(1).split()] if ui and ui.group(1).strip() else []
    ok = bool(status) and status.group(1) == "done" and bool(v) and eval(expect, {"v": v})
    print(f"{'ok ' if ok else 'FAIL'} {q}: {what}" + ("" if ok else f"\n    {expect} with v = {v}"))
    failures += not ok
sys.exit(1 if failures else 0)
EOF
echo "testbed_check: all ${#queries[@]} queries and ${#ui_checks[@]} input checks passed"
