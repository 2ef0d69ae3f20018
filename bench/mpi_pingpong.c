/* mpi_pingpong: the Open MPI counterpart of halyard_bench_p2p, for comparison only (nothing in
 * Halyard links MPI). Same sizes, schedule, trials and table; see bench/p2p_pingpong.cpp.
 *
 *   mpirun -n 2 build/bin/mpi_pingpong [--max-size BYTES] [--trials N] [--scale F]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_size_arg.h"

static int iterations_for(size_t size, double scale) {
  int base = size < (16u << 10) ? 1000 : size < (1u << 20) ? 200 : size < (16u << 20) ? 30 : 10;
  int n = (int)(base * scale);
  return n < 1 ? 1 : n;
}
static int warmup_for(size_t size) {
  return size < (16u << 10) ? 100 : size < (1u << 20) ? 20 : 2;
}
static uint8_t pattern_byte(size_t i, size_t size) {
  return (uint8_t)((i * 7 + size) & 0xff);
}

/* MPI counts are ints: sizes up to 64 MiB fit. */
static void ping_pong(int rank, uint8_t* buffer, size_t size, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    if (rank == 0) {
      MPI_Send(buffer, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buffer, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char** argv) {
  size_t max_size = (size_t)64 << 20;
  int trials = 3;
  double scale = 1.0;
  MPI_Init(&argc, &argv);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--max-size") == 0)
      max_size = parse_size(argv[i + 1]);
    else if (strcmp(argv[i], "--trials") == 0)
      trials = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--scale") == 0)
      scale = atof(argv[i + 1]);
  }
  if (trials < 1) trials = 1;
  int rank = 0, size_of_world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size_of_world);
  if (size_of_world < 2) {
    fprintf(stderr, "mpi_pingpong: needs 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  uint8_t* buffer = malloc(max_size);
  if (rank == 0) {
    printf("# open mpi p2p ping-pong, 2 ranks, best of %d trials\n", trials);
    printf("%12s %14s %16s\n", "# size(B)", "latency(us)", "bandwidth(MB/s)");
  }
  for (size_t size = 1; size <= max_size; size *= 2) {
    if (rank < 2) {
      for (size_t i = 0; i < size; ++i) buffer[i] = rank == 0 ? pattern_byte(i, size) : 0;
      if (rank == 0) {
        MPI_Send(buffer, (int)size, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
      } else {
        MPI_Recv(buffer, (int)size, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (size_t i = 0; i < size; ++i) {
          if (buffer[i] != pattern_byte(i, size)) {
            fprintf(stderr, "mpi_pingpong: byte %zu of a %zu-byte message is wrong\n", i, size);
            MPI_Abort(MPI_COMM_WORLD, 1);
          }
        }
      }
      int rounds = iterations_for(size, scale);
      double best = 1e30;
      for (int trial = 0; trial < trials; ++trial) {
        ping_pong(rank, buffer, size, warmup_for(size));
        double start = MPI_Wtime();
        ping_pong(rank, buffer, size, rounds);
        double one_way = (MPI_Wtime() - start) / rounds / 2;
        if (one_way < best) best = one_way;
      }
      if (rank == 0) {
        printf("%12zu %14.3f %16.2f\n", size, best * 1e6, (double)size / best / 1e6);
        fflush(stdout);
      }
    }
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
