#!/usr/bin/env bash
# Runs the C ABI tests that stay in-process under Miri (nightly). libm's x86 inline-assembly
# square root is swapped for its correctly rounded soft version (Miri cannot run inline asm);
# the tests that spawn cargo and a C compiler are filtered out; file access is allowed for the
# header check.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add miri rust-src --toolchain nightly
MIRIFLAGS="-Zmiri-disable-isolation" cargo +nightly miri test --features capi,libm/force-soft-floats \
    --test c_abi -- c_abi_checks_pointers shape_layout hand_written tree_through shape_utilities \
    typed_pair tree_extras body_def_layout world_through solver_step_with_scratch hand_filled \
    level_geometry closest_point_through mover_through mover_obstacle_layout \
    changing_a_world_from_its_callbacks changing_a_world_from_its_hooks shape_def_layout
