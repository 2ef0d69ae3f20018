/* MPI_ERRORS_ARE_FATAL: runs one faulty scenario, named by the first argument; the test driver
 * (tests/launcher/expect_job.sh) checks hlaunch's exit status and the message naming the call.
 * Ranks that are not at fault wait in a barrier until the job is ended.
 *
 *   shim_errors_fatal bad-root | negative-count | bad-op | null-comm | bad-datatype |
 *                     unequal-blocks | negative-counts-entry | uncommitted-types-entry |
 *                     truncate | abort | before-init | after-finalize
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  int rank = -1, size = -1;
  if (strcmp(scenario, "before-init") == 0) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return 0; /* not reached */
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int at_fault = size > 1 ? 1 : 0;
  int data[8] = {0};
  float real[2] = {1.0f, 2.0f};
  if (strcmp(scenario, "after-finalize") == 0) {
    MPI_Finalize();
    MPI_Bcast(data, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return 0; /* not reached */
  }
  if (rank == at_fault) {
    if (strcmp(scenario, "bad-root") == 0) {
      MPI_Bcast(data, 4, MPI_INT, 7, MPI_COMM_WORLD);
    } else if (strcmp(scenario, "negative-count") == 0) {
      MPI_Allreduce(MPI_IN_PLACE, data, -3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(scenario, "bad-op") == 0) {
      MPI_Reduce(real, real, 2, MPI_FLOAT, MPI_BAND, 0, MPI_COMM_WORLD);
    } else if (strcmp(scenario, "null-comm") == 0) {
      MPI_Barrier(MPI_COMM_NULL);
    } else if (strcmp(scenario, "bad-datatype") == 0) {
      MPI_Send(data, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD);
    } else if (strcmp(scenario, "unequal-blocks") == 0) {
      MPI_Allgather(data, 2, MPI_INT, data + 2, 1, MPI_INT, MPI_COMM_WORLD);
    } else if (strcmp(scenario, "negative-counts-entry") == 0) {
      int counts[2] = {1, -1}, displs[2] = {0, 1};
      MPI_Allgatherv(data, 1, MPI_INT, data + 2, counts, displs, MPI_INT, MPI_COMM_WORLD);
    } else if (strcmp(scenario, "uncommitted-types-entry") == 0) {
      MPI_Datatype pair;
      MPI_Type_contiguous(2, MPI_INT, &pair); /* never committed */
      int counts[2] = {1, 1}, displs[2] = {0, 8};
      MPI_Datatype types[2] = {MPI_INT, pair};
      MPI_Alltoallw(data, counts, displs, types, data, counts, displs, types, MPI_COMM_WORLD);
    } else if (strcmp(scenario, "truncate") == 0) {
      MPI_Recv(data, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(scenario, "abort") == 0) {
      MPI_Abort(MPI_COMM_WORLD, 42);
    } else {
      fprintf(stderr, "unknown scenario '%s'\n", scenario);
      return 2;
    }
    fprintf(stderr, "rank %d: the faulty call returned\n", rank);
    return 3;
  }
  if (strcmp(scenario, "truncate") == 0 && rank == 0)
    MPI_Send(data, 8, MPI_INT, at_fault, 5, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  fprintf(stderr, "rank %d: the job was not ended\n", rank);
  MPI_Finalize();
  return 4;
}
