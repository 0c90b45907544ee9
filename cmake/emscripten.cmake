# What every Emscripten build of md5stage shares (the viewer from CMakeLists.txt, the benchmarks
# from bench/CMakeLists.txt), so the benchmarks measure the code the site ships: WebAssembly SIMD,
# and the header-only Debian packages the core and viewer include.

# Every browser the viewer supports (it needs WebGL2) runs wasm SIMD; the core's hot loops
# (cubic_bezier.cpp's intrinsics, and what clang vectorises by itself) use it.
option(MD5STAGE_WASM_SIMD "Compile the WebAssembly builds with SIMD (-msimd128)" ON)
if(MD5STAGE_WASM_SIMD)
  add_compile_options(-msimd128)
endif()

# Emscripten must not see /usr/include (it would pull glibc headers): MD5STAGE_GLM_ROOT is a
# build-tree folder holding links to just these packages' header folders.
set(MD5STAGE_GLM_ROOT "${CMAKE_BINARY_DIR}/system_include")
file(MAKE_DIRECTORY "${MD5STAGE_GLM_ROOT}")
# tinygltf (one header) and the nlohmann JSON it writes with serve the glTF exporter (core/convert);
# {fmt}'s headers give the number writer its shortest digits (core/common/number_text.cpp).
foreach(lib glm stb fast_float nlohmann tiny_gltf.h fmt)
  if(NOT EXISTS "/usr/include/${lib}")
    message(FATAL_ERROR "/usr/include/${lib} is missing: run ./build_wasm.sh setup")
  endif()
  if(NOT EXISTS "${MD5STAGE_GLM_ROOT}/${lib}")
    file(CREATE_LINK /usr/include/${lib} "${MD5STAGE_GLM_ROOT}/${lib}" SYMBOLIC)
  endif()
endforeach()
