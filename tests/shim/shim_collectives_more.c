/* The collectives of issue 25: MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv,
 * MPI_Alltoallw, MPI_Igather, MPI_Iscatter, MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan,
 * their I-forms, MPI_Reduce_local, and their MPI_IN_PLACE forms. Uneven counts (zeros among
 * them), blocks in reverse rank order with gaps that must keep their sentinel, every root.
 * Every result is checked element by element against a serial reference; bad arguments must
 * return their error class (MPI_ERRORS_RETURN) on every rank.
 */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "shim_check.h"

#define SENTINEL (-7)

/* Element i that rank r contributes: distinct for every (r, i), small enough to sum. */
static int32_t value(int r, long i) {
  return (int32_t)(r * 100003L + i * 7 + 1);
}

/* Rank r's block: base + r elements, none on every third rank. */
static int uneven(int r, int base) {
  return r % 3 == 1 ? 0 : base + r;
}

/* Blocks in reverse rank order, each after a one-element gap; returns the buffer's length. */
static int reverse_layout(int size, const int* counts, int* displs) {
  int next = 1;
  for (int r = size - 1; r >= 0; --r) {
    displs[r] = next;
    next += counts[r] + 1;
  }
  return next;
}

static int32_t* sentinels(int n) {
  int32_t* out = calloc((size_t)n + 1, sizeof(int32_t)); /* one more: never empty */
  for (int i = 0; i <= n; ++i) out[i] = SENTINEL;
  return out;
}

/* buf holds block r (counts[r] of value(r, i)) at displs[r] and the sentinel elsewhere. */
static void check_layout(const char* what, const int32_t* buf, int length, int size,
                         const int* counts, const int* displs) {
  int32_t* want = sentinels(length);
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < counts[r]; ++i) want[displs[r] + i] = value(r, i);
  }
  CHECK_ARRAY(what, buf, want, length);
  free(want);
}

static void fill_layout(int32_t* buf, int size, const int* counts, const int* displs) {
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < counts[r]; ++i) buf[displs[r] + i] = value(r, i);
  }
}

static void check_gatherv_scatterv(MPI_Comm comm, int rank, int size, int base) {
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) counts[r] = uneven(r, base);
  int length = reverse_layout(size, counts, displs);
  int mine_n = counts[rank];
  int32_t* mine = sentinels(mine_n);
  for (int i = 0; i < mine_n; ++i) mine[i] = value(rank, i);
  for (int root = 0; root < size; ++root) {
    int is_root = rank == root;
    int in_place = root % 2 == 1;
    int32_t* all = sentinels(length);
    if (is_root && in_place) memcpy(all + displs[root], mine, (size_t)mine_n * sizeof(int32_t));
    const void* send = is_root && in_place ? MPI_IN_PLACE : mine;
    CHECK_MPI(MPI_Gatherv(send, mine_n, MPI_INT, all, counts, displs, MPI_INT, root, comm));
    if (is_root) check_layout("MPI_Gatherv", all, length, size, counts, displs);

    MPI_Request request = MPI_REQUEST_NULL;
    for (int i = 0; i < length; ++i) all[i] = SENTINEL;
    if (is_root && !in_place) memcpy(all + displs[root], mine, (size_t)mine_n * sizeof(int32_t));
    /* The other form of MPI_IN_PLACE than the blocking call's; non-roots pass no arrays. */
    send = is_root && !in_place ? MPI_IN_PLACE : mine;
    CHECK_MPI(MPI_Igatherv(send, mine_n, MPI_INT, is_root ? all : NULL, is_root ? counts : NULL,
                           is_root ? displs : NULL, MPI_INT, root, comm, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    if (is_root) check_layout("MPI_Igatherv", all, length, size, counts, displs);

    /* Scatterv from the root's layout, received as MPI_FLOAT bytes (equal sizes). */
    fill_layout(all, size, counts, displs);
    int32_t* got = sentinels(mine_n);
    void* recv = is_root && in_place ? MPI_IN_PLACE : (void*)got;
    CHECK_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, recv, mine_n, MPI_FLOAT, root, comm));
    if (!(is_root && in_place)) CHECK_ARRAY("MPI_Scatterv", got, mine, mine_n);
    for (int i = 0; i < mine_n; ++i) got[i] = SENTINEL;
    CHECK_MPI(MPI_Iscatterv(is_root ? all : NULL, is_root ? counts : NULL, is_root ? displs : NULL,
                            MPI_INT, got, mine_n, MPI_INT, root, comm, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_ARRAY("MPI_Iscatterv", got, mine, mine_n);
    check_layout("MPI_Scatterv leaves sendbuf", all, length, size, counts, displs);
    free(got);
    free(all);
  }
  free(mine);
  free(counts);
  free(displs);
}

static void check_allgatherv(MPI_Comm comm, int rank, int size, int base) {
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) counts[r] = uneven(r, base);
  int length = reverse_layout(size, counts, displs);
  int32_t* mine = sentinels(counts[rank]);
  for (int i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i);
  int32_t* all = sentinels(length);
  CHECK_MPI(MPI_Allgatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, comm));
  check_layout("MPI_Allgatherv", all, length, size, counts, displs);

  for (int i = 0; i < length; ++i) all[i] = SENTINEL;
  memcpy(all + displs[rank], mine, (size_t)counts[rank] * sizeof(int32_t));
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, comm,
                            &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  check_layout("MPI_Iallgatherv in place", all, length, size, counts, displs);
  free(all);
  free(mine);
  free(counts);
  free(displs);
}

/* Rank s sends rank r (base + s + r) % (base + 3) elements; element i is value(s * 64 + r, i). */
static int pair_count(int from, int to, int base) {
  return (base + from + to) % (base + 3);
}

static void check_alltoallv(MPI_Comm comm, int rank, int size, int base) {
  size_t n = (size_t)size;
  int* scounts = malloc(sizeof(int) * n);
  int* sdispls = malloc(sizeof(int) * n);
  int* rcounts = malloc(sizeof(int) * n);
  int* rdispls = malloc(sizeof(int) * n);
  int* sbytes = malloc(sizeof(int) * n);
  int* rbytes = malloc(sizeof(int) * n);
  MPI_Datatype* stypes = malloc(sizeof(MPI_Datatype) * n);
  MPI_Datatype* rtypes = malloc(sizeof(MPI_Datatype) * n);
  for (int r = 0; r < size; ++r) {
    scounts[r] = pair_count(rank, r, base);
    rcounts[r] = pair_count(r, rank, base);
  }
  int slength = reverse_layout(size, scounts, sdispls);
  int rlength = 0;
  for (int r = 0; r < size; ++r) {
    rdispls[r] = rlength;
    rlength += rcounts[r] + 2;
  }
  int32_t* send = sentinels(slength);
  int32_t* want = sentinels(rlength);
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < scounts[r]; ++i) send[sdispls[r] + i] = value(rank * 64 + r, i);
    for (int i = 0; i < rcounts[r]; ++i) want[rdispls[r] + i] = value(r * 64 + rank, i);
    sbytes[r] = sdispls[r] * 4;
    rbytes[r] = rdispls[r] * 4;
    stypes[r] = MPI_INT;
    rtypes[r] = r % 2 == 0 ? MPI_INT : MPI_FLOAT; /* per-peer types of equal size */
  }
  int32_t* recv = sentinels(rlength);
  CHECK_MPI(MPI_Alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, comm));
  CHECK_ARRAY("MPI_Alltoallv", recv, want, rlength);

  for (int i = 0; i < rlength; ++i) recv[i] = SENTINEL;
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK_MPI(
      MPI_Ialltoallw(send, scounts, sbytes, stypes, recv, rcounts, rbytes, rtypes, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("MPI_Ialltoallw", recv, want, rlength);

  /* In place: the same counts both ways, so every pair exchanges (base + s + r) % (base + 3). */
  int32_t* inplace = sentinels(rlength);
  int32_t* inplace_want = sentinels(rlength);
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < rcounts[r]; ++i) {
      inplace[rdispls[r] + i] = value(rank * 64 + r, i);
      inplace_want[rdispls[r] + i] = value(r * 64 + rank, i);
    }
  }
  CHECK_MPI(MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, inplace, rcounts, rdispls,
                           MPI_INT, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("MPI_Ialltoallv in place", inplace, inplace_want, rlength);
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < rcounts[r]; ++i) inplace[rdispls[r] + i] = value(rank * 64 + r, i);
  }
  CHECK_MPI(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, inplace, rcounts, rbytes, rtypes, comm));
  CHECK_ARRAY("MPI_Alltoallw in place", inplace, inplace_want, rlength);
  free(inplace);
  free(inplace_want);
  free(send);
  free(want);
  free(recv);
  free(scounts);
  free(sdispls);
  free(rcounts);
  free(rdispls);
  free(sbytes);
  free(rbytes);
  free(stypes);
  free(rtypes);
}

static void check_igather_iscatter(MPI_Comm comm, int rank, int size, int count) {
  int32_t* mine = sentinels(count);
  int32_t* all = sentinels(count * size);
  int32_t* want = sentinels(count * size);
  for (int i = 0; i < count; ++i) mine[i] = value(rank, i);
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < count; ++i) want[r * count + i] = value(r, i);
  }
  for (int root = 0; root < size; ++root) {
    int is_root = rank == root;
    MPI_Request request = MPI_REQUEST_NULL;
    for (int i = 0; i < count * size; ++i) all[i] = SENTINEL;
    if (is_root) memcpy(all + root * count, mine, (size_t)count * sizeof(int32_t));
    CHECK_MPI(MPI_Igather(is_root ? MPI_IN_PLACE : mine, count, MPI_INT, all, count, MPI_INT, root,
                          comm, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    if (is_root) CHECK_ARRAY("MPI_Igather in place", all, want, count * size);

    int32_t* got = sentinels(count);
    CHECK_MPI(MPI_Iscatter(want, count, MPI_INT, is_root ? MPI_IN_PLACE : got, count, MPI_INT, root,
                           comm, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    if (!is_root) CHECK_ARRAY("MPI_Iscatter", got, mine, count);
    CHECK_MPI(MPI_Scatter(want, count, MPI_INT, got, count, MPI_INT, root, comm));
    CHECK_ARRAY("MPI_Scatter", got, mine, count);
    free(got);
  }
  free(mine);
  free(all);
  free(want);
}

/* Sum of value(r, i) over ranks 0 .. last - 1. */
static int32_t sum_below(int last, long i) {
  int32_t sum = 0;
  for (int r = 0; r < last; ++r) sum += value(r, i);
  return sum;
}

static void check_reduce_scatter(MPI_Comm comm, int rank, int size, int base) {
  int* counts = malloc(sizeof(int) * (size_t)size);
  int total = 0, start = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = uneven(r, base);
    if (r == rank) start = total;
    total += counts[r];
  }
  int32_t* input = sentinels(total);
  int32_t* want = sentinels(total);
  for (int i = 0; i < total; ++i) {
    input[i] = value(rank, i);
    want[i] = sum_below(size, i);
  }
  int32_t* got = sentinels(total);
  CHECK_MPI(MPI_Reduce_scatter(input, got, counts, MPI_INT, MPI_SUM, comm));
  CHECK_ARRAY("MPI_Reduce_scatter", got, want + start, counts[rank]);
  memcpy(got, input, (size_t)total * sizeof(int32_t));
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Ireduce_scatter(MPI_IN_PLACE, got, counts, MPI_INT, MPI_SUM, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("MPI_Ireduce_scatter in place", got, want + start, counts[rank]);
  free(input);
  free(want);
  free(got);

  /* Block form, MPI_MAX on doubles: block r's maximum comes from the highest rank. */
  int whole = base * size;
  double* in = malloc(sizeof(double) * (size_t)whole + 1);
  double* out = malloc(sizeof(double) * (size_t)whole + 1);
  double* expect = malloc(sizeof(double) * (size_t)base + 1);
  for (int i = 0; i < whole; ++i) in[i] = (double)value(rank, i) * (i % 2 == 0 ? 1 : -1);
  for (int i = 0; i < base; ++i) {
    long at = (long)rank * base + i;
    expect[i] = at % 2 == 0 ? (double)value(size - 1, at) : -(double)value(0, at);
  }
  CHECK_MPI(MPI_Reduce_scatter_block(in, out, base, MPI_DOUBLE, MPI_MAX, comm));
  CHECK_ARRAY("MPI_Reduce_scatter_block", out, expect, base);
  memcpy(out, in, sizeof(double) * (size_t)whole);
  CHECK_MPI(
      MPI_Ireduce_scatter_block(MPI_IN_PLACE, out, base, MPI_DOUBLE, MPI_MAX, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("MPI_Ireduce_scatter_block in place", out, expect, base);
  free(in);
  free(out);
  free(expect);
  free(counts);
}

static void check_scans(MPI_Comm comm, int rank, int count) {
  int32_t* input = sentinels(count);
  int32_t* got = sentinels(count);
  int32_t* want = sentinels(count);
  for (int i = 0; i < count; ++i) {
    input[i] = value(rank, i);
    want[i] = sum_below(rank + 1, i);
  }
  CHECK_MPI(MPI_Scan(input, got, count, MPI_INT, MPI_SUM, comm));
  CHECK_ARRAY("MPI_Scan", got, want, count);
  memcpy(got, input, (size_t)count * sizeof(int32_t));
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Iscan(MPI_IN_PLACE, got, count, MPI_INT, MPI_SUM, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("MPI_Iscan in place", got, want, count);

  /* Exscan: rank 0's recvbuf stays as it was (undefined by MPI, untouched here). */
  int32_t* untouched = sentinels(count);
  for (int i = 0; i < count; ++i) want[i] = rank == 0 ? SENTINEL : sum_below(rank, i);
  for (int i = 0; i < count; ++i) got[i] = SENTINEL;
  CHECK_MPI(MPI_Exscan(input, got, count, MPI_INT, MPI_SUM, comm));
  CHECK_ARRAY("MPI_Exscan", got, want, count);
  memcpy(got, input, (size_t)count * sizeof(int32_t));
  CHECK_MPI(MPI_Iexscan(MPI_IN_PLACE, got, count, MPI_INT, MPI_SUM, comm, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  if (rank == 0) {
    CHECK_ARRAY("MPI_Iexscan in place, rank 0", got, input, count);
  } else {
    CHECK_ARRAY("MPI_Iexscan in place", got, want, count);
  }
  free(untouched);
  free(input);
  free(got);
  free(want);
}

static void check_reduce_local(void) {
  int32_t in[5], inout[5], want[5];
  double din[3] = {1.5, -2.0, 8.0}, dinout[3] = {2.5, -3.0, 7.0}, dwant[3] = {2.5, -2.0, 8.0};
  for (int i = 0; i < 5; ++i) {
    in[i] = value(0, i);
    inout[i] = value(1, i);
    want[i] = in[i] + inout[i];
  }
  CHECK_MPI(MPI_Reduce_local(in, inout, 5, MPI_INT, MPI_SUM));
  CHECK_ARRAY("MPI_Reduce_local sum", inout, want, 5);
  CHECK_MPI(MPI_Reduce_local(din, dinout, 3, MPI_DOUBLE, MPI_MAX));
  CHECK_ARRAY("MPI_Reduce_local max", dinout, dwant, 3);
}

/* Arguments every rank gets wrong alike, so that no rank waits for another. */
static void check_errors(MPI_Comm comm, int size) {
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  int32_t buf[64] = {0};
  for (int r = 0; r < size; ++r) {
    counts[r] = 1;
    displs[r] = r;
  }
  counts[0] = -1;
  CHECK(MPI_Allgatherv(buf, 1, MPI_INT, buf, counts, displs, MPI_INT, comm) == MPI_ERR_COUNT);
  counts[0] = 1;
  CHECK(MPI_Gatherv(buf, 1, MPI_INT, buf, counts, displs, MPI_INT, size, comm) == MPI_ERR_ROOT);
  CHECK(MPI_Alltoallv(buf, counts, displs, MPI_INT, NULL, counts, displs, MPI_INT, comm) ==
        MPI_ERR_BUFFER);
  CHECK(MPI_Alltoallv(buf, counts, displs, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT, comm) ==
        MPI_ERR_TYPE);
  CHECK(MPI_Allgatherv(buf, 1, MPI_INT, buf, NULL, displs, MPI_INT, comm) == MPI_ERR_ARG);
  /* A rank's block to itself of 4 bytes one way and 8 the other. */
  CHECK(MPI_Alltoallv(buf, counts, displs, MPI_INT, buf + 32, counts, displs, MPI_DOUBLE, comm) ==
        MPI_ERR_ARG);
  CHECK(MPI_Scan(buf, buf + 8, 2, MPI_FLOAT, MPI_BAND, comm) == MPI_ERR_OP);
  CHECK(MPI_Exscan(buf, MPI_IN_PLACE, 2, MPI_INT, MPI_SUM, comm) == MPI_ERR_BUFFER);
  counts[size - 1] = -2;
  CHECK(MPI_Reduce_scatter(buf, buf + 32, counts, MPI_INT, MPI_SUM, comm) == MPI_ERR_COUNT);
  CHECK(MPI_Reduce_scatter_block(buf, buf, -1, MPI_INT, MPI_SUM, comm) == MPI_ERR_COUNT);
  double d[2] = {1.0, 2.0};
  CHECK(MPI_Reduce_local(d, d + 1, 1, MPI_DOUBLE, MPI_BAND) == MPI_ERR_OP);
  CHECK(MPI_Reduce_local(d, d + 1, -1, MPI_DOUBLE, MPI_SUM) == MPI_ERR_COUNT);
  CHECK(MPI_Reduce_local(d, NULL, 1, MPI_DOUBLE, MPI_SUM) == MPI_ERR_BUFFER);
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK(MPI_Iscan(buf, buf + 8, 1, MPI_INT, MPI_OP_NULL, comm, &request) == MPI_ERR_OP);
  CHECK(request == MPI_REQUEST_NULL);
  free(counts);
  free(displs);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bases[] = {0, 1, 5, 1000};
  for (int b = 0; b < 4; ++b) {
    check_gatherv_scatterv(MPI_COMM_WORLD, rank, size, bases[b]);
    check_allgatherv(MPI_COMM_WORLD, rank, size, bases[b]);
    check_alltoallv(MPI_COMM_WORLD, rank, size, bases[b]);
    check_igather_iscatter(MPI_COMM_WORLD, rank, size, bases[b]);
    check_reduce_scatter(MPI_COMM_WORLD, rank, size, bases[b]);
    check_scans(MPI_COMM_WORLD, rank, bases[b]);
  }
  check_reduce_local();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check_errors(MPI_COMM_WORLD, size);
  /* Still in step after the errors. */
  check_scans(MPI_COMM_WORLD, rank, 3);
  MPI_Finalize();
  if (rank == 0 && check_failures == 0) printf("shim_collectives_more: ok on %d ranks\n", size);
  return finish_checks("shim_collectives_more");
}
