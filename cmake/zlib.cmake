# ZLIB::ZLIB for share links (src/core/scene): natively the system's zlib (Debian's zlib1g-dev);
# under Emscripten zlib's C sources from Debian's source package (ZLIB_SOURCE_DIR, fetched by
# tools/debian.sh's ensure_zlib_sources), compiled here as a static library.
if(EMSCRIPTEN)
  set(ZLIB_SOURCE_DIR "" CACHE PATH "zlib 1.2.13 sources (fetched by build_wasm.sh / bench/run.sh)")
  if(NOT EXISTS "${ZLIB_SOURCE_DIR}/inflate.c")
    message(FATAL_ERROR "ZLIB_SOURCE_DIR='${ZLIB_SOURCE_DIR}' holds no inflate.c; run ./build_wasm.sh")
  endif()
  enable_language(C)
  # Only the raw deflate/inflate streams: no gz* file functions.
  add_library(md5stage_zlib STATIC
    ${ZLIB_SOURCE_DIR}/adler32.c ${ZLIB_SOURCE_DIR}/crc32.c ${ZLIB_SOURCE_DIR}/deflate.c
    ${ZLIB_SOURCE_DIR}/inffast.c ${ZLIB_SOURCE_DIR}/inflate.c ${ZLIB_SOURCE_DIR}/inftrees.c
    ${ZLIB_SOURCE_DIR}/trees.c ${ZLIB_SOURCE_DIR}/zutil.c)
  target_include_directories(md5stage_zlib SYSTEM PUBLIC ${ZLIB_SOURCE_DIR})
  target_compile_definitions(md5stage_zlib PRIVATE HAVE_UNISTD_H HAVE_STDARG_H)
  target_compile_options(md5stage_zlib PRIVATE -w)
  add_library(ZLIB::ZLIB ALIAS md5stage_zlib)
else()
  find_package(ZLIB REQUIRED)
endif()
