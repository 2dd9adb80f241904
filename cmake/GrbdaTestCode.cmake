# Test-only code (the GoogleTest suite, the C++ examples ctest runs) is compiled for compile time,
# not speed: -O1 in a unity build of 16 sources per compilation, so Eigen and GoogleTest are parsed
# and instantiated once per batch. What the tests call runs in the library, the command and the
# module, which keep CMAKE_BUILD_TYPE's flags and one file per compilation (bench/ counts
# instructions on them; the benchmarks keep Release too). docs/building.md has the numbers.
option(GRBDA_QUICK_TEST_BUILD "Compile tests and examples at -O1 as unity builds (the library keeps its flags)" ON)

function(grbda_test_code target)
  if(NOT GRBDA_QUICK_TEST_BUILD)
    return()
  endif()
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O1>)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
endfunction()
