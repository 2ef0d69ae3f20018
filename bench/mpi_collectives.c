/* mpi_collectives: OSU-style latency of MPI_Bcast, MPI_Reduce and MPI_Allreduce per message
 * size. One source, built twice: with hmpicc (Halyard's MPI shim) and, for comparison only,
 * with Open MPI's mpicc. bench/compare.sh runs both side by side.
 *
 *   hlaunch -n 2 build/bin/mpi_collectives_halyard [--min-size B] [--max-size B] [--scale F]
 *                                                  [--only bcast|reduce|allreduce]
 *
 * Like the OSU micro-benchmarks: per size, some untimed warm-up calls, then timed calls each
 * followed by an (untimed) barrier so that one call's skew does not hide inside the next;
 * every rank averages its own call times, and the table shows the average, minimum and
 * maximum of those per-rank averages. Reductions sum floats; a size is the bytes per rank.
 * Before timing, each size is run once and its result checked, so a wrong answer never
 * produces a figure.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_size_arg.h"

enum collective { BCAST, REDUCE, ALLREDUCE };
static const char* const kNames[] = {"MPI_Bcast", "MPI_Reduce", "MPI_Allreduce"};
static const char* const kOptionNames[] = {"bcast", "reduce", "allreduce"};

static int iterations_for(size_t size, double scale) {
  int base = size <= (16u << 10) ? 1000 : size <= (256u << 10) ? 200 : size <= (2u << 20) ? 50 : 20;
  int n = (int)(base * scale);
  return n < 2 ? 2 : n;
}

static void run_once(enum collective which, float* send, float* recv, int count) {
  switch (which) {
    case BCAST:
      MPI_Bcast(send, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
    case REDUCE:
      MPI_Reduce(send, recv, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
      break;
    case ALLREDUCE:
      MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      break;
  }
}

/* One untimed call whose result is checked: rank r contributes r + 1 (bcast: root's 7). */
static void verify(enum collective which, float* send, float* recv, int count, int rank, int size) {
  for (int i = 0; i < count; ++i) {
    send[i] = which == BCAST ? (rank == 0 ? 7.0f : 0.0f) : (float)(rank + 1);
    recv[i] = -1.0f;
  }
  run_once(which, send, recv, count);
  float want = which == BCAST ? 7.0f : (float)size * (float)(size + 1) / 2.0f;
  const float* got = which == BCAST ? send : recv;
  if (which == REDUCE && rank != 0) return;
  for (int i = 0; i < count; ++i) {
    if (got[i] != want) {
      fprintf(stderr, "mpi_collectives: %s of %d floats: element %d is %g, expected %g\n",
              kNames[which], count, i, (double)got[i], (double)want);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

static void measure(enum collective which, size_t min_size, size_t max_size, double scale, int rank,
                    int size) {
  float* send = malloc(max_size + sizeof(float));
  float* recv = malloc(max_size + sizeof(float));
  if (rank == 0) {
    printf("# %s latency, %d ranks\n", kNames[which], size);
    printf("%-12s %14s %14s %14s\n", "# size(B)", "avg(us)", "min(us)", "max(us)");
  }
  for (size_t bytes = min_size; bytes <= max_size; bytes *= 4) {
    int count = (int)(bytes / sizeof(float));
    verify(which, send, recv, count, rank, size);
    int iterations = iterations_for(bytes, scale);
    for (int i = 0; i < iterations / 10 + 1; ++i) run_once(which, send, recv, count);
    MPI_Barrier(MPI_COMM_WORLD);
    double total = 0.0;
    for (int i = 0; i < iterations; ++i) {
      double start = MPI_Wtime();
      run_once(which, send, recv, count);
      total += MPI_Wtime() - start;
      MPI_Barrier(MPI_COMM_WORLD);
    }
    double mine = total / iterations * 1e6, sum = 0.0, least = 0.0, most = 0.0;
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &least, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      printf("%-12zu %14.2f %14.2f %14.2f\n", bytes, sum / size, least, most);
      fflush(stdout);
    }
  }
  free(send);
  free(recv);
}

int main(int argc, char** argv) {
  size_t min_size = 4, max_size = (size_t)16 << 20;
  double scale = 1.0;
  int only = -1;
  MPI_Init(&argc, &argv);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--min-size") == 0) {
      min_size = parse_size(argv[i + 1]);
    } else if (strcmp(argv[i], "--max-size") == 0) {
      max_size = parse_size(argv[i + 1]);
    } else if (strcmp(argv[i], "--scale") == 0) {
      scale = atof(argv[i + 1]);
    } else if (strcmp(argv[i], "--only") == 0) {
      for (int c = 0; c < 3; ++c) {
        if (strcmp(argv[i + 1], kOptionNames[c]) == 0) only = c;
      }
    }
  }
  if (min_size < sizeof(float)) min_size = sizeof(float);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int c = 0; c < 3; ++c) {
    if (only < 0 || only == c) measure((enum collective)c, min_size, max_size, scale, rank, size);
  }
  MPI_Finalize();
  return 0;
}
