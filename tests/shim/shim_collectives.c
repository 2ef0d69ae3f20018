/* The data-moving collectives: MPI_Bcast, MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Alltoall
 * (with their MPI_IN_PLACE forms and mixed send/receive datatypes of equal size), MPI_Barrier,
 * and the non-blocking MPI_Ibcast / MPI_Ibarrier completed by Wait, Waitall, Test and Testall.
 * Every result is checked element by element against what each rank sent.
 */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "shim_check.h"

/* Element i of the block that rank r contributes (or owns): distinct for every (r, i). */
static int32_t value(int r, long i) {
  return (int32_t)(r * 1000003L + i * 7 + 1);
}

/* Block b of size `count` from rank r: element i is value(r, b * count + i). */
static void fill(int32_t* out, int r, int block, long count) {
  for (long i = 0; i < count; ++i) out[i] = value(r, block * count + i);
}

static void check_bcast(MPI_Comm comm, int rank, int size, long count) {
  int32_t* buffer = malloc((size_t)count * sizeof(int32_t) + 1);
  int32_t* want = malloc((size_t)count * sizeof(int32_t) + 1);
  for (int root = 0; root<size; root += size> 2 ? size - 1 : 1) {
    fill(want, root, 0, count);
    if (rank == root)
      fill(buffer, root, 0, count);
    else
      memset(buffer, 0, (size_t)count * sizeof(int32_t));
    CHECK_MPI(MPI_Bcast(buffer, (int)count, MPI_INT, root, comm));
    CHECK_ARRAY("MPI_Bcast", buffer, want, count);

    /* The same bytes described as MPI_BYTE, non-blocking. */
    if (rank != root) memset(buffer, 0, (size_t)count * sizeof(int32_t));
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Ibcast(buffer, (int)(count * 4), MPI_BYTE, root, comm, &request));
    MPI_Status status;
    CHECK_MPI(MPI_Wait(&request, &status));
    CHECK(request == MPI_REQUEST_NULL);
    CHECK_ARRAY("MPI_Ibcast", buffer, want, count);
  }
  free(buffer);
  free(want);
}

static void check_gather_scatter(MPI_Comm comm, int rank, int size, long count) {
  size_t block_bytes = (size_t)count * sizeof(int32_t);
  int32_t* mine = malloc(block_bytes + 1);
  int32_t* all = malloc(block_bytes * (size_t)size + 1);
  int32_t* want = malloc(block_bytes * (size_t)size + 1);
  int root = size / 2;
  fill(mine, rank, 0, count);
  for (int r = 0; r < size; ++r) fill(want + r * count, r, 0, count);

  memset(all, 0, block_bytes * (size_t)size);
  CHECK_MPI(MPI_Gather(mine, (int)count, MPI_INT, all, (int)count, MPI_INT, root, comm));
  if (rank == root) CHECK_ARRAY("MPI_Gather", all, want, count * size);

  /* Send as MPI_INT, receive the same bytes as MPI_FLOAT (equal sizes). */
  memset(all, 0, block_bytes * (size_t)size);
  CHECK_MPI(MPI_Gather(mine, (int)count, MPI_INT, all, (int)count, MPI_FLOAT, root, comm));
  if (rank == root) CHECK_ARRAY("MPI_Gather mixed types", all, want, count * size);

  /* In place at the root: its own block already sits in recvbuf. */
  memset(all, 0, block_bytes * (size_t)size);
  if (rank == root) {
    memcpy(all + root * count, mine, block_bytes);
    CHECK_MPI(MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, (int)count, MPI_INT, root, comm));
    CHECK_ARRAY("MPI_Gather in place", all, want, count * size);
  } else {
    CHECK_MPI(MPI_Gather(mine, (int)count, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, comm));
  }

  /* Scatter: the root sends block r (which is rank r's data) to rank r. */
  int32_t* got = malloc(block_bytes + 1);
  memset(got, 0, block_bytes);
  CHECK_MPI(MPI_Scatter(rank == root ? want : NULL, (int)count, MPI_INT, got, (int)count, MPI_INT,
                        root, comm));
  CHECK_ARRAY("MPI_Scatter", got, mine, count);

  memset(got, 0, block_bytes);
  if (rank == root) {
    /* In place: the root's own block stays where it is in sendbuf. */
    memcpy(all, want, block_bytes * (size_t)size);
    CHECK_MPI(
        MPI_Scatter(all, (int)count, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, comm));
    CHECK_ARRAY("MPI_Scatter in place (sendbuf unchanged)", all, want, count * size);
  } else {
    CHECK_MPI(MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, got, (int)count, MPI_INT, root, comm));
    CHECK_ARRAY("MPI_Scatter in place", got, mine, count);
  }
  free(got);
  free(mine);
  free(all);
  free(want);
}

static void check_allgather_alltoall(MPI_Comm comm, int rank, int size, long count) {
  size_t block_bytes = (size_t)count * sizeof(int32_t);
  size_t all_bytes = block_bytes * (size_t)size;
  int32_t* mine = malloc(block_bytes + 1);
  int32_t* all = malloc(all_bytes + 1);
  int32_t* want = malloc(all_bytes + 1);
  fill(mine, rank, 0, count);
  for (int r = 0; r < size; ++r) fill(want + r * count, r, 0, count);

  memset(all, 0, all_bytes);
  CHECK_MPI(MPI_Allgather(mine, (int)count, MPI_INT, all, (int)count, MPI_INT, comm));
  CHECK_ARRAY("MPI_Allgather", all, want, count * size);

  memset(all, 0, all_bytes);
  memcpy(all + rank * count, mine, block_bytes);
  CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, (int)count, MPI_INT, comm));
  CHECK_ARRAY("MPI_Allgather in place", all, want, count * size);

  /* Alltoall: rank r's block d is value(r, d * count + i); rank d receives it as block r. */
  int32_t* send = malloc(all_bytes + 1);
  for (int d = 0; d < size; ++d) fill(send + d * count, rank, d, count);
  for (int r = 0; r < size; ++r) fill(want + r * count, r, rank, count);
  memset(all, 0, all_bytes);
  CHECK_MPI(MPI_Alltoall(send, (int)count, MPI_INT, all, (int)count, MPI_INT, comm));
  CHECK_ARRAY("MPI_Alltoall", all, want, count * size);

  memcpy(all, send, all_bytes);
  CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, (int)count, MPI_INT, comm));
  CHECK_ARRAY("MPI_Alltoall in place", all, want, count * size);
  free(send);
  free(mine);
  free(all);
  free(want);
}

/* Several non-blocking collectives in flight at once, completed by Testall and Waitall. */
static void check_nonblocking_mix(MPI_Comm comm, int rank, int size) {
  enum { kCount = 1000 };
  static int32_t buffers[3][kCount];
  static int32_t want[3][kCount];
  int sums[2] = {0, 0};
  int ones[2] = {1, 1};
  MPI_Request requests[6];
  for (int b = 0; b < 3; ++b) {
    fill(want[b], b % size, b, kCount);
    if (rank == b % size)
      fill(buffers[b], rank, b, kCount);
    else
      memset(buffers[b], 0, sizeof buffers[b]);
    CHECK_MPI(MPI_Ibcast(buffers[b], kCount, MPI_INT, b % size, comm, &requests[b]));
  }
  CHECK_MPI(MPI_Ibarrier(comm, &requests[3]));
  CHECK_MPI(MPI_Iallreduce(ones, sums, 2, MPI_INT, MPI_SUM, comm, &requests[4]));
  requests[5] = MPI_REQUEST_NULL; /* null requests count as complete */
  int done = 0;
  MPI_Status statuses[6];
  while (!done) CHECK_MPI(MPI_Testall(6, requests, &done, statuses));
  for (int i = 0; i < 6; ++i) CHECK(requests[i] == MPI_REQUEST_NULL);
  for (int b = 0; b < 3; ++b) CHECK_ARRAY("MPI_Ibcast in a mix", buffers[b], want[b], kCount);
  CHECK(sums[0] == size && sums[1] == size);

  CHECK_MPI(MPI_Ibarrier(comm, &requests[0]));
  CHECK_MPI(MPI_Waitall(1, requests, MPI_STATUSES_IGNORE));
  CHECK(requests[0] == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Wait(&requests[0], MPI_STATUS_IGNORE)); /* waiting on a null request */
  CHECK_MPI(MPI_Barrier(comm));
}

static void check_communicator(MPI_Comm comm) {
  int rank = -1, size = -1;
  CHECK_MPI(MPI_Comm_rank(comm, &rank));
  CHECK_MPI(MPI_Comm_size(comm, &size));
  static const long kCounts[] = {0, 1, 1000, 70001};
  for (size_t c = 0; c < sizeof kCounts / sizeof kCounts[0]; ++c) {
    check_bcast(comm, rank, size, kCounts[c]);
    check_gather_scatter(comm, rank, size, kCounts[c]);
    check_allgather_alltoall(comm, rank, size, kCounts[c]);
  }
  check_bcast(comm, rank, size, 1L << 20); /* 4 MiB: segmented pipelines */
  check_nonblocking_mix(comm, rank, size);
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  check_communicator(MPI_COMM_WORLD);
  check_communicator(MPI_COMM_SELF);
  /* A communicator whose ranks are the world's in reverse order. */
  MPI_Comm reversed = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &reversed));
  check_communicator(reversed);
  CHECK_MPI(MPI_Comm_free(&reversed));
  CHECK(reversed == MPI_COMM_NULL);
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_collectives");
}
