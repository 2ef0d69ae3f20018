/* Derived datatypes (issue 25): bounds, sizes and true extents of every constructor (holes,
 * negative displacements, resized types, subarrays in C and Fortran order), MPI_Pack /
 * MPI_Unpack round trips checked byte by byte against a layout written out by hand, decoding
 * (envelope and contents), names, MPI_Get_address, element counts, point-to-point with a vector
 * and a struct type (blocking and not), bcast / allreduce / gather / iallreduce with a vector
 * type, and the error classes of bad datatype arguments.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shim_check.h"

static void check_bounds(const char* what, MPI_Datatype type, int size, MPI_Aint lb,
                         MPI_Aint extent, MPI_Aint true_lb, MPI_Aint true_extent) {
  int got_size = -1;
  MPI_Aint got_lb = -1, got_extent = -1, got_true_lb = -1, got_true_extent = -1;
  CHECK_MPI(MPI_Type_size(type, &got_size));
  CHECK_MPI(MPI_Type_get_extent(type, &got_lb, &got_extent));
  CHECK_MPI(MPI_Type_get_true_extent(type, &got_true_lb, &got_true_extent));
  MPI_Count size_x = -1, lb_x = -1, extent_x = -1, true_lb_x = -1, true_extent_x = -1;
  CHECK_MPI(MPI_Type_size_x(type, &size_x));
  CHECK_MPI(MPI_Type_get_extent_x(type, &lb_x, &extent_x));
  CHECK_MPI(MPI_Type_get_true_extent_x(type, &true_lb_x, &true_extent_x));
  CHECK(size_x == got_size && lb_x == got_lb && extent_x == got_extent &&
        true_lb_x == got_true_lb && true_extent_x == got_true_extent);
  if (got_size != size || got_lb != lb || got_extent != extent || got_true_lb != true_lb ||
      got_true_extent != true_extent) {
    fprintf(stderr,
            "rank %d: FAIL %s: size %d lb %ld extent %ld true_lb %ld true_extent %ld, expected "
            "%d %ld %ld %ld %ld\n",
            check_rank(), what, got_size, (long)got_lb, (long)got_extent, (long)got_true_lb,
            (long)got_true_extent, size, (long)lb, (long)extent, (long)true_lb, (long)true_extent);
    ++check_failures;
  }
}

/* One item of a type written out by hand: `n` pieces of `bytes[i]` bytes at `offsets[i]`, in
 * type-map order. */
struct layout {
  int n;
  long offsets[16];
  long bytes[16];
};

enum { kArena = 4096, kOrigin = 1024 }; /* the buffer's address sits kOrigin bytes in */

/* Packs `count` items of `type` from a patterned arena, compares the packed bytes with the
 * layout's, unpacks them into a zeroed arena and checks every byte: data where the layout puts
 * it, zero in every hole. */
static void check_round_trip(const char* what, MPI_Datatype type, int count,
                             const struct layout* item, MPI_Aint extent) {
  static unsigned char source[kArena], packed[kArena], want[kArena], target[kArena],
      target_want[kArena];
  for (int i = 0; i < kArena; ++i) source[i] = (unsigned char)(i * 7 + 3);
  memset(target_want, 0, sizeof target_want);
  long packed_bytes = 0;
  for (int k = 0; k < count; ++k) {
    for (int p = 0; p < item->n; ++p) {
      long at = kOrigin + k * extent + item->offsets[p];
      memcpy(want + packed_bytes, source + at, (size_t)item->bytes[p]);
      memcpy(target_want + at, source + at, (size_t)item->bytes[p]);
      packed_bytes += item->bytes[p];
    }
  }
  int pack_size = -1;
  CHECK_MPI(MPI_Pack_size(count, type, MPI_COMM_WORLD, &pack_size));
  CHECK(pack_size == packed_bytes);
  int position = 0;
  CHECK_MPI(MPI_Pack(source + kOrigin, count, type, packed, kArena, &position, MPI_COMM_WORLD));
  CHECK(position == packed_bytes);
  CHECK_ARRAY(what, packed, want, packed_bytes);
  memset(target, 0, sizeof target);
  position = 0;
  CHECK_MPI(MPI_Unpack(packed, (int)packed_bytes, &position, target + kOrigin, count, type,
                       MPI_COMM_WORLD));
  CHECK(position == packed_bytes);
  CHECK_ARRAY(what, target, target_want, kArena);
}

static MPI_Datatype committed(MPI_Datatype type) {
  CHECK_MPI(MPI_Type_commit(&type));
  return type;
}

struct record {
  int a;
  double b;
  char c;
};

/* A struct type of struct record: int, double, char, with the compiler's padding as extent. */
static MPI_Datatype record_type(void) {
  int lengths[3] = {1, 1, 1};
  MPI_Aint displacements[3] = {offsetof(struct record, a), offsetof(struct record, b),
                               offsetof(struct record, c)};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype type;
  CHECK_MPI(MPI_Type_create_struct(3, lengths, displacements, types, &type));
  return committed(type);
}

static void check_constructors(void) {
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
  check_bounds("contiguous", t, 12, 0, 12, 0, 12);
  struct layout contiguous = {1, {0}, {12}};
  check_round_trip("contiguous", committed(t), 3, &contiguous, 12);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(t == MPI_DATATYPE_NULL);

  CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
  check_bounds("empty contiguous", t, 0, 0, 0, 0, 0);
  CHECK_MPI(MPI_Type_free(&t));

  /* 3 blocks of 2 doubles, 4 doubles apart. */
  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &t));
  check_bounds("vector", t, 48, 0, 80, 0, 80);
  struct layout vector = {3, {0, 32, 64}, {16, 16, 16}};
  check_round_trip("vector", committed(t), 2, &vector, 80);

  /* Resized to a larger extent with a negative lower bound: the data stays where it was. */
  MPI_Datatype r;
  CHECK_MPI(MPI_Type_create_resized(t, -8, 96, &r));
  check_bounds("resized vector", r, 48, -8, 96, 0, 80);
  check_round_trip("resized vector", committed(r), 3, &vector, 96);
  CHECK_MPI(MPI_Type_free(&r));
  CHECK_MPI(MPI_Type_free(&t));

  /* Negative stride: blocks at 0, -8, -16 bytes. */
  CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_INT, &t));
  check_bounds("negative vector", t, 12, -16, 20, -16, 20);
  struct layout negative = {3, {0, -8, -16}, {4, 4, 4}};
  check_round_trip("negative vector", committed(t), 2, &negative, 20);
  CHECK_MPI(MPI_Type_free(&t));

  CHECK_MPI(MPI_Type_create_hvector(2, 3, 20, MPI_INT, &t));
  check_bounds("hvector", t, 24, 0, 32, 0, 32);
  struct layout hvector = {2, {0, 20}, {12, 12}};
  check_round_trip("hvector", committed(t), 2, &hvector, 32);
  CHECK_MPI(MPI_Type_free(&t));

  int lengths[3] = {2, 1, 3};
  int displacements[3] = {5, 0, 10};
  CHECK_MPI(MPI_Type_indexed(3, lengths, displacements, MPI_INT, &t));
  check_bounds("indexed", t, 24, 0, 52, 0, 52);
  struct layout indexed = {3, {20, 0, 40}, {8, 4, 12}};
  check_round_trip("indexed", committed(t), 2, &indexed, 52);
  CHECK_MPI(MPI_Type_free(&t));

  int hlengths[2] = {1, 2};
  MPI_Aint hdisplacements[2] = {-8, 16};
  CHECK_MPI(MPI_Type_create_hindexed(2, hlengths, hdisplacements, MPI_INT, &t));
  check_bounds("hindexed", t, 12, -8, 32, -8, 32);
  struct layout hindexed = {2, {-8, 16}, {4, 8}};
  check_round_trip("hindexed", committed(t), 2, &hindexed, 32);
  CHECK_MPI(MPI_Type_free(&t));

  int block_displacements[3] = {0, 4, -2};
  CHECK_MPI(MPI_Type_create_indexed_block(3, 2, block_displacements, MPI_SHORT, &t));
  check_bounds("indexed_block", t, 12, -4, 16, -4, 16);
  struct layout indexed_block = {3, {0, 8, -4}, {4, 4, 4}};
  check_round_trip("indexed_block", committed(t), 3, &indexed_block, 16);
  CHECK_MPI(MPI_Type_free(&t));

  MPI_Aint byte_displacements[2] = {3, 11};
  CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, byte_displacements, MPI_CHAR, &t));
  check_bounds("hindexed_block", t, 2, 3, 9, 3, 9);
  struct layout hindexed_block = {2, {3, 11}, {1, 1}};
  check_round_trip("hindexed_block", committed(t), 4, &hindexed_block, 9);
  CHECK_MPI(MPI_Type_free(&t));

  /* A struct's extent is padded to its largest alignment, as the compiler pads the C struct. */
  t = record_type();
  check_bounds("struct", t, 13, 0, (MPI_Aint)sizeof(struct record), 0,
               (MPI_Aint)offsetof(struct record, c) + 1);
  struct layout record = {
      3,
      {offsetof(struct record, a), offsetof(struct record, b), offsetof(struct record, c)},
      {4, 8, 1}};
  check_round_trip("struct", t, 3, &record, sizeof(struct record));
  CHECK_MPI(MPI_Type_free(&t));

  /* A resized element inside a contiguous type: 2 ints, 12 bytes apart. */
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 12, &r));
  CHECK_MPI(MPI_Type_contiguous(2, r, &t));
  check_bounds("contiguous of resized", t, 8, 0, 24, 0, 16);
  struct layout spaced = {2, {0, 12}, {4, 4}};
  check_round_trip("contiguous of resized", committed(t), 2, &spaced, 24);
  CHECK_MPI(MPI_Type_free(&t));

  /* A struct of that resized int and a char at byte 12: the resized part's bounds are the
   * struct's (MPI's lb / ub markers), so the char lies beyond the extent and nothing is padded. */
  int one[2] = {1, 1};
  MPI_Aint at[2] = {0, 12};
  MPI_Datatype parts[2] = {r, MPI_CHAR};
  CHECK_MPI(MPI_Type_create_struct(2, one, at, parts, &t));
  check_bounds("struct with a resized part", t, 5, 0, 12, 0, 13);
  struct layout marked = {2, {0, 12}, {4, 1}};
  check_round_trip("struct with a resized part", committed(t), 1, &marked, 12);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_free(&r));

  /* A 2 x 3 block at (1, 2) of a 4 x 5 array of ints. */
  int sizes[2] = {4, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
  check_bounds("subarray C", t, 24, 0, 80, 28, 32);
  struct layout subarray_c = {2, {28, 48}, {12, 12}};
  check_round_trip("subarray C", committed(t), 2, &subarray_c, 80);
  CHECK_MPI(MPI_Type_free(&t));
  /* Fortran order: the first index varies fastest; element (i, j) is at (j * 4 + i) * 4. */
  CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
  check_bounds("subarray Fortran", t, 24, 0, 80, 36, 40);
  struct layout subarray_f = {3, {36, 52, 68}, {8, 8, 8}};
  check_round_trip("subarray Fortran", committed(t), 2, &subarray_f, 80);

  MPI_Datatype d;
  CHECK_MPI(MPI_Type_dup(t, &d));
  check_bounds("dup", d, 24, 0, 80, 36, 40);
  check_round_trip("dup", d, 1, &subarray_f, 80); /* a dup keeps the committed state */
  CHECK_MPI(MPI_Type_free(&d));
  CHECK_MPI(MPI_Type_free(&t));
}

static void check_packing_sequence(void) {
  /* Two values packed one after the other, read back in order. */
  unsigned char buffer[64];
  int position = 0;
  int value = 1234567;
  double x[5] = {1.5, -2.5, 3.5, -4.5, 5.5};
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  CHECK_MPI(MPI_Pack(&value, 1, MPI_INT, buffer, sizeof buffer, &position, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Pack(x, 1, every_other, buffer, sizeof buffer, &position, MPI_COMM_WORLD));
  CHECK(position == 4 + 24);
  int value_back = 0;
  double y[3] = {0, 0, 0};
  double y_want[3] = {1.5, 3.5, 5.5};
  position = 0;
  CHECK_MPI(MPI_Unpack(buffer, 28, &position, &value_back, 1, MPI_INT, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Unpack(buffer, 28, &position, y, 3, MPI_DOUBLE, MPI_COMM_WORLD));
  CHECK(value_back == value);
  CHECK_ARRAY("unpacked sequence", y, y_want, 3);
  CHECK(position == 28);
  /* Not enough room: MPI_ERR_TRUNCATE, and the position does not move. */
  position = 8;
  CHECK_CLASS(MPI_Pack(x, 1, every_other, buffer, 16, &position, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
  CHECK(position == 8);
  CHECK_CLASS(MPI_Unpack(buffer, 20, &position, y, 1, every_other, MPI_COMM_WORLD),
              MPI_ERR_TRUNCATE);
  CHECK_MPI(MPI_Type_free(&every_other));
}

static void check_envelope(MPI_Datatype type, int integers, int addresses, int datatypes,
                           int combiner) {
  int ni = -1, na = -1, nd = -1, c = -1;
  CHECK_MPI(MPI_Type_get_envelope(type, &ni, &na, &nd, &c));
  CHECK(ni == integers && na == addresses && nd == datatypes && c == combiner);
}

static void check_decoding(void) {
  check_envelope(MPI_INT, 0, 0, 0, MPI_COMBINER_NAMED);
  int ints[16];
  MPI_Aint aints[16];
  MPI_Datatype types[16];
  CHECK_CLASS(MPI_Type_get_contents(MPI_INT, 16, 16, 16, ints, aints, types), MPI_ERR_TYPE);

  MPI_Datatype vector, resized, record, sub, hindexed, dup;
  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &vector));
  check_envelope(vector, 3, 0, 1, MPI_COMBINER_VECTOR);
  CHECK_MPI(MPI_Type_get_contents(vector, 16, 16, 16, ints, aints, types));
  CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && types[0] == MPI_DOUBLE);
  CHECK_CLASS(MPI_Type_get_contents(vector, 2, 16, 16, ints, aints, types), MPI_ERR_ARG);

  /* A derived argument comes back as a new handle of an equivalent type, which we free. */
  CHECK_MPI(MPI_Type_create_resized(vector, -4, 100, &resized));
  check_envelope(resized, 0, 2, 1, MPI_COMBINER_RESIZED);
  CHECK_MPI(MPI_Type_get_contents(resized, 16, 16, 16, ints, aints, types));
  CHECK(aints[0] == -4 && aints[1] == 100);
  CHECK(types[0] != vector && types[0] != MPI_DATATYPE_NULL);
  check_envelope(types[0], 3, 0, 1, MPI_COMBINER_VECTOR);
  check_bounds("decoded vector", types[0], 48, 0, 80, 0, 80);
  CHECK_MPI(MPI_Type_free(&types[0]));

  record = record_type();
  check_envelope(record, 4, 3, 3, MPI_COMBINER_STRUCT);
  CHECK_MPI(MPI_Type_get_contents(record, 16, 16, 16, ints, aints, types));
  CHECK(ints[0] == 3 && ints[1] == 1 && ints[2] == 1 && ints[3] == 1);
  CHECK(aints[0] == (MPI_Aint)offsetof(struct record, a) &&
        aints[1] == (MPI_Aint)offsetof(struct record, b) &&
        aints[2] == (MPI_Aint)offsetof(struct record, c));
  CHECK(types[0] == MPI_INT && types[1] == MPI_DOUBLE && types[2] == MPI_CHAR);

  int sizes[3] = {6, 5, 4}, subsizes[3] = {2, 3, 4}, starts[3] = {1, 2, 0};
  CHECK_MPI(
      MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &sub));
  check_envelope(sub, 11, 0, 1, MPI_COMBINER_SUBARRAY);
  CHECK_MPI(MPI_Type_get_contents(sub, 16, 16, 16, ints, aints, types));
  int sub_want[11] = {3, 6, 5, 4, 2, 3, 4, 1, 2, 0, MPI_ORDER_FORTRAN};
  CHECK_ARRAY("subarray contents", ints, sub_want, 11);
  CHECK(types[0] == MPI_FLOAT);

  int lengths[2] = {1, 2};
  MPI_Aint displacements[2] = {-8, 16};
  CHECK_MPI(MPI_Type_create_hindexed(2, lengths, displacements, MPI_INT, &hindexed));
  check_envelope(hindexed, 3, 2, 1, MPI_COMBINER_HINDEXED);
  CHECK_MPI(MPI_Type_get_contents(hindexed, 16, 16, 16, ints, aints, types));
  CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && aints[0] == -8 && aints[1] == 16);

  CHECK_MPI(MPI_Type_dup(MPI_INT, &dup));
  check_envelope(dup, 0, 0, 1, MPI_COMBINER_DUP);
  CHECK_MPI(MPI_Type_get_contents(dup, 0, 0, 1, ints, aints, types));
  CHECK(types[0] == MPI_INT);

  MPI_Datatype block, hblock;
  int block_displacements[2] = {0, 4};
  MPI_Aint hblock_displacements[2] = {0, 64};
  CHECK_MPI(MPI_Type_create_indexed_block(2, 3, block_displacements, MPI_INT, &block));
  check_envelope(block, 4, 0, 1, MPI_COMBINER_INDEXED_BLOCK);
  CHECK_MPI(MPI_Type_create_hindexed_block(2, 3, hblock_displacements, MPI_INT, &hblock));
  check_envelope(hblock, 2, 2, 1, MPI_COMBINER_HINDEXED_BLOCK);
  MPI_Datatype contiguous, hvector;
  CHECK_MPI(MPI_Type_contiguous(4, vector, &contiguous));
  check_envelope(contiguous, 1, 0, 1, MPI_COMBINER_CONTIGUOUS);
  CHECK_MPI(MPI_Type_create_hvector(2, 1, 64, MPI_INT, &hvector));
  check_envelope(hvector, 2, 1, 1, MPI_COMBINER_HVECTOR);

  /* The vector is freed while the contiguous type made of it still decodes to it. */
  CHECK_MPI(MPI_Type_free(&vector));
  CHECK_MPI(MPI_Type_get_contents(contiguous, 16, 16, 16, ints, aints, types));
  check_envelope(types[0], 3, 0, 1, MPI_COMBINER_VECTOR);
  CHECK_MPI(MPI_Type_free(&types[0]));

  MPI_Datatype* all[] = {&resized, &record, &sub,        &hindexed, &dup,
                         &block,   &hblock, &contiguous, &hvector};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK_MPI(MPI_Type_free(all[i]));
}

static void check_name(MPI_Datatype type, const char* want) {
  char name[MPI_MAX_OBJECT_NAME];
  int length = -1;
  CHECK_MPI(MPI_Type_get_name(type, name, &length));
  if (strcmp(name, want) != 0 || length != (int)strlen(want)) {
    fprintf(stderr, "rank %d: FAIL type name '%s' (%d), expected '%s'\n", check_rank(), name,
            length, want);
    ++check_failures;
  }
}

static void check_names_and_predefined(void) {
  check_name(MPI_INT, "MPI_INT");
  check_name(MPI_DOUBLE, "MPI_DOUBLE");
  check_name(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE");
  check_name(MPI_C_COMPLEX, "MPI_C_FLOAT_COMPLEX");
  check_name(MPI_PACKED, "MPI_PACKED");
  check_name(MPI_AINT, "MPI_AINT");
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
  check_name(t, "");
  CHECK_MPI(MPI_Type_set_name(t, "pair of ints"));
  check_name(t, "pair of ints");
  CHECK_MPI(MPI_Type_free(&t));

  check_bounds("MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, (int)sizeof(long double), 0,
               (MPI_Aint)sizeof(long double), 0, (MPI_Aint)sizeof(long double));
  check_bounds("MPI_WCHAR", MPI_WCHAR, 4, 0, 4, 0, 4);
  check_bounds("MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, 8, 0, 8, 0, 8);
  check_bounds("MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, 16, 0, 16, 0, 16);
  check_bounds("MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX, 32, 0, 32, 0, 32);
  check_bounds("MPI_AINT", MPI_AINT, (int)sizeof(MPI_Aint), 0, 8, 0, 8);
  check_bounds("MPI_OFFSET", MPI_OFFSET, (int)sizeof(MPI_Offset), 0, 8, 0, 8);
  check_bounds("MPI_COUNT", MPI_COUNT, (int)sizeof(MPI_Count), 0, 8, 0, 8);
  check_bounds("MPI_PACKED", MPI_PACKED, 1, 0, 1, 0, 1);

  double array[8];
  MPI_Aint first = 0, fourth = 0;
  CHECK_MPI(MPI_Get_address(&array[0], &first));
  CHECK_MPI(MPI_Get_address(&array[3], &fourth));
  CHECK(fourth - first == 3 * (MPI_Aint)sizeof(double));
}

static void check_errors(int rank) {
  MPI_Datatype t, freed;
  /* Uncommitted: constructing from it and asking about it work; communicating does not. */
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
  int data[4] = {0, 0, 0, 0};
  CHECK_CLASS(MPI_Send(data, 1, t, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  CHECK_CLASS(MPI_Bcast(data, 1, t, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  int position = 0;
  CHECK_CLASS(MPI_Pack(data, 1, t, data, 16, &position, MPI_COMM_WORLD), MPI_ERR_TYPE);
  freed = t;
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_CLASS(MPI_Type_commit(&freed), MPI_ERR_TYPE);
  int size = 0;
  CHECK_CLASS(MPI_Type_size(freed, &size), MPI_ERR_TYPE);
  CHECK_CLASS(MPI_Type_free(&freed), MPI_ERR_TYPE);
  MPI_Datatype predefined = MPI_INT;
  CHECK_CLASS(MPI_Type_free(&predefined), MPI_ERR_TYPE);
  CHECK(predefined == MPI_INT);
  CHECK_CLASS(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);

  CHECK_CLASS(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
  CHECK_CLASS(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
  CHECK_CLASS(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
  CHECK_CLASS(MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);
  CHECK_CLASS(MPI_Type_indexed(2, NULL, NULL, MPI_INT, &t), MPI_ERR_ARG);
  int sizes[2] = {4, 4}, subsizes[2] = {2, 5}, starts[2] = {0, 0};
  CHECK_CLASS(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
  subsizes[1] = 2;
  starts[0] = 3;
  CHECK_CLASS(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
  CHECK_CLASS(MPI_Type_create_subarray(2, sizes, subsizes, starts, 99, MPI_INT, &t), MPI_ERR_ARG);
  CHECK_CLASS(MPI_Type_set_name(MPI_INT, NULL), MPI_ERR_ARG);

  /* Reductions: a map that mixes element types, and types without a Halyard element type. */
  struct record in[2], out[2];
  memset(in, 0, sizeof in);
  MPI_Datatype record = record_type();
  CHECK_CLASS(MPI_Allreduce(in, out, 2, record, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
  CHECK_MPI(MPI_Type_free(&record));
  long double ld[2] = {1, 2}, ld_out[2];
  CHECK_CLASS(MPI_Allreduce(ld, ld_out, 2, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
  unsigned char bytes[2] = {1, 2}, bytes_out[2];
  CHECK_CLASS(MPI_Allreduce(bytes, bytes_out, 2, MPI_PACKED, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
  float complex_parts[4] = {1, 2, 3, 4}, complex_out[4];
  CHECK_CLASS(
      MPI_Allreduce(complex_parts, complex_out, 2, MPI_C_FLOAT_COMPLEX, MPI_MAX, MPI_COMM_WORLD),
      MPI_ERR_OP);
  CHECK_CLASS(
      MPI_Allreduce(complex_parts, complex_out, 2, MPI_C_FLOAT_COMPLEX, MPI_PROD, MPI_COMM_WORLD),
      MPI_ERR_OP);
}

/* Element i of rank r's data: distinct for every (r, i). */
static double value(int r, int i) {
  return r * 1000.0 + i + 0.25;
}

/* A vector of doubles: 4 blocks of 3, 5 doubles apart (2-double holes), 2 items. */
enum {
  kBlocks = 4,
  kLength = 3,
  kStride = 5,
  kItems = 2,
  kItemDoubles = (kBlocks - 1) * kStride + kLength
};

static int is_data(int i) {
  return i % kItemDoubles % kStride < kLength;
}

/* `items` vector items of rank r's data where the type has data, -1 in the holes. */
static void fill_items(double* buffer, int r, int items) {
  for (int i = 0; i < items * kItemDoubles; ++i) buffer[i] = is_data(i) ? value(r, i) : -1.0;
}

static void fill_vector(double* buffer, int r) {
  fill_items(buffer, r, kItems);
}

static void check_items(const char* what, const double* got, int r, int items) {
  double want[kItems * kItemDoubles];
  fill_items(want, r, items);
  CHECK_ARRAY(what, got, want, items * kItemDoubles);
}

static void check_vector_buffer(const char* what, const double* got, int r) {
  check_items(what, got, r, kItems);
}

static void check_point_to_point(MPI_Datatype vector, int rank, int size) {
  int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  double sent[kItems * kItemDoubles], received[kItems * kItemDoubles];
  fill_vector(sent, rank);
  for (int i = 0; i < kItems * kItemDoubles; ++i) received[i] = -1.0;
  MPI_Request requests[2];
  MPI_Status statuses[2];
  CHECK_MPI(MPI_Irecv(received, kItems, vector, previous, 1, MPI_COMM_WORLD, &requests[0]));
  CHECK_MPI(MPI_Isend(sent, kItems, vector, next, 1, MPI_COMM_WORLD, &requests[1]));
  CHECK_MPI(MPI_Waitall(2, requests, statuses));
  check_vector_buffer("Irecv of a vector", received, previous);
  int count = -1, elements = -1;
  CHECK_MPI(MPI_Get_count(&statuses[0], vector, &count));
  CHECK_MPI(MPI_Get_elements(&statuses[0], vector, &elements));
  CHECK(count == kItems && elements == kItems * kBlocks * kLength);

  /* The same signature received as plain doubles, then as a vector from plain doubles with
   * MPI_Sendrecv; blocking calls stage too. */
  double plain[kItems * kBlocks * kLength];
  CHECK_MPI(MPI_Sendrecv(sent, kItems, vector, next, 2, plain, kItems * kBlocks * kLength,
                         MPI_DOUBLE, previous, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  double plain_want[kItems * kBlocks * kLength];
  for (int i = 0, j = 0; i < kItems * kItemDoubles; ++i) {
    if (is_data(i)) plain_want[j++] = value(previous, i);
  }
  CHECK_ARRAY("vector received as doubles", plain, plain_want, kItems * kBlocks * kLength);
  for (int i = 0; i < kItems * kItemDoubles; ++i) received[i] = -1.0;
  MPI_Status status;
  CHECK_MPI(MPI_Sendrecv(plain, kItems * kBlocks * kLength, MPI_DOUBLE, next, 3, received, kItems,
                         vector, previous, 3, MPI_COMM_WORLD, &status));
  int second_previous = (previous + size - 1) % size; /* whose data `plain` on `previous` holds */
  check_vector_buffer("doubles received as a vector", received, second_previous);

  /* A short message: 5 doubles into a vector leave the rest untouched; 5 elements, no whole
   * item. */
  for (int i = 0; i < kItems * kItemDoubles; ++i) received[i] = -1.0;
  CHECK_MPI(MPI_Sendrecv(plain, 5, MPI_DOUBLE, next, 4, received, kItems, vector, previous, 4,
                         MPI_COMM_WORLD, &status));
  CHECK_MPI(MPI_Get_count(&status, vector, &count));
  CHECK_MPI(MPI_Get_elements(&status, vector, &elements));
  CHECK(count == MPI_UNDEFINED && elements == 5);
  MPI_Count elements_x = -1;
  CHECK_MPI(MPI_Get_elements_x(&status, vector, &elements_x));
  CHECK(elements_x == 5);
  CHECK(received[0] == value(second_previous, 0) && received[3] == -1.0 &&
        received[5] == value(second_previous, 5) && received[6] == value(second_previous, 6) &&
        received[7] == -1.0 && received[10] == -1.0);

  /* A struct type, blocking, with the compiler's struct layout. */
  MPI_Datatype record = record_type();
  struct record out[3], in[3];
  memset(out, 0, sizeof out);
  memset(in, 0, sizeof in);
  for (int i = 0; i < 3; ++i) {
    out[i].a = rank * 10 + i;
    out[i].b = value(rank, i);
    out[i].c = (char)('a' + rank + i);
  }
  MPI_Request request;
  CHECK_MPI(MPI_Irecv(in, 3, record, previous, 5, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Send(out, 3, record, next, 5, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&request, &status));
  for (int i = 0; i < 3; ++i) {
    CHECK(in[i].a == previous * 10 + i);
    CHECK(in[i].b == value(previous, i));
    CHECK(in[i].c == (char)('a' + previous + i));
  }
  CHECK_MPI(MPI_Get_elements(&status, record, &elements));
  CHECK(elements == 9);
  CHECK_MPI(MPI_Type_free(&record));
}

static void check_collectives(MPI_Datatype vector, int rank, int size) {
  double buffer[kItems * kItemDoubles];
  /* Bcast from the last rank; the holes of every receiver stay as they were. */
  int root = size - 1;
  if (rank == root) {
    fill_vector(buffer, root);
  } else {
    for (int i = 0; i < kItems * kItemDoubles; ++i) buffer[i] = -1.0;
  }
  CHECK_MPI(MPI_Bcast(buffer, kItems, vector, root, MPI_COMM_WORLD));
  check_vector_buffer("Bcast of a vector", buffer, root);

  /* Allreduce (sum), out of place, in place and non-blocking. */
  double sum[kItems * kItemDoubles], want[kItems * kItemDoubles];
  for (int i = 0; i < kItems * kItemDoubles; ++i) {
    double total = 0;
    for (int r = 0; r < size; ++r) total += value(r, i);
    want[i] = is_data(i) ? total : -1.0;
    sum[i] = -1.0;
  }
  fill_vector(buffer, rank);
  CHECK_MPI(MPI_Allreduce(buffer, sum, kItems, vector, MPI_SUM, MPI_COMM_WORLD));
  CHECK_ARRAY("Allreduce of a vector", sum, want, kItems * kItemDoubles);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, buffer, kItems, vector, MPI_SUM, MPI_COMM_WORLD));
  CHECK_ARRAY("in-place Allreduce of a vector", buffer, want, kItems * kItemDoubles);
  fill_vector(buffer, rank);
  for (int i = 0; i < kItems * kItemDoubles; ++i) sum[i] = -1.0;
  MPI_Request request;
  CHECK_MPI(MPI_Iallreduce(buffer, sum, kItems, vector, MPI_SUM, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("Iallreduce of a vector", sum, want, kItems * kItemDoubles);

  /* Gather: one vector item per rank into rank 0, which receives them as vectors too. */
  double* gathered = malloc(sizeof(double) * (size_t)(size * kItemDoubles));
  for (int i = 0; i < size * kItemDoubles; ++i) gathered[i] = -1.0;
  fill_vector(buffer, rank);
  CHECK_MPI(MPI_Gather(buffer, 1, vector, gathered, 1, vector, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    for (int r = 0; r < size; ++r)
      check_items("Gather of vectors", gathered + r * kItemDoubles, r, 1);
  }
  free(gathered);

  /* Complex numbers sum part by part. */
  float parts[4] = {(float)rank, 1.0f, 2.0f * (float)rank, -1.0f}, total[4];
  CHECK_MPI(MPI_Allreduce(parts, total, 2, MPI_C_FLOAT_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
  float n = (float)size, ranks = (float)(size * (size - 1) / 2);
  float total_want[4] = {ranks, n, 2.0f * ranks, -n};
  CHECK_ARRAY("complex Allreduce", total, total_want, 4);
}

/* One item per rank: item k of a buffer of `items` holds owner(k)'s data. */
static double* items_of(int items, int (*owner)(int k, int rank, int size), int rank, int size) {
  double* buffer = malloc(sizeof(double) * (size_t)(items * kItemDoubles));
  for (int k = 0; k < items; ++k) {
    int who = owner(k, rank, size);
    if (who < 0) {
      for (int i = 0; i < kItemDoubles; ++i) buffer[k * kItemDoubles + i] = -1.0;
    } else {
      fill_items(buffer + k * kItemDoubles, who, 1);
    }
  }
  return buffer;
}

static void check_items_of(const char* what, const double* buffer, int items,
                           int (*owner)(int k, int rank, int size), int rank, int size) {
  double* want = items_of(items, owner, rank, size);
  CHECK_ARRAY(what, buffer, want, items * kItemDoubles);
  free(want);
}

static int gathered_owner(int k, int rank, int size) {
  (void)rank, (void)size;
  return k;
}
static int own_block_only(int k, int rank, int size) {
  (void)size;
  return k == rank ? k : -1;
}
static int nobody(int k, int rank, int size) {
  (void)k, (void)rank, (void)size;
  return -1;
}
static int alltoall_sent(int k, int rank, int size) {
  return rank * size + k; /* block for rank k */
}
static int alltoall_received(int k, int rank, int size) {
  return k * size + rank; /* block from rank k */
}
static int scattered_by_root(int k, int rank, int size) {
  (void)rank, (void)size;
  return 100 + k;
}
static int scattered_to_me(int k, int rank, int size) {
  (void)k, (void)size;
  return 100 + rank;
}

/* The other data-moving collectives with one vector item per block, in place where MPI allows,
 * blocking and not. */
static void check_more_collectives(MPI_Datatype vector, int rank, int size) {
  double send_item[kItemDoubles];
  fill_items(send_item, rank, 1);
  double* send = send_item;
  double* recv = items_of(size, nobody, rank, size);
  CHECK_MPI(MPI_Allgather(send, 1, vector, recv, 1, vector, MPI_COMM_WORLD));
  check_items_of("Allgather of vectors", recv, size, gathered_owner, rank, size);
  free(recv);
  recv = items_of(size, own_block_only, rank, size);
  MPI_Request request;
  CHECK_MPI(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 1, vector, MPI_COMM_WORLD,
                           &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  check_items_of("in-place Iallgather of vectors", recv, size, gathered_owner, rank, size);
  free(recv);

  send = items_of(size, alltoall_sent, rank, size);
  recv = items_of(size, nobody, rank, size);
  CHECK_MPI(MPI_Alltoall(send, 1, vector, recv, 1, vector, MPI_COMM_WORLD));
  check_items_of("Alltoall of vectors", recv, size, alltoall_received, rank, size);
  free(recv);
  recv = items_of(size, nobody, rank, size);
  CHECK_MPI(MPI_Ialltoall(send, 1, vector, recv, 1, vector, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  check_items_of("Ialltoall of vectors", recv, size, alltoall_received, rank, size);
  CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, send, 1, vector, MPI_COMM_WORLD));
  check_items_of("in-place Alltoall of vectors", send, size, alltoall_received, rank, size);
  free(recv);
  free(send);

  send = items_of(size, scattered_by_root, rank, size);
  recv = items_of(1, nobody, rank, size);
  CHECK_MPI(MPI_Scatter(send, 1, vector, recv, 1, vector, 0, MPI_COMM_WORLD));
  check_items_of("Scatter of vectors", recv, 1, scattered_to_me, rank, size);
  free(recv);
  free(send);

  /* Reduce (sum) to the last rank, non-blocking, and Ibcast from rank 0. */
  double item[kItemDoubles], sum[kItemDoubles], want[kItemDoubles];
  fill_items(item, rank, 1);
  for (int i = 0; i < kItemDoubles; ++i) {
    double total = 0;
    for (int r = 0; r < size; ++r) total += value(r, i);
    want[i] = is_data(i) ? total : -1.0;
    sum[i] = -1.0;
  }
  CHECK_MPI(MPI_Ireduce(item, sum, 1, vector, MPI_SUM, size - 1, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  if (rank == size - 1) CHECK_ARRAY("Ireduce of a vector", sum, want, kItemDoubles);
  if (rank != 0) {
    for (int i = 0; i < kItemDoubles; ++i) item[i] = -1.0;
  }
  CHECK_MPI(MPI_Ibcast(item, 1, vector, 0, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  check_items("Ibcast of a vector", item, 0, 1);
}

/* MPI_BOTTOM: a struct type of absolute addresses (from MPI_Get_address) of three separate
 * variables, sent around the ring, broadcast and packed. */
static void check_bottom(int rank, int size) {
  int a = 0, c = 0;
  double b[2] = {0, 0};
  int lengths[3] = {1, 2, 1};
  MPI_Aint addresses[3];
  CHECK_MPI(MPI_Get_address(&a, &addresses[0]));
  CHECK_MPI(MPI_Get_address(b, &addresses[1]));
  CHECK_MPI(MPI_Get_address(&c, &addresses[2]));
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_INT};
  MPI_Datatype absolute;
  CHECK_MPI(MPI_Type_create_struct(3, lengths, addresses, types, &absolute));
  CHECK_MPI(MPI_Type_commit(&absolute));

  int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int sent[4] = {rank, 10 * rank, 20 * rank, 30 * rank};
  MPI_Request request;
  CHECK_MPI(MPI_Irecv(MPI_BOTTOM, 1, absolute, previous, 7, MPI_COMM_WORLD, &request));
  int out_a = sent[0], out_c = sent[3];
  double out_b[2] = {sent[1] + 0.5, sent[2] + 0.5};
  MPI_Aint out_addresses[3];
  CHECK_MPI(MPI_Get_address(&out_a, &out_addresses[0]));
  CHECK_MPI(MPI_Get_address(out_b, &out_addresses[1]));
  CHECK_MPI(MPI_Get_address(&out_c, &out_addresses[2]));
  MPI_Datatype outgoing;
  CHECK_MPI(MPI_Type_create_struct(3, lengths, out_addresses, types, &outgoing));
  CHECK_MPI(MPI_Type_commit(&outgoing));
  CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, outgoing, next, 7, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(a == previous && b[0] == 10 * previous + 0.5 && b[1] == 20 * previous + 0.5 &&
        c == 30 * previous);

  /* Broadcast from rank 0 into every rank's own variables. */
  if (rank == 0) a = -5, b[0] = -6.5, b[1] = -7.5, c = -8;
  CHECK_MPI(MPI_Bcast(MPI_BOTTOM, 1, absolute, 0, MPI_COMM_WORLD));
  CHECK(a == -5 && b[0] == -6.5 && b[1] == -7.5 && c == -8);

  /* A contiguous type whose one block lies at an absolute address: bcast and a reduction move
   * it straight from and to the user's memory there (MPI_BOTTOM plus the block's offset). */
  double row[3] = {0, 0, 0};
  if (rank == 0) row[0] = 1.5, row[1] = 2.5, row[2] = 3.5;
  MPI_Aint row_address;
  CHECK_MPI(MPI_Get_address(row, &row_address));
  MPI_Datatype at_row;
  CHECK_MPI(MPI_Type_create_hindexed_block(1, 3, &row_address, MPI_DOUBLE, &at_row));
  CHECK_MPI(MPI_Type_commit(&at_row));
  CHECK_MPI(MPI_Bcast(MPI_BOTTOM, 1, at_row, 0, MPI_COMM_WORLD));
  CHECK(row[0] == 1.5 && row[1] == 2.5 && row[2] == 3.5);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, MPI_BOTTOM, 1, at_row, MPI_SUM, MPI_COMM_WORLD));
  CHECK(row[0] == 1.5 * size && row[1] == 2.5 * size && row[2] == 3.5 * size);
  CHECK_MPI(MPI_Type_free(&at_row));

  unsigned char packed[32];
  int position = 0;
  CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, absolute, packed, sizeof packed, &position, MPI_COMM_WORLD));
  CHECK(position == 24);
  a = c = 0;
  b[0] = b[1] = 0;
  position = 0;
  CHECK_MPI(MPI_Unpack(packed, 24, &position, MPI_BOTTOM, 1, absolute, MPI_COMM_WORLD));
  CHECK(a == -5 && b[0] == -6.5 && b[1] == -7.5 && c == -8);
  /* A predefined type at address 0 stays an error. */
  CHECK_CLASS(MPI_Send(MPI_BOTTOM, 1, MPI_INT, next, 8, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Type_free(&outgoing));
  CHECK_MPI(MPI_Type_free(&absolute));
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank = 0, size = 0;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

  check_constructors();
  check_packing_sequence();
  check_decoding();
  check_names_and_predefined();
  check_errors(rank);

  MPI_Datatype vector;
  CHECK_MPI(MPI_Type_vector(kBlocks, kLength, kStride, MPI_DOUBLE, &vector));
  CHECK_MPI(MPI_Type_commit(&vector));
  check_point_to_point(vector, rank, size);
  check_collectives(vector, rank, size);
  check_more_collectives(vector, rank, size);
  check_bottom(rank, size);
  CHECK_MPI(MPI_Type_free(&vector));

  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_datatypes");
}
