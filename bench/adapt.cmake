# halyard_bench_adapt_noise: ADAPT bcast/reduce per-rank times under injected noise (the
# dissertation's Figure 3.5 experiment; see docs/adapt.md).
add_executable(halyard_bench_adapt_noise ${CMAKE_CURRENT_LIST_DIR}/adapt_noise.cpp)
target_link_libraries(halyard_bench_adapt_noise PRIVATE halyard)
halyard_project_warnings(halyard_bench_adapt_noise)
set_target_properties(halyard_bench_adapt_noise PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
