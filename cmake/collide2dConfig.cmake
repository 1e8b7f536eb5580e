# collide2d's CMake package (find_package(collide2d CONFIG) after scripts/build_clib.sh or
# `cmake --install`): imported targets collide2d::collide2d (the static library) and, where
# it was built, collide2d::shared (the shared library, SONAME libcollide2d.so.MAJOR).
# Relocatable: paths are found from this file's own location (PREFIX/lib/cmake/collide2d).
get_filename_component(_collide2d_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET collide2d::collide2d)
  add_library(collide2d::collide2d STATIC IMPORTED)
  if(MSVC)
    set(_collide2d_static "${_collide2d_prefix}/lib/collide2d.lib")
  else()
    set(_collide2d_static "${_collide2d_prefix}/lib/libcollide2d.a")
  endif()
  set_target_properties(collide2d::collide2d PROPERTIES
    IMPORTED_LOCATION "${_collide2d_static}"
    INTERFACE_INCLUDE_DIRECTORIES "${_collide2d_prefix}/include")
  if(UNIX)
    set_property(TARGET collide2d::collide2d PROPERTY INTERFACE_LINK_LIBRARIES m)
  endif()
endif()

if(NOT TARGET collide2d::shared AND EXISTS "${_collide2d_prefix}/lib/libcollide2d.so")
  add_library(collide2d::shared SHARED IMPORTED)
  set_target_properties(collide2d::shared PROPERTIES
    IMPORTED_LOCATION "${_collide2d_prefix}/lib/libcollide2d.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_collide2d_prefix}/include")
endif()

set(collide2d_FOUND TRUE)
