#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int rank;
static double time_reduce(float* s, float* r, int n) {
  double t = 0;
  for (int i = 0; i < 1000; ++i) { MPI_Barrier(MPI_COMM_WORLD); double a = MPI_Wtime(); (getenv("BC") ? MPI_Bcast(rank ? r : s, n, MPI_FLOAT, 0, MPI_COMM_WORLD) : MPI_Reduce(s, r, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD)); t += MPI_Wtime() - a; }
  return t / 1000 * 1e6;
}
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* s0 = aligned_alloc(4096, 1 << 20); char* r0 = aligned_alloc(4096, 1 << 20);
  int offs[][2] = {{0, 0}, {16, 16}, {0, 16}, {16, 48}, {0, 8}, {64, 0}};
  for (int k = 0; k < 6; ++k) {
    float* s = (float*)(s0 + offs[k][0]); float* r = (float*)(r0 + offs[k][1]);
    for (int i = 0; i < 65536; ++i) { s[i] = rank + 1; r[i] = -1; }
    double t16 = time_reduce(s, r, 4096), t256 = time_reduce(s, r, 65536);
    if (!rank) printf("send +%d recv +%d: 16 KiB %.2f us, 256 KiB %.2f us\n", offs[k][0], offs[k][1], t16, t256);
  }
  MPI_Finalize();
  return 0;
}
