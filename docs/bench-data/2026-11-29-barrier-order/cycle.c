/* cycle: total time per iteration of {COLL(4 B); barrier}, rank 0's view; COLL: bcast, scatter, allreduce, none */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n = atoi(argv[2]), rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  float buf[64] = {0}, out[64];
  const char* c = argv[1];
  for (int pass = 0; pass < 2; ++pass) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; ++i) {
      if (!strcmp(c, "bcast")) MPI_Bcast(buf, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
      else if (!strcmp(c, "scatter")) MPI_Scatter(buf, 1, MPI_FLOAT, out, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
      else if (!strcmp(c, "reduce")) MPI_Reduce(buf, out, 1, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
      else if (!strcmp(c, "gather")) MPI_Gather(buf, 1, MPI_FLOAT, out, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
      else if (!strcmp(c, "reduce_bcast")) {
        MPI_Reduce(buf, out, 1, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Bcast(buf, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
      }
      else if (!strcmp(c, "allreduce")) MPI_Allreduce(buf, out, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    double t = (MPI_Wtime() - t0) / n * 1e6;
    if (pass == 1 && rank == 0) printf("%s %.2f\n", c, t);
  }
  MPI_Finalize();
  return 0;
}
