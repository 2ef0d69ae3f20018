/* Put and get into a window made by MPI_Win_create on another rank of the node, with the
 * origin and window buffers at chosen offsets from a page: where the two differ modulo 32
 * bytes, a kernel CMA copy runs at a fraction of its speed.
 *   mpirun -n 2 ./window_offsets ORIGIN_OFFSET WINDOW_OFFSET [ITERATIONS]
 * Rank 0 puts to (and gets from) rank 1's window under MPI_Win_lock_all, a flush after each
 * operation; prints us per operation, best of 5 repetitions, for 1 KiB to 1 MiB. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES (1 << 20)

static double per_operation(int put, char *origin, MPI_Win win, int bytes, int iterations) {
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    double start = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) {
      if (put) {
        MPI_Put(origin, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
      } else {
        MPI_Get(origin, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
      }
      MPI_Win_flush(1, win);
    }
    double t = (MPI_Wtime() - start) * 1e6 / iterations;
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int origin_offset = argc > 1 ? atoi(argv[1]) : 0;
  int window_offset = argc > 2 ? atoi(argv[2]) : 0;
  int iterations = argc > 3 ? atoi(argv[3]) : 200;
  char *origin_memory, *window_memory;
  if (posix_memalign((void **)&origin_memory, 4096, MAX_BYTES + 4096) != 0 ||
      posix_memalign((void **)&window_memory, 4096, MAX_BYTES + 4096) != 0) {
    return 1;
  }
  char *origin = origin_memory + origin_offset;
  char *window = window_memory + window_offset;
  memset(origin, 1, MAX_BYTES);
  memset(window, 2, MAX_BYTES);
  MPI_Win win;
  MPI_Win_create(window, MAX_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(0, win);
  if (rank == 0) {
    printf("# origin +%d, window +%d; us per operation (flushed), best of 5 x %d\n",
           origin_offset, window_offset, iterations);
    printf("# bytes        put        get\n");
    for (int bytes = 1024; bytes <= MAX_BYTES; bytes *= 4) {
      int n = bytes >= (256 << 10) ? iterations / 4 : iterations;
      double put = per_operation(1, origin, win, bytes, n);
      double get = per_operation(0, origin, win, bytes, n);
      printf("%7d %10.2f %10.2f\n", bytes, put, get);
    }
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  free(origin_memory);
  free(window_memory);
  MPI_Finalize();
  return 0;
}
