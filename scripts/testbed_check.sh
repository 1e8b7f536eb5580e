#!/usr/bin/env bash
# The browser testbed in a real browser: builds the page (scripts/testbed.sh --build) and the
# native runner (testbed-native), serves the page on 127.0.0.1, and for every scene loads a
# scripted query in headless Chromium. For each query it checks that
#   - the page finished (<div id="status">done</div>),
#   - the numbers it wrote into <pre id="result"> are bit for bit those of the same query run
#     natively (x86-64 code against WebAssembly, both through libm),
#   - a screenshot of the page is not blank (the canvas has drawn pixels in several colours).
# Then it drives the page's own input handlers (ui_checks, below), loads every scene at
# 1280 x 800 and 1920 x 1080 (and at device pixel ratio 2) to check the camera's fit
# (camera_checks), compares every scene's drawing with its reference image
# (scripts/testbed_shots.py) and prints the drawing and stepping times (scripts/testbed_bench.sh).
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
    "scene=cast&mode=shape&shape=box&x0=-3e38&y0=0&x1=3e38&y1=0"
    "scene=toi"
    "scene=toi&a=box&b=circle"
    "scene=toi&a=capsule&b=polygon&a1x=-3&a1y=0&a1a=0&a2x=3&a2y=0.3&a2a=2.5&b1x=0&b1y=-2&b2x=0.2&b2y=2"
    "scene=tree&n=300&seed=5&moves=100&removes=40&qx0=-8&qy0=-5&qx1=6&qy1=4"
    "scene=pyramid&size=20&steps=200&pause=1"
    "scene=pyramid&size=10&steps=90&sleep=0&draw=31&pause=1"
    "scene=tumbler&size=20&steps=120&pause=1"
    "scene=tiles&steps=300&input=R100,RJ1,R80,L40,LJ1,L60&pause=1"
    "scene=gallery"
    "scene=gallery&push=0.3&turn=1.1"
    "scene=bullets&steps=60&pause=1"
    "scene=bullets&steps=60&continuous=0&pause=1"
    "scene=sensors&steps=200&pause=1"
    "scene=bridge&steps=180&pause=1"
    "scene=pyramids&size=2&steps=60&pause=1"
    "scene=joints&size=10&steps=60&pause=1"
    "scene=car&steps=240&input=R240&pause=1"
    "scene=ragdoll&steps=200&pause=1"
)

# The page's own input handlers, driven by events it dispatches to itself (`ui=`, see
# testbed.js): QUERY @@ a Python condition @@ what it shows. The condition sees the scene's
# numbers afterwards `v`, the page's state `st` (`st["search"]` the URL's query string,
# `st["focus"]` the focused element's id, `st["checked"]` the checked boxes' ids, `st["hud"]`
# the text on the canvas, its lines joined by ` | `, `st["legend"]` the legend's names and
# `st["labels"]` the labels' texts, each joined by `,`), the camera
# `cam` (visible world rectangle x0 y0 x1 y1, the scene's view rectangle, canvas width and
# height in device pixels, device pixel ratio, CSS width and height) and `cam0` (the same
# before the commands), `dx`, `dy` (how far the camera's centre moved), `fx`, `fy` (a world
# point's fractions across the visible rectangle, `fx(c, x)`), the side panel's note
# `note`, and, when it names it, `drawn` (a screenshot of the page shows a drawn canvas).
# Screen pixels round the world coordinates, so these check effects, not bits.
ui_checks=(
    "scene=pair&ui=drag:1:0.6:3:2.5 @@ v[0] == 0 and v[12] > 1.0 @@ dragging B away separates the pair"
    "scene=cast&ui=drag:-5.5:2.2:5.5:2.2 @@ v[1] == 1 and v[2] == 1 and abs(v[4] + 1.5) < 0.05 and v[6] < -0.99 @@ a dragged ray hits the circle's left side"
    "scene=tree&n=50&seed=9&ui=click:0:0:2 @@ v[0] in (49, 51) and v[7] == 1 @@ a right-click adds or removes a box"
    "scene=tree&n=50&seed=9&ui=drag:-21.9:-13.9:21.9:13.9 @@ v[0] == 50 and v[3] == 50 and v[5] == 50 @@ a query box dragged over everything finds every box"
    "scene=tiles&ui=key:ArrowRight:45 @@ v[8] > 4.0 and v[10] == 1 @@ holding the right arrow walks the character right"
    "scene=tiles&ui=key:ArrowUp:2 @@ v[9] > 2.7 @@ the up arrow makes the character jump"
    "scene=pair&a=box%zz&ui=wheel:0 @@ len(v) > 10 @@ a stray % in the URL still starts the page"
    "scene=pyramid&size=%zz&draw=7%&b=%E0%A4%A&pause=1&ui=wheel:0 @@ drawn and v[1] == 211 and 'size=%zz' in note and 'draw=7%' in note @@ malformed escapes are left out with a note, and the rest loads and draws"
    "scene=pair&ui=select:scene:tumbler @@ st['search'] == '?scene=tumbler' and v[1] > 2000 and st['focus'] == 'canvas' @@ choosing a scene writes it into the URL and gives focus back to the canvas"
    "scene=pair&ui=select:ctl-b:circle @@ 'b=circle' in st['search'] and st['focus'] == 'canvas' @@ a shape chosen in a control is written into the URL"
    "scene=pyramid&pause=1&ui=toggle:draw-bounds;toggle:sleeping;button:reset @@ 'draw=7' in st['search'] and 'sleep=0' in st['search'] and st['checked'] == 'draw-shapes,draw-bounds,draw-contacts,continuous' and v[0] == 0 @@ Reset keeps the draw options"
    "scene=pair&ui=select:scene:tiles;key:ArrowRight:45 @@ v[8] > 4.0 and st['search'] == '?scene=tiles' @@ after choosing a scene the arrow keys act on the scene, not on the dropdown"
    "scene=pair&ui=zoom:2:1:5 @@ (cam[2] - cam[0]) < 0.7 * (cam0[2] - cam0[0]) and abs(fx(cam, 2) - fx(cam0, 2)) < 0.01 and abs(fy(cam, 1) - fy(cam0, 1)) < 0.01 @@ the wheel zooms in at the pointer (the point under it stays put)"
    "scene=pyramid&pause=1&ui=drag:12:15:10:14 @@ abs(dx - 2) < 0.05 and abs(dy - 1) < 0.05 and v[0] == 0 @@ dragging empty space pans the camera"
    "scene=pair&ui=drag:1:0.6:3:2.5:1 @@ abs(dx + 2) < 0.05 and abs(dy + 1.9) < 0.05 and v[0] == 1 @@ a middle-button drag pans, even over a shape"
    "scene=cast&ui=drag:0:0:1:0.5:2 @@ abs(dx + 1) < 0.05 and abs(dy + 0.5) < 0.05 @@ a right-button drag pans the cast scene"
    "scene=pyramid&ui=advance:0.04 @@ v[0] == 2 and 'behind' not in st['hud'] and 'fps' in st['hud'] and 'draw' in st['hud'] @@ a 40 ms frame takes two 1/60 s steps, and the canvas shows fps and the step and draw times"
    "scene=pyramid&ui=advance:0.04;advance:1 @@ v[0] == 6 and st['hud'].endswith('behind') @@ a 1 s frame takes at most 4 steps and shows 'behind'"
    "scene=pair&ui=zoom:0:0:4;key:KeyF:0 @@ cam == cam0 @@ F fits the scene again after a zoom"
    "scene=pyramid&pause=1&ui=press:KeyO;press:KeyO @@ v[0] == 2 @@ O steps once per press"
    "scene=pyramid&ui=press:KeyP;advance:0.1 @@ v[0] == 0 and 'paused' in st['hud'] @@ P pauses (a frame then steps nothing)"
    "scene=pyramid&pause=1&ui=press:KeyO;press:KeyO;press:KeyR @@ v[0] == 0 and v[1] == 211 @@ R resets the scene"
    "scene=pyramid&pause=1&ui=number:ctl-substeps:8;number:ctl-gravity:-20;number:ctl-hertz:60;toggle:continuous;button:reset @@ all(k in st['search'] for k in ('substeps=8', 'gravity=-20', 'hertz=60', 'continuous=0')) and v[11:16] == [8, -20, 60, 1, 0] and st['focus'] == 'canvas' @@ live settings reach the world, are written into the URL and kept on Reset"
    "scene=pyramid&pause=1&ui=number:ctl-size:5 @@ v[1] == 16 and 'size=5' in st['search'] @@ the size field rebuilds the scene"
    "scene=pyramid&pause=1&ui=click:-15:5:0:1;click:15:5:0:1 @@ v[1] == 213 @@ Shift + click drops bodies"
    "scene=pair&a=box&b=capsule&bx=0.9&by=0.45&ba=0.3&ui=wheel:0 @@ 'id 0x' in st['labels'] and all(n in st['legend'] for n in ('shape A', 'shape B', 'contact / hit point', 'normal', 'x axis', 'y axis')) @@ feature ids at contact points; the legend names every colour drawn"
    "scene=cast&mode=shape&shape=capsule&angle=0.4&x0=-5&y0=0.5&x1=5&y1=0.2&ui=wheel:0 @@ '#0' in st['labels'] and 'shape cast' in st['legend'] and 'normal' in st['legend'] @@ cast targets are numbered; the cast is in the legend"
    "scene=pyramid&ui=advance:0.04 @@ all(k in st['hud'] for k in ('pairs', 'narrow', 'solve', 'finalize', 'continuous', 'sleep')) @@ the canvas shows the World's profile by phase"
    "scene=car&pause=1&ui=key:ArrowRight:120 @@ v[0] == 120 @@ the right arrow drives the car (its motors: checked natively in testbed/tests)"
)

# The camera's fit: every scene at these window sizes (WIDTHxHEIGHT[@device pixel ratio]) must
# show its whole view rectangle, on a canvas of the window's size less the side panel, in
# device pixels.
camera_scenes=(
    "scene=pair" "scene=cast" "scene=toi" "scene=tree" "scene=pyramid&pause=1"
    "scene=pyramid&size=40&pause=1" "scene=tumbler&pause=1" "scene=tiles&pause=1"
    "scene=gallery" "scene=bullets&pause=1" "scene=sensors&pause=1" "scene=bridge&pause=1"
    "scene=pyramids&pause=1" "scene=joints&pause=1" "scene=car&pause=1" "scene=ragdoll&pause=1"
)
camera_windows=("1280x800" "1920x1080" "1280x800@2")

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
# WINDOW (WIDTH,HEIGHT) and SCALE (device pixel ratio) set the browser's window.
browser() {
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
        --disable-background-networking --user-data-dir="$profile" --hide-scrollbars \
        --window-size="${WINDOW:-1100,700}" --force-device-scale-factor="${SCALE:-1}" \
        --virtual-time-budget=20000 "$@" 2> /dev/null
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
    case "$check" in
        *" @@ "*drawn*" @@ "*)
            browser --screenshot="$out/ui-$j.png" "http://127.0.0.1:$port/?${check%% @@ *}" > /dev/null ;;
    esac
done

# Headless Chromium's viewport is its window less a browser bar of some height: each window
# size is first loaded once to measure the bar, then the window is made that much taller so
# the page's viewport is the size named.
camera_checks=()
for window in "${camera_windows[@]}"; do
    size=${window%@*}
    scale=1
    [ "$size" != "$window" ] && scale=${window#*@}
    width=${size%x*}
    height=${size#*x}
    WINDOW=$width,$height SCALE=$scale dump "scene=pair" "$out/camera-bar.html"
    css_h=$(python3 -c 'import re, sys; print(round(float(re.search(r"<pre id=\"camera\">([^<]*)</pre>", open(sys.argv[1]).read()).group(1).split()[-1])))' \
        "$out/camera-bar.html" 2> /dev/null || echo "$height")
    outer=$((2 * height - css_h))
    for q in "${camera_scenes[@]}"; do
        k=${#camera_checks[@]}
        camera_checks+=("$size $scale $q")
        WINDOW=$width,$outer SCALE=$scale dump "$q" "$out/camera-$k.html"
    done
done

python3 - "$out" "${#queries[@]}" "${#ui_checks[@]}" "${queries[@]}" "${ui_checks[@]}" \
    "${camera_checks[@]}" << 'EOF'
import html, os, re, struct, sys, zlib

out, count, ui_count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
queries = sys.argv[4:4 + count]
ui_checks = sys.argv[4 + count:4 + count + ui_count]
camera_checks = sys.argv[4 + count + ui_count:]
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


def drawn_share(path):
    """The share of the canvas's pixels drawn (not its background #111216), and in how many
    colours; the canvas starts right of the 300 px side panel."""
    w, h, bpp, rows = png_pixels(path)
    drawn, colours = 0, set()
    for row in rows[::2]:
        for x in range(310, w, 2):
            px = row[x * bpp:x * bpp + 3]
            if px != b"\x11\x12\x16":
                drawn += 1
                colours.add(px)
    return drawn / (((w - 310) // 2) * (h // 2)), len(colours)


def element(dom, tag, name):
    m = re.search(rf'<{tag} id="{name}"[^>]*>(.*?)</{tag}>', dom, re.S)
    return html.unescape(m.group(1)) if m else None


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
    share, colours = drawn_share(f"{out}/shot-{i}.png")
    if share < 0.002 or colours < 3:
        problems.append(f"blank screenshot ({share:.4%} drawn, {colours} colours)")
    values = len(page_bits.split()) if page_bits else 0
    same = " equal to native" if page_bits == native.get(q) else ""
    print(f"{'ok ' if not problems else 'FAIL'} {q}: {values} values{same}, "
          f"canvas {share:.2%} drawn in {colours} colours")
    for p in problems:
        print("    " + p)
    failures += bool(problems)
for j, check in enumerate(ui_checks, 1):
    q, expect, what = check.split(" @@ ")
    dom = open(f"{out}/ui-{j}.html").read()
    status = element(dom, "div", "status")
    ui = element(dom, "pre", "ui") or ""
    v = [float(x) for x in ui.split()]
    st = dict((line.split(" ", 1) + [""])[:2] for line in (element(dom, "pre", "state") or "").splitlines())
    cam = [float(x) for x in st.get("camera", "").split()]
    cam0 = [float(x) for x in st.get("camera0", "").split()]
    env = {"v": v, "st": st, "cam": cam, "cam0": cam0, "note": element(dom, "div", "note") or "",
           "fx": lambda c, x: (x - c[0]) / (c[2] - c[0]), "fy": lambda c, y: (y - c[1]) / (c[3] - c[1])}
    if len(cam) > 3 and len(cam0) > 3:
        env["dx"] = (cam[0] + cam[2] - cam0[0] - cam0[2]) / 2
        env["dy"] = (cam[1] + cam[3] - cam0[1] - cam0[3]) / 2
    if os.path.exists(f"{out}/ui-{j}.png"):
        share, colours = drawn_share(f"{out}/ui-{j}.png")
        env["drawn"] = share >= 0.002 and colours >= 3
    try:
        ok = status == "done" and bool(v) and bool(eval(expect, env))
    except Exception as e:  # a missing value: the page did not get that far
        ok = False
        expect += f" ({e!r})"
    print(f"{'ok ' if ok else 'FAIL'} {q}: {what}" + ("" if ok else
          f"\n    {expect} with v = {v}, st = {st}, note = {env['note']!r}, status = {status!r}"))
    failures += not ok
for k, check in enumerate(camera_checks):
    size, scale, q = check.split(" ", 2)
    width, height = map(int, size.split("x"))
    dom = open(f"{out}/camera-{k}.html").read()
    cam = [float(x) for x in (element(dom, "pre", "camera") or "").split()]
    problems = []
    if len(cam) != 13:
        problems.append(f"no camera in the DOM: {cam}")
    else:
        x0, y0, x1, y1, bx0, by0, bx1, by1, cw, ch, dpr, css_w, css_h = cam
        if not (x0 <= bx0 and y0 <= by0 and x1 >= bx1 and y1 >= by1):
            problems.append(f"the view {cam[:4]} does not hold the scene {cam[4:8]}")
        if (css_w, css_h) != (width - 300, height) or dpr != float(scale):
            problems.append(f"canvas of {css_w} x {css_h} CSS px at ratio {dpr}, not {width - 300} x {height} at {scale}")
        if (cw, ch) != (round(css_w * dpr), round(css_h * dpr)):
            problems.append(f"canvas of {cw} x {ch} device px for {css_w} x {css_h} CSS px at ratio {dpr}")
    print(f"{'ok ' if not problems else 'FAIL'} {size} at ratio {scale} {q}: the camera shows the whole scene")
    for p in problems:
        print("    " + p)
    failures += bool(problems)
sys.exit(1 if failures else 0)
EOF
# Every scene against its committed reference image (testbed/reference/), in real time over the
# DevTools protocol (scripts/testbed_shots.py); long scripts' progress and Cancel
# (scripts/testbed_live.py); then the drawing and stepping times per scene
# (scripts/testbed_bench.sh, a short run: the figures in BENCHMARKS.md come from longer ones).
python3 scripts/testbed_shots.py "http://127.0.0.1:$port"
python3 scripts/testbed_live.py "http://127.0.0.1:$port"
echo "testbed_check: drawing and stepping times (medians of 10 frames, this machine):"
bash scripts/testbed_bench.sh 10
echo "testbed_check: all ${#queries[@]} queries, ${#ui_checks[@]} input checks," \
    "$((${#camera_scenes[@]} * ${#camera_windows[@]})) camera fits and the reference images passed"
