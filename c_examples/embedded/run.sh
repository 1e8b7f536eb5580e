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

cargo rustc --quiet --release --lib --no-default-features --features capi \
    --target thumbv7em-none-eabihf --crate-type staticlib
native=$(cargo rustc --release --lib --features capi --crate-type staticlib --target-dir target/capi-host \
    -- --print native-static-libs 2>&1 | sed -n 's/.*native-static-libs: //p' | tail -1)

arm-none-eabi-gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 \
    -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 --specs=rdimon.specs \
    -Iinclude -T "$e/mps2_an386.ld" "$e/startup.c" "$e/main.c" \
    target/thumbv7em-none-eabihf/release/libcollide2d.a -lm \
    -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,--no-warn-execstack -o "$out/embedded.elf"
timeout 60 qemu-system-arm -M mps2-an386 -nographic \
    -semihosting-config enable=on,target=native -kernel "$out/embedded.elf" > "$out/qemu.txt"

# shellcheck disable=SC2086
cc -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 -Iinclude "$e/main.c" \
    target/capi-host/release/libcollide2d.a $native -lm -o "$out/host"
"$out/host" > "$out/host.txt"

diff -u "$out/host.txt" "$out/qemu.txt"
echo "embedded (QEMU Cortex-M4F) output matches the host bit for bit: $(wc -l < "$out/host.txt") lines"
