# d2dlearn and the ns-3 releases it builds against: 3.37 to 3.48. The one place in CMake that
# knows what differs between them (the C++ side is contrib/d2dlearn/core/model/d2d-ns3-compat.h):
#
#   ns-3       C++ standard   exported targets   energy classes
#   3.37-3.40  17             ns3::libcore       ns3::EnergySource
#   3.41       20             ns3::libcore       ns3::EnergySource
#   3.42       20             ns3::libcore       ns3::energy::EnergySource
#   3.43-3.47  20             ns3::core          ns3::energy::EnergySource
#   3.48       23             ns3::core          ns3::energy::EnergySource
#
# LiIonEnergySource (deprecated in 3.40, gone by 3.48) is looked for in that release's own
# energy headers, never by the compiler's search path: with Debian's ns-3 installed, a newer
# tree's missing header would be found in /usr/include/ns3 (3.37's) and the class would not
# link (d2dlearn_ns3_definitions).
#
# Used by the top-level CMakeLists.txt (standalone and inside an ns-3 source tree) and by
# the installed d2dlearnConfig.cmake.

set(D2DLEARN_NS3_MIN_VERSION 3.37)
set(D2DLEARN_NS3_MAX_VERSION 3.48)
# The ns-3 modules d2dlearn links (their own dependencies come with them).
set(D2DLEARN_NS3_MODULES core network energy mobility propagation wifi internet)

# d2dlearn_ns3_check_version(VERSION): a one-line error for an ns-3 outside the range.
function(d2dlearn_ns3_check_version version)
  if(version VERSION_LESS D2DLEARN_NS3_MIN_VERSION OR version VERSION_GREATER D2DLEARN_NS3_MAX_VERSION)
    message(FATAL_ERROR "d2dlearn: ns-3 ${version} is not supported (accepted: ns-3 "
                        "${D2DLEARN_NS3_MIN_VERSION} to ${D2DLEARN_NS3_MAX_VERSION})")
  endif()
endfunction()

# d2dlearn_ns3_version_number(VERSION OUT): "3.48" -> 348, the value of the C++ macro
# D2DLEARN_NS3_VERSION.
function(d2dlearn_ns3_version_number version out)
  if(NOT version MATCHES "^([0-9]+)\\.([0-9]+)")
    message(FATAL_ERROR "d2dlearn: cannot read the ns-3 version '${version}'")
  endif()
  math(EXPR number "${CMAKE_MATCH_1} * 100 + ${CMAKE_MATCH_2}")
  set(${out} ${number} PARENT_SCOPE)
endfunction()

# d2dlearn_ns3_cxx_standard(VERSION OUT): the C++ standard that ns-3 release requires.
function(d2dlearn_ns3_cxx_standard version out)
  if(version VERSION_GREATER_EQUAL 3.48)
    set(${out} 23 PARENT_SCOPE)
  elseif(version VERSION_GREATER_EQUAL 3.41)
    set(${out} 20 PARENT_SCOPE)
  else()
    set(${out} 17 PARENT_SCOPE)
  endif()
endfunction()

# d2dlearn_ns3_targets(OUT): the imported targets of D2DLEARN_NS3_MODULES of the installed
# ns-3 found by find_package(ns3): ns3::libcore (to 3.42) or ns3::core (3.43 on).
function(d2dlearn_ns3_targets out)
  set(targets "")
  foreach(module ${D2DLEARN_NS3_MODULES})
    if(TARGET ns3::lib${module})
      list(APPEND targets ns3::lib${module})
    elseif(TARGET ns3::${module})
      list(APPEND targets ns3::${module})
    else()
      message(FATAL_ERROR "d2dlearn: the installed ns-3 has no module '${module}' "
                          "(neither ns3::lib${module} nor ns3::${module}); d2dlearn needs "
                          "${D2DLEARN_NS3_MODULES}")
    endif()
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# d2dlearn_ns3_optional(TARGETS_VAR DEFINITIONS_VAR): the modules d2dlearn uses when the
# installed ns-3 has them, appended to the targets it links (flow-monitor: --flowMonitor), and
# D2DLEARN_NS3_FLOW_MONITOR (1 if found, else 0) appended to the definitions. Inside an ns-3
# tree the macro is not defined (0): the module is not one d2dlearn makes ns-3 build, and the
# flag is refused there in one line.
function(d2dlearn_ns3_optional targets_var definitions_var)
  set(targets ${${targets_var}})
  set(definitions ${${definitions_var}})
  if(TARGET ns3::libflow-monitor)
    list(APPEND targets ns3::libflow-monitor)
    list(APPEND definitions D2DLEARN_NS3_FLOW_MONITOR=1)
  elseif(TARGET ns3::flow-monitor)
    list(APPEND targets ns3::flow-monitor)
    list(APPEND definitions D2DLEARN_NS3_FLOW_MONITOR=1)
  else()
    list(APPEND definitions D2DLEARN_NS3_FLOW_MONITOR=0)
  endif()
  set(${targets_var} ${targets} PARENT_SCOPE)
  set(${definitions_var} ${definitions} PARENT_SCOPE)
endfunction()

# d2dlearn_ns3_warning_flags(VERSION OUT [COMPILER_ID COMPILER_VERSION]): the warnings ns-3's
# debug profile gives its modules in that release (-Wall -Werror; -Wpedantic from 3.44;
# -Wno-restrict with GCC 12.1 to 12.3.1 from 3.41, whose false -Wrestrict on std::string
# under C++20, https://gcc.gnu.org/bugzilla/show_bug.cgi?id=105545, ns-3 switches off
# there: build-support/custom-modules/ns3-compiler-and-linker-support.cmake), which the
# standalone build applies to d2dlearn's own code too, so that it compiles there as in an
# ns-3 tree. The compiler defaults to the calling project's C++ compiler.
function(d2dlearn_ns3_warning_flags version out)
  set(id "${CMAKE_CXX_COMPILER_ID}")
  set(cxx "${CMAKE_CXX_COMPILER_VERSION}")
  if(ARGC GREATER 3)
    set(id "${ARGV2}")
    set(cxx "${ARGV3}")
  endif()
  set(flags -Wall -Werror -Wno-error=deprecated-declarations)
  if(version VERSION_GREATER_EQUAL 3.44)
    list(APPEND flags -Wpedantic)
  endif()
  if(version VERSION_GREATER_EQUAL 3.41 AND id STREQUAL "GNU" AND cxx VERSION_GREATER_EQUAL 12.1.0
     AND cxx VERSION_LESS 12.3.2)
    list(APPEND flags -Wno-restrict)
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# d2dlearn_ns3_definitions(VERSION HEADER_FOLDERS OUT): the compile definitions that tell
# d2d-ns3-compat.h which ns-3 it is compiled against, a usage requirement of the d2dlearn
# targets: D2DLEARN_NS3_VERSION (348 for 3.48) and D2DLEARN_NS3_LIION_SOURCE (1 if that
# release has ns3/li-ion-energy-source.h). HEADER_FOLDERS are candidate folders of ns-3's energy
# headers (the installed "<include>/ns3" folders of the energy target, or the tree's
# src/energy/model); the first that holds energy-source.h (every release has it) is that
# release's, and only it is asked.
function(d2dlearn_ns3_definitions version folders out)
  d2dlearn_ns3_version_number(${version} number)
  set(energy_folder "")
  foreach(folder ${folders})
    if(EXISTS "${folder}/energy-source.h")
      set(energy_folder "${folder}")
      break()
    endif()
  endforeach()
  if(energy_folder STREQUAL "")
    message(FATAL_ERROR "d2dlearn: ns-3 ${version}'s energy headers (energy-source.h) are in "
                        "none of: ${folders}")
  endif()
  if(EXISTS "${energy_folder}/li-ion-energy-source.h")
    set(liion 1)
  else()
    set(liion 0)
  endif()
  set(${out} D2DLEARN_NS3_VERSION=${number} D2DLEARN_NS3_LIION_SOURCE=${liion} PARENT_SCOPE)
endfunction()

# d2dlearn_ns3_energy_header_folders(OUT): the "<include>/ns3" folders of the installed ns-3's
# energy target (ns3::libenergy or ns3::energy), in its order, for d2dlearn_ns3_definitions.
function(d2dlearn_ns3_energy_header_folders out)
  set(folders "")
  foreach(target ns3::libenergy ns3::energy)
    if(TARGET ${target})
      get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
      foreach(dir ${dirs})
        list(APPEND folders "${dir}/ns3")
      endforeach()
    endif()
  endforeach()
  set(${out} ${folders} PARENT_SCOPE)
endfunction()
