#!/usr/bin/env bash
# Builds c_examples/embedded/main.c twice — for the host and for a Cortex-M4F (QEMU mps2-an386,
# semihosting) against the thumbv7em-none-eabihf static library — runs both, and requires the
# two outputs (floats printed as IEEE-754 bit patterns) to be identical.
# Needs: rustup target thumbv7em-none-eabihf, gcc-arm-none-eabi, libnewlib-arm-none-eabi,
# qemu-system-arm.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=target/embedded
mkdir -p "$out"
e=c_examples/embedded

# The C library crate (clib/): no_std, links with -lm only. No allocator on the MCU.
cargo build --quiet --release --manifest-path clib/Cargo.toml --target-dir target/clib \
    --no-default-features --target thumbv7em-none-eabihf
cargo build --quiet --release --manifest-path clib/Cargo.toml --target-dir target/clib

arm-none-eabi-gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 \
    -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 --specs=rdimon.specs \
    -Iinclude -T "$e/mps2_an386.ld" "$e/startup.c" "$e/main.c" \
    target/clib/thumbv7em-none-eabihf/release/libcollide2d.a -lm \
    -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,--no-warn-execstack -o "$out/embedded.elf"
timeout 60 qemu-system-arm -M mps2-an386 -nographic \
    -semihosting-config enable=on,target=native -kernel "$out/embedded.elf" > "$out/qemu.txt"

cc -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 -Iinclude "$e/main.c" \
    target/clib/release/libcollide2d.a -lm -o "$out/host"
"$out/host" > "$out/host.txt"

diff -u "$out/host.txt" "$out/qemu.txt"
echo "embedded (QEMU Cortex-M4F) output matches the host bit for bit: $(wc -l < "$out/host.txt") lines"
