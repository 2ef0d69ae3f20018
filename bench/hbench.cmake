# hbench: the benchmark suite (docs/benchmarks.md). Everything but main() is a library, so the
# unit tests (tests/bench) reach the size schedule, the noise schedule and the option parser.
set(hbench_dir ${CMAKE_CURRENT_LIST_DIR}/hbench)
add_library(hbench_core STATIC
  ${hbench_dir}/benchmark.cpp
  ${hbench_dir}/options.cpp
  ${hbench_dir}/size_schedule.cpp
  ${hbench_dir}/statistics.cpp
  ${hbench_dir}/noise.cpp
  ${hbench_dir}/collective_runners.cpp
  ${hbench_dir}/pingpong_runner.cpp
  ${hbench_dir}/measurement.cpp
  ${hbench_dir}/session.cpp
  ${hbench_dir}/output_writers.cpp)
target_link_libraries(hbench_core PUBLIC halyard PRIVATE CLI11::CLI11 nlohmann_json::nlohmann_json)
halyard_project_warnings(hbench_core)

add_executable(hbench ${hbench_dir}/main.cpp)
target_link_libraries(hbench PRIVATE hbench_core)
halyard_project_warnings(hbench)
set_target_properties(hbench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
install(TARGETS hbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
