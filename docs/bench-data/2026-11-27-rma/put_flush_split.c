#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* base; MPI_Win win;
  MPI_Win_allocate(1 << 22, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  static char src[1<<20]; int sz = argc > 2 ? atoi(argv[2]) : 1;
  double tput = 0, tflush = 0;
  int iters = argc > 3 ? atoi(argv[3]) : 300, skip = 30; int nput = argc > 1 ? atoi(argv[1]) : 64;
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    for (int i = 0; i < iters + skip; ++i) {
      double t0 = MPI_Wtime();
      for (int j = 0; j < nput; ++j) (argc > 4 ? MPI_Get(src + j * sz, sz, MPI_CHAR, 1, j * sz, sz, MPI_CHAR, win) : MPI_Put(src + j * sz, sz, MPI_CHAR, 1, j * sz, sz, MPI_CHAR, win));
      double t1 = MPI_Wtime();
      MPI_Win_flush(1, win);
      double t2 = MPI_Wtime();
      if (i >= skip) { tput += t1 - t0; tflush += t2 - t1; }
    }
    MPI_Win_unlock(1, win);
    printf("%d puts %.2f us, flush %.2f us, iteration %.2f us\n", nput, tput / iters * 1e6, tflush / iters * 1e6, (tput + tflush) / iters * 1e6);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
