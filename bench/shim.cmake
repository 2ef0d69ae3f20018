# MPI programs built from one source twice: with hmpicc against Halyard's MPI shim
# (bin/NAME_halyard), and with Open MPI's mpicc when it is installed (bin/NAME_openmpi; a
# comparison point only, nothing in Halyard links it). mpi_collectives (bcast / reduce / allreduce
# latency per size) is run by bench/compare.sh; mpi_overlap (OSU-style overlap of ialltoall and
# iallgather) and mpi_fft_pipeline (the paper's pipelined FFT transposes) by bench/overlap.sh.
find_package(MPI COMPONENTS C QUIET)
function(halyard_mpi_benchmark name)
  set(halyard_program ${CMAKE_BINARY_DIR}/bin/${name}_halyard)
  add_custom_command(
    OUTPUT ${halyard_program}
    COMMAND ${CMAKE_BINARY_DIR}/bin/hmpicc -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror
            ${CMAKE_CURRENT_LIST_DIR}/${name}.c -o ${halyard_program} -lm
    DEPENDS ${CMAKE_CURRENT_LIST_DIR}/${name}.c ${CMAKE_CURRENT_LIST_DIR}/mpi_size_arg.h
            ${PROJECT_SOURCE_DIR}/shim/include/mpi.h
            ${CMAKE_BINARY_DIR}/bin/hmpicc halyard_mpi
    COMMENT "Building ${name}_halyard with hmpicc"
    VERBATIM)
  add_custom_target(${name}_halyard ALL DEPENDS ${halyard_program})
  if(MPI_C_FOUND)
    add_executable(${name}_openmpi ${CMAKE_CURRENT_LIST_DIR}/${name}.c)
    target_link_libraries(${name}_openmpi PRIVATE MPI::MPI_C m)
    set_target_properties(${name}_openmpi PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin C_STANDARD 11)
  endif()
endfunction()
halyard_mpi_benchmark(mpi_collectives)
halyard_mpi_benchmark(mpi_overlap)
halyard_mpi_benchmark(mpi_fft_pipeline)
