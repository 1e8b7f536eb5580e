#!/usr/bin/env bash
# Runs every fuzz target for a fixed budget (seconds, default 60 each) and prints the number of
# executions and any findings. Needs the nightly toolchain and cargo-fuzz (installed if absent).
set -euo pipefail
cd "$(dirname "$0")/.."
budget="${1:-60}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in capi_queries capi_tree capi_world; do
    log="fuzz/${target}.log"
    cargo +nightly fuzz run "$target" -- -max_total_time="$budget" -rss_limit_mb=2048 > "$log" 2>&1 || {
        echo "$target: FINDING (see $log and fuzz/artifacts/$target)"; tail -30 "$log"; exit 1; }
    echo "$target: $(grep -E '^Done [0-9]+ runs' "$log" || tail -1 "$log")"
done
