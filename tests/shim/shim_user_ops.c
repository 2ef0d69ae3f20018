/* User-defined reductions and MAXLOC / MINLOC, checked element by element against results
 * computed locally from what every rank contributed:
 * - a non-commutative op (the product of 2x2 affine matrices [[a, b], [0, 1]], one per MPI_2INT)
 *   and the projections "first" / "last" on MPI_INT, through MPI_Reduce at every root,
 *   MPI_Allreduce, MPI_Ireduce and MPI_Iallreduce, in place and not, and through MPI_Scan,
 *   MPI_Exscan, MPI_Reduce_scatter_block and MPI_Reduce_scatter (uneven counts, one rank's
 *   empty), on the world and on a communicator whose rank order is the world's reversed: the
 *   result must be the product in rank order;
 * - a commutative user op, MPI_Op_commutative, MPI_Op_free (also while a request that uses
 *   the op is pending);
 * - MPI_MAXLOC / MPI_MINLOC on every pair type, with ties (the lower index wins);
 * - MPI_ERR_OP for null, freed and unknown ops and for ops the datatype does not take.
 *
 *   shim_user_ops             every check above
 *   shim_user_ops refused     run with HALYARD_ALLREDUCE_ALG=base:ring: a non-commutative op
 *                             is refused with MPI_ERR_ARG, a commutative one runs
 * (also run under HALYARD_CHECK=1, with ranks whose runtimes number the same op differently)
 */
#include <mpi.h>
#include <string.h>

#include "shim_check.h"

enum { N = 5 };

typedef struct {
  int a, b;
} Affine; /* the matrix [[a, b], [0, 1]], laid out as MPI_2INT */

static Affine affine_of(int rank, int i) {
  Affine m = {(rank + i) % 3 + 1, 7 * rank + i + 1};
  return m;
}

/* left x right */
static Affine affine_product(Affine left, Affine right) {
  Affine m = {left.a * right.a, left.a * right.b + left.b};
  return m;
}

static int product_calls = 0;
static MPI_Datatype product_type_seen = MPI_DATATYPE_NULL;

static void affine_product_fn(void* invec, void* inoutvec, int* len, MPI_Datatype* datatype) {
  const Affine* in = invec;
  Affine* inout = inoutvec;
  for (int i = 0; i < *len; ++i) inout[i] = affine_product(in[i], inout[i]);
  ++product_calls;
  product_type_seen = *datatype;
}

static void first_fn(void* invec, void* inoutvec, int* len, MPI_Datatype* datatype) {
  (void)datatype;
  memcpy(inoutvec, invec, (size_t)*len * sizeof(int));
}

static void last_fn(void* invec, void* inoutvec, int* len, MPI_Datatype* datatype) {
  (void)invec, (void)inoutvec, (void)len, (void)datatype; /* inout already holds the right one */
}

static void int_sum_fn(void* invec, void* inoutvec, int* len, MPI_Datatype* datatype) {
  (void)datatype;
  for (int i = 0; i < *len; ++i) ((int*)inoutvec)[i] += ((const int*)invec)[i];
}

/* Element i of the rank-order product over ranks first .. last - 1 of a communicator whose
 * rank r is world rank world_of[r]. */
static Affine product_over(const int* world_of, int first, int last, int i) {
  Affine m = affine_of(world_of[first], i);
  for (int r = first + 1; r < last; ++r) m = affine_product(m, affine_of(world_of[r], i));
  return m;
}

/* The rank-order product over all of `comm`. */
static void expected_product(const int* world_of, int size, Affine* want) {
  for (int i = 0; i < N; ++i) want[i] = product_over(world_of, 0, size, i);
}

static int affine_equal(const Affine* got, const Affine* want, int n) {
  for (int i = 0; i < n; ++i) {
    if (got[i].a != want[i].a || got[i].b != want[i].b) return 0;
  }
  return 1;
}

/* The scans and the reduce-scatters with a non-commutative op: every partial product in rank
 * order, blocking and not, in place and not. */
static void check_prefixes_and_scatters(MPI_Comm comm, MPI_Op product, const int* world_of,
                                        int world_rank) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Affine mine[N], got[N], want[N];
  for (int i = 0; i < N; ++i) mine[i] = affine_of(world_rank, i);

  for (int i = 0; i < N; ++i) want[i] = product_over(world_of, 0, rank + 1, i);
  CHECK_MPI(MPI_Scan(mine, got, N, MPI_2INT, product, comm));
  CHECK(affine_equal(got, want, N));
  memcpy(got, mine, sizeof got);
  CHECK_MPI(MPI_Scan(MPI_IN_PLACE, got, N, MPI_2INT, product, comm));
  CHECK(affine_equal(got, want, N));

  const Affine untouched = {-1, -1};
  for (int i = 0; i < N; ++i) {
    got[i] = untouched;
    want[i] = rank == 0 ? untouched : product_over(world_of, 0, rank, i);
  }
  MPI_Request request;
  CHECK_MPI(MPI_Iexscan(mine, got, N, MPI_2INT, product, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(affine_equal(got, want, N)); /* rank 0's recvbuf stays as it was */

  /* Reduce-scatter: rank r's block is r % 3 elements (rank 0's empty), its elements numbered
   * after the blocks before it; the block variant gives every rank 2. */
  enum { kMaxRanks = 64 };
  int counts[kMaxRanks], first[kMaxRanks + 1];
  first[0] = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = r % 3;
    first[r + 1] = first[r] + counts[r];
  }
  Affine input[3 * kMaxRanks], block[3], block_want[3];
  for (int i = 0; i < first[size]; ++i) input[i] = affine_of(world_rank, i);
  for (int i = 0; i < counts[rank]; ++i)
    block_want[i] = product_over(world_of, 0, size, first[rank] + i);
  CHECK_MPI(MPI_Reduce_scatter(input, block, counts, MPI_2INT, product, comm));
  CHECK(affine_equal(block, block_want, counts[rank]));
  CHECK_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, input, counts, MPI_2INT, product, comm));
  CHECK(affine_equal(input, block_want, counts[rank]));

  for (int i = 0; i < 2 * size; ++i) input[i] = affine_of(world_rank, i);
  for (int i = 0; i < 2; ++i) block_want[i] = product_over(world_of, 0, size, 2 * rank + i);
  CHECK_MPI(MPI_Ireduce_scatter_block(input, block, 2, MPI_2INT, product, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(affine_equal(block, block_want, 2));
}

static void check_non_commutative(MPI_Comm comm, const int* world_of, int world_rank) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Op product, first, last;
  CHECK_MPI(MPI_Op_create(affine_product_fn, 0, &product));
  CHECK_MPI(MPI_Op_create(first_fn, 0, &first));
  CHECK_MPI(MPI_Op_create(last_fn, 0, &last));
  int commute = -1;
  CHECK_MPI(MPI_Op_commutative(product, &commute));
  CHECK(commute == 0);

  Affine mine[N], got[N], want[N];
  for (int i = 0; i < N; ++i) mine[i] = affine_of(world_rank, i);
  expected_product(world_of, size, want);

  product_calls = 0;
  CHECK_MPI(MPI_Allreduce(mine, got, N, MPI_2INT, product, comm));
  CHECK(affine_equal(got, want, N));
  /* The function sees the datatype the call passed (ranks that only send never call it). */
  CHECK(product_calls == 0 || product_type_seen == MPI_2INT);

  memcpy(got, mine, sizeof got);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, got, N, MPI_2INT, product, comm));
  CHECK(affine_equal(got, want, N));

  for (int root = 0; root < size; ++root) {
    memset(got, 0, sizeof got);
    CHECK_MPI(MPI_Reduce(mine, got, N, MPI_2INT, product, root, comm));
    if (rank == root) CHECK(affine_equal(got, want, N));
    if (rank == root) memcpy(got, mine, sizeof got);
    CHECK_MPI(
        MPI_Reduce(rank == root ? MPI_IN_PLACE : mine, got, N, MPI_2INT, product, root, comm));
    if (rank == root) CHECK(affine_equal(got, want, N));
  }

  MPI_Request requests[2];
  Affine reduced[N];
  memset(got, 0, sizeof got);
  memset(reduced, 0, sizeof reduced);
  CHECK_MPI(MPI_Iallreduce(mine, got, N, MPI_2INT, product, comm, &requests[0]));
  CHECK_MPI(MPI_Ireduce(mine, reduced, N, MPI_2INT, product, size - 1, comm, &requests[1]));
  CHECK_MPI(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE));
  CHECK(affine_equal(got, want, N));
  if (rank == size - 1) CHECK(affine_equal(reduced, want, N));

  check_prefixes_and_scatters(comm, product, world_of, world_rank);

  /* first / last: rank 0's and rank size-1's values, at every root. */
  int values[N], out[N], first_want[N], last_want[N];
  for (int i = 0; i < N; ++i) {
    values[i] = 100 * world_rank + i;
    first_want[i] = 100 * world_of[0] + i;
    last_want[i] = 100 * world_of[size - 1] + i;
  }
  CHECK_MPI(MPI_Allreduce(values, out, N, MPI_INT, first, comm));
  CHECK_ARRAY("allreduce first", out, first_want, N);
  CHECK_MPI(MPI_Allreduce(values, out, N, MPI_INT, last, comm));
  CHECK_ARRAY("allreduce last", out, last_want, N);
  for (int root = 0; root < size; ++root) {
    CHECK_MPI(MPI_Reduce(values, out, N, MPI_INT, first, root, comm));
    if (rank == root) CHECK_ARRAY("reduce first", out, first_want, N);
    CHECK_MPI(MPI_Reduce(values, out, N, MPI_INT, last, root, comm));
    if (rank == root) CHECK_ARRAY("reduce last", out, last_want, N);
  }

  CHECK_MPI(MPI_Op_free(&product));
  CHECK(product == MPI_OP_NULL);
  CHECK_MPI(MPI_Op_free(&first));
  CHECK_MPI(MPI_Op_free(&last));
}

static void check_commutative_and_free(int size) {
  MPI_Op sum;
  CHECK_MPI(MPI_Op_create(int_sum_fn, 1, &sum));
  int commute = -1;
  CHECK_MPI(MPI_Op_commutative(sum, &commute));
  CHECK(commute == 1);
  CHECK_MPI(MPI_Op_commutative(MPI_MAXLOC, &commute));
  CHECK(commute == 1);

  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  enum { M = 1000 };
  static int mine[M], got[M], want[M];
  for (int i = 0; i < M; ++i) {
    mine[i] = rank * i + 1;
    want[i] = i * size * (size - 1) / 2 + size;
  }
  CHECK_MPI(MPI_Allreduce(mine, got, M, MPI_INT, sum, MPI_COMM_WORLD));
  CHECK_ARRAY("commutative user allreduce", got, want, M);
  CHECK_MPI(MPI_Reduce(mine, got, M, MPI_INT, sum, size / 2, MPI_COMM_WORLD));
  if (rank == size / 2) CHECK_ARRAY("commutative user reduce", got, want, M);
  /* A commutative op may take the ring reduce-scatter, which reduces block by block. */
  enum { B = 7 };
  CHECK(B * size <= M);
  CHECK_MPI(MPI_Reduce_scatter_block(mine, got, B, MPI_INT, sum, MPI_COMM_WORLD));
  CHECK_ARRAY("commutative user reduce_scatter_block", got, want + B * rank, B);

  /* Freed while a request that uses it is pending: the request still completes right. */
  MPI_Request request;
  memset(got, 0, sizeof got);
  CHECK_MPI(MPI_Iallreduce(mine, got, M, MPI_INT, sum, MPI_COMM_WORLD, &request));
  MPI_Op freed = sum;
  CHECK_MPI(MPI_Op_free(&sum));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("allreduce with an op freed meanwhile", got, want, M);

  /* Error classes. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK(MPI_Allreduce(mine, got, 1, MPI_INT, freed, MPI_COMM_WORLD) == MPI_ERR_OP);
  CHECK(MPI_Allreduce(mine, got, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD) == MPI_ERR_OP);
  CHECK(MPI_Allreduce(mine, got, 1, MPI_INT, MPI_DATATYPE_NULL, MPI_COMM_WORLD) == MPI_ERR_OP);
  CHECK(MPI_Allreduce(mine, got, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD) == MPI_ERR_OP);
  CHECK(MPI_Reduce(mine, got, 1, MPI_2INT, MPI_SUM, 0, MPI_COMM_WORLD) == MPI_ERR_OP);
  CHECK(MPI_Reduce(mine, got, 1, MPI_FLOAT_INT, MPI_BAND, 0, MPI_COMM_WORLD) == MPI_ERR_OP);
  MPI_Op op = freed;
  CHECK(MPI_Op_free(&op) == MPI_ERR_OP);
  op = MPI_SUM;
  CHECK(MPI_Op_free(&op) == MPI_ERR_OP);
  CHECK(op == MPI_SUM);
  op = MPI_OP_NULL;
  CHECK(MPI_Op_free(&op) == MPI_ERR_OP);
  CHECK(MPI_Op_commutative(freed, &commute) == MPI_ERR_OP);
  CHECK(MPI_Op_create(NULL, 1, &op) == MPI_ERR_ARG);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  /* Handles are reused, and many create/free cycles do not run out of room (the runtime holds
   * 246 custom ops at once), blocking or not, the op freed before the wait. */
  for (int i = 0; i < 1000; ++i) {
    CHECK_MPI(MPI_Op_create(int_sum_fn, i % 2, &op));
    if (i % 2 == 0) {
      CHECK_MPI(MPI_Allreduce(mine, got, 1, MPI_INT, op, MPI_COMM_WORLD));
    } else {
      CHECK_MPI(MPI_Iallreduce(mine, got, 1, MPI_INT, op, MPI_COMM_WORLD, &request));
    }
    CHECK_MPI(MPI_Op_free(&op));
    if (i % 2 == 1) CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK(got[0] == want[0]);
  }
}

/* MAXLOC / MINLOC: value (r * (i + 1)) % 3 on rank r, index r + 10 * i: ties on most elements. */
#define CHECK_LOC(PAIR, VALUE_T, MPI_T)                                                   \
  do {                                                                                    \
    PAIR mine[N], got_max[N], got_min[N];                                                 \
    for (int i = 0; i < N; ++i) {                                                         \
      mine[i].value = (VALUE_T)((rank * (i + 1)) % 3);                                    \
      mine[i].index = rank + 10 * i;                                                      \
    }                                                                                     \
    CHECK_MPI(MPI_Allreduce(mine, got_max, N, MPI_T, MPI_MAXLOC, MPI_COMM_WORLD));        \
    CHECK_MPI(MPI_Reduce(mine, got_min, N, MPI_T, MPI_MINLOC, size - 1, MPI_COMM_WORLD)); \
    for (int i = 0; i < N; ++i) {                                                         \
      int max_v = -1, max_r = -1, min_v = 99, min_r = -1;                                 \
      for (int r = 0; r < size; ++r) {                                                    \
        int v = (r * (i + 1)) % 3;                                                        \
        if (v > max_v) max_v = v, max_r = r;                                              \
        if (v < min_v) min_v = v, min_r = r;                                              \
      }                                                                                   \
      CHECK(got_max[i].value == (VALUE_T)max_v && got_max[i].index == max_r + 10 * i);    \
      if (rank == size - 1) {                                                             \
        CHECK(got_min[i].value == (VALUE_T)min_v && got_min[i].index == min_r + 10 * i);  \
      }                                                                                   \
    }                                                                                     \
  } while (0)

static void check_location_ops(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  typedef struct {
    float value;
    int index;
  } FloatInt;
  typedef struct {
    double value;
    int index;
  } DoubleInt;
  typedef struct {
    long value;
    int index;
  } LongInt;
  typedef struct {
    int value;
    int index;
  } TwoInt;
  typedef struct {
    short value;
    int index;
  } ShortInt;
  typedef struct {
    long double value;
    int index;
  } LongDoubleInt;
  CHECK_LOC(FloatInt, float, MPI_FLOAT_INT);
  CHECK_LOC(DoubleInt, double, MPI_DOUBLE_INT);
  CHECK_LOC(LongInt, long, MPI_LONG_INT);
  CHECK_LOC(TwoInt, int, MPI_2INT);
  CHECK_LOC(ShortInt, short, MPI_SHORT_INT);
  CHECK_LOC(LongDoubleInt, long double, MPI_LONG_DOUBLE_INT);
  int pair_size = 0;
  CHECK_MPI(MPI_Type_size(MPI_DOUBLE_INT, &pair_size));
  CHECK(pair_size == (int)sizeof(DoubleInt));
}

/* Under HALYARD_ALLREDUCE_ALG=base:ring: the ring splits vectors and combines out of rank
 * order, so the non-commutative op is refused on more than one rank; MPI_SUM still runs. */
static void check_refused(int size) {
  MPI_Op product;
  CHECK_MPI(MPI_Op_create(affine_product_fn, 0, &product));
  Affine mine[N], got[N];
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < N; ++i) mine[i] = affine_of(rank, i);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Allreduce(mine, got, N, MPI_2INT, product, MPI_COMM_WORLD);
  CHECK(rc == MPI_ERR_ARG);
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  int one = 1, total = 0;
  CHECK_MPI(MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(total == size);
  CHECK_MPI(MPI_Op_free(&product));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "refused") == 0) {
    check_refused(size);
  } else {
    /* Odd ranks use MAXLOC on MPI_DOUBLE_INT first, alone: the runtime then numbers the user
     * ops differently on odd and even ranks, which must not matter (HALYARD_CHECK included). */
    if (rank % 2 == 1) {
      struct {
        double value;
        int index;
      } pair = {1.0, rank}, out;
      CHECK_MPI(MPI_Allreduce(&pair, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_SELF));
      CHECK(out.value == 1.0 && out.index == rank);
    }
    int world_of[64];
    for (int r = 0; r < size; ++r) world_of[r] = r;
    check_non_commutative(MPI_COMM_WORLD, world_of, rank);
    /* Reversed: the new communicator's rank r is world rank size - 1 - r. */
    MPI_Comm reversed;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed));
    for (int r = 0; r < size; ++r) world_of[r] = size - 1 - r;
    check_non_commutative(reversed, world_of, rank);
    CHECK_MPI(MPI_Comm_free(&reversed));
    check_commutative_and_free(size);
    check_location_ops();
  }
  MPI_Finalize();
  return finish_checks("shim_user_ops");
}
