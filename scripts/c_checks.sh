#!/usr/bin/env bash
# The C library checks that need system tools beyond Rust and a C compiler (CMake,
# Ninja, pkg-config, binutils, mingw-w64, Wine, the Windows Rust targets). `.ci/run` installs
# the tools and runs this; every check runs and failing any fails the script (nothing is
# skipped silently).
#
#   1. scripts/build_clib.sh lays out an install tree; the shared library exports exactly the
#      functions the header declares, each in the version node COLLIDE2D_MAJOR, and has the
#      SONAME libcollide2d.so.MAJOR (nm, readelf).
#   2. The static library links next to another Rust static library (std, unwinding panics,
#      its own allocator) in both orders, and both keep their own runtime (link.c).
#   3. CMake, with the consumer project c_examples/cmake (static and shared, -Wall -Wextra
#      -Wpedantic -Werror and ASan/UBSan, printing the expected line):
#      - add_subdirectory with a single-config generator (CMAKE_BUILD_TYPE Debug);
#      - FetchContent from a git URL (the committed HEAD);
#      - add_subdirectory with Ninja Multi-Config: Debug and Release each build, from cargo's
#        dev and release profiles, into their own stages, and both run;
#      - the project alone: `cmake --build` builds the library, cargo's output in the build tree;
#        for an MSVC target, collide2d.lib and the CMake package in the stage;
#      - `cmake --install` with DESTDIR: the staged files under DESTDIR + prefix, nothing at
#        the prefix, no cargo run; then find_package from that (relocated) tree;
#      - out of source with a read-only copy of the source tree, nothing written into it;
#      - a mingw-w64 toolchain file: built for x86_64-pc-windows-gnu, the consumer runs under
#        Wine; a cross target with no known Rust triple is a configure error naming
#        COLLIDE2D_RUST_TARGET;
#      - without cargo: configure fails saying how to install Rust or use a prebuilt tree;
#        COLLIDE2D_PREBUILT_DIR (build_clib.sh's install tree) builds the consumer with no Rust.
#   4. pkg-config: a program compiled with `pkg-config --cflags --libs --static collide2d`
#      links the static library (no libcollide2d.so needed at run time, libc still shared),
#      and one with `pkg-config --cflags --libs collide2d` the shared one; collide2d-static
#      links the archive by its path.
#   5. Windows: the library cross-built for x86_64-pc-windows-gnu and linked by mingw-w64 gcc
#      runs tour.c, stack.c and hooks.c under Wine with the host build's output, and the MSVC
#      target's collide2d.lib references _aligned_malloc, not posix_memalign.
#   (also) build_clib.sh writes nothing to stderr on the host and mingw-w64, and installs the
#      MSVC archive as lib/collide2d.lib with a one-line note.
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

# The builds say nothing unless something is wrong: the host and mingw-w64 builds write
# nothing to stderr (binutils' LTO plugin noise included), and the MSVC build, whose archive
# GNU binutils cannot rewrite, installs lib/collide2d.lib and says so in one line.
build_logs_are_clean() {
    scripts/build_clib.sh --prefix "$work/quiet-host" 2> "$work/host.err" > /dev/null
    [ ! -s "$work/host.err" ] || { cat "$work/host.err"; return 1; }
    scripts/build_clib.sh --target x86_64-pc-windows-gnu --no-shared --prefix "$work/quiet-mingw" \
        2> "$work/mingw.err" > /dev/null
    [ ! -s "$work/mingw.err" ] || { head -5 "$work/mingw.err"; echo "($(wc -l < "$work/mingw.err") lines)"; return 1; }
    scripts/build_clib.sh --target x86_64-pc-windows-msvc --prefix "$work/quiet-msvc" 2> "$work/msvc.err" > /dev/null
    [ "$(wc -l < "$work/msvc.err")" -eq 1 ] && grep -q "collide2d.lib" "$work/msvc.err"
    [ -e "$work/quiet-msvc/lib/collide2d.lib" ] && [ -e "$work/quiet-msvc/include/collide2d.h" ]
}
export -f build_logs_are_clean
check "build_clib.sh is quiet on the host and mingw-w64, and explains the MSVC archive" build_logs_are_clean

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

# Runs the consumer programs built in DIR (static and shared) and checks each prints the
# expected line; the shared one must load libcollide2d.so.MAJOR.
run_consumers() {
    local dir="$1"
    [ "$("$dir/consumer_static")" = "$expected" ] || { echo "$dir/consumer_static"; return 1; }
    [ "$("$dir/consumer_shared")" = "$expected" ] || { echo "$dir/consumer_shared"; return 1; }
    readelf -d "$dir/consumer_shared" | grep -q "NEEDED.*libcollide2d.so.$major"
}
# The PATH without its directories that hold a cargo.
path_without_cargo() {
    local dir out=""
    while IFS= read -r dir; do
        if [ -n "$dir" ] && [ ! -x "$dir/cargo" ]; then out="$out${out:+:}$dir"; fi
    done <<< "$(tr ':' '\n' <<< "$PATH")"
    echo "$out"
}
cmake_consumer() {
    local build="$1"
    shift
    cmake -S c_examples/cmake -B "$build" "$@" > /dev/null
    cmake --build "$build" > /dev/null
    run_consumers "$build"
}
export -f run_consumers path_without_cargo cmake_consumer
check "CMake add_subdirectory (build tree, Makefiles, CMAKE_BUILD_TYPE Debug), static and shared" \
    cmake_consumer "$work/sub" -DCOLLIDE2D_SOURCE_DIR="$root" -DCMAKE_BUILD_TYPE=Debug

# FetchContent from a git URL (this repository's committed HEAD, through file://), as an
# engine's CMakeLists would take a release tag.
cmake_fetch_content() {
    local rev
    rev="$(git -C "$root" rev-parse HEAD)"
    cmake_consumer "$work/fetched" -DCOLLIDE2D_GIT_URL="file://$root" -DCOLLIDE2D_GIT_TAG="$rev" \
        -DCMAKE_BUILD_TYPE=Debug
    [ -e "$work/fetched/_deps/collide2d-build/cargo/debug/libcollide2d.a" ] \
        || { echo "FetchContent did not build the fetched source"; return 1; }
}
export -f cmake_fetch_content
check "CMake FetchContent from a git URL (the committed HEAD), static and shared" cmake_fetch_content

# Ninja Multi-Config: each configuration has its own stage, built from its own cargo profile
# (the stage's archive holds the very members of cargo's archive of that profile, and the two
# profiles' members differ).
cmake_multi_config() {
    local build="$work/multi" sub="$work/multi/collide2d"
    cmake -G "Ninja Multi-Config" -S c_examples/cmake -B "$build" -DCOLLIDE2D_SOURCE_DIR="$root"
    cmake --build "$build" --config Debug
    [ -e "$sub/cargo/debug/libcollide2d.a" ] && [ ! -e "$sub/cargo/release" ] \
        || { echo "Debug did not build cargo's dev profile alone"; return 1; }
    run_consumers "$build/Debug"
    cmake --build "$build" --config Release
    run_consumers "$build/Release"
    local config profile
    for config in Debug Release; do
        profile="$(tr '[:upper:]' '[:lower:]' <<< "$config")"
        ar t "$sub/collide2d-stage/$config/lib/libcollide2d.a" > "$work/$config.members"
        ar t "$sub/cargo/$profile/libcollide2d.a" | cmp - "$work/$config.members" \
            || { echo "the $config stage is not cargo's $profile build"; return 1; }
    done
    ! cmp -s "$work/Debug.members" "$work/Release.members" || { echo "Debug and Release stages alike"; return 1; }
    # A built configuration is up to date: building it again runs nothing.
    local again
    again="$(cmake --build "$build" --config Debug)"
    grep -q "no work to do" <<< "$again"
}
export -f cmake_multi_config
check "CMake Ninja Multi-Config: Debug (cargo's dev profile) and Release (release) stages, both link and run" \
    cmake_multi_config

# The project on its own: `cmake --build` builds the library (cargo is part of ALL), with
# cargo's output in the build tree.
cmake_standalone() {
    cmake -S . -B "$work/lib" -DCMAKE_BUILD_TYPE=Release
    cmake --build "$work/lib"
    local stage="$work/lib/collide2d-stage/Release" f
    for f in include/collide2d.h lib/libcollide2d.a lib/libcollide2d.so "lib/libcollide2d.so.$major" \
        "lib/libcollide2d.so.$version" lib/cmake/collide2d/collide2dConfig.cmake \
        lib/cmake/collide2d/collide2dConfigVersion.cmake lib/pkgconfig/collide2d.pc; do
        [ -e "$stage/$f" ] || { echo "stage lacks $f"; return 1; }
    done
    [ -e "$work/lib/cargo/release/libcollide2d.a" ] || { echo "cargo's output is not in the build tree"; return 1; }
}
export -f cmake_standalone
check "CMake standalone: cmake -S . -B b && cmake --build b builds the library (Release stage)" cmake_standalone

# An MSVC target: the stage holds collide2d.lib (the name MSVC links by), the header and the
# CMake package, and the build's outputs are the files made (a second build runs no cargo).
# Only the library is built: there is no MSVC linker here.
cmake_msvc_target() {
    local build="$work/msvc" stage="$work/msvc/collide2d-stage/Release" f
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCOLLIDE2D_RUST_TARGET=x86_64-pc-windows-msvc > /dev/null
    cmake --build "$build" > /dev/null 2> "$work/msvc-cmake.err"
    for f in include/collide2d.h lib/collide2d.lib lib/cmake/collide2d/collide2dConfig.cmake \
        lib/cmake/collide2d/collide2dConfigVersion.cmake; do
        [ -e "$stage/$f" ] || { echo "stage lacks $f"; return 1; }
    done
    [ ! -e "$stage/lib/libcollide2d.a" ] || { echo "an MSVC stage with libcollide2d.a"; return 1; }
    ! cmake --build "$build" | grep -q "Building collide2d with cargo" || { echo "rebuilt"; return 1; }
}
export -f cmake_msvc_target
check "CMake for x86_64-pc-windows-msvc: the stage holds collide2d.lib and the CMake package; a rebuild does nothing" \
    cmake_msvc_target

# `cmake --install` with DESTDIR: the files the build staged (symbolic links kept) under
# DESTDIR + prefix, nothing at the bare prefix; it runs no cargo (none on the PATH).
cmake_install_destdir() {
    local bare="$work/usr" dest="$work/destdir" stage="$work/lib/collide2d-stage/Release" f
    DESTDIR="$dest" PATH="$(path_without_cargo)" cmake --install "$work/lib" --prefix "$bare" > "$work/install.log"
    ! grep -q "cargo" "$work/install.log" || { echo "install ran cargo"; return 1; }
    [ ! -e "$bare" ] || { echo "files written at the bare prefix"; return 1; }
    (cd "$stage" && find . ! -type d | sort) > "$work/staged"
    (cd "$dest$bare" && find . ! -type d | sort) > "$work/installed-files"
    diff "$work/staged" "$work/installed-files" || { echo "installed files differ from the stage's"; return 1; }
    while IFS= read -r f; do
        if [ -L "$stage/$f" ]; then
            [ "$(readlink "$dest$bare/$f")" = "$(readlink "$stage/$f")" ] || { echo "link $f"; return 1; }
        else
            cmp "$stage/$f" "$dest$bare/$f"
        fi
    done < "$work/staged"
}
export -f cmake_install_destdir
check "CMake install honours DESTDIR (the staged files under DESTDIR+prefix, none at the prefix, no cargo)" \
    cmake_install_destdir

installed="$work/destdir$work/usr"
export installed
check "find_package(collide2d CONFIG) from the installed (relocated) tree, static and shared" \
    cmake_consumer "$work/found" -DCMAKE_PREFIX_PATH="$installed"

pkg_config_consumer() {
    local flags
    [ "$(PKG_CONFIG_PATH="$installed/lib/pkgconfig" pkg-config --modversion collide2d)" = "$version" ]
    # --static: the static library; the program needs no libcollide2d.so at run time.
    flags="$(PKG_CONFIG_PATH="$installed/lib/pkgconfig" pkg-config --cflags --libs --static collide2d)"
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Wextra -Wpedantic -Werror c_examples/cmake/main.c $flags -o "$work/pc-static"
    ! readelf -d "$work/pc-static" | grep -q 'libcollide2d' || { echo "--static linked the shared library"; return 1; }
    readelf -d "$work/pc-static" | grep -q 'NEEDED.*libc\.so' || { echo "--static made libc static"; return 1; }
    [ "$("$work/pc-static")" = "$expected" ]
    # The plain line: the shared library, found at run time through LD_LIBRARY_PATH.
    flags="$(PKG_CONFIG_PATH="$installed/lib/pkgconfig" pkg-config --cflags --libs collide2d)"
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Wextra -Wpedantic -Werror c_examples/cmake/main.c $flags -o "$work/pc-shared"
    readelf -d "$work/pc-shared" | grep -q "NEEDED.*libcollide2d.so.$major" || { echo "not linked shared"; return 1; }
    [ "$(LD_LIBRARY_PATH="$installed/lib" "$work/pc-shared")" = "$expected" ]
    # collide2d-static: the archive by its path, with or without --static.
    flags="$(PKG_CONFIG_PATH="$installed/lib/pkgconfig" pkg-config --cflags --libs collide2d-static)"
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Wextra -Wpedantic -Werror c_examples/cmake/main.c $flags -o "$work/pc-static2"
    ! readelf -d "$work/pc-static2" | grep -q 'libcollide2d' || { echo "collide2d-static linked the shared library"; return 1; }
    [ "$("$work/pc-static2")" = "$expected" ]
}
export -f pkg_config_consumer
check "pkg-config consumer" pkg_config_consumer

# Out of source with a read-only source tree: a copy of the tracked files, made read-only, is
# configured and built elsewhere. Root writes through the permissions, so the copy's listing
# (paths, sizes, modification times, modes) must also be the same afterwards.
cmake_read_only_source() {
    local src="$work/ro-src" build="$work/ro-build"
    mkdir "$src"
    git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$src"
    chmod -R a-w "$src"
    (cd "$src" && find . -printf '%p %y %s %T@ %m\n' | sort) > "$work/ro-before"
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release
    cmake --build "$build"
    (cd "$src" && find . -printf '%p %y %s %T@ %m\n' | sort) > "$work/ro-after"
    chmod -R u+w "$src"
    diff "$work/ro-before" "$work/ro-after" || { echo "the build wrote into the source tree"; return 1; }
    [ -e "$build/cargo/release/libcollide2d.a" ] && [ -e "$build/collide2d-stage/Release/lib/libcollide2d.a" ]
}
export -f cmake_read_only_source
check "CMake out of source with a read-only source tree (nothing written into it)" cmake_read_only_source

# A toolchain file (mingw-w64) makes add_subdirectory build the Rust target
# x86_64-pc-windows-gnu; the consumer runs under Wine.
cmake_mingw_toolchain() {
    local build="$work/mingw"
    cmake -S c_examples/cmake -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/c_examples/cmake/mingw-w64.cmake" \
        -DCOLLIDE2D_SOURCE_DIR="$root" -DCMAKE_BUILD_TYPE=Release > "$work/mingw.log"
    grep -q "collide2d: Rust target x86_64-pc-windows-gnu" "$work/mingw.log"
    cmake --build "$build"
    [ -e "$build/collide2d/cargo/x86_64-pc-windows-gnu/release/libcollide2d.a" ]
    export WINEDEBUG=-all WINEPREFIX="$root/target/wineprefix"
    [ "$(timeout 300 wine "$build/consumer_static.exe" 2> /dev/null | tr -d '\r')" = "$expected" ]
}
export -f cmake_mingw_toolchain
check "CMake with a mingw-w64 toolchain file: builds x86_64-pc-windows-gnu, consumer runs under Wine" \
    cmake_mingw_toolchain

# A cross target with no known Rust triple fails at configure time naming COLLIDE2D_RUST_TARGET,
# and configures once it is set.
cmake_unmapped_target() {
    printf '%s\n' "set(CMAKE_SYSTEM_NAME Generic)" "set(CMAKE_SYSTEM_PROCESSOR unknowncpu)" \
        "set(CMAKE_C_COMPILER cc)" "set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)" > "$work/generic.cmake"
    if cmake -S . -B "$work/generic" -DCMAKE_TOOLCHAIN_FILE="$work/generic.cmake" > "$work/generic.log" 2>&1; then
        echo "configure succeeded"
        return 1
    fi
    grep -q "COLLIDE2D_RUST_TARGET" "$work/generic.log"
    cmake -S . -B "$work/generic" -DCMAKE_TOOLCHAIN_FILE="$work/generic.cmake" \
        -DCOLLIDE2D_RUST_TARGET=thumbv7em-none-eabihf > "$work/generic.log"
    grep -q "collide2d: Rust target thumbv7em-none-eabihf" "$work/generic.log"
}
export -f cmake_unmapped_target
check "CMake: a cross target with no known Rust triple is a configure error naming COLLIDE2D_RUST_TARGET" \
    cmake_unmapped_target

# Without Rust: with no cargo on the PATH configure fails saying how to install Rust or use a
# prebuilt tree; with COLLIDE2D_PREBUILT_DIR (build_clib.sh's install tree) the consumer builds
# and runs.
cmake_without_cargo() {
    local nocargo
    nocargo="$(path_without_cargo)"
    ! PATH="$nocargo" command -v cargo > /dev/null || { echo "cargo still on the PATH"; return 1; }
    if PATH="$nocargo" cmake -S c_examples/cmake -B "$work/nocargo" -DCOLLIDE2D_SOURCE_DIR="$root" \
        > "$work/nocargo.log" 2>&1; then
        echo "configure succeeded without cargo"
        return 1
    fi
    grep -q "cargo was not found" "$work/nocargo.log"
    grep -q "https://rustup.rs" "$work/nocargo.log"
    grep -q "COLLIDE2D_PREBUILT_DIR" "$work/nocargo.log"
    PATH="$nocargo" cmake -S c_examples/cmake -B "$work/prebuilt" -DCOLLIDE2D_SOURCE_DIR="$root" \
        -DCOLLIDE2D_PREBUILT_DIR="$prefix"
    PATH="$nocargo" cmake --build "$work/prebuilt"
    [ ! -e "$work/prebuilt/collide2d/cargo" ] || { echo "cargo ran"; return 1; }
    run_consumers "$work/prebuilt"
}
export -f cmake_without_cargo
check "CMake without cargo: configure error with the way out; COLLIDE2D_PREBUILT_DIR builds with no Rust" \
    cmake_without_cargo

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
