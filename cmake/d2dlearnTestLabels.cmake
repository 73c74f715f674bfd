# CTest labels by cost: every test is `quick` or `full`, besides the labels that say what it
# needs or exercises (ns3: an ns-3 TestSuite; gtest; sanitize; example; install; doc: the
# manual, needs Sphinx and Doxygen; ns3-release: an ns-3 source tree from ../shared/ns-3;
# release: a build against the newest ns-3 of ../shared/ns-3, installed into a prefix).
#
#   ctest --test-dir build -L quick -j2    the inner loop: each test under
#                                          D2DLEARN_QUICK_TEST_SECONDS
#   ctest --test-dir build -L full -j2     the rest
#   ctest --test-dir build -j2             everything (setup.sh --test, .ci/run)
#
# A test is full when its COST (the seconds it took under `ctest -j2` in a clean-clone
# `.ci/run`, set beside each test's definition and in tests/CMakeLists.txt's table) is at least
# D2DLEARN_QUICK_TEST_SECONDS, or when it builds the manual (doc), compiles in an ns-3 source
# tree (ns3-release) or runs against the newest release (release); quick otherwise. The
# GoogleTest cases, discovered at build time, are quick (a script CTest reads after them gives
# them the label, contrib/d2dlearn/CMakeLists.txt). The test test-labels checks that every
# test has exactly one of the two.
set(D2DLEARN_QUICK_TEST_SECONDS 8)

# Gives each test defined in the calling directory (so far) its cost label. Call it at the end
# of each CMakeLists.txt that adds tests.
function(d2dlearn_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} LABELS labels)
    if(labels AND (labels MATCHES "(^|;)(quick|full)(;|$)"))
      continue()
    endif()
    get_test_property(${t} COST cost)
    set(kind quick)
    if((cost AND cost GREATER_EQUAL D2DLEARN_QUICK_TEST_SECONDS)
       OR (labels MATCHES "(^|;)(doc|ns3-release|release)(;|$)"))
      set(kind full)
    endif()
    set_property(TEST ${t} APPEND PROPERTY LABELS ${kind})
  endforeach()
endfunction()
