# mpi_collectives (bcast / reduce / allreduce latency per size), built from one source twice:
# with hmpicc against Halyard's MPI shim, and with Open MPI's mpicc when it is installed (a
# comparison point only; nothing in Halyard links it). bench/compare.sh runs
# both.
set(halyard_mpi_bench ${CMAKE_BINARY_DIR}/bin/mpi_collectives_halyard)
add_custom_command(
  OUTPUT ${halyard_mpi_bench}
  COMMAND ${CMAKE_BINARY_DIR}/bin/hmpicc -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror
          ${CMAKE_CURRENT_LIST_DIR}/mpi_collectives.c -o ${halyard_mpi_bench}
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/mpi_collectives.c ${PROJECT_SOURCE_DIR}/shim/include/mpi.h
          ${CMAKE_BINARY_DIR}/bin/hmpicc halyard_mpi
  COMMENT "Building mpi_collectives_halyard with hmpicc"
  VERBATIM)
add_custom_target(mpi_collectives_halyard ALL DEPENDS ${halyard_mpi_bench})

find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  add_executable(mpi_collectives_openmpi ${CMAKE_CURRENT_LIST_DIR}/mpi_collectives.c)
  target_link_libraries(mpi_collectives_openmpi PRIVATE MPI::MPI_C)
  set_target_properties(mpi_collectives_openmpi PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin C_STANDARD 11)
endif()
