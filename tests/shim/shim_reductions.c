/* MPI_Reduce, MPI_Allreduce, MPI_Ireduce and MPI_Iallreduce for every datatype and every op
 * MPI defines on it, with and without MPI_IN_PLACE, checked element by element against a
 * reduction computed locally from what every rank contributed.
 *
 *   shim_reductions            (on MPI_COMM_WORLD and on a communicator of the even ranks)
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "shim_check.h"

enum op_kind { SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, OP_KINDS };
static const MPI_Op kOps[OP_KINDS] = {MPI_SUM, MPI_PROD, MPI_MIN,  MPI_MAX, MPI_LAND,
                                      MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
static const char* const kOpNames[OP_KINDS] = {"SUM", "PROD", "MIN",  "MAX", "LAND",
                                               "LOR", "LXOR", "BAND", "BOR", "BXOR"};

enum category { INTEGER, FLOATING, LOGICAL };

/* Stores a small integer into element i of a buffer of some C type. */
typedef void (*store_fn)(void* buffer, long i, long value);
#define DEFINE_STORE(NAME, T)                                  \
  static void store_##NAME(void* buffer, long i, long value) { \
    ((T*)buffer)[i] = (T)value;                                \
  }
DEFINE_STORE(char, char)
DEFINE_STORE(schar, signed char)
DEFINE_STORE(uchar, unsigned char)
DEFINE_STORE(short, short)
DEFINE_STORE(ushort, unsigned short)
DEFINE_STORE(int, int)
DEFINE_STORE(uint, unsigned)
DEFINE_STORE(long, long)
DEFINE_STORE(ulong, unsigned long)
DEFINE_STORE(llong, long long)
DEFINE_STORE(ullong, unsigned long long)
DEFINE_STORE(float, float)
DEFINE_STORE(double, double)
DEFINE_STORE(i8, int8_t)
DEFINE_STORE(i16, int16_t)
DEFINE_STORE(i32, int32_t)
DEFINE_STORE(i64, int64_t)
DEFINE_STORE(u8, uint8_t)
DEFINE_STORE(u16, uint16_t)
DEFINE_STORE(u32, uint32_t)
DEFINE_STORE(u64, uint64_t)
DEFINE_STORE(bool, bool)

struct type_case {
  const char* name;
  MPI_Datatype type;
  size_t size;
  store_fn store;
  enum category category;
};

static const struct type_case kTypes[] = {
    {"MPI_CHAR", MPI_CHAR, sizeof(char), store_char, INTEGER},
    {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, 1, store_schar, INTEGER},
    {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, 1, store_uchar, INTEGER},
    {"MPI_BYTE", MPI_BYTE, 1, store_uchar, INTEGER},
    {"MPI_SHORT", MPI_SHORT, sizeof(short), store_short, INTEGER},
    {"MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT, sizeof(short), store_ushort, INTEGER},
    {"MPI_INT", MPI_INT, sizeof(int), store_int, INTEGER},
    {"MPI_UNSIGNED", MPI_UNSIGNED, sizeof(unsigned), store_uint, INTEGER},
    {"MPI_LONG", MPI_LONG, sizeof(long), store_long, INTEGER},
    {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG, sizeof(long), store_ulong, INTEGER},
    {"MPI_LONG_LONG", MPI_LONG_LONG, sizeof(long long), store_llong, INTEGER},
    {"MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG, sizeof(long long), store_ullong, INTEGER},
    {"MPI_FLOAT", MPI_FLOAT, sizeof(float), store_float, FLOATING},
    {"MPI_DOUBLE", MPI_DOUBLE, sizeof(double), store_double, FLOATING},
    {"MPI_INT8_T", MPI_INT8_T, 1, store_i8, INTEGER},
    {"MPI_INT16_T", MPI_INT16_T, 2, store_i16, INTEGER},
    {"MPI_INT32_T", MPI_INT32_T, 4, store_i32, INTEGER},
    {"MPI_INT64_T", MPI_INT64_T, 8, store_i64, INTEGER},
    {"MPI_UINT8_T", MPI_UINT8_T, 1, store_u8, INTEGER},
    {"MPI_UINT16_T", MPI_UINT16_T, 2, store_u16, INTEGER},
    {"MPI_UINT32_T", MPI_UINT32_T, 4, store_u32, INTEGER},
    {"MPI_UINT64_T", MPI_UINT64_T, 8, store_u64, INTEGER},
    {"MPI_C_BOOL", MPI_C_BOOL, sizeof(bool), store_bool, LOGICAL},
};

static bool op_defined(enum op_kind op, enum category category) {
  if (op <= MAX) return category != LOGICAL;
  if (op <= LXOR) return category != FLOATING;
  return category == INTEGER;
}

/* What rank r contributes at element i: small enough that no reduction over 8 ranks overflows
 * an 8-bit type, and exact in floating point whatever the order. */
static long contribution(enum op_kind op, int r, long i) {
  switch (op) {
    case PROD:
      return (r + i) % 3 == 0 ? 2 : 1;
    case LAND:
    case LOR:
    case LXOR:
      return (r + i) % 3 != 0 ? 1 + r % 3 : 0; /* non-zero values other than 1 too */
    case BAND:
    case BOR:
    case BXOR:
      return (r * 37 + i * 11) & 0x7f;
    default:
      return (r * 7 + i * 3) % 11;
  }
}

static long combine(enum op_kind op, long a, long b) {
  switch (op) {
    case SUM:
      return a + b;
    case PROD:
      return a * b;
    case MIN:
      return a < b ? a : b;
    case MAX:
      return a > b ? a : b;
    case LAND:
      return a && b;
    case LOR:
      return a || b;
    case LXOR:
      return !a != !b;
    case BAND:
      return a & b;
    case BOR:
      return a | b;
    default:
      return a ^ b;
  }
}

static long reference(enum op_kind op, int size, long i) {
  long result = contribution(op, 0, i);
  if (op >= LAND && op <= LXOR) result = result != 0;
  for (int r = 1; r < size; ++r) result = combine(op, result, contribution(op, r, i));
  return result;
}

/* Reports the first element where `got` and `want` differ. */
static void check_elements(const char* what, const struct type_case* t, enum op_kind op, int root,
                           const unsigned char* got, const unsigned char* want, long count) {
  for (long i = 0; i < count; ++i) {
    if (memcmp(got + i * t->size, want + i * t->size, t->size) != 0) {
      fprintf(stderr, "rank %d: FAIL %s %s MPI_%s count %ld root %d: element %ld differs\n",
              check_rank(), what, t->name, kOpNames[op], count, root, i);
      ++check_failures;
      return;
    }
  }
}

static void check_case(MPI_Comm comm, const struct type_case* t, enum op_kind op, long count,
                       int root) {
  int rank = -1, size = -1;
  CHECK_MPI(MPI_Comm_rank(comm, &rank));
  CHECK_MPI(MPI_Comm_size(comm, &size));
  size_t bytes = (size_t)count * t->size + 1; /* +1: never a zero-byte malloc */
  unsigned char* mine = malloc(bytes);
  unsigned char* want = malloc(bytes);
  unsigned char* recv = malloc(bytes);
  unsigned char* recv2 = malloc(bytes);
  for (long i = 0; i < count; ++i) {
    t->store(mine, i, contribution(op, rank, i));
    t->store(want, i, reference(op, size, i));
  }
  MPI_Op mpi_op = kOps[op];
  int n = (int)count;

  memset(recv, 0xa5, bytes);
  CHECK_MPI(MPI_Reduce(mine, recv, n, t->type, mpi_op, root, comm));
  if (rank == root) check_elements("MPI_Reduce", t, op, root, recv, want, count);

  memset(recv, 0xa5, bytes);
  CHECK_MPI(MPI_Allreduce(mine, recv, n, t->type, mpi_op, comm));
  check_elements("MPI_Allreduce", t, op, root, recv, want, count);

  /* In place: the root's (every rank's for allreduce) contribution starts in recvbuf. */
  memcpy(recv, mine, bytes);
  if (rank == root) {
    CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, recv, n, t->type, mpi_op, root, comm));
    check_elements("MPI_Reduce in place", t, op, root, recv, want, count);
  } else {
    CHECK_MPI(MPI_Reduce(mine, NULL, n, t->type, mpi_op, root, comm));
  }
  memcpy(recv, mine, bytes);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, recv, n, t->type, mpi_op, comm));
  check_elements("MPI_Allreduce in place", t, op, root, recv, want, count);

  /* Non-blocking: two in flight at once, completed by MPI_Waitall. */
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status statuses[2];
  memset(recv, 0xa5, bytes);
  memset(recv2, 0xa5, bytes);
  CHECK_MPI(MPI_Ireduce(mine, recv, n, t->type, mpi_op, root, comm, &requests[0]));
  CHECK_MPI(MPI_Iallreduce(mine, recv2, n, t->type, mpi_op, comm, &requests[1]));
  CHECK_MPI(MPI_Waitall(2, requests, statuses));
  CHECK(requests[0] == MPI_REQUEST_NULL && requests[1] == MPI_REQUEST_NULL);
  CHECK(statuses[0].MPI_ERROR == MPI_SUCCESS && statuses[1].MPI_ERROR == MPI_SUCCESS);
  if (rank == root) check_elements("MPI_Ireduce", t, op, root, recv, want, count);
  check_elements("MPI_Iallreduce", t, op, root, recv2, want, count);

  /* Non-blocking in place, completed by polling MPI_Test. */
  MPI_Request request = MPI_REQUEST_NULL;
  memcpy(recv, mine, bytes);
  CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, recv, n, t->type, mpi_op, comm, &request));
  int done = 0;
  while (!done) CHECK_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  CHECK(request == MPI_REQUEST_NULL);
  check_elements("MPI_Iallreduce in place", t, op, root, recv, want, count);

  free(mine);
  free(want);
  free(recv);
  free(recv2);
}

static void check_communicator(MPI_Comm comm) {
  int size = -1;
  CHECK_MPI(MPI_Comm_size(comm, &size));
  /* Every datatype with every op defined on it, roots rotating over the ranks. */
  int cases = 0;
  for (size_t t = 0; t < sizeof kTypes / sizeof kTypes[0]; ++t) {
    for (int op = 0; op < OP_KINDS; ++op) {
      if (!op_defined((enum op_kind)op, kTypes[t].category)) continue;
      check_case(comm, &kTypes[t], (enum op_kind)op, 37, cases++ % size);
    }
  }
  /* Counts around the algorithms' switch points: empty, one element, not a multiple of the
   * communicator size, and large enough for segmented pipelines. */
  static const long kCounts[] = {0, 1, 4099, 262147};
  for (size_t c = 0; c < sizeof kCounts / sizeof kCounts[0]; ++c) {
    check_case(comm, &kTypes[6] /* MPI_INT */, SUM, kCounts[c], size - 1);
    check_case(comm, &kTypes[13] /* MPI_DOUBLE */, MAX, kCounts[c], size / 2);
  }
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  check_communicator(MPI_COMM_WORLD);

  MPI_Comm evens = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank, &evens));
  CHECK((rank % 2 == 0) == (evens != MPI_COMM_NULL));
  if (evens != MPI_COMM_NULL) {
    check_communicator(evens);
    CHECK_MPI(MPI_Comm_free(&evens));
  }
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_reductions");
}
