#!/usr/bin/env bash
# Runs every benchmark suite (narrow phase, queries, tree, solver) in one `cargo bench` run of
# the peers package (peers/benches), side by side with Box2D v3 and parry2d, then writes
# BENCHMARKS.md from the results and the whole-world scenes runner (peers/examples/scenes.rs).
# `scripts/bench.sh --scenes` reruns only the scenes and rewrites their section; `--level`
# reruns peers/benches/level.rs and rewrites its section; `--mover` the same for
# peers/benches/mover.rs; `--testbed` measures the browser testbed's wasm module (size,
# gzipped, after wasm-opt when binaryen is installed, and by module).
set -euo pipefail
cd "$(dirname "$0")/.."
# Box2D (boxdd-sys, built by the cc crate) without its debug assertions, as its own
# benchmark is built; applies to every row, the scenes runner included.
export CFLAGS="${CFLAGS:-} -DNDEBUG"
if [ "${1:-}" = "--level" ]; then
    cargo bench -p collide2d-peers --bench level
    python3 scripts/bench_report.py --level
    exit 0
fi
if [ "${1:-}" = "--mover" ]; then
    cargo bench -p collide2d-peers --bench mover
    python3 scripts/bench_report.py --mover
    exit 0
fi
if [ "${1:-}" = "--testbed" ]; then
    python3 scripts/bench_report.py --testbed
    exit 0
fi
if [ "${1:-}" = "--scenes" ]; then
    python3 scripts/bench_report.py --scenes
    exit 0
fi
rm -rf target/criterion
cargo bench -p collide2d-peers "$@"
python3 scripts/bench_report.py
