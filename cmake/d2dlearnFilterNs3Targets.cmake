# d2dlearn_filter_ns3_targets(): make Debian's ns-3 imported targets usable.
#
# Debian's ns-3 targets (ns3::lib*) name include folders and development libraries of
# packages that ns-3 does not depend on (/usr/include/libxml2, /usr/include/python3.11,
# /usr/lib/x86_64-linux-gnu/libsqlite3.so, libxml2.so): CMake refuses a target whose
# include folder does not exist, and make has no rule for a missing library file. This
# keeps only what exists in INTERFACE_INCLUDE_DIRECTORIES and INTERFACE_LINK_LIBRARIES
# (relative items such as -Wl,... flags and target names are kept); the ns-3 libraries
# themselves already link their run-time libraries.
#
# Call it after find_package(ns3) / find_dependency(ns3). It filters the ns3:: targets
# imported in the calling directory and every ns3:: target reachable from them and from
# the targets d2dlearn links (ns-3 may have been found in a parent directory, whose
# targets this directory sees but does not list). Filtering twice changes nothing.
# Used by the top-level CMakeLists.txt and by the installed d2dlearnConfig.cmake.
function(d2dlearn_filter_ns3_targets)
  get_directory_property(pending IMPORTED_TARGETS)
  # D2DLEARN_NS3_MODULES (d2dlearnNs3.cmake), in both target-name styles (ns3::libcore up
  # to ns-3.42, ns3::core from 3.43).
  foreach(module core network energy mobility propagation wifi internet flow-monitor)
    list(APPEND pending ns3::lib${module} ns3::${module})
  endforeach()
  set(done "")
  while(pending)
    list(POP_FRONT pending target)
    if(NOT target MATCHES "^ns3::" OR NOT TARGET ${target} OR target IN_LIST done)
      continue()
    endif()
    list(APPEND done ${target})
    foreach(property INTERFACE_INCLUDE_DIRECTORIES INTERFACE_LINK_LIBRARIES)
      get_target_property(items ${target} ${property})
      if(items)
        set(kept "")
        foreach(item IN LISTS items)
          if(NOT IS_ABSOLUTE "${item}" OR EXISTS "${item}")
            list(APPEND kept "${item}")
          endif()
        endforeach()
        set_target_properties(${target} PROPERTIES ${property} "${kept}")
        if(property STREQUAL "INTERFACE_LINK_LIBRARIES")
          list(APPEND pending ${kept})
        endif()
      endif()
    endforeach()
  endwhile()
endfunction()
