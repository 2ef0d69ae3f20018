# MPI programs built from one source with several MPIs: with hmpicc against Halyard's MPI shim
# (bin/NAME_halyard), with Open MPI's mpicc when it is installed (bin/NAME_openmpi) and, for the
# programs given MPICH, with MPICH's mpicc.mpich when it is installed (bin/NAME_mpich). The
# peers are comparison points only; nothing in Halyard links them. mpi_collectives (bcast /
# reduce / allreduce latency per size, barrier latency) is run by bench/compare.sh; mpi_overlap
# (OSU-style overlap of ialltoall and iallgather) and mpi_fft_pipeline (the paper's pipelined FFT
# transposes) by bench/overlap.sh. mpi_vector_allreduce (allreduce of a vector datatype against
# contiguous data) runs on its own, Halyard's build only: Open MPI and MPICH refuse a predefined
# op on a derived datatype (MPI_ERR_OP), which the shim accepts when the type has one element type.
find_package(MPI COMPONENTS C QUIET)
# Debian installs MPICH's wrapper under this name so that mpicc stays Open MPI's.
find_program(HALYARD_MPICC_MPICH mpicc.mpich)
if(HALYARD_MPICC_MPICH)
  message(STATUS "Halyard: MPICH peer for bench/compare.sh (${HALYARD_MPICC_MPICH}): ON")
endif()

# halyard_wrapped_mpi_program(TARGET WRAPPER SOURCE [FLAGS ...] [DEPENDS ...]): bin/TARGET from
# SOURCE, compiled by an MPI compiler wrapper (hmpicc, mpicc.mpich) that CMake cannot take as a
# compiler of its own.
function(halyard_wrapped_mpi_program target wrapper source)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "FLAGS;DEPENDS")
  set(program ${CMAKE_BINARY_DIR}/bin/${target})
  add_custom_command(
    OUTPUT ${program}
    COMMAND ${wrapper} -std=c11 -O2 -Wall -Wextra -Wpedantic ${arg_FLAGS} ${source} -o ${program} -lm
    DEPENDS ${source} ${CMAKE_CURRENT_LIST_DIR}/mpi_size_arg.h ${arg_DEPENDS}
    COMMENT "Building ${target} with ${wrapper}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${program})
endfunction()

# halyard_mpi_benchmark(NAME [MPICH]): NAME.c as bin/NAME_halyard, bin/NAME_openmpi and (with
# MPICH) bin/NAME_mpich.
function(halyard_mpi_benchmark name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "MPICH" "" "")
  set(source ${CMAKE_CURRENT_LIST_DIR}/${name}.c)
  # -Werror for the shim's header only: a peer's headers are not ours to keep warning-free.
  halyard_wrapped_mpi_program(${name}_halyard ${CMAKE_BINARY_DIR}/bin/hmpicc ${source}
    FLAGS -Werror
  DEPENDS ${PROJECT_SOURCE_DIR}/shim/include/mpi.h ${CMAKE_BINARY_DIR}/bin/hmpicc halyard_mpi)
  if(MPI_C_FOUND)
    add_executable(${name}_openmpi ${source})
    target_link_libraries(${name}_openmpi PRIVATE MPI::MPI_C m)
    set_target_properties(${name}_openmpi PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin C_STANDARD 11)
  endif()
  if(arg_MPICH AND HALYARD_MPICC_MPICH)
    halyard_wrapped_mpi_program(${name}_mpich ${HALYARD_MPICC_MPICH} ${source})
  endif()
endfunction()
halyard_mpi_benchmark(mpi_collectives MPICH)
halyard_mpi_benchmark(mpi_overlap)
halyard_mpi_benchmark(mpi_fft_pipeline)
# MPI-4 persistent collectives against the blocking ones (issue 25); Halyard only, since the
# peers installed here predate MPI-4's persistent collectives.
halyard_wrapped_mpi_program(mpi_persistent_halyard ${CMAKE_BINARY_DIR}/bin/hmpicc
  ${CMAKE_CURRENT_LIST_DIR}/mpi_persistent.c FLAGS -Werror
  DEPENDS ${PROJECT_SOURCE_DIR}/shim/include/mpi.h ${CMAKE_BINARY_DIR}/bin/hmpicc halyard_mpi)
# A vector-typed allreduce against a contiguous one (issue 25); Halyard only, since MPI defines
# predefined ops on predefined types only (the peers refuse MPI_SUM on a vector type).
halyard_wrapped_mpi_program(mpi_vector_allreduce_halyard ${CMAKE_BINARY_DIR}/bin/hmpicc
  ${CMAKE_CURRENT_LIST_DIR}/mpi_vector_allreduce.c FLAGS -Werror
  DEPENDS ${PROJECT_SOURCE_DIR}/shim/include/mpi.h ${CMAKE_BINARY_DIR}/bin/hmpicc halyard_mpi)
