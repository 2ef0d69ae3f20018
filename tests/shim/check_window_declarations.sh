#!/usr/bin/env bash
# Windows are declared in mpi.h (so programs that mention them, such as the OSU micro-benchmarks'
# shared utilities, compile) but not yet defined (one-sided communication is issue 26). Checks
# that a program calling them compiles warning-free against the standard's signatures and then
# fails to link with an undefined reference naming each call, instead of doing nothing.
#
#   check_window_declarations.sh BIN_DIR
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
problems=()

cat >windows.c <<'PROGRAM'
#include <mpi.h>
/* The signatures of MPI-3.1 (section 11.2): a declaration that differs is a compile error. */
static int (*const create)(void*, MPI_Aint, int, MPI_Info, MPI_Comm, MPI_Win*) = MPI_Win_create;
static int (*const allocate)(MPI_Aint, int, MPI_Info, MPI_Comm, void*, MPI_Win*) = MPI_Win_allocate;
static int (*const create_dynamic)(MPI_Info, MPI_Comm, MPI_Win*) = MPI_Win_create_dynamic;
static int (*const attach)(MPI_Win, void*, MPI_Aint) = MPI_Win_attach;
static int (*const release)(MPI_Win*) = MPI_Win_free;
int main(int argc, char** argv) {
  char memory[64];
  void* allocated = 0;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  create(memory, (MPI_Aint)sizeof memory, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  release(&win);
  allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &allocated, &win);
  release(&win);
  create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  attach(win, memory, (MPI_Aint)sizeof memory);
  release(&win);
  return MPI_Finalize();
}
PROGRAM
if "$bin/hmpicc" -std=c11 -Wall -Wextra -Wpedantic -Werror -c windows.c -o windows.o 2>compile.err; then
  if "$bin/hmpicc" windows.o -o windows 2>link.err; then
    problems+=("a program calling the window functions linked (update this check for issue 26)")
  fi
  for call in MPI_Win_create MPI_Win_allocate MPI_Win_create_dynamic MPI_Win_attach MPI_Win_free; do
    grep -q "undefined reference to \`$call'" link.err || problems+=("no link error for $call: $(cat link.err)")
  done
else
  problems+=("a program using the declared window functions did not compile: $(cat compile.err)")
fi

if ((${#problems[@]})); then
  printf 'FAIL: %s\n' "${problems[@]}"
  exit 1
fi
echo "ok: windows compile against mpi.h and fail to link"
