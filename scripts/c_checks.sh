#!/usr/bin/env bash
# The C library checks that need system tools beyond Rust and a C compiler (CMake,
# pkg-config, binutils, mingw-w64, Wine, the Windows Rust targets). `.ci/run` installs the tools and runs this; every check runs and
# failing any fails the script (nothing is skipped silently).
#
#   1. scripts/build_clib.sh lays out an install tree; the shared library exports exactly the
#      functions the header declares, each in the version node COLLIDE2D_MAJOR, and has the
#      SONAME libcollide2d.so.MAJOR (nm, readelf).
#   2. The static library links next to another Rust static library (std, unwinding panics,
#      its own allocator) in both orders, and both keep their own runtime (link.c).
#   3. A CMake consumer (c_examples/cmake) builds against collide2d through add_subdirectory
#      (build tree) and through find_package after `cmake --install`, static and shared, with
#      -Wall -Wextra -Wpedantic -Werror and ASan/UBSan, and prints the expected line.
#   4. pkg-config: a program compiled with `pkg-config --cflags --libs --static collide2d`.
#   5. Windows: the library cross-built for x86_64-pc-windows-gnu and linked by mingw-w64 gcc
#      runs tour.c, stack.c and hooks.c under Wine with the host build's output, and the MSVC
#      target's collide2d.lib references _aligned_malloc, not posix_memalign.
#   6. The collide2d-c crate (clib/) packages its source and the header, so the C library
#      builds from a published download.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
# Each check runs in its own `bash -e` process, so its first failing command fails it (inside
# an `if`, a function's commands would not stop on error).
check() {
    local name="$1"
    shift
    if bash -euo pipefail -c '"$@"' check "$@" > "$work/log" 2>&1; then
        passed=$((passed + 1))
        echo "ok: $name"
    else
        failed=$((failed + 1))
        echo "FAILED: $name"
        tail -40 "$work/log"
    fi
}

version="$(sed -n 's/^version = "\([0-9.]*\)".*/\1/p' Cargo.toml | head -1)"
major="${version%%.*}"
expected="collide2d $version (header $version): 2 points, normal 0.000 1.000, depth 0.100, proxy 0"
prefix="$work/prefix"
export root work version major expected prefix


check "build_clib.sh lays out the install tree" scripts/build_clib.sh --prefix "$prefix"

exports_the_header() {
    local so="$prefix/lib/libcollide2d.so.$version"
    # The header's functions, read independently of build_clib.sh: each declaration's name.
    grep -E '^[A-Za-z_].*[ *]c2d_[A-Za-z0-9_]+\(' include/collide2d.h | grep -vE '^(static|typedef)' \
        | sed -E 's/^[^(]*[ *](c2d_[A-Za-z0-9_]+)\(.*/\1/' | sort -u > "$work/declared"
    # The dynamic symbols the library defines, with their version.
    readelf --dyn-syms -W "$so" | awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") { print $8 }' \
        | sort -u > "$work/exported"
    grep -v '^COLLIDE2D_' "$work/exported" | sed 's/@@*COLLIDE2D_'"$major"'$//' | sort -u > "$work/names"
    diff "$work/declared" "$work/names" || { echo "exported set differs from the header's"; return 1; }
    [ "$(wc -l < "$work/declared")" -gt 150 ] || { echo "too few functions declared"; return 1; }
    # Every function carries the version node.
    local unversioned
    unversioned="$(grep -v '^COLLIDE2D_' "$work/exported" | grep -v "@@COLLIDE2D_$major\$" || true)"
    [ -z "$unversioned" ] || { echo "without the version node: $unversioned"; return 1; }
    readelf -d "$so" | grep -q "Library soname: \[libcollide2d.so.$major\]"
}
export -f exports_the_header
check "shared library exports exactly the header's functions in COLLIDE2D_MAJOR, and has its SONAME" \
    exports_the_header

link_next_to_other_rust() {
    cargo build --quiet --release --manifest-path c_examples/link/other_rust/Cargo.toml \
        --target-dir "$root/target/other_rust"
    local other="$root/target/other_rust/release/libother_rust.a"
    local ours="$prefix/lib/libcollide2d.a"
    for order in "$ours $other" "$other $ours"; do
        # shellcheck disable=SC2086
        cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$prefix/include" c_examples/link/link.c $order \
            -lm -lpthread -ldl -lgcc_s -o "$work/link"
        [ "$("$work/link" 2> /dev/null)" = "collide2d 0 other 45 caught -1" ] || { echo "order $order"; return 1; }
    done
}
export -f link_next_to_other_rust
check "static library links next to another Rust static library, both orders" link_next_to_other_rust

cmake_consumer() {
    local build="$1"
    shift
    cmake -S c_examples/cmake -B "$build" "$@" > /dev/null
    cmake --build "$build" > /dev/null
    [ "$("$build/consumer_static")" = "$expected" ] || return 1
    [ "$("$build/consumer_shared")" = "$expected" ] || return 1
    readelf -d "$build/consumer_shared" | grep -q "NEEDED.*libcollide2d.so.$major"
}
export -f cmake_consumer
check "CMake add_subdirectory (build tree), static and shared" \
    cmake_consumer "$work/sub" -DCOLLIDE2D_SOURCE_DIR="$root" -DCMAKE_BUILD_TYPE=Debug

cmake_install() {
    cmake -S . -B "$work/lib" -DCMAKE_BUILD_TYPE=Release > /dev/null
    cmake --build "$work/lib" > /dev/null
    cmake --install "$work/lib" --prefix "$work/installed" > /dev/null
    for f in include/collide2d.h lib/libcollide2d.a lib/libcollide2d.so "lib/libcollide2d.so.$major" \
        lib/cmake/collide2d/collide2dConfig.cmake lib/cmake/collide2d/collide2dConfigVersion.cmake \
        lib/pkgconfig/collide2d.pc; do
        [ -e "$work/installed/$f" ] || { echo "missing $f"; return 1; }
    done
    cmake_consumer "$work/found" -DCMAKE_PREFIX_PATH="$work/installed"
}
export -f cmake_install
check "CMake install, then find_package(collide2d CONFIG), static and shared" cmake_install

pkg_config_consumer() {
    local flags
    flags="$(PKG_CONFIG_PATH="$work/installed/lib/pkgconfig" pkg-config --cflags --libs --static collide2d)"
    [ "$(PKG_CONFIG_PATH="$work/installed/lib/pkgconfig" pkg-config --modversion collide2d)" = "$version" ]
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Wextra -Wpedantic -Werror c_examples/cmake/main.c $flags -o "$work/pc"
    [ "$(LD_LIBRARY_PATH="$work/installed/lib" "$work/pc")" = "$expected" ]
}
export -f pkg_config_consumer
check "pkg-config consumer" pkg_config_consumer

windows_gnu_under_wine() {
    scripts/build_clib.sh --target x86_64-pc-windows-gnu --prefix "$work/win" --no-shared
    cargo build --quiet --release --manifest-path clib/Cargo.toml --target-dir "$root/target/clib"
    export WINEDEBUG=-all WINEPREFIX="$root/target/wineprefix"
    for f in tour.c stack.c hooks.c; do
        x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$work/win/include" "c_examples/$f" \
            "$work/win/lib/libcollide2d.a" -o "$work/${f%.c}.exe"
        cc -std=c11 -I include "c_examples/$f" "$root/target/clib/release/libcollide2d.a" -lm -o "$work/${f%.c}.host"
        timeout 300 wine "$work/${f%.c}.exe" 2> /dev/null | tr -d '\r' > "$work/${f%.c}.wine.txt"
        "$work/${f%.c}.host" > "$work/${f%.c}.host.txt"
        [ -s "$work/${f%.c}.host.txt" ] || { echo "$f printed nothing"; return 1; }
        diff "$work/${f%.c}.wine.txt" "$work/${f%.c}.host.txt" || { echo "$f differs under Wine"; return 1; }
    done
}
export -f windows_gnu_under_wine
check "Windows (mingw-w64) build runs under Wine with the host's output (tour, stack, hooks)" windows_gnu_under_wine

msvc_needs_no_posix() {
    cargo build --quiet --release --manifest-path clib/Cargo.toml --target-dir "$root/target/clib" \
        --target x86_64-pc-windows-msvc
    local undefined
    undefined="$(nm -u "$root/target/clib/x86_64-pc-windows-msvc/release/collide2d.lib" 2> /dev/null | awk '{ print $2 }')"
    ! grep -qx posix_memalign <<< "$undefined" && grep -qx _aligned_malloc <<< "$undefined"
}
export -f msvc_needs_no_posix
check "MSVC library (collide2d.lib) needs no posix_memalign (uses _aligned_malloc)" msvc_needs_no_posix

published_c_crate_is_complete() {
    local files
    files="$(cd clib && cargo package --list --allow-dirty --no-verify 2> /dev/null)"
    for f in lib.rs Cargo.toml include/collide2d.h; do
        grep -qx "$f" <<< "$files" || { echo "collide2d-c package lacks $f"; return 1; }
    done
    cmp -s clib/include/collide2d.h include/collide2d.h
}
export -f published_c_crate_is_complete
check "the published collide2d-c crate holds the C library's source and header" published_c_crate_is_complete

echo "c_checks: $passed passed, $failed failed"
[ "$failed" = 0 ]
