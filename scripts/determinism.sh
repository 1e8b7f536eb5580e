#!/usr/bin/env bash
# Determinism across platforms: runs collide2d's determinism scene (`world::determinism`: 310
# bodies of every kind, a chain, sleeping, a kinematic paddle, a bullet; 300 steps, every body
# hashed) on each platform below and requires every one to print the hash pinned in
# tests/determinism.rs (EXPECTED_HASH, produced on x86-64 release):
#
#   x86-64 debug, release, release with -C target-cpu=native   examples/determinism.rs
#   aarch64-unknown-linux-gnu under qemu-aarch64               the same example, cross-built
#   wasm32-wasip1 under Node's WASI (scalar, and +simd128)     the same example, scripts/wasi_run.mjs
#   Cortex-M4F (thumbv7em-none-eabihf) under qemu-system-arm    c_examples/embedded/determinism.c
#                                                              and the C library (clib/, feature
#                                                              `determinism`, newlib's heap)
#
# Prints one line per platform (hash, build and run seconds) and exits non-zero if any differs.
# Installs what it lacks: rustup targets, and with apt-get the cross gcc and libc for aarch64,
# qemu-user, nodejs, qemu-system-arm, gcc-arm-none-eabi and newlib.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

expected=$(sed -n 's/^const EXPECTED_HASH: u64 = 0x\([0-9a-f_]*\);$/\1/p' tests/determinism.rs | tr -d _)
if [ ${#expected} -ne 16 ]; then
    echo "no EXPECTED_HASH found in tests/determinism.rs" >&2
    exit 1
fi

for t in aarch64-unknown-linux-gnu wasm32-wasip1 thumbv7em-none-eabihf; do
    if ! rustup target list --installed | grep -qx "$t"; then
        rustup target add "$t"
    fi
done
need=()
command -v aarch64-linux-gnu-gcc > /dev/null || need+=(gcc-aarch64-linux-gnu)
[ -e /usr/aarch64-linux-gnu/lib/libc.so.6 ] || need+=(libc6-dev-arm64-cross)
command -v qemu-aarch64 > /dev/null || need+=(qemu-user)
command -v node > /dev/null || need+=(nodejs)
command -v qemu-system-arm > /dev/null || need+=(qemu-system-arm)
command -v arm-none-eabi-gcc > /dev/null || need+=(gcc-arm-none-eabi)
[ -e /usr/lib/arm-none-eabi/newlib/thumb/v7e-m+fp/hard/librdimon.a ] || need+=(libnewlib-arm-none-eabi)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi

example=(--features solver --example determinism)
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
failed=0
# check NAME BUILD-COMMAND -- RUN-COMMAND: builds, runs, compares the printed hash.
check() {
    local name=$1 build=() run=() t0 t1 out hash
    shift
    while [ "$1" != "--" ]; do build+=("$1"); shift; done
    shift
    run=("$@")
    t0=$SECONDS
    "${build[@]}"
    t1=$SECONDS
    out=$(timeout 300 "${run[@]}") || { echo "$name: run failed: $out"; failed=1; return; }
    hash=$(printf '%s\n' "$out" | sed -n 's/^determinism hash \([0-9a-f]\{16\}\).*/\1/p')
    if [ "$hash" = "$expected" ]; then
        printf '%-38s %s  ok    build %3d s  run %3d s\n' "$name" "$hash" $((t1 - t0)) $((SECONDS - t1))
    else
        printf '%-38s %s  DIFFERS (expected %s)\n' "$name" "${hash:-<none>}" "$expected"
        failed=1
    fi
}

check "x86-64 debug" cargo build --quiet "${example[@]}" -- target/debug/examples/determinism
check "x86-64 release" cargo build --quiet --release "${example[@]}" -- target/release/examples/determinism
check "x86-64 release, target-cpu=native" env RUSTFLAGS="-C target-cpu=native" \
    cargo build --quiet --release "${example[@]}" --target-dir target/determinism/native \
    -- target/determinism/native/release/examples/determinism
check "aarch64 release (qemu-aarch64)" cargo build --quiet --release "${example[@]}" \
    --target aarch64-unknown-linux-gnu \
    -- qemu-aarch64 -L /usr/aarch64-linux-gnu target/aarch64-unknown-linux-gnu/release/examples/determinism
check "wasm32-wasip1 release (node)" cargo build --quiet --release "${example[@]}" --target wasm32-wasip1 \
    -- node --no-warnings scripts/wasi_run.mjs target/wasm32-wasip1/release/examples/determinism.wasm
check "wasm32-wasip1 +simd128 (node)" env RUSTFLAGS="-C target-feature=+simd128" \
    cargo build --quiet --release "${example[@]}" --target wasm32-wasip1 --target-dir target/determinism/simd128 \
    -- node --no-warnings scripts/wasi_run.mjs target/determinism/simd128/wasm32-wasip1/release/examples/determinism.wasm

# Cortex-M4F: the C library with its allocator (newlib's malloc) and the determinism entry
# point, linked into the embedded example's startup and memory map.
embedded() {
    local e=c_examples/embedded out=target/determinism/embedded
    mkdir -p "$out"
    cargo build --quiet --release --manifest-path clib/Cargo.toml --target-dir target/determinism/clib \
        --features determinism --target thumbv7em-none-eabihf
    arm-none-eabi-gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 \
        -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 --specs=rdimon.specs \
        -Iinclude -T "$e/mps2_an386.ld" "$e/startup.c" "$e/determinism.c" \
        target/determinism/clib/thumbv7em-none-eabihf/release/libcollide2d.a -lm \
        -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,--no-warn-execstack -o "$out/determinism.elf"
}
check "Cortex-M4F release (qemu-system-arm)" embedded -- qemu-system-arm -M mps2-an386 -nographic \
    -semihosting-config enable=on,target=native -kernel target/determinism/embedded/determinism.elf

if [ "$failed" -ne 0 ]; then
    echo "determinism: some platform differs from $expected" >&2
    exit 1
fi
echo "determinism: every platform gives $expected"
