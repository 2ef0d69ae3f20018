/* Error handlers that end the job: MPI_Comm_call_errhandler under MPI_ERRORS_ARE_FATAL, and a
 * user handler that calls MPI_Abort with a code of its own. The test driver
 * (tests/launcher/expect_job.sh) checks hlaunch's exit status and message. Ranks not at fault
 * wait in a barrier until the job is ended.
 *
 *   shim_errhandler_fatal call-fatal | user-abort
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void aborting_handler(MPI_Comm* comm, int* code, ...) {
  MPI_Abort(*comm, 30 + *code); /* MPI_ERR_ROOT (8) -> exit 38 */
}

int main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  int rank = -1, size = -1, data = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == (size > 1 ? 1 : 0)) {
    if (strcmp(scenario, "call-fatal") == 0) {
      MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG);
    } else if (strcmp(scenario, "user-abort") == 0) {
      MPI_Errhandler handler;
      MPI_Comm_create_errhandler(aborting_handler, &handler);
      MPI_Comm_set_errhandler(MPI_COMM_SELF, handler);
      MPI_Bcast(&data, 1, MPI_INT, 5, MPI_COMM_SELF);
    } else {
      fprintf(stderr, "unknown scenario '%s'\n", scenario);
      return 2;
    }
    fprintf(stderr, "rank %d: the job was not ended by the handler\n", rank);
    return 3;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  fprintf(stderr, "rank %d: the job was not ended\n", rank);
  MPI_Finalize();
  return 4;
}
