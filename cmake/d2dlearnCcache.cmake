# The compiler cache: ccache in front of every C++ compilation when it is installed (Debian's
# ccache, which setup.sh installs), as ns-3's own build does when it finds ccache.
#
# - The cache is ccache's own (~/.cache/ccache unless CCACHE_DIR says otherwise): outside the
#   checkout, so that a clean clone on the same machine reuses the objects of an earlier
#   build of the same sources.
# - base_dir is the checkout: ccache rewrites the absolute paths under it (compiler flags,
#   the unity builds' #include lines) as paths relative to the build folder, which are the
#   same in every clone; hash_dir off: the build folder's own path is not hashed either.
# - __FILE__ (NS_LOG, NS_ASSERT, NS_ABORT_MSG) names a source relative to the checkout
#   (-fmacro-prefix-map): otherwise every source that expands it would preprocess to other
#   text in another clone, and miss. It does so with or without ccache: the objects do not
#   depend on the folder the checkout is in.
# - Each compilation's outcome is appended to <build>/ccache-stats.log, whose hits and misses
#   setup.sh prints after the build (and bench/bench-ci.py records).
# - A launcher already given (CMAKE_CXX_COMPILER_LAUNCHER, as a variable or in the
#   environment, as bench/bench-ci.py's timing launcher is) stays in front of ccache.
# -DD2DLEARN_CCACHE=OFF builds without it. In an ns-3 source tree ns-3's NS3_CCACHE decides.
add_compile_options(-fmacro-prefix-map=${CMAKE_SOURCE_DIR}/=)
option(D2DLEARN_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(D2DLEARN_CCACHE)
  find_program(D2DLEARN_CCACHE_PROGRAM ccache)
  if(D2DLEARN_CCACHE_PROGRAM)
    if(NOT DEFINED CMAKE_CXX_COMPILER_LAUNCHER AND DEFINED ENV{CMAKE_CXX_COMPILER_LAUNCHER})
      set(CMAKE_CXX_COMPILER_LAUNCHER $ENV{CMAKE_CXX_COMPILER_LAUNCHER})
    endif()
    if(NOT CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
      set(CMAKE_CXX_COMPILER_LAUNCHER
          ${CMAKE_CXX_COMPILER_LAUNCHER} env CCACHE_BASEDIR=${CMAKE_SOURCE_DIR} CCACHE_NOHASHDIR=1
          CCACHE_STATSLOG=${CMAKE_BINARY_DIR}/ccache-stats.log ${D2DLEARN_CCACHE_PROGRAM})
    endif()
    message(STATUS "d2dlearn: compiler launcher ${CMAKE_CXX_COMPILER_LAUNCHER}")
  endif()
endif()
