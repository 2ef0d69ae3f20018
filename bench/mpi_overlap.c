/* Overlap of non-blocking collectives with computation, in the style of the OSU
 * micro-benchmarks (osu_ialltoall, osu_iallgather). For each size (bytes per peer):
 *   pure     time of MPI_I<coll> + MPI_Wait alone;
 *   compute  time of a busy loop as long as `pure`, alone (no MPI call inside);
 *   overall  MPI_I<coll>, the same busy loop, then MPI_Wait;
 *   overlap  100 * (1 - (overall - compute) / pure), clipped to 0..100: the share of the
 *            collective hidden behind the computation.
 * Every time is the largest over ranks of each rank's average. Built twice from this one source,
 * like mpi_collectives.c: with hmpicc against Halyard's MPI shim (HALYARD_PROGRESS_THREAD=1 turns
 * its progress thread on) and with Open MPI's mpicc (libnbc, progressed only inside MPI calls).
 * --tests K spreads K MPI_Test calls over the busy loop, the manual progress an application
 * without a progress thread has to add. bench/overlap.sh runs the comparisons.
 *
 *   mpi_overlap [--coll alltoall|allgather] [--min-size B] [--max-size B] [--iters N]
 *               [--tests K] [--label TEXT]
 * Output: one line per size: label coll bytes pure_us compute_us overall_us overlap_pct */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_size_arg.h"

static int rank_, size_;

/* Busy work for `seconds`, with `tests` MPI_Test calls on `request` spread over it (0: none).
 * Returns a value so the compiler keeps the arithmetic. */
static double compute(double seconds, int tests, MPI_Request* request) {
  double x = 1.0;
  const double start = MPI_Wtime();
  int done_tests = 0;
  for (;;) {
    for (int i = 0; i < 2000; ++i) x = x * 1.0000001 + 1e-9;
    double elapsed = MPI_Wtime() - start;
    if (elapsed >= seconds) break;
    if (tests > 0 && done_tests < tests && elapsed >= seconds * done_tests / tests) {
      int flag = 0;
      MPI_Test(request, &flag, MPI_STATUS_IGNORE);
      ++done_tests;
    }
  }
  return x;
}

static void start(const char* coll, const char* send, char* recv, int bytes, MPI_Request* r) {
  if (strcmp(coll, "alltoall") == 0) {
    MPI_Ialltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD, r);
  } else {
    MPI_Iallgather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD, r);
  }
}

static double max_over_ranks(double v) {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

int main(int argc, char** argv) {
  const char* coll = "alltoall";
  const char* label = "mpi";
  size_t min_size = 1024, max_size = 4u << 20;
  int iters = 20, tests = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--coll") == 0)
      coll = argv[i + 1];
    else if (strcmp(argv[i], "--min-size") == 0)
      min_size = parse_size(argv[i + 1]);
    else if (strcmp(argv[i], "--max-size") == 0)
      max_size = parse_size(argv[i + 1]);
    else if (strcmp(argv[i], "--iters") == 0)
      iters = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--tests") == 0)
      tests = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--label") == 0)
      label = argv[i + 1];
    else {
      fprintf(stderr, "mpi_overlap: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (strcmp(coll, "alltoall") != 0 && strcmp(coll, "allgather") != 0) {
    fprintf(stderr, "mpi_overlap: --coll must be alltoall or allgather\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  const size_t p = (size_t)size_;
  char* send = malloc(max_size * p + 1);
  char* recv = malloc(max_size * p + 1);
  memset(send, rank_ + 1, max_size * p + 1);
  memset(recv, 0, max_size * p + 1);
  if (rank_ == 0) {
    printf("# label coll bytes_per_peer pure_us compute_us overall_us overlap_pct (%d ranks)\n",
           size_);
  }
  for (size_t bytes = min_size; bytes <= max_size; bytes *= 4) {
    /* Fewer iterations for large sizes keep every size within a similar time. */
    int n = iters;
    if (bytes >= (1u << 20)) n = iters / 2 > 5 ? iters / 2 : 5;
    MPI_Request r;
    start(coll, send, recv, (int)bytes, &r); /* warm-up: connections, buffers */
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    double pure = 0;
    for (int i = 0; i < n; ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      start(coll, send, recv, (int)bytes, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      pure += MPI_Wtime() - t0;
    }
    pure = max_over_ranks(pure / n);

    double cpu = 0, overall = 0, sink = 0;
    for (int i = 0; i < n; ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      sink += compute(pure, 0, NULL);
      cpu += MPI_Wtime() - t0;
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
      start(coll, send, recv, (int)bytes, &r);
      sink += compute(pure, tests, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      overall += MPI_Wtime() - t0;
    }
    cpu = max_over_ranks(cpu / n);
    overall = max_over_ranks(overall / n);
    double overlap = 100.0 * (1.0 - (overall - cpu) / pure);
    if (overlap < 0) overlap = 0;
    if (overlap > 100) overlap = 100;
    if (rank_ == 0) {
      printf("%s %s %zu %.1f %.1f %.1f %.1f\n", label, coll, bytes, pure * 1e6, cpu * 1e6,
             overall * 1e6, overlap);
      fflush(stdout);
    }
    if (sink == 42.0) printf("!\n"); /* keeps `sink` alive */
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
