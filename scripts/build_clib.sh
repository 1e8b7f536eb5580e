#!/usr/bin/env bash
# Builds the C library and lays it out as an install tree:
#   PREFIX/include/collide2d.h
#   PREFIX/lib/libcollide2d.a                 static; every symbol but c2d_* renamed (c2d_rt_*),
#                                             so it links next to any other Rust static library
#   PREFIX/lib/libcollide2d.so.X.Y.Z (+ .so.X, .so)   shared (ELF targets); SONAME libcollide2d.so.X,
#                                             exports exactly the functions the header declares,
#                                             in the version node COLLIDE2D_X
#   PREFIX/lib/pkgconfig/collide2d.pc, collide2d-static.pc (the archive by its path)
#   PREFIX/lib/cmake/collide2d/collide2dConfig.cmake, collide2dConfigVersion.cmake
# For an MSVC target (*-windows-msvc): include/, lib/collide2d.lib (as cargo made it) and the
# CMake package; no shared library or pkg-config file.
#
# usage: scripts/build_clib.sh [--debug|--release] [--target TRIPLE] [--prefix DIR] [--no-shared]
#                              [--target-dir DIR] [--locked]
#   --target-dir  cargo's output directory (default target/clib in the source tree)
#   --locked      use clib/Cargo.lock as it is (fail rather than update it)
# Needs cargo (or $CARGO), a C compiler (cc, or $CC) and binutils (nm, objcopy; for a cross target the
# target's own, e.g. x86_64-w64-mingw32-objcopy, when installed). The plain
# `cargo build --manifest-path clib/Cargo.toml` archive works too, but exports Rust's runtime
# symbols (rust_eh_personality, the allocator shim), which clash with another Rust library's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
profile=release
target=""
prefix="$root/target/c-install"
target_dir="$root/target/clib"
locked=0
shared=1
while [ $# -gt 0 ]; do
    case "$1" in
        --release) profile=release ;;
        --debug) profile=debug ;;
        --target) target="$2"; shift ;;
        --prefix) prefix="$2"; shift ;;
        --target-dir) target_dir="$2"; shift ;;
        --locked) locked=1 ;;
        --no-shared) shared=0 ;;
        *) echo "build_clib.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac

version="$(sed -n 's/^version = "\([0-9.]*\)".*/\1/p' "$root/Cargo.toml" | head -1)"
major="${version%%.*}"

args=(build --quiet --manifest-path "$root/clib/Cargo.toml" --target-dir "$target_dir")
[ "$profile" = release ] && args+=(--release)
[ -n "$target" ] && args+=(--target "$target")
[ "$locked" = 1 ] && args+=(--locked)
"${CARGO:-cargo}" "${args[@]}"
out="$target_dir/${target:+$target/}$profile"
raw="$out/libcollide2d.a"
msvc=0
case "$target" in *-windows-msvc) msvc=1; raw="$out/collide2d.lib" ;; esac
[ -e "$raw" ] || { echo "build_clib.sh: cargo did not produce $raw" >&2; exit 1; }

# Target binutils when cross-building and they exist; the host's otherwise.
tool() {
    if [ -n "$target" ]; then
        local t="${target/-pc-windows-gnu/-w64-mingw32}"
        t="${t/-unknown-linux-gnu/-linux-gnu}"
        if command -v "$t-$1" > /dev/null; then echo "$t-$1"; return; fi
    fi
    echo "$1"
}
NM="$(tool nm)"
OBJCOPY="$(tool objcopy)"
AR="$(tool ar)"

mkdir -p "$prefix/include" "$prefix/lib/cmake/collide2d"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The CMake package (find_package(collide2d CONFIG)): version rule and imported targets.
write_cmake_package() {
    cat > "$prefix/lib/cmake/collide2d/collide2dConfigVersion.cmake" <<EOF
set(PACKAGE_VERSION "$version")
if(PACKAGE_FIND_VERSION_MAJOR AND NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL "$major")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF
    cp "$root/cmake/collide2dConfig.cmake" "$prefix/lib/cmake/collide2d/collide2dConfig.cmake"
}

# MSVC targets: the archive is COFF with members named by Windows paths, which GNU binutils
# cannot rewrite, so it is installed as it is (lib/collide2d.lib, the name MSVC links by):
# it links alone, but exports Rust's runtime symbols, which clash with another Rust static
# library's (link that one's code into the same library instead).
if [ "$msvc" = 1 ]; then
    echo "build_clib.sh: $target: lib/collide2d.lib installed without renaming Rust's runtime symbols (GNU binutils cannot rewrite MSVC archives): link it alone, not next to another Rust static library" >&2
    cp "$raw" "$prefix/lib/collide2d.lib"
    cp "$root/include/collide2d.h" "$prefix/include/collide2d.h"
    write_cmake_package
    echo "collide2d $version ($profile, $target) installed to $prefix"
    exit 0
fi

# Some targets' standard libraries ship split-debuginfo members (.dwo) with no sections,
# which objcopy refuses: drop them from a working copy (they hold no code).
# (The member list is read whole first: `ar t | grep -q` under pipefail fails when grep stops
# reading early.)
members="$("$AR" t "$raw" 2> /dev/null || true)"
dwo="$(grep '\.dwo$' <<< "$members" || true)"
if [ -n "$dwo" ]; then
    cp "$raw" "$work/raw.a"
    # (ar's LTO plugin reports every member it cannot parse as bitcode: shown on failure only.)
    xargs "$AR" d "$work/raw.a" <<< "$dwo" 2> "$work/ar.log" \
        || { cat "$work/ar.log" >&2; echo "build_clib.sh: ar failed" >&2; exit 1; }
    raw="$work/raw.a"
fi

# Every defined global symbol that is not part of the C API gets a c2d_rt_ prefix, in every
# member at once (definitions and references alike), so none of Rust's runtime or core
# symbols can meet another library's.
# On ELF, readelf also lists the hidden weak DW.ref.* symbols that name COMDAT groups (nm
# skips them): left alone, another library's group of the same name is discarded in favour of
# ours and its unwinder calls our personality routine.
if readelf -h "$raw" > /dev/null 2>&1; then
    readelf -sW "$raw" 2>/dev/null \
        | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" && NF >= 8 && $8 !~ /^c2d_/ { print $8 " c2d_rt_" $8 }' \
        | sort -u > "$work/renames"
else
    "$NM" -g --defined-only "$raw" 2>/dev/null | awk 'NF >= 3 && $3 !~ /^c2d_/ { print $3 " c2d_rt_" $3 }' \
        | sort -u > "$work/renames"
fi
# objcopy's LTO plugin reports every Rust member it cannot parse as bitcode (harmless: they
# are object code) on stderr: shown only when objcopy fails.
"$OBJCOPY" --redefine-syms="$work/renames" "$raw" "$work/libcollide2d.a" 2> "$work/objcopy.log" \
    || { cat "$work/objcopy.log" >&2; echo "build_clib.sh: objcopy failed" >&2; exit 1; }
cp "$work/libcollide2d.a" "$prefix/lib/libcollide2d.a"
cp "$root/include/collide2d.h" "$prefix/include/collide2d.h"

if [ "$shared" = 1 ] && [ -z "$target" -o "${target#*linux}" != "$target" ]; then
    # The header's functions (every line at column 0 declaring `c2d_name(`, the header's
    # declaration style; `static inline` helpers are defined in the header, not exported) in
    # one version node: nothing else, the renamed runtime (c2d_rt_*) included, is exported.
    exports="$(grep -E '^[A-Za-z_]' "$root/include/collide2d.h" | grep -vE '^(static|typedef)' \
        | grep -oE '[*[:space:]]c2d_[A-Za-z0-9_]+\(' | tr -d '*( \t' | sort -u)"
    [ -n "$exports" ] || { echo "build_clib.sh: no functions found in the header" >&2; exit 1; }
    { printf 'COLLIDE2D_%s {\n  global:\n' "$major"; sed 's/.*/    &;/' <<< "$exports"; printf '  local: *;\n};\n'; } \
        > "$work/exports.map"
    so="libcollide2d.so.$version"
    ${CC:-cc} -shared -o "$prefix/lib/$so" \
        -Wl,-soname,"libcollide2d.so.$major" -Wl,--version-script="$work/exports.map" \
        -Wl,--gc-sections -Wl,--whole-archive "$work/libcollide2d.a" -Wl,--no-whole-archive -lm
    ln -sf "$so" "$prefix/lib/libcollide2d.so.$major"
    ln -sf "libcollide2d.so.$major" "$prefix/lib/libcollide2d.so"
fi

# `pkg-config --cflags --libs collide2d` links the shared library where there is one;
# `--cflags --libs --static` the static one: with --static, Cflags.private puts the linker in
# static mode before -lcollide2d (pkg-config prints the compile flags first) and
# Libs.private puts it back in dynamic mode after it, so the C runtime and -lm stay shared.
# (Static mode needs both in one command line, as docs/c.md and the README write it; pkgconf reads
# Cflags.private.)
if [ -e "$prefix/lib/libcollide2d.so" ]; then
    static_on="Cflags.private: -Wl,-Bstatic"
    static_off="-Wl,-Bdynamic "
else
    static_on=""
    static_off=""
fi
mkdir -p "$prefix/lib/pkgconfig"
cat > "$prefix/lib/pkgconfig/collide2d.pc" <<EOF
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: collide2d
Description: 2D collision detection: overlap tests, contact manifolds, distance, casts, a dynamic AABB tree, character movement and a small rigid-body world
Version: $version
Cflags: -I\${includedir}
$static_on
Libs: -L\${libdir} -lcollide2d
Libs.private: ${static_off}-lm
EOF
# collide2d-static: the archive by its path, for any pkg-config (the freedesktop one of older
# distributions does not read Cflags.private) and for build systems that ask without --static.
cat > "$prefix/lib/pkgconfig/collide2d-static.pc" <<EOF
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: collide2d-static
Description: collide2d, linked statically
Version: $version
Cflags: -I\${includedir}
Libs: \${libdir}/libcollide2d.a -lm
EOF

write_cmake_package
echo "collide2d $version ($profile${target:+, $target}) installed to $prefix"
