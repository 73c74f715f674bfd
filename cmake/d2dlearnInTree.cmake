# d2dlearn inside an ns-3 source tree: this repository cloned as ns-3.XX/contrib/d2dlearn (the
# repository root is the module folder, as 5G-LENA's is), then
#   ./ns3 configure --enable-examples --enable-tests --enable-modules=d2dlearn
#   ./ns3 build
# Included by the top-level CMakeLists.txt when ns-3's build_lib exists, which then calls
# build_lib itself (ns-3 finds a module's dependencies in the text of its CMakeLists.txt, the
# ${libcore} ... of LIBRARIES_TO_LINK). That builds one ns-3 module library, d2dlearn
# (libd2dlearn, libd2dlearn-learning and libd2dlearn-scenario of the standalone build in
# one), its TestSuites into ns-3's test runner (./test.py -s d2d-channel), and the scenario programs and examples as
# ns-3 examples (./ns3 run "fedavg --rounds=1"; examples/CMakeLists.txt). Logging and asserts
# follow ns-3's build profile (debug and default: on; release and optimized: off), as for
# every ns-3 module; the standalone build always has them on.

include(${CMAKE_CURRENT_LIST_DIR}/d2dlearnNs3.cmake)
d2dlearn_ns3_check_version(${NS3_VER})
# The tree's own energy headers decide what it has (not /usr/include/ns3, where Debian's
# ns-3.37 may be).
d2dlearn_ns3_definitions(${NS3_VER} ${PROJECT_SOURCE_DIR}/src/energy/model D2DLEARN_NS3_DEFINITIONS)

include(${CMAKE_CURRENT_SOURCE_DIR}/contrib/d2dlearn/d2dlearn-sources.cmake)
foreach(list d2dlearn_sources d2dlearn_learning_sources d2dlearn_scenario_sources d2dlearn_headers
             d2dlearn_learning_headers d2dlearn_scenario_headers d2dlearn_test_sources
             d2dlearn_learning_test_sources)
  list(TRANSFORM ${list} PREPEND contrib/d2dlearn/)
endforeach()

find_package(fmt REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(GSL REQUIRED)
find_package(LAPACK REQUIRED)
find_package(Torch REQUIRED)
# The libraries besides ns-3's that the module links.
set(d2dlearn_third_party_libraries fmt::fmt Boost::headers ZLIB::ZLIB nlohmann_json::nlohmann_json
    GSL::gsl ${LAPACK_LIBRARIES} ${TORCH_LIBRARIES})
# ns-3 links a module's libraries into targets of other folders too (its test runner, scratch/,
# utils/): the imported targets found in this folder (others, e.g. GSL::gsl, ns-3 found
# itself) must be visible there.
get_directory_property(d2dlearn_imported IMPORTED_TARGETS)
foreach(target ${d2dlearn_imported})
  get_target_property(global ${target} IMPORTED_GLOBAL)
  if(NOT global)
    set_target_properties(${target} PROPERTIES IMPORTED_GLOBAL TRUE)
  endif()
endforeach()
# ns-3 up to 3.41 compiles a module's sources in an object library that gets no usage
# requirements of the libraries it links: LibTorch's headers by folder (as system headers, so
# that ns-3's warnings, -Werror in the debug profile, stay on d2dlearn's own code).
include_directories(SYSTEM ${TORCH_INCLUDE_DIRS})
# The ns-3 release and what it has, for d2d-ns3-compat.h: every target of this folder (module,
# object library, tests, examples) and, as a usage requirement, the programs that link the
# module.
add_compile_definitions(${D2DLEARN_NS3_DEFINITIONS})

# After build_lib: D2DLEARN_NS3_DEFINITIONS as a usage requirement of the module library, for the
# programs elsewhere in the tree (scratch/, other modules) that include d2dlearn's headers.
# (Here, not in CMakeLists.txt: ns-3 reads every ${lib...} there as a dependency.)
function(d2dlearn_in_tree_usage_requirements)
  target_compile_definitions(${libd2dlearn} INTERFACE ${D2DLEARN_NS3_DEFINITIONS})
endfunction()
