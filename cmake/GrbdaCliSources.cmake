# The grbda command's sources without main.cpp, plus bench/bench_suite.cpp (what `grbda bench`
# times; callers add bench/ to the include path), plus the page template of `grbda view` compiled in
# as a string (the command needs no data files). tools/ builds the command from them, fuzz/ the
# fuzz_cli_args target, so both link the same translation units.
function(grbda_cli_library_sources out_var)
  set(dir ${PROJECT_SOURCE_DIR}/tools/grbda)
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  list(REMOVE_ITEM sources ${dir}/main.cpp)
  # configure_file tracks the .in file; the template it reads is tracked by hand.
  file(READ ${dir}/viewer_template.html GRBDA_VIEWER_TEMPLATE)
  configure_file(${dir}/viewer_template.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/viewer_template.cpp @ONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${dir}/viewer_template.html)
  set(${out_var} ${sources} ${PROJECT_SOURCE_DIR}/bench/bench_suite.cpp ${CMAKE_CURRENT_BINARY_DIR}/viewer_template.cpp
      PARENT_SCOPE)
endfunction()
