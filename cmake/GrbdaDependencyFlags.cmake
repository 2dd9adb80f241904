# grbda_drop_language_flags(TARGET): removes the compile options of an imported dependency that
# choose compile semantics for whoever links it (-std=..., -std=gnu++...), keeping the rest (include
# directories, definitions). The project's own CMAKE_CXX_STANDARD decides the language, whatever
# order a CMake version puts the flags in.
function(grbda_drop_language_flags target)
  get_target_property(options ${target} INTERFACE_COMPILE_OPTIONS)
  if(NOT options)
    return()
  endif()
  set(kept "")
  foreach(option IN LISTS options)
    if(option MATCHES "^-std=")
      message(STATUS "grbda: ignoring ${target}'s ${option} (the project builds as C++${CMAKE_CXX_STANDARD})")
    else()
      list(APPEND kept "${option}")
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_COMPILE_OPTIONS "${kept}")
endfunction()
