# The profiling interface, generated from mpi.h at build time (cmake -P, run by
# shim/CMakeLists.txt whenever mpi.h changes), so that a call declared in mpi.h gets its PMPI_
# twin with nothing more written. A call is a line of mpi.h that declares MPI_<Capital><lower...>(
# after its return type (the all-capital MPI_COMM_DUP_FN and friends are callbacks, not calls;
# tests/shim/check_profiling_symbols.sh checks that no call escapes this pattern).
# Writes, under OUTPUT_DIR:
#   include/mpi_profiling.h  (public, included at the end of mpi.h) PMPI_X declared with the
#                            type of MPI_X;
#   pmpi_renames.h           (private, forced into every file of libhalyard_mpi) renames each
#                            MPI_X to PMPI_X, so the library defines PMPI_X and calls PMPI_X
#                            inside itself (a tool's wrapper sees only the program's calls), and
#                            makes MPI_X a weak alias of PMPI_X in the file that defines it.
cmake_minimum_required(VERSION 3.20)
foreach(required MPI_H OUTPUT_DIR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "generate_profiling_names.cmake needs -D${required}=...")
  endif()
endforeach()

# The return type may be several words (an attribute macro first, say); typedefs of function
# types (MPI_User_function) are not calls.
set(call_line "^[A-Za-z_][A-Za-z0-9_ *]*[ *]MPI_[A-Z][a-z0-9_]*\\(")
file(STRINGS ${MPI_H} declarations REGEX "${call_line}")
list(FILTER declarations EXCLUDE REGEX "^typedef ")
set(names)
foreach(line IN LISTS declarations)
  string(REGEX MATCH "MPI_[A-Z][a-z0-9_]*\\(" name "${line}")
  string(REGEX REPLACE "\\($" "" name "${name}")
  list(APPEND names ${name})
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
list(LENGTH names count)

set(banner "/* Generated from mpi.h by shim/generate_profiling_names.cmake: do not edit. */\n")
set(public "${banner}/* The profiling interface: PMPI_X, with the signature of MPI_X, for the ${count} calls of
 * mpi.h. */\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n")
set(renames "${banner}#pragma once\n")
set(aliases "")
foreach(name IN LISTS names)
  string(APPEND public "__typeof__(${name}) P${name};\n")
  string(APPEND renames "#define ${name} P${name}\n")
  # An alias of a symbol that this file does not define is dropped by the assembler.
  string(APPEND aliases "    \".weak ${name}\\n.type ${name}, %function\\n.set ${name}, P${name}\\n\"\n")
endforeach()
string(APPEND public "#ifdef __cplusplus\n}\n#endif\n")
string(APPEND renames "__asm__(\n${aliases});\n")

# Rewritten only when different, so that an unrelated edit of mpi.h rebuilds nothing.
file(CONFIGURE OUTPUT ${OUTPUT_DIR}/include/mpi_profiling.h CONTENT "${public}" @ONLY)
file(CONFIGURE OUTPUT ${OUTPUT_DIR}/pmpi_renames.h CONTENT "${renames}" @ONLY)
