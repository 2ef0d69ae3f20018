# halyard_bench_reduction: reduction kernels' GB/s per ISA against a plain loop.
add_executable(halyard_bench_reduction ${CMAKE_CURRENT_LIST_DIR}/reduction_kernels.cpp)
target_link_libraries(halyard_bench_reduction PRIVATE halyard)
halyard_project_warnings(halyard_bench_reduction)
# The plain reference loops in this file must stay scalar; the measured kernels are in the
# library and keep their own flags.
target_compile_options(halyard_bench_reduction PRIVATE -fno-tree-vectorize)
set_target_properties(halyard_bench_reduction PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
