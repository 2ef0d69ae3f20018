/* mpi_persistent: MPI-4 persistent collectives against the blocking ones, through Halyard's MPI
 * shim. For MPI_Allreduce (float sum) and MPI_Bcast (root 0), per size from 4 B to 4 MiB in
 * powers of 4, it times the blocking call and MPI_Start + MPI_Wait of a request made once by
 * MPI_Allreduce_init / MPI_Bcast_init, and prints both and their ratio (persistent / blocking;
 * below 1: the persistent form is faster).
 *
 *   hlaunch -n 2 build/bin/mpi_persistent_halyard [--min-size B] [--max-size B] [--scale F]
 *                                                 [--back-to-back]
 *
 * Each size is checked first (both forms, the result compared element by element), so a wrong
 * answer never yields a figure. Timing alternates the two forms over kRounds short rounds, the
 * form that goes first changing from round to round, so that the machine's drifts (a VM's
 * speed changes by tens of percent within seconds) hit both alike; each call is followed by an
 * untimed barrier, so that every call starts with the ranks together, or, with --back-to-back,
 * a round's calls follow each other (one rank then waits less, since the other runs ahead). A
 * round's figure per form is the slowest rank's average call time; the table shows each form's
 * median over the rounds and the median of the rounds' ratios, with the quartiles of those ratios.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_size_arg.h"

enum { kRounds = 21 };

static int iterations_for(size_t size, double scale) {
  int base = size <= (16u << 10) ? 200 : size <= (256u << 10) ? 40 : 10;
  int n = (int)(base * scale);
  return n < 2 ? 2 : n;
}

/* One call of either form: the blocking call, or MPI_Start + MPI_Wait of `persistent`. */
static void run_once(int allreduce, MPI_Request* persistent, float* send, float* recv, int count) {
  if (persistent != NULL) {
    MPI_Start(persistent);
    MPI_Wait(persistent, MPI_STATUS_IGNORE);
  } else if (allreduce) {
    MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(send, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
  }
}

/* Both forms give the right answer for this size; returns the number of wrong elements. */
static long verify(int allreduce, MPI_Request* persistent, float* send, float* recv, int count,
                   int rank, int size) {
  long wrong = 0;
  for (int form = 0; form < 2; ++form) {
    for (int i = 0; i < count; ++i) {
      send[i] = allreduce || rank == 0 ? (float)(rank + 1 + i % 7) : -1.0f;
      recv[i] = -1.0f;
    }
    run_once(allreduce, form == 0 ? NULL : persistent, send, recv, count);
    for (int i = 0; i < count; ++i) {
      float want = allreduce ? (float)(size * (size + 1) / 2 + size * (i % 7)) : (float)(1 + i % 7);
      wrong += (allreduce ? recv[i] : send[i]) != want;
    }
  }
  return wrong;
}

static int back_to_back = 0;

static double time_calls(int allreduce, MPI_Request* persistent, float* send, float* recv,
                         int count, int iterations) {
  if (back_to_back) {
    double start = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) run_once(allreduce, persistent, send, recv, count);
    double total = MPI_Wtime() - start;
    MPI_Barrier(MPI_COMM_WORLD);
    return total;
  }
  double total = 0.0;
  for (int i = 0; i < iterations; ++i) {
    double start = MPI_Wtime();
    run_once(allreduce, persistent, send, recv, count);
    total += MPI_Wtime() - start;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  return total;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* The value at quantile q (0.25, 0.5, 0.75) of n values (sorted in place). */
static double quantile(double* values, int n, double q) {
  qsort(values, (size_t)n, sizeof *values, by_value);
  return values[(int)(q * (n - 1) + 0.5)];
}

int main(int argc, char** argv) {
  size_t min_size = 4, max_size = 4u << 20;
  double scale = 1.0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--back-to-back") == 0) back_to_back = 1;
    if (i + 1 == argc) break;
    if (strcmp(argv[i], "--min-size") == 0)
      min_size = parse_size(argv[++i]);
    else if (strcmp(argv[i], "--max-size") == 0)
      max_size = parse_size(argv[++i]);
    else if (strcmp(argv[i], "--scale") == 0)
      scale = atof(argv[++i]);
  }
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  float* send = malloc(max_size + sizeof(float));
  float* recv = malloc(max_size + sizeof(float));
  int failed = 0;
  if (rank == 0) {
    printf("# persistent (MPI_*_init + MPI_Start/MPI_Wait) vs blocking, %d ranks; us per call%s\n",
           size, back_to_back ? " (back to back)" : "");
    printf("%-10s %10s %12s %12s %8s  %s\n", "call", "size(B)", "blocking", "persistent", "ratio",
           "(quartiles)");
  }
  for (int allreduce = 1; allreduce >= 0; --allreduce) {
    for (size_t bytes = min_size; bytes <= max_size; bytes *= 4) {
      int count = (int)(bytes / sizeof(float));
      MPI_Request persistent;
      if (allreduce)
        MPI_Allreduce_init(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &persistent);
      else
        MPI_Bcast_init(send, count, MPI_FLOAT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent);
      long wrong = verify(allreduce, &persistent, send, recv, count, rank, size);
      long wrong_anywhere = 0;
      MPI_Allreduce(&wrong, &wrong_anywhere, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      if (wrong_anywhere != 0) {
        if (rank == 0) fprintf(stderr, "wrong result at %zu bytes\n", bytes);
        failed = 1;
        MPI_Request_free(&persistent);
        break;
      }
      int iterations = iterations_for(bytes, scale);
      double rounds[2][kRounds], ratios[kRounds];   /* [blocking, persistent][round], us */
      run_once(allreduce, NULL, send, recv, count); /* warm-up */
      run_once(allreduce, &persistent, send, recv, count);
      for (int round = 0; round < kRounds; ++round) {
        double mine[2], slowest[2];
        for (int k = 0; k < 2; ++k) {
          int form = (round + k) % 2; /* odd rounds: persistent first */
          mine[form] =
              time_calls(allreduce, form ? &persistent : NULL, send, recv, count, iterations) *
              1e6 / iterations;
        }
        MPI_Reduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        rounds[0][round] = slowest[0];
        rounds[1][round] = slowest[1];
        ratios[round] = slowest[1] / slowest[0];
      }
      if (rank == 0) {
        double ratio = quantile(ratios, kRounds, 0.5);
        printf("%-10s %10zu %12.2f %12.2f %8.2f  (%.2f-%.2f)\n", allreduce ? "allreduce" : "bcast",
               bytes, quantile(rounds[0], kRounds, 0.5), quantile(rounds[1], kRounds, 0.5), ratio,
               quantile(ratios, kRounds, 0.25), quantile(ratios, kRounds, 0.75));
        fflush(stdout);
      }
      MPI_Request_free(&persistent);
    }
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return failed;
}
