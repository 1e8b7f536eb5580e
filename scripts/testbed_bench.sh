#!/usr/bin/env bash
# The testbed's drawing and stepping times per scene, measured in headless Chromium in real time
# (scripts/cdp.py; not the virtual time of testbed_check.sh's page loads): each query loads
# paused with `bench=N`, which steps its world N times and then draws N frames, each frame
# forced onto the canvas before its timer stops (testbed.js, runBench). Prints a Markdown table
# of the mean step ms, and medians of the scene drawn into pixels in WebAssembly (build), the
# whole frame put on the canvas with its text (draw), and the same frame painted with the
# canvas's own paths (`paint=canvas`, the renderer the raster replaced).
#
#   scripts/testbed_bench.sh [FRAMES]   (default 30; the site must be built: scripts/testbed.sh --build)
#
# Used by testbed_check.sh (CI prints the table) and for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-30}
site=target/testbed/site
[ -f "$site/collide2d_testbed.wasm" ] || bash scripts/testbed.sh --build > /dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" > /dev/null 2>&1 &
server=$!
trap 'kill $server 2> /dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2> /dev/null && break
    sleep 0.1
done

# name | query (loaded paused; the steps settle it first)
scenes=(
    "pair explorer|scene=pair&a=box&b=capsule&bx=0.9&by=0.45&ba=0.3"
    "dynamic tree, 300 boxes|scene=tree&n=300&seed=5&moves=100"
    "pyramid 20 (211 bodies), contacts|scene=pyramid&size=20&steps=60&draw=5"
    "tumbler 45 (2 029 bodies), contacts|scene=tumbler&size=45&steps=120&draw=5"
    "tiles and character|scene=tiles&steps=120&draw=5"
    "pyramid 100 (5 051 bodies), shapes|scene=pyramid&size=100&steps=60&draw=1"
    "pyramid 100 (5 051 bodies), contacts|scene=pyramid&size=100&steps=60&draw=5"
    "many pyramids 6 × 6 (1 986 bodies)|scene=pyramids&size=6&steps=60&draw=1"
    "joint grid 30 × 30 (900 bodies, 1 740 joints)|scene=joints&size=30&steps=60&draw=33"
)
echo "| scene | step ms | build ms | draw ms | canvas paths ms |"
echo "|---|---:|---:|---:|---:|"
for entry in "${scenes[@]}"; do
    name=${entry%%|*}
    q=${entry#*|}
    raster=$(python3 scripts/cdp.py --window 1280,800 "http://127.0.0.1:$port/?$q&pause=1&bench=$frames" bench | sed 's/^bench //')
    canvas=$(python3 scripts/cdp.py --window 1280,800 "http://127.0.0.1:$port/?$q&pause=1&bench=$frames&paint=canvas" bench | sed 's/^bench //')
    read -r step build draw _ <<< "$raster"
    read -r _ _ cdraw _ <<< "$canvas"
    if [ "$step" = "0.000" ]; then step="–"; fi
    echo "| $name | $step | $build | $draw | $cdraw |"
done
