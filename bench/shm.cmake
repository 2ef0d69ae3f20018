# halyard_bench_shm: shm ping-pong and the intra-node primitives (bench/compare_shm.sh runs the
# ping-pong next to Open MPI's vader BTL).
add_executable(halyard_bench_shm ${CMAKE_CURRENT_LIST_DIR}/shm_bench.cpp)
target_link_libraries(halyard_bench_shm PRIVATE halyard)
halyard_project_warnings(halyard_bench_shm)
set_target_properties(halyard_bench_shm PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

# flag_floor: the hardware's floor for flag-based collectives between two cores (no runtime).
add_executable(flag_floor ${CMAKE_CURRENT_LIST_DIR}/flag_floor.cpp)
halyard_project_warnings(flag_floor)
set_target_properties(flag_floor PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
