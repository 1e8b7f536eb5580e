#!/usr/bin/env bash
# Runs every benchmark suite (narrow phase, queries, tree, solver) in one `cargo bench` run,
# side by side with Box2D v3 and parry2d, then writes BENCHMARKS.md from the results.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf target/criterion
cargo bench --all-features "$@"
python3 scripts/bench_report.py
