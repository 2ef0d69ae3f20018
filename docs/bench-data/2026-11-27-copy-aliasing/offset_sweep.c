/* How a collective's time depends on where the user's buffers lie within a page: every rank
 * places its receive buffer (bcast: its buffer) at offset 0, 8, ..., 4088 from a page, the send
 * buffer at +0, and times 40 calls per offset (after 5 warm-up calls). Prints, per collective,
 * the fastest, median and slowest offsets' average call time and the offsets slower than twice
 * the median: a copy whose destination lies 1-31 bytes after its source modulo 4 KiB runs 5-10x
 * slower on some CPUs (rep movsb), so such offsets show up here.
 *   mpirun -n 2 ./offset_sweep */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096
#define STEP 8
#define OFFSETS (PAGE / STEP)
#define CALLS 40

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void sweep(const char *name, int kind, int bytes, char *send, char *recv_page) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double times[OFFSETS], sorted[OFFSETS];
  for (int o = 0; o < OFFSETS; ++o) {
    char *recv = recv_page + o * STEP;
    double start = 0;
    for (int i = 0; i < CALLS + 5; ++i) {
      if (i == 5) {
        MPI_Barrier(MPI_COMM_WORLD);
        start = MPI_Wtime();
      }
      if (kind == 0) {
        MPI_Bcast(rank == 0 ? send : recv, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
      } else if (kind == 1) {
        MPI_Allgather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD);
      } else {
        MPI_Allreduce(send, recv, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      }
    }
    double t = (MPI_Wtime() - start) * 1e6 / CALLS, worst;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    times[o] = sorted[o] = worst;
  }
  if (rank != 0) return;
  qsort(sorted, OFFSETS, sizeof *sorted, compare);
  double median = sorted[OFFSETS / 2];
  int slow = 0;
  printf("%-10s %7d B: fastest %8.2f us, median %8.2f, slowest %8.2f; offsets over 2x the median:",
         name, bytes, sorted[0], median, sorted[OFFSETS - 1]);
  for (int o = 0; o < OFFSETS; ++o) {
    if (times[o] > 2 * median) {
      if (slow < 12) printf(" %d", o * STEP);
      ++slow;
    }
  }
  printf(" (%d of %d)\n", slow, OFFSETS);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int max_bytes = 64 * 1024;
  char *send, *recv_page;
  if (posix_memalign((void **)&send, PAGE, (size_t)max_bytes * size) != 0 ||
      posix_memalign((void **)&recv_page, PAGE, (size_t)max_bytes * size + 2 * PAGE) != 0) {
    return 1;
  }
  memset(send, 1, (size_t)max_bytes * size);
  memset(recv_page, 0, (size_t)max_bytes * size + 2 * PAGE);
  sweep("bcast", 0, 8 * 1024, send, recv_page);
  sweep("allgather", 1, 32 * 1024, send, recv_page);
  sweep("allreduce", 2, 64 * 1024, send, recv_page);
  free(send);
  free(recv_page);
  MPI_Finalize();
  return 0;
}
