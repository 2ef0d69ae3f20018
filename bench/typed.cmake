# halyard_bench_typed: the typed C++ API against the pointer API, side by side with their ratio
# (issue 28: within 2% at 2 ranks, 4 B). Run it on a quiet machine:
#   hlaunch -n 2 build/bin/halyard_bench_typed
add_executable(halyard_bench_typed ${CMAKE_CURRENT_LIST_DIR}/typed_vs_pointer.cpp)
target_link_libraries(halyard_bench_typed PRIVATE halyard)
halyard_project_warnings(halyard_bench_typed)
set_target_properties(halyard_bench_typed PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
