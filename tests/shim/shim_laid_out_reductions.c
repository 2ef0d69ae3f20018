/* MPI_Allreduce, MPI_Iallreduce and MPI_Reduce on derived datatypes with holes (issue 25), at
 * sizes from one element to over a megabyte: below, across and above the shm engine's cell, and
 * where the one-node rules pick intranode:cma. The algorithms that take layouts read and write
 * the user's buffers through them (no staging); the others stage. Either way every data element
 * is checked against the sum over the ranks, every hole must keep its sentinel, the send buffer
 * must not change, and ranks may describe the same data differently: in the "mixed" pass the odd
 * ranks pass contiguous doubles while the even ones pass the holed type. One more layout is a
 * contiguous block that starts past its origin, reduced in the user's memory without staging. */
#include <string.h>

#include "shim_check.h"

/* One layout: `count` items, each `per_item` doubles at `offsets` (in doubles from the item's
 * start), one `extent` (doubles) apart; `low` is the lowest offset (negative strides reach below
 * the buffer's address). */
struct layout {
  const char* name;
  MPI_Datatype type;
  int count;
  long per_item;
  long* offsets;
  long extent;
  long low, span;
};

static long position(const struct layout* l, long i) {
  return (i / l->per_item) * l->extent + l->offsets[i % l->per_item] - l->low;
}

static void finish(struct layout* l) {
  l->low = 0;
  long high = 0;
  for (long i = 0; i < l->per_item; ++i) {
    if (l->offsets[i] < l->low) l->low = l->offsets[i];
    if (l->offsets[i] + 1 > high) high = l->offsets[i] + 1;
  }
  l->span = (long)(l->count - 1) * l->extent + high - l->low;
  MPI_Type_commit(&l->type);
}

/* `blocks` blocks of `length` doubles, `stride` doubles apart (negative: going down). */
static struct layout vector_of(const char* name, long blocks, int length, int stride) {
  struct layout l = {name, MPI_DATATYPE_NULL, 1, blocks * length, NULL, 0, 0, 0};
  l.offsets = malloc(sizeof(long) * (size_t)l.per_item);
  for (long b = 0; b < blocks; ++b) {
    for (int j = 0; j < length; ++j) l.offsets[b * length + j] = b * stride + j;
  }
  MPI_Type_vector((int)blocks, length, stride, MPI_DOUBLE, &l.type);
  l.extent = 0;
  finish(&l);
  return l;
}

/* Items of 4 blocks of 2 doubles 3 apart, resized to 13 doubles: gaps inside and between items. */
static struct layout resized_items(long elements) {
  struct layout l = {
      "resized vector items", MPI_DATATYPE_NULL, (int)(elements / 8), 8, NULL, 13, 0, 0};
  l.offsets = malloc(sizeof(long) * 8);
  for (int b = 0; b < 4; ++b) {
    for (int j = 0; j < 2; ++j) l.offsets[b * 2 + j] = b * 3 + j;
  }
  MPI_Datatype inner;
  MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &inner);
  MPI_Type_create_resized(inner, 0, 13 * (MPI_Aint)sizeof(double), &l.type);
  MPI_Type_free(&inner);
  finish(&l);
  return l;
}

/* Items of an indexed type: blocks of 1, 3 and 2 doubles at 0, 2 and 7, extent 10. */
static struct layout indexed_items(long elements) {
  struct layout l = {"indexed items", MPI_DATATYPE_NULL, (int)(elements / 6), 6, NULL, 10, 0, 0};
  static const long at[6] = {0, 2, 3, 4, 7, 8};
  l.offsets = malloc(sizeof at);
  memcpy(l.offsets, at, sizeof at);
  int lengths[3] = {1, 3, 2}, displacements[3] = {0, 2, 7};
  MPI_Datatype inner;
  MPI_Type_indexed(3, lengths, displacements, MPI_DOUBLE, &inner);
  MPI_Type_create_resized(inner, 0, 10 * (MPI_Aint)sizeof(double), &l.type);
  MPI_Type_free(&inner);
  finish(&l);
  return l;
}

/* One block of `n` doubles 3 doubles past its origin: contiguous, so reduced straight in the
 * user's memory from where the block starts; the 3 doubles before it must keep their holes. */
static struct layout offset_block(long n) {
  struct layout l = {"one block 3 doubles past its origin", MPI_DATATYPE_NULL, 1, n, NULL, 0, 0, 0};
  l.offsets = malloc(sizeof(long) * (size_t)n);
  for (long j = 0; j < n; ++j) l.offsets[j] = 3 + j;
  int at = 3;
  MPI_Type_create_indexed_block(1, (int)n, &at, MPI_DOUBLE, &l.type);
  finish(&l);
  return l;
}

static double value(int rank, long i) {
  return (double)((rank + 1) * 1000 + i % 997); /* sums stay exact */
}

static const double kHole = -7.25;

/* A buffer of the layout's span, holes at kHole, data value(rank, i) (or kHole everywhere). */
static double* make_buffer(const struct layout* l, int rank, int with_data) {
  double* b = malloc(sizeof(double) * (size_t)l->span);
  for (long i = 0; i < l->span; ++i) b[i] = kHole;
  if (with_data) {
    for (long i = 0; i < (long)l->count * l->per_item; ++i) b[position(l, i)] = value(rank, i);
  }
  return b;
}

/* The address MPI is given: the span starts at the lowest offset. */
static void* address_of(const struct layout* l, double* span) {
  return span - l->low;
}

/* Data elements hold the sum over `size` ranks, holes kHole; returns the wrong ones. */
static long wrong_result(const struct layout* l, const double* b, int size) {
  long wrong = 0;
  long elements = (long)l->count * l->per_item;
  char* is_data = calloc((size_t)l->span, 1);
  for (long i = 0; i < elements; ++i) {
    double want = 0;
    for (int r = 0; r < size; ++r) want += value(r, i);
    long p = position(l, i);
    is_data[p] = 1;
    if (b[p] != want) ++wrong;
  }
  for (long p = 0; p < l->span; ++p) {
    if (!is_data[p] && b[p] != kHole) ++wrong;
  }
  free(is_data);
  return wrong;
}

static long wrong_input(const struct layout* l, const double* b, int rank) {
  double* fresh = make_buffer(l, rank, 1);
  long wrong = 0;
  for (long p = 0; p < l->span; ++p) wrong += b[p] != fresh[p];
  free(fresh);
  return wrong;
}

static void check_layout(const struct layout* l, int rank, int size, int mixed) {
  long elements = (long)l->count * l->per_item;
  /* In the mixed pass the odd ranks use contiguous doubles with the same signature. */
  int contiguous = mixed && (rank % 2 == 1);
  struct layout flat = {"contiguous", MPI_DOUBLE, (int)elements, 1, NULL, 1, 0, elements};
  long zero = 0;
  flat.offsets = &zero;
  const struct layout* mine = contiguous ? &flat : l;
  int root = size - 1;
  char what[160];
  snprintf(what, sizeof what, "%s, %ld elements%s", l->name, elements, mixed ? ", mixed" : "");

  double* send = make_buffer(mine, rank, 1);
  double* recv = make_buffer(mine, rank, 0);
  CHECK_MPI(MPI_Allreduce(address_of(mine, send), address_of(mine, recv), mine->count, mine->type,
                          MPI_SUM, MPI_COMM_WORLD));
  long wrong = wrong_result(mine, recv, size) + wrong_input(mine, send, rank);
  if (wrong != 0) fprintf(stderr, "rank %d: Allreduce of %s: %ld wrong\n", rank, what, wrong);
  CHECK(wrong == 0);

  /* In place. */
  double* both = make_buffer(mine, rank, 1);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, address_of(mine, both), mine->count, mine->type, MPI_SUM,
                          MPI_COMM_WORLD));
  wrong = wrong_result(mine, both, size);
  if (wrong != 0)
    fprintf(stderr, "rank %d: in-place Allreduce of %s: %ld wrong\n", rank, what, wrong);
  CHECK(wrong == 0);

  /* Non-blocking, its datatype freed before MPI_Wait (MPI allows it). */
  free(recv);
  recv = make_buffer(mine, rank, 0);
  MPI_Datatype copy;
  CHECK_MPI(MPI_Type_dup(mine->type, &copy));
  MPI_Request request;
  CHECK_MPI(MPI_Iallreduce(address_of(mine, send), address_of(mine, recv), mine->count, copy,
                           MPI_SUM, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Type_free(&copy));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  wrong = wrong_result(mine, recv, size);
  if (wrong != 0) fprintf(stderr, "rank %d: Iallreduce of %s: %ld wrong\n", rank, what, wrong);
  CHECK(wrong == 0);

  /* Reduce to the last rank: its recv holds the sums; the others' recv is not touched. */
  free(recv);
  recv = make_buffer(mine, rank, 0);
  CHECK_MPI(MPI_Reduce(address_of(mine, send), address_of(mine, recv), mine->count, mine->type,
                       MPI_SUM, root, MPI_COMM_WORLD));
  if (rank == root) {
    wrong = wrong_result(mine, recv, size);
  } else {
    wrong = 0;
    for (long p = 0; p < mine->span; ++p) wrong += recv[p] != kHole;
  }
  wrong += wrong_input(mine, send, rank);
  if (wrong != 0) fprintf(stderr, "rank %d: Reduce of %s: %ld wrong\n", rank, what, wrong);
  CHECK(wrong == 0);

  /* Reduce in place at the root. */
  free(both);
  both = make_buffer(mine, rank, 1);
  CHECK_MPI(MPI_Reduce(rank == root ? MPI_IN_PLACE : address_of(mine, both), address_of(mine, both),
                       mine->count, mine->type, MPI_SUM, root, MPI_COMM_WORLD));
  wrong = rank == root ? wrong_result(mine, both, size) : wrong_input(mine, both, rank);
  if (wrong != 0) fprintf(stderr, "rank %d: in-place Reduce of %s: %ld wrong\n", rank, what, wrong);
  CHECK(wrong == 0);
  free(send);
  free(recv);
  free(both);
}

static void release(struct layout* l) {
  MPI_Type_free(&l->type);
  free(l->offsets);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Packed sizes: 1 element, within one cell, 40 KB (a 2-rank reduce by a single CMA copy,
   * which stages), across several cells, two of the shm engine's 65,344-byte cells and three
   * doubles (the last chunk rides in the flag line; an allreduce by slices puts its result in
   * the cell all the same), about a megabyte. */
  const long sizes[] = {1, 1000, 5000, 40000, 16339, 140001};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    long n = sizes[s];
    struct layout layouts[7];
    int k = 0;
    layouts[k++] = vector_of("single doubles 2 apart", n, 1, 2);
    layouts[k++] = vector_of("blocks of 3 doubles 5 apart", n / 3 + 1, 3, 5);
    /* Blocks long enough to be reduced into in place (1,600 bytes), cut by chunk ends. */
    layouts[k++] = vector_of("blocks of 200 doubles 300 apart", n / 200 + 1, 200, 300);
    layouts[k++] = vector_of("single doubles going down", n, 1, -3);
    if (n >= 8) layouts[k++] = resized_items(n);
    if (n >= 6) layouts[k++] = indexed_items(n);
    layouts[k++] = offset_block(n);
    for (int i = 0; i < k; ++i) {
      for (int mixed = 0; mixed < 2; ++mixed) check_layout(&layouts[i], rank, size, mixed);
      release(&layouts[i]);
    }
  }
  MPI_Finalize();
  return finish_checks("shim_laid_out_reductions");
}
