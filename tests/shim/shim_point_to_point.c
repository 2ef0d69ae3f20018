/* Point-to-point: MPI_Send / MPI_Recv around a ring, MPI_Isend / MPI_Irecv with wildcards,
 * MPI_Sendrecv, statuses (source, tag, MPI_Get_count), zero-byte and large messages, and
 * messages to oneself.
 */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "shim_check.h"

static double value(int sender, long i) {
  return sender * 1e6 + (double)i * 0.5;
}

static void fill(double* out, int sender, long count) {
  for (long i = 0; i < count; ++i) out[i] = value(sender, i);
}

/* Blocking ring: even ranks send first, odd ranks receive first (alone, a rank only does the
 * MPI_Sendrecv part: a blocking send to oneself before the receive is unsafe in MPI). */
static void check_ring(int rank, int size, long count) {
  double* send = malloc((size_t)count * sizeof(double) + 1);
  double* recv = malloc((size_t)count * sizeof(double) + 1);
  double* want = malloc((size_t)count * sizeof(double) + 1);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  fill(send, rank, count);
  fill(want, left, count);
  MPI_Status status;
  if (size == 1) {
    /* nothing: see above */
  } else if (rank % 2 == 0) {
    CHECK_MPI(MPI_Send(send, (int)count, MPI_DOUBLE, right, 11, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(recv, (int)count, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &status));
  } else {
    CHECK_MPI(MPI_Recv(recv, (int)count, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &status));
    CHECK_MPI(MPI_Send(send, (int)count, MPI_DOUBLE, right, 11, MPI_COMM_WORLD));
  }
  if (size > 1) {
    CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 11);
    int received = -1;
    CHECK_MPI(MPI_Get_count(&status, MPI_DOUBLE, &received));
    CHECK(received == count);
    CHECK_ARRAY("ring MPI_Recv", recv, want, count);
  }

  /* The same exchange with MPI_Sendrecv. */
  memset(recv, 0, (size_t)count * sizeof(double));
  CHECK_MPI(MPI_Sendrecv(send, (int)count, MPI_DOUBLE, right, 12, recv, (int)count, MPI_DOUBLE,
                         left, 12, MPI_COMM_WORLD, &status));
  CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 12);
  CHECK_ARRAY("MPI_Sendrecv", recv, want, count);
  free(send);
  free(recv);
  free(want);
}

/* Every rank sends rank 0 one message with tag = its rank; rank 0 receives them with
 * MPI_ANY_SOURCE / MPI_ANY_TAG and tells the senders apart by their statuses. */
static void check_wildcards(int rank, int size) {
  enum { kMax = 64 };
  if (rank != 0) {
    int32_t message[kMax];
    for (int i = 0; i < rank % kMax + 1; ++i) message[i] = rank * 100 + i;
    MPI_Request request;
    CHECK_MPI(MPI_Isend(message, rank % kMax + 1, MPI_INT32_T, 0, rank, MPI_COMM_WORLD, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    return;
  }
  int seen[1024] = {0};
  for (int n = 1; n < size && size <= 1024; ++n) {
    int32_t message[kMax];
    MPI_Request request;
    MPI_Status status;
    CHECK_MPI(MPI_Irecv(message, kMax, MPI_INT32_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                        &request));
    CHECK_MPI(MPI_Wait(&request, &status));
    int from = status.MPI_SOURCE;
    CHECK(from > 0 && from < size && status.MPI_TAG == from);
    if (from <= 0 || from >= size) continue;
    CHECK(!seen[from]);
    seen[from] = 1;
    int count = -1;
    CHECK_MPI(MPI_Get_count(&status, MPI_INT32_T, &count));
    CHECK(count == from % kMax + 1);
    for (int i = 0; i < count && i < kMax; ++i) CHECK(message[i] == from * 100 + i);
    /* Bytes that do not make whole elements: MPI_UNDEFINED. */
    if (count % 2 == 1) {
      CHECK_MPI(MPI_Get_count(&status, MPI_INT64_T, &count));
      CHECK(count == MPI_UNDEFINED);
    }
  }
}

/* Messages to oneself, a zero-byte message, and selective receive by tag (out of order). */
static void check_self_and_tags(int rank) {
  int a = rank + 1, b = rank + 2, got_a = 0, got_b = 0;
  MPI_Request requests[4];
  CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &requests[0]));
  CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, rank, 2, MPI_COMM_WORLD, &requests[1]));
  CHECK_MPI(MPI_Irecv(&got_b, 1, MPI_INT, rank, 2, MPI_COMM_WORLD, &requests[2]));
  CHECK_MPI(MPI_Irecv(&got_a, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &requests[3]));
  MPI_Status statuses[4];
  CHECK_MPI(MPI_Waitall(4, requests, statuses));
  CHECK(got_a == rank + 1 && got_b == rank + 2);
  CHECK(statuses[2].MPI_TAG == 2 && statuses[3].MPI_TAG == 1);
  CHECK(statuses[2].MPI_SOURCE == rank && statuses[3].MPI_SOURCE == rank);

  MPI_Status status;
  CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, rank, 3, NULL, 0, MPI_BYTE, rank, 3, MPI_COMM_WORLD,
                         &status));
  int count = -1;
  CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &count));
  CHECK(count == 0 && status.MPI_TAG == 3);

  /* MPI_Test polls a receive until it completes. */
  int done = 0, value_back = 0;
  MPI_Request request;
  CHECK_MPI(MPI_Irecv(&value_back, 1, MPI_INT, rank, 4, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  CHECK(!done); /* nothing was sent yet */
  CHECK_MPI(MPI_Send(&a, 1, MPI_INT, rank, 4, MPI_COMM_WORLD));
  while (!done) CHECK_MPI(MPI_Test(&request, &done, &status));
  CHECK(value_back == rank + 1 && status.MPI_TAG == 4 && request == MPI_REQUEST_NULL);
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank = -1, size = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  static const long kCounts[] = {0, 1, 1000, 1L << 19}; /* up to 4 MiB: rendezvous paths */
  for (size_t c = 0; c < sizeof kCounts / sizeof kCounts[0]; ++c)
    check_ring(rank, size, kCounts[c]);
  check_wildcards(rank, size);
  check_self_and_tags(rank);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_point_to_point");
}
