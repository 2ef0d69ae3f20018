/* Persistent collectives planned once at MPI_*_init (docs/mpi-shim.md, "Planned once"): the
 * calls that must NOT be replayed as planned (their buffers or ops change per round) and the
 * lifetime of a planned one. Each runs kRounds rounds with data changed every round, checked
 * element by element against a serial reference:
 * - allreduce of a vector datatype with holes (packed anew each round, holes untouched);
 * - alltoall and scatter with MPI_IN_PLACE (their scratch copy taken anew each round);
 * - allreduce with a user op (MPI_Op_create);
 * - a planned allreduce and bcast on a duplicate communicator freed after init;
 * - a planned round's activity, whether it ended at its start (the bcast root's small round
 *   usually does, and then has no Halyard request) or not.
 */
#include <mpi.h>
#include <string.h>

#include "shim_check.h"

enum { kRounds = 200, kCount = 6 };

static int rank, size, left, right;

static int value(int who, int round, int i) {
  return who * 1009 + round * 17 + i;
}

static void start_and_wait(MPI_Request* request) {
  CHECK_MPI(MPI_Start(request));
  CHECK_MPI(MPI_Wait(request, MPI_STATUS_IGNORE));
}

/* Sum of value(r, round, i) over the ranks. */
static int sum_over_ranks(int round, int i) {
  int sum = 0;
  for (int r = 0; r < size; ++r) sum += value(r, round, i);
  return sum;
}

/* kCount ints at every other int: the holes (odd indices) hold -7 and must stay so. */
static void check_vector_allreduce(void) {
  int send[2 * kCount], recv[2 * kCount], want[2 * kCount];
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(kCount, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  MPI_Request request;
  CHECK_MPI(MPI_Allreduce_init(send, recv, 1, every_other, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &request));
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < 2 * kCount; ++i) {
      send[i] = i % 2 == 0 ? value(rank, round, i / 2) : -5;
      recv[i] = -7;
      want[i] = i % 2 == 0 ? sum_over_ranks(round, i / 2) : -7;
    }
    start_and_wait(&request);
    CHECK_ARRAY("vector MPI_Allreduce_init", recv, want, 2 * kCount);
  }
  CHECK_MPI(MPI_Request_free(&request));
  CHECK_MPI(MPI_Type_free(&every_other));
}

static void check_in_place_alltoall_and_scatter(void) {
  const int root = size - 1;
  int* blocks = malloc(sizeof(int) * kCount * (size_t)size);
  int* scattered = malloc(sizeof(int) * kCount * (size_t)size);
  int mine[kCount];
  MPI_Request alltoall, scatter;
  CHECK_MPI(MPI_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, blocks, kCount, MPI_INT,
                              MPI_COMM_WORLD, MPI_INFO_NULL, &alltoall));
  void* scatter_recv = rank == root ? MPI_IN_PLACE : (void*)mine;
  CHECK_MPI(MPI_Scatter_init(scattered, kCount, MPI_INT, scatter_recv, kCount, MPI_INT, root,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &scatter));
  for (int round = 0; round < kRounds; ++round) {
    /* Block r of rank q holds q's data for r. */
    for (int r = 0; r < size; ++r) {
      for (int i = 0; i < kCount; ++i) {
        blocks[r * kCount + i] = value(rank, round, i) * 3 + r;
        scattered[r * kCount + i] = rank == root ? value(r, round, i) + 11 : -1;
      }
    }
    for (int i = 0; i < kCount; ++i) mine[i] = -1;
    start_and_wait(&alltoall);
    start_and_wait(&scatter);
    for (int r = 0; r < size; ++r) {
      for (int i = 0; i < kCount; ++i) {
        CHECK(blocks[r * kCount + i] == value(r, round, i) * 3 + rank);
        if (rank == root) CHECK(scattered[r * kCount + i] == value(r, round, i) + 11);
      }
    }
    if (rank != root) {
      for (int i = 0; i < kCount; ++i) CHECK(mine[i] == value(rank, round, i) + 11);
    }
  }
  CHECK_MPI(MPI_Request_free(&alltoall));
  CHECK_MPI(MPI_Request_free(&scatter));
  free(blocks);
  free(scattered);
}

/* A user op: the sum plus 1 per combination, so that the builtin MPI_SUM would be wrong. */
static void sum_plus_one(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i] + 1;
}

static void check_user_op_allreduce(void) {
  int send[kCount], recv[kCount], want[kCount];
  MPI_Op op;
  CHECK_MPI(MPI_Op_create(sum_plus_one, 1, &op));
  MPI_Request request;
  CHECK_MPI(
      MPI_Allreduce_init(send, recv, kCount, MPI_INT, op, MPI_COMM_WORLD, MPI_INFO_NULL, &request));
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kCount; ++i) {
      send[i] = value(rank, round, i);
      recv[i] = -1;
      want[i] = sum_over_ranks(round, i) + size - 1;
    }
    start_and_wait(&request);
    CHECK_ARRAY("user-op MPI_Allreduce_init", recv, want, kCount);
  }
  CHECK_MPI(MPI_Request_free(&request));
  CHECK_MPI(MPI_Op_free(&op));
}

static void check_freed_communicator(void) {
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  int send[kCount], recv[kCount], want[kCount], shared[kCount];
  MPI_Request requests[2];
  CHECK_MPI(
      MPI_Allreduce_init(send, recv, kCount, MPI_INT, MPI_SUM, dup, MPI_INFO_NULL, &requests[0]));
  CHECK_MPI(MPI_Bcast_init(shared, kCount, MPI_INT, 0, dup, MPI_INFO_NULL, &requests[1]));
  CHECK_MPI(MPI_Comm_free(&dup));
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kCount; ++i) {
      send[i] = value(rank, round, i);
      recv[i] = -1;
      shared[i] = rank == 0 ? value(0, round, i) : -1;
      want[i] = sum_over_ranks(round, i);
    }
    CHECK_MPI(MPI_Startall(2, requests));
    CHECK_MPI(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE));
    CHECK_ARRAY("MPI_Allreduce_init on a freed duplicate", recv, want, kCount);
    for (int i = 0; i < kCount; ++i) want[i] = value(0, round, i);
    CHECK_ARRAY("MPI_Bcast_init on a freed duplicate", shared, want, kCount);
  }
  CHECK_MPI(MPI_Request_free(&requests[0]));
  CHECK_MPI(MPI_Request_free(&requests[1]));
}

/* A planned round is active from MPI_Start until its completion is reported: a second start
 * fails, MPI_Request_get_status sees it complete without ending it, MPI_Test ends it (with an
 * empty status for a collective), and a wait after that returns at once. */
static void check_round_activity(void) {
  int data[kCount], want[kCount];
  MPI_Request request;
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Bcast_init(data, kCount, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &request));
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kCount; ++i) {
      data[i] = rank == 0 ? value(0, round, i) : -1;
      want[i] = value(0, round, i);
    }
    CHECK_MPI(MPI_Start(&request));
    CHECK_CLASS(MPI_Start(&request), MPI_ERR_REQUEST);
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_Start(&request), MPI_ERR_REQUEST);
    MPI_Status status;
    flag = 0;
    CHECK_MPI(MPI_Test(&request, &flag, &status));
    CHECK(flag == 1);
    CHECK(status.MPI_ERROR == MPI_SUCCESS);
    CHECK_ARRAY("MPI_Bcast_init round", data, want, kCount);
    status.MPI_SOURCE = 12345;
    CHECK_MPI(MPI_Wait(&request, &status));
    CHECK(status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG);
  }
  CHECK_MPI(MPI_Request_free(&request));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  ring_position(&rank, &size, &left, &right);
  check_vector_allreduce();
  check_in_place_alltoall_and_scatter();
  check_user_op_allreduce();
  check_freed_communicator();
  check_round_activity();
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_persistent_planned");
}
