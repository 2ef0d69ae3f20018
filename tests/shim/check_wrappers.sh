#!/usr/bin/env bash
# Checks the build-tree hmpicc / hmpicxx: the commands -show prints, compiler override,
# arguments passed through untouched (spaces included), separate compile and link steps, a
# program that runs, and an unsupported MPI call failing to build instead of doing nothing.
#
#   check_wrappers.sh BIN_DIR INCLUDE_DIR PROFILING_INCLUDE_DIR LIB_DIR C_COMPILER CXX_COMPILER
# (PROFILING_INCLUDE_DIR: where the build generates mpi_profiling.h.)
set -uo pipefail
bin=$1 lib=$4 cc=$5 cxx=$6
include="$2 -I$3"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
expect_eq() {
  [[ "$1" == "$2" ]] || fail "$3: got '$1', expected '$2'"
}
link_flags="-L$lib -Wl,-rpath,$lib -lhalyard_mpi"

expect_eq "$("$bin/hmpicc" -show -c a.c -o a.o)" "$cc -I$include -c a.c -o a.o" "compile only"
expect_eq "$("$bin/hmpicc" -show -O2 a.o -o a)" "$cc -I$include -O2 a.o -o a $link_flags" "link"
expect_eq "$("$bin/hmpicxx" --showme -std=c++20 x.cpp)" "$cxx -I$include -std=c++20 x.cpp $link_flags" \
  "hmpicxx"
expect_eq "$(HALYARD_MPICC=my-cc "$bin/hmpicc" -show -E a.c)" "my-cc -I$include -E a.c" "override"

cat >hello.c <<'PROGRAM'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  int rank = -1, size = -1;
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("%s rank %d of %d\n", GREETING, rank, size);
  return MPI_Finalize() == MPI_SUCCESS ? 0 : 1;
}
PROGRAM
if "$bin/hmpicc" -Wall -Wextra -Werror '-DGREETING="hello from"' -c hello.c -o hello.o &&
  "$bin/hmpicc" hello.o -o hello; then
  # Without hlaunch the program runs as a singleton.
  expect_eq "$(./hello)" "hello from rank 0 of 1" "singleton run"
else
  fail "hmpicc could not build hello.c"
fi

cp hello.c hello.cpp
if "$bin/hmpicxx" -Wall -Wextra -Werror -Wold-style-cast '-DGREETING="hi from"' hello.cpp -o hello_cxx; then
  expect_eq "$(./hello_cxx)" "hi from rank 0 of 1" "C++ singleton run"
else
  fail "hmpicxx could not build hello.cpp"
fi

# A call outside the subset is not declared (C++ refuses undeclared calls) ...
# (MPI-IO, out of the shim's scope: docs/mpi-shim.md)
cat >file_close.cpp <<'PROGRAM'
#include <mpi.h>
int main() { return MPI_File_close(nullptr); }
PROGRAM
if "$bin/hmpicxx" file_close.cpp -o file_close 2>file_close.err; then
  fail "a program calling MPI_File_close compiled"
fi
grep -q "MPI_File_close" file_close.err ||
  fail "the compiler error does not name MPI_File_close: $(cat file_close.err)"
# ... and declaring it oneself ends in a link error.
cat >file_close.c <<'PROGRAM'
#include <mpi.h>
int MPI_File_close(void* fh);
int main(void) { return MPI_File_close(0); }
PROGRAM
if "$bin/hmpicc" file_close.c -o file_close 2>file_close.err; then
  fail "a program calling MPI_File_close linked"
fi
grep -q "undefined reference to \`MPI_File_close'" file_close.err ||
  fail "no link error for MPI_File_close: $(cat file_close.err)"

[[ $failed -eq 0 ]] && echo "ok: hmpicc and hmpicxx"
exit $failed
