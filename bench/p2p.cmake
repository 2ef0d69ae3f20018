# halyard_bench_p2p: ping-pong latency and bandwidth, 1 B .. 64 MiB (bench/compare_p2p.sh runs it
# next to Open MPI's mpi_pingpong).
add_executable(halyard_bench_p2p ${CMAKE_CURRENT_LIST_DIR}/p2p_pingpong.cpp)
target_link_libraries(halyard_bench_p2p PRIVATE halyard)
halyard_project_warnings(halyard_bench_p2p)
set_target_properties(halyard_bench_p2p PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

# The Open MPI peer is a comparison point only: built when an MPI C compiler is found, and
# nothing in Halyard links it.
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  add_executable(mpi_pingpong ${CMAKE_CURRENT_LIST_DIR}/mpi_pingpong.c)
  target_link_libraries(mpi_pingpong PRIVATE MPI::MPI_C)
  set_target_properties(mpi_pingpong PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  message(STATUS "Halyard: Open MPI ping-pong peer for bench/compare_p2p.sh: ON")
endif()
