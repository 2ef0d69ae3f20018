/* A small 3-D-FFT-like kernel that pipelines its transposes with MPI_Ialltoall, as the
 * redesigned P3DFFT forward transform of the MVAPICH2 co-design paper (its Figure 2):
 *
 *   for each variable Vj:  1-D FFTs along x; local x/y transpose; 1-D FFTs along y;
 *                          start the y/z transpose of Vj (MPI_Ialltoall);
 *                          wait for the transpose of Vj-1; 1-D FFTs along z of Vj-1.
 *
 * Each rank holds, per variable, ROWS x LEN complex doubles; the FFTs are real radix-2
 * transforms of each row, the "transpose" is a local matrix transpose followed by an alltoall
 * of ROWS*LEN/p elements per peer (the data redistribution of a pencil decomposition, not a
 * full distributed FFT). The same kernel runs blocking (MPI_Alltoall after each variable) for
 * reference; both must give bit-identical results, which is checked. Built with hmpicc
 * (Halyard; HALYARD_PROGRESS_THREAD=1 for its progress thread) and with Open MPI's mpicc.
 *
 *   mpi_fft_pipeline [--vars N] [--rows R] [--len L] [--reps K] [--label TEXT]
 * Prints: label ranks vars bytes_per_peer compute_ms alltoall_ms blocking_ms pipelined_ms
 * gain_pct, each time the best over the repetitions of the largest over ranks. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double re, im;
} cplx;

static const double kPi = 3.14159265358979323846;
static int vars = 8, rows = 512, len = 256, reps = 3;
static size_t per_var; /* complex elements per variable and rank */

/* In-place iterative radix-2 FFT of each of `count` rows of length `n` (a power of two). */
static void fft_rows(cplx* a, int count, int n) {
  for (int row = 0; row < count; ++row) {
    cplx* x = a + (size_t)row * n;
    for (int i = 1, j = 0; i < n; ++i) { /* bit reversal */
      int bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) {
        cplx t = x[i];
        x[i] = x[j];
        x[j] = t;
      }
    }
    for (int width = 2; width <= n; width <<= 1) {
      double angle = -2.0 * kPi / width;
      cplx w_step = {cos(angle), sin(angle)};
      for (int start = 0; start < n; start += width) {
        cplx w = {1.0, 0.0};
        for (int k = 0; k < width / 2; ++k) {
          cplx u = x[start + k], v = x[start + k + width / 2];
          cplx t = {v.re * w.re - v.im * w.im, v.re * w.im + v.im * w.re};
          x[start + k] = (cplx){u.re + t.re, u.im + t.im};
          x[start + k + width / 2] = (cplx){u.re - t.re, u.im - t.im};
          w = (cplx){w.re * w_step.re - w.im * w_step.im, w.re * w_step.im + w.im * w_step.re};
        }
      }
    }
  }
}

static void transpose(const cplx* in, cplx* out, int r, int c) {
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) out[(size_t)j * r + i] = in[(size_t)i * c + j];
}

static void fill(cplx* a, int var, int rank) {
  for (size_t i = 0; i < per_var; ++i) {
    a[i].re = sin(0.001 * (double)i + var + 0.1 * rank);
    a[i].im = cos(0.002 * (double)i - var);
  }
}

/* x FFTs, transpose, y FFTs: leaves the data to redistribute in `out`. */
static void before_transpose(cplx* work, cplx* out, int var, int rank) {
  fill(work, var, rank);
  fft_rows(work, rows, len);
  transpose(work, out, rows, len);
  fft_rows(out, len, rows);
}

static double max_over_ranks(double v) {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

int main(int argc, char** argv) {
  const char* label = "mpi";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--vars") == 0)
      vars = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--rows") == 0)
      rows = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--len") == 0)
      len = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--reps") == 0)
      reps = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--label") == 0)
      label = argv[i + 1];
    else {
      fprintf(stderr, "mpi_fft_pipeline: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  per_var = (size_t)rows * (size_t)len;
  if ((rows & (rows - 1)) != 0 || (len & (len - 1)) != 0 || per_var % (size_t)p != 0) {
    if (rank == 0)
      fprintf(stderr,
              "mpi_fft_pipeline: ROWS and LEN must be powers of two "
              "and ROWS*LEN a multiple of the rank count\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int block = (int)(per_var / (size_t)p * sizeof(cplx)); /* bytes per peer */
  cplx* work = malloc(per_var * sizeof(cplx));
  cplx* send = malloc((size_t)vars * per_var * sizeof(cplx));
  cplx* recv = malloc((size_t)vars * per_var * sizeof(cplx));
  cplx* reference = malloc((size_t)vars * per_var * sizeof(cplx));
  MPI_Request* req = malloc((size_t)vars * sizeof(MPI_Request));
  double best_compute = 1e30, best_comm = 1e30, best_blocking = 1e30, best_pipelined = 1e30;

  for (int rep = 0; rep < reps; ++rep) {
    /* The computation alone (no communication), then the alltoalls alone. */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int j = 0; j < vars; ++j) {
      before_transpose(work, send + j * per_var, j, rank);
      fft_rows(send + j * per_var, rows, len);
    }
    double t = max_over_ranks(MPI_Wtime() - t0);
    if (t < best_compute) best_compute = t;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int j = 0; j < vars; ++j) {
      MPI_Alltoall(send + j * per_var, block, MPI_BYTE, recv + j * per_var, block, MPI_BYTE,
                   MPI_COMM_WORLD);
    }
    t = max_over_ranks(MPI_Wtime() - t0);
    if (t < best_comm) best_comm = t;

    /* Blocking: each variable's transpose waits for its alltoall. */
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int j = 0; j < vars; ++j) {
      before_transpose(work, send + j * per_var, j, rank);
      MPI_Alltoall(send + j * per_var, block, MPI_BYTE, reference + j * per_var, block, MPI_BYTE,
                   MPI_COMM_WORLD);
      fft_rows(reference + j * per_var, rows, len);
    }
    t = max_over_ranks(MPI_Wtime() - t0);
    if (t < best_blocking) best_blocking = t;

    /* Pipelined (Figure 2): the alltoall of Vj-1 proceeds while Vj is computed. */
    memset(recv, 0, (size_t)vars * per_var * sizeof(cplx));
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int j = 0; j < vars; ++j) {
      before_transpose(work, send + j * per_var, j, rank);
      MPI_Ialltoall(send + j * per_var, block, MPI_BYTE, recv + j * per_var, block, MPI_BYTE,
                    MPI_COMM_WORLD, &req[j]);
      if (j > 0) {
        MPI_Wait(&req[j - 1], MPI_STATUS_IGNORE);
        fft_rows(recv + (j - 1) * per_var, rows, len);
      }
    }
    MPI_Wait(&req[vars - 1], MPI_STATUS_IGNORE);
    fft_rows(recv + (size_t)(vars - 1) * per_var, rows, len);
    t = max_over_ranks(MPI_Wtime() - t0);
    if (t < best_pipelined) best_pipelined = t;

    int same = memcmp(recv, reference, (size_t)vars * per_var * sizeof(cplx)) == 0, all_same = 0;
    MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_same) {
      if (rank == 0) fprintf(stderr, "mpi_fft_pipeline: pipelined result differs from blocking\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  if (rank == 0) {
    printf(
        "# label ranks vars bytes_per_peer compute_ms alltoall_ms blocking_ms pipelined_ms "
        "gain_pct\n");
    printf("%s %d %d %d %.2f %.2f %.2f %.2f %.1f\n", label, p, vars, block, best_compute * 1e3,
           best_comm * 1e3, best_blocking * 1e3, best_pipelined * 1e3,
           100.0 * (best_blocking - best_pipelined) / best_blocking);
  }
  free(work);
  free(send);
  free(recv);
  free(reference);
  free(req);
  MPI_Finalize();
  return 0;
}
