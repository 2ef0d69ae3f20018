/* One layout alone: MPI_Allreduce (sum) of COUNT doubles (131072 by default), contiguous (B = 0) or as blocks of B
 * doubles 2B apart, ITERATIONS calls; rank 0 prints the average.  hmpicc -O2 vec_only.c -o vec_only &&
 * hlaunch -n 2 --bind-to core ./vec_only B ITERATIONS [COUNT] (under perf: a wrapper that runs perf record per rank). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long B = atol(argv[1]); int iters = atoi(argv[2]);
  long count = argc > 3 ? atol(argv[3]) : 131072;
  double* send = malloc(sizeof(double) * count * 2); double* recv = malloc(sizeof(double) * count * 2);
  for (long i = 0; i < count * 2; ++i) send[i] = i % 7;
  MPI_Datatype type = MPI_DOUBLE; int n = (int)count;
  if (B > 0) { MPI_Type_vector((int)(count / B), (int)B, (int)(2 * B), MPI_DOUBLE, &type); MPI_Type_commit(&type); n = 1; }
  for (int i = 0; i < 20; ++i) MPI_Allreduce(send, recv, n, type, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) MPI_Allreduce(send, recv, n, type, MPI_SUM, MPI_COMM_WORLD);
  double t = (MPI_Wtime() - t0) / iters;
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf("B=%ld %.1f us\n", B, t * 1e6);
  MPI_Finalize();
  return 0;
}
