/* Further point-to-point (issue 25): MPI_PROC_NULL, probes (sizes, sources, tags), matched
 * probes with a competing receive, synchronous sends that wait for the receive, buffered sends
 * and their buffer, cancelled receives, MPI_Sendrecv_replace, and the index rules of
 * MPI_Waitany / Waitsome / Testany / Testsome / MPI_Request_get_status. Every rank sends to its
 * right neighbour and receives from its left one, so each check runs on 1 rank (to itself) too.
 */
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "shim_check.h"

static int rank, size, left, right;

static int value(int sender, int tag, long i) {
  return sender * 1000003 + tag * 7919 + (int)i;
}

static int* filled(int sender, int tag, long count) {
  int* data = malloc((size_t)count * sizeof(int) + 1);
  for (long i = 0; i < count; ++i) data[i] = value(sender, tag, i);
  return data;
}

static void check_proc_null_status(const MPI_Status* status) {
  int count = -1;
  CHECK(status->MPI_SOURCE == MPI_PROC_NULL && status->MPI_TAG == MPI_ANY_TAG);
  CHECK_MPI(MPI_Get_count(status, MPI_INT, &count));
  CHECK(count == 0);
}

static void check_proc_null(void) {
  int data[4] = {1, 2, 3, 4};
  MPI_Status status;
  MPI_Request requests[2];
  CHECK_MPI(MPI_Send(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Ssend(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Recv(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &status));
  check_proc_null_status(&status);
  CHECK(data[0] == 1 && data[3] == 4); /* untouched */
  CHECK_MPI(MPI_Isend(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &requests[0]));
  CHECK_MPI(MPI_Irecv(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &requests[1]));
  CHECK_MPI(MPI_Wait(&requests[1], &status));
  check_proc_null_status(&status);
  CHECK_MPI(MPI_Wait(&requests[0], MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Sendrecv(data, 4, MPI_INT, MPI_PROC_NULL, 2, data, 4, MPI_INT, MPI_PROC_NULL, 2,
                         MPI_COMM_WORLD, &status));
  check_proc_null_status(&status);
  CHECK_MPI(MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &status));
  check_proc_null_status(&status);
  int flag = 0;
  CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status));
  CHECK(flag == 1);
  check_proc_null_status(&status);
  MPI_Message message = MPI_MESSAGE_NULL;
  CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &message, &status));
  CHECK(message == MPI_MESSAGE_NO_PROC);
  CHECK_MPI(MPI_Mrecv(data, 4, MPI_INT, &message, &status));
  CHECK(message == MPI_MESSAGE_NULL);
  check_proc_null_status(&status);
}

/* Three messages of different tags and sizes (one of 4 MiB) from the left: probes report each
 * one's source, tag and size without taking it. */
static void check_probes(void) {
  const int tags[3] = {100, 101, 102};
  const long counts[3] = {0, 37, 1L << 20};
  int* out[3];
  MPI_Request sends[3];
  for (int k = 0; k < 3; ++k) {
    out[k] = filled(rank, tags[k], counts[k]);
    CHECK_MPI(
        MPI_Isend(out[k], (int)counts[k], MPI_INT, right, tags[k], MPI_COMM_WORLD, &sends[k]));
  }
  MPI_Status status;
  int count = -1, flag = 0;
  CHECK_MPI(MPI_Iprobe(left, 999, MPI_COMM_WORLD, &flag, &status));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 102, MPI_COMM_WORLD, &status));
  CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
  CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 102 && count == counts[2]);
  for (int k = 0; k < 3; ++k) {
    do {
      CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status));
    } while (!flag);
    CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
    CHECK(status.MPI_SOURCE == left && status.MPI_TAG == tags[k] && count == counts[k]);
    int* in = malloc((size_t)count * sizeof(int) + 1);
    int* want = filled(left, tags[k], counts[k]);
    CHECK_MPI(MPI_Recv(in, count, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK_ARRAY("probed message", in, want, counts[k]);
    free(in);
    free(want);
  }
  CHECK_MPI(MPI_Waitall(3, sends, MPI_STATUSES_IGNORE));
  for (int k = 0; k < 3; ++k) free(out[k]);
}

/* A matched probe takes the first message; a receive posted afterwards, which would have
 * matched it, gets the second; MPI_Mrecv / MPI_Imrecv get theirs. */
static void check_matched_probes(void) {
  const long big = 1L << 20, small = 10;
  int* first = filled(rank, 1, big);
  int* second = filled(rank, 2, small);
  int* third = filled(rank, 3, small);
  MPI_Request sends[3];
  CHECK_MPI(MPI_Isend(first, (int)big, MPI_INT, right, 200, MPI_COMM_WORLD, &sends[0]));
  CHECK_MPI(MPI_Isend(second, (int)small, MPI_INT, right, 200, MPI_COMM_WORLD, &sends[1]));
  CHECK_MPI(MPI_Isend(third, (int)small, MPI_INT, right, 201, MPI_COMM_WORLD, &sends[2]));

  MPI_Message message, other;
  MPI_Status status;
  int count = -1, flag = 0;
  CHECK_MPI(MPI_Mprobe(left, 200, MPI_COMM_WORLD, &message, &status));
  CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
  CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 200 && count == big);
  int* in = malloc((size_t)big * sizeof(int));
  CHECK_MPI(MPI_Recv(in, (int)big, MPI_INT, left, 200, MPI_COMM_WORLD, &status));
  CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
  CHECK(count == small);
  int* want = filled(left, 2, small);
  CHECK_ARRAY("receive competing with MPI_Mprobe", in, want, small);
  free(want);

  do {
    CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, 201, MPI_COMM_WORLD, &flag, &other, &status));
  } while (!flag);
  CHECK(status.MPI_TAG == 201);
  CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status));
  CHECK(flag == 0); /* both messages are taken: probes see neither */
  MPI_Request request;
  int third_in[10];
  CHECK_MPI(MPI_Imrecv(third_in, (int)small, MPI_INT, &other, &request));
  CHECK(other == MPI_MESSAGE_NULL);
  CHECK_MPI(MPI_Wait(&request, &status));
  want = filled(left, 3, small);
  CHECK_ARRAY("MPI_Imrecv", third_in, want, small);
  free(want);

  CHECK_MPI(MPI_Mrecv(in, (int)big, MPI_INT, &message, &status));
  CHECK(message == MPI_MESSAGE_NULL && status.MPI_SOURCE == left && status.MPI_TAG == 200);
  want = filled(left, 1, big);
  CHECK_ARRAY("MPI_Mrecv of 4 MiB", in, want, big);
  free(want);
  CHECK_MPI(MPI_Waitall(3, sends, MPI_STATUSES_IGNORE));
  free(in);
  free(first);
  free(second);
  free(third);
}

/* An MPI_Issend is not complete while the receiver has not posted its receive (the receiver
 * waits for the sender's go-ahead, which comes after 20 ms of MPI_Test), and completes once it
 * has. */
static void check_synchronous(long count) {
  int* out = filled(rank, 300, count);
  int* in = malloc((size_t)count * sizeof(int) + 1);
  MPI_Request sync, go;
  int flag = 0;
  CHECK_MPI(MPI_Issend(out, (int)count, MPI_INT, right, 300, MPI_COMM_WORLD, &sync));
  CHECK_MPI(MPI_Irecv(NULL, 0, MPI_INT, left, 301, MPI_COMM_WORLD, &go));
  double until = MPI_Wtime() + 0.02;
  while (MPI_Wtime() < until && !flag) CHECK_MPI(MPI_Test(&sync, &flag, MPI_STATUS_IGNORE));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, right, 301, MPI_COMM_WORLD)); /* "post your receive" */
  CHECK_MPI(MPI_Wait(&go, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Recv(in, (int)count, MPI_INT, left, 300, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&sync, MPI_STATUS_IGNORE));
  int* want = filled(left, 300, count);
  CHECK_ARRAY("MPI_Issend's message", in, want, count);
  free(want);
  free(in);
  free(out);
  /* Blocking MPI_Ssend, with the receive posted first. */
  int one = rank, got = -1;
  MPI_Request recv;
  CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 302, MPI_COMM_WORLD, &recv));
  CHECK_MPI(MPI_Ssend(&one, 1, MPI_INT, right, 302, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&recv, MPI_STATUS_IGNORE));
  CHECK(got == left);
}

/* Buffered sends: a copy goes into the attached buffer (the caller's data may change at once),
 * a message larger than the buffer is refused with MPI_ERR_BUFFER, as is any without a buffer. */
static void check_buffered(MPI_Comm returning) {
  enum { kCount = 100 };
  int big[4 * kCount] = {0};
  int bytes = 2 * (kCount * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attached = malloc((size_t)bytes);
  CHECK(MPI_Bsend(big, 1, MPI_INT, right, 400, returning) == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Buffer_attach(attached, bytes));
  int* out = filled(rank, 400, kCount);
  CHECK_MPI(MPI_Bsend(out, kCount, MPI_INT, right, 400, MPI_COMM_WORLD));
  for (int i = 0; i < kCount; ++i) out[i] = -1; /* the message was copied: this changes nothing */
  MPI_Request request;
  CHECK_MPI(MPI_Ibsend(out, kCount, MPI_INT, right, 401, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(MPI_Bsend(big, 4 * kCount, MPI_INT, right, 402, returning) == MPI_ERR_BUFFER);

  int in[kCount];
  int* want = filled(left, 400, kCount);
  CHECK_MPI(MPI_Recv(in, kCount, MPI_INT, left, 400, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_ARRAY("MPI_Bsend's copy", in, want, kCount);
  CHECK_MPI(MPI_Recv(in, kCount, MPI_INT, left, 401, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int i = 0; i < kCount; ++i) want[i] = -1;
  CHECK_ARRAY("MPI_Ibsend's copy", in, want, kCount);
  free(want);
  void* detached = NULL;
  int detached_size = 0;
  CHECK_MPI(MPI_Buffer_detach(&detached, &detached_size));
  CHECK(detached == attached && detached_size == bytes);
  CHECK(MPI_Bsend(out, 1, MPI_INT, right, 403, returning) == MPI_ERR_BUFFER);
  free(out);
  free(attached);
  /* Ready sends are standard ones here: correct whenever the receive is posted, as MPI asks. */
  int got = -1, one = rank;
  CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 404, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Rsend(&one, 1, MPI_INT, right, 404, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(got == left);
  CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 405, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Request ready;
  CHECK_MPI(MPI_Irsend(&one, 1, MPI_INT, right, 405, MPI_COMM_WORLD, &ready));
  CHECK_MPI(MPI_Wait(&ready, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK(got == left);
}

static void check_cancel(void) {
  int buffer[8] = {7, 7, 7, 7, 7, 7, 7, 7};
  MPI_Request request;
  MPI_Status status;
  int flag = -1;
  /* Nobody sends tag 500: the receive is withdrawn and its buffer stays as it was. */
  CHECK_MPI(MPI_Irecv(buffer, 8, MPI_INT, MPI_ANY_SOURCE, 500, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Cancel(&request));
  CHECK_MPI(MPI_Wait(&request, &status));
  CHECK(request == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Test_cancelled(&status, &flag));
  CHECK(flag == 1 && buffer[0] == 7 && buffer[7] == 7);
  /* A receive that completed is not cancelled. */
  int one = rank;
  CHECK_MPI(MPI_Irecv(buffer, 1, MPI_INT, left, 501, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Send(&one, 1, MPI_INT, right, 501, MPI_COMM_WORLD));
  do {
    CHECK_MPI(MPI_Request_get_status(request, &flag, &status));
  } while (!flag);
  CHECK(request != MPI_REQUEST_NULL); /* MPI_Request_get_status does not free it */
  CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 501);
  CHECK_MPI(MPI_Cancel(&request));
  CHECK_MPI(MPI_Wait(&request, &status));
  CHECK_MPI(MPI_Test_cancelled(&status, &flag));
  CHECK(flag == 0 && buffer[0] == left);
  /* A send is not withdrawn here: it completes and its message arrives. */
  CHECK_MPI(MPI_Isend(&one, 1, MPI_INT, right, 502, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Cancel(&request));
  CHECK_MPI(MPI_Wait(&request, &status));
  CHECK_MPI(MPI_Test_cancelled(&status, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Recv(buffer, 1, MPI_INT, left, 502, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(buffer[0] == left);
}

static void check_empty_status(const MPI_Status* status) {
  CHECK(status->MPI_SOURCE == MPI_ANY_SOURCE && status->MPI_TAG == MPI_ANY_TAG &&
        status->MPI_ERROR == MPI_SUCCESS);
}

/* Waitany / Testany / Waitsome / Testsome: MPI_UNDEFINED when nothing is active; otherwise the
 * index of what completed, its handle set to MPI_REQUEST_NULL. */
static void check_completion_rules(void) {
  MPI_Request requests[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                             MPI_REQUEST_NULL};
  MPI_Status status, statuses[4];
  int index = 0, flag = 0, outcount = 0, indices[4];
  CHECK_MPI(MPI_Waitany(4, requests, &index, &status));
  CHECK(index == MPI_UNDEFINED);
  check_empty_status(&status);
  CHECK_MPI(MPI_Testany(4, requests, &index, &flag, &status));
  CHECK(index == MPI_UNDEFINED && flag == 1);
  CHECK_MPI(MPI_Waitsome(4, requests, &outcount, indices, statuses));
  CHECK(outcount == MPI_UNDEFINED);
  CHECK_MPI(MPI_Testsome(4, requests, &outcount, indices, statuses));
  CHECK(outcount == MPI_UNDEFINED);
  CHECK_MPI(MPI_Waitany(0, NULL, &index, &status));
  CHECK(index == MPI_UNDEFINED);

  int got500 = -1, got501 = -1, one = rank;
  CHECK_MPI(MPI_Irecv(&got500, 1, MPI_INT, left, 600, MPI_COMM_WORLD, &requests[1]));
  CHECK_MPI(MPI_Irecv(&got501, 1, MPI_INT, left, 601, MPI_COMM_WORLD, &requests[3]));
  CHECK_MPI(MPI_Send(&one, 1, MPI_INT, right, 601, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Waitany(4, requests, &index, &status));
  CHECK(index == 3 && requests[3] == MPI_REQUEST_NULL && got501 == left);
  CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 601);
  /* Tag 600 comes only after this rank's go-ahead to its left neighbour. */
  CHECK_MPI(MPI_Testany(4, requests, &index, &flag, &status));
  CHECK(flag == 0 && index == MPI_UNDEFINED && requests[1] != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Testsome(4, requests, &outcount, indices, statuses));
  CHECK(outcount == 0);
  CHECK_MPI(MPI_Request_get_status(requests[1], &flag, &status));
  CHECK(flag == 0);
  MPI_Request go;
  CHECK_MPI(MPI_Irecv(NULL, 0, MPI_INT, right, 602, MPI_COMM_WORLD, &go));
  CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, left, 602, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&go, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Send(&one, 1, MPI_INT, right, 600, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Waitsome(4, requests, &outcount, indices, statuses));
  CHECK(outcount == 1 && indices[0] == 1 && requests[1] == MPI_REQUEST_NULL && got500 == left);
  CHECK(statuses[0].MPI_SOURCE == left && statuses[0].MPI_TAG == 600);

  /* MPI_Request_free of a send in flight: the message still arrives. */
  MPI_Request freed;
  CHECK_MPI(MPI_Isend(&one, 1, MPI_INT, right, 603, MPI_COMM_WORLD, &freed));
  CHECK_MPI(MPI_Request_free(&freed));
  CHECK(freed == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Recv(&got500, 1, MPI_INT, left, 603, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(got500 == left);
}

static void check_sendrecv_replace(void) {
  enum { kCount = 1000 };
  int* data = filled(rank, 700, kCount);
  MPI_Status status;
  CHECK_MPI(
      MPI_Sendrecv_replace(data, kCount, MPI_INT, right, 700, left, 700, MPI_COMM_WORLD, &status));
  int* want = filled(left, 700, kCount);
  CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 700);
  CHECK_ARRAY("MPI_Sendrecv_replace", data, want, kCount);
  free(want);
  free(data);
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  ring_position(&rank, &size, &left, &right);
  MPI_Comm returning;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &returning));
  CHECK_MPI(MPI_Comm_set_errhandler(returning, MPI_ERRORS_RETURN));

  check_proc_null();
  check_probes();
  check_matched_probes();
  check_synchronous(4);
  check_synchronous(1L << 20);
  check_buffered(returning);
  check_cancel();
  check_completion_rules();
  check_sendrecv_replace();

  CHECK_MPI(MPI_Comm_free(&returning));
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_p2p_more");
}
