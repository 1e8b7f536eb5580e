#!/usr/bin/env bash
# Runs every fuzz target for a fixed budget and prints the number of executions and any
# findings: `fuzz/run.sh [seconds]` (default 60 each) or `fuzz/run.sh --runs N` (N executions
# each, e.g. 10000000). Needs the nightly toolchain and cargo-fuzz (installed if absent).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--runs" ]; then
    limit="-runs=${2:?--runs needs a count}"
else
    limit="-max_total_time=${1:-60}"
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in capi_queries capi_tree capi_world capi_snapshot; do
    log="fuzz/${target}.log"
    cargo +nightly fuzz run "$target" -- "$limit" -rss_limit_mb=2048 > "$log" 2>&1 || {
        echo "$target: FINDING (see $log and fuzz/artifacts/$target)"; tail -30 "$log"; exit 1; }
    echo "$target: $(grep -E '^Done [0-9]+ runs' "$log" || tail -1 "$log")"
done
