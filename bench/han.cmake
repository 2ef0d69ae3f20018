# halyard_bench_han_overlap: overlap rate of HAN's ib with sb per intra-node submodule
# (dissertation eq. 5.3; docs/han.md). bench/han_vs_flat.sh compares HAN with the flat algorithms.
add_executable(halyard_bench_han_overlap ${CMAKE_CURRENT_LIST_DIR}/han_overlap.cpp)
target_link_libraries(halyard_bench_han_overlap PRIVATE halyard)
halyard_project_warnings(halyard_bench_han_overlap)
set_target_properties(halyard_bench_han_overlap PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
# halyard_bench_han_latency: barrier and allgather latency of the algorithm HALYARD_<COLL>_ALG forces.
add_executable(halyard_bench_han_latency ${CMAKE_CURRENT_LIST_DIR}/han_latency.cpp)
target_link_libraries(halyard_bench_han_latency PRIVATE halyard)
halyard_project_warnings(halyard_bench_han_latency)
set_target_properties(halyard_bench_han_latency PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
