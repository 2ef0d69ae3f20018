/* A 2-rank MPI_Reduce (or, with BC=1 in the environment, MPI_Bcast) of 16 KiB and 256 KiB whose
 * send and receive buffers lie at chosen offsets from a page: the single-copy path's CMA read at
 * matching and differing offsets. Built with hmpicc, run with
 *   hlaunch -n 2 ./cma_offsets        and        hlaunch -x BC=1 -n 2 ./cma_offsets */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank;

static double time_call(float* s, float* r, int n) {
  double t = 0;
  for (int i = 0; i < 1000; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    double a = MPI_Wtime();
    if (getenv("BC")) {
      MPI_Bcast(rank ? r : s, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
    } else {
      MPI_Reduce(s, r, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    t += MPI_Wtime() - a;
  }
  return t / 1000 * 1e6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* s0 = aligned_alloc(4096, 1 << 20);
  char* r0 = aligned_alloc(4096, 1 << 20);
  int offsets[][2] = {{0, 0}, {16, 16}, {0, 16}, {16, 48}, {0, 8}, {64, 0}};
  for (int k = 0; k < 6; ++k) {
    float* s = (float*)(s0 + offsets[k][0]);
    float* r = (float*)(r0 + offsets[k][1]);
    for (int i = 0; i < 65536; ++i) s[i] = rank + 1, r[i] = -1;
    double small = time_call(s, r, 4096), large = time_call(s, r, 65536);
    if (rank == 0) {
      printf("send +%d recv +%d: 16 KiB %.2f us, 256 KiB %.2f us\n", offsets[k][0], offsets[k][1],
             small, large);
    }
  }
  MPI_Finalize();
  return 0;
}
