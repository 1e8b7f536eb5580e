#!/usr/bin/env bash
# Builds the browser testbed (collide2d compiled to wasm32-unknown-unknown, plus the static
# page in testbed/web/) into target/testbed/site/ and serves it on http://127.0.0.1:PORT/
# with Python's http.server. Needs only rustup, cargo and python3; works with no network once
# the wasm32 target is installed.
#
#   scripts/testbed.sh [PORT]      build, then serve (default port 8000; Ctrl-C stops)
#   scripts/testbed.sh --build     build only (prints the site directory and the wasm size)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
# WebAssembly SIMD (every current browser has it) lets the solver's four-lane blocks run as
# vectors; the results are bit for bit the scalar ones (no fused or relaxed operations).
RUSTFLAGS="-C target-feature=+simd128" cargo build --release --lib --target wasm32-unknown-unknown \
    --manifest-path testbed/Cargo.toml --target-dir target/testbed
site=target/testbed/site
mkdir -p "$site"
cp testbed/web/index.html testbed/web/testbed.js "$site/"
cp target/testbed/wasm32-unknown-unknown/release/collide2d_testbed.wasm "$site/"
size=$(wc -c < "$site/collide2d_testbed.wasm")
echo "testbed built in $site (collide2d_testbed.wasm: $size bytes)"

if [ "${1:-}" = "--build" ]; then
    exit 0
fi
port=${1:-8000}
echo "serving on http://127.0.0.1:$port/ (Ctrl-C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
