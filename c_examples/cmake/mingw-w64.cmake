# CMake toolchain file: 64-bit Windows with mingw-w64 (Debian/Ubuntu: gcc-mingw-w64-x86-64).
# collide2d's CMakeLists.txt maps it to the Rust target x86_64-pc-windows-gnu
# (`rustup target add x86_64-pc-windows-gnu`):
#   cmake -S c_examples/cmake -B build-win -DCMAKE_TOOLCHAIN_FILE=c_examples/cmake/mingw-w64.cmake \
#         -DCOLLIDE2D_SOURCE_DIR=/path/to/collide2d
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
