/* mpi_collectives: OSU-style latency of MPI_Bcast, MPI_Reduce and MPI_Allreduce per message
 * size, and of MPI_Barrier (one row, size 0); on request (--only) also MPI_Allgather,
 * MPI_Gather, MPI_Scatter, MPI_Reduce_scatter_block, MPI_Alltoall and MPI_Alltoallv. One source,
 * built with hmpicc (Halyard's MPI shim) and, for comparison only, with Open MPI's mpicc and
 * MPICH's mpicc.mpich. bench/compare.sh runs them side by side.
 *
 *   hlaunch -n 2 build/bin/mpi_collectives_halyard [--min-size B] [--max-size B] [--scale F]
 *                                                  [--only COLL[,COLL...]]
 *
 * COLL: bcast, reduce, allreduce, barrier (the default: these four), allgather, gather,
 * scatter, reduce_scatter_block, alltoall, alltoallv (equal blocks, as OSU's osu_alltoallv).
 *
 * Like the OSU micro-benchmarks: per size, some untimed warm-up calls, then timed calls each
 * followed by an (untimed) barrier so that one call's skew does not hide inside the next;
 * every rank averages its own call times, and the table shows the average, minimum and
 * maximum of those per-rank averages. Reductions sum floats; a size is the bytes per rank (one
 * block of the gather family and of alltoall(v); reduce_scatter_block's result block). Roots are
 * rank 0.
 * Before timing, each size is run once and its result checked, so a wrong answer never
 * produces a figure (a barrier carries no data: what is checked is that no rank leaves it early).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_size_arg.h"

enum collective {
  BCAST,
  REDUCE,
  ALLREDUCE,
  BARRIER,
  ALLGATHER,
  GATHER,
  SCATTER,
  REDUCE_SCATTER,
  ALLTOALL,
  ALLTOALLV
};
static const char* const kNames[] = {
    "MPI_Bcast",     "MPI_Reduce",   "MPI_Allreduce", "MPI_Barrier",
    "MPI_Allgather", "MPI_Gather",   "MPI_Scatter",   "MPI_Reduce_scatter_block",
    "MPI_Alltoall",  "MPI_Alltoallv"};
static const char* const kOptionNames[] = {
    "bcast",     "reduce",   "allreduce", "barrier",
    "allgather", "gather",   "scatter",   "reduce_scatter_block",
    "alltoall",  "alltoallv"};
static const int kCollectives = (int)(sizeof kNames / sizeof kNames[0]);
static const int kDefaultCollectives = 4; /* bcast .. barrier */

static int iterations_for(size_t size, double scale) {
  int base = size <= (16u << 10) ? 1000 : size <= (256u << 10) ? 200 : size <= (2u << 20) ? 50 : 20;
  int n = (int)(base * scale);
  return n < 2 ? 2 : n;
}

/* Alltoallv's counts and displacements: `count` floats per block, blocks one after the other
 * (alltoall's layout, as OSU's osu_alltoallv uses), set up outside the timed call. */
static int* g_counts;
static int* g_displacements;
static int g_blocks_count = -1;
static void set_blocks(int count, int size) {
  if (count == g_blocks_count) return;
  if (g_counts == NULL) {
    g_counts = malloc((size_t)size * sizeof(int));
    g_displacements = malloc((size_t)size * sizeof(int));
  }
  for (int r = 0; r < size; ++r) {
    g_counts[r] = count;
    g_displacements[r] = r * count;
  }
  g_blocks_count = count;
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
    case BARRIER:
      MPI_Barrier(MPI_COMM_WORLD);
      break;
    case ALLGATHER:
      MPI_Allgather(send, count, MPI_FLOAT, recv, count, MPI_FLOAT, MPI_COMM_WORLD);
      break;
    case GATHER:
      MPI_Gather(send, count, MPI_FLOAT, recv, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
    case SCATTER:
      MPI_Scatter(send, count, MPI_FLOAT, recv, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
    case REDUCE_SCATTER:
      MPI_Reduce_scatter_block(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      break;
    case ALLTOALL:
      MPI_Alltoall(send, count, MPI_FLOAT, recv, count, MPI_FLOAT, MPI_COMM_WORLD);
      break;
    case ALLTOALLV:
      MPI_Alltoallv(send, g_counts, g_displacements, MPI_FLOAT, recv, g_counts, g_displacements,
                    MPI_FLOAT, MPI_COMM_WORLD);
      break;
  }
}

/* Floats in each buffer for `count` floats per rank: the gather family's whole vector on one
 * side. */
static size_t send_floats(enum collective which, int count, int size) {
  return (size_t)count *
         (which == SCATTER || which == REDUCE_SCATTER || which >= ALLTOALL ? (size_t)size : 1);
}
static size_t recv_floats(enum collective which, int count, int size) {
  return (size_t)count *
         (which == ALLGATHER || which == GATHER || which >= ALLTOALL ? (size_t)size : 1);
}

/* What a barrier promises: no rank leaves it before every rank has entered. Rank 0 enters last,
 * 10 ms late, and meanwhile watches for the empty message each other rank sends it on leaving;
 * one that arrives before rank 0 entered came from a rank that left too early. */
static void verify_barrier(int rank, int size) {
  const int tag = 4242;
  if (size == 1) return;
  if (rank != 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(NULL, 0, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
    return;
  }
  MPI_Request first;
  MPI_Status status;
  int arrived = 0;
  MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &first);
  for (double start = MPI_Wtime(); !arrived && MPI_Wtime() - start < 0.01;) {
    MPI_Test(&first, &arrived, &status);
  }
  if (arrived) {
    fprintf(stderr, "mpi_collectives: rank %d left MPI_Barrier before rank 0 entered it\n",
            status.MPI_SOURCE);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Wait(&first, MPI_STATUS_IGNORE);
  for (int i = 2; i < size; ++i) {
    MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

/* One untimed call whose result is checked: rank r contributes r + 1 (bcast: root's 7; scatter:
 * the root's block r holds r + 1; the gathers' block r holds r + 1; alltoall(v): rank r's block
 * j holds r * size + j + 1). */
static void verify(enum collective which, float* send, float* recv, int count, int rank, int size) {
  if (which == BARRIER) {
    verify_barrier(rank, size);
    return;
  }
  size_t sends = send_floats(which, count, size), recvs = recv_floats(which, count, size);
  for (size_t i = 0; i < sends; ++i) {
    send[i] = which == BCAST      ? (rank == 0 ? 7.0f : 0.0f)
              : which == SCATTER  ? (float)(i / (size_t)count + 1)
              : which >= ALLTOALL ? (float)((size_t)rank * (size_t)size + i / (size_t)count + 1)
                                  : (float)(rank + 1);
  }
  for (size_t i = 0; i < recvs; ++i) recv[i] = -1.0f;
  run_once(which, send, recv, count);
  if ((which == REDUCE || which == GATHER) && rank != 0) return;
  const float* got = which == BCAST ? send : recv;
  size_t n = which == BCAST ? (size_t)count : recvs;
  for (size_t i = 0; i < n; ++i) {
    float want = which == BCAST                          ? 7.0f
                 : which == ALLGATHER || which == GATHER ? (float)(i / (size_t)count + 1)
                 : which == SCATTER                      ? (float)(rank + 1)
                 : which >= ALLTOALL ? (float)(i / (size_t)count * (size_t)size + (size_t)rank + 1)
                                     : (float)size * (float)(size + 1) / 2.0f;
    if (got[i] != want) {
      fprintf(stderr, "mpi_collectives: %s of %d floats: element %zu is %g, expected %g\n",
              kNames[which], count, i, (double)got[i], (double)want);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

/* One row of the table: `bytes` per rank, checked once, then timed. */
static void measure_size(enum collective which, float* send, float* recv, size_t bytes,
                         double scale, int rank, int size) {
  int count = (int)(bytes / sizeof(float));
  set_blocks(count, size);
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

/* The table of one collective: every size from min_size to max_size by factors of 4; a barrier,
 * which moves no data, has the one row of size 0. */
static void measure(enum collective which, size_t min_size, size_t max_size, double scale, int rank,
                    int size) {
  int max_count = (int)(max_size / sizeof(float));
  float* send = malloc((send_floats(which, max_count, size) + 1) * sizeof(float));
  float* recv = malloc((recv_floats(which, max_count, size) + 1) * sizeof(float));
  if (rank == 0) {
    printf("# %s latency, %d ranks\n", kNames[which], size);
    printf("%-12s %14s %14s %14s\n", "# size(B)", "avg(us)", "min(us)", "max(us)");
  }
  if (which == BARRIER) {
    measure_size(which, send, recv, 0, scale, rank, size);
  } else {
    for (size_t bytes = min_size; bytes <= max_size; bytes *= 4) {
      measure_size(which, send, recv, bytes, scale, rank, size);
    }
  }
  free(send);
  free(recv);
}

int main(int argc, char** argv) {
  size_t min_size = 4, max_size = (size_t)16 << 20;
  double scale = 1.0;
  int wanted[sizeof kNames / sizeof kNames[0]] = {0};
  int any_wanted = 0;
  MPI_Init(&argc, &argv);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--min-size") == 0) {
      min_size = parse_size(argv[i + 1]);
    } else if (strcmp(argv[i], "--max-size") == 0) {
      max_size = parse_size(argv[i + 1]);
    } else if (strcmp(argv[i], "--scale") == 0) {
      scale = atof(argv[i + 1]);
    } else if (strcmp(argv[i], "--only") == 0) {
      for (char* name = strtok(argv[i + 1], ","); name != NULL; name = strtok(NULL, ",")) {
        int found = 0;
        for (int c = 0; c < kCollectives; ++c) {
          if (strcmp(name, kOptionNames[c]) == 0) found = wanted[c] = any_wanted = 1;
        }
        if (!found) {
          fprintf(stderr, "mpi_collectives: --only %s: not a collective this program measures\n",
                  name);
          MPI_Abort(MPI_COMM_WORLD, 2);
        }
      }
    }
  }
  if (min_size < sizeof(float)) min_size = sizeof(float);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int c = 0; c < kCollectives; ++c) {
    if (any_wanted ? wanted[c] : c < kDefaultCollectives) {
      measure((enum collective)c, min_size, max_size, scale, rank, size);
    }
  }
  MPI_Finalize();
  return 0;
}
