/* MPI_THREAD_MULTIPLE (issue 25, part "threads"): 4 threads per rank call MPI at once, on 2
 * ranks. Every phase checks its data element by element:
 *   1. the level is granted (MPI_Query_thread, MPI_Is_thread_main per thread);
 *   2. point-to-point ping-pong, each thread on its own tags, received with MPI_ANY_SOURCE
 *      (small eager and large messages), so every thread blocks in MPI_Recv while others post;
 *   3. collectives (allreduce, bcast, iallreduce + wait, barrier) on per-thread dup'ed
 *      communicators, at once;
 *   4. object churn: MPI_Comm_dup/free, derived datatypes created, used and freed, user ops,
 *      keyvals and attributes, names and error handlers, all from every thread at once.
 * Run with and without HALYARD_PROGRESS_THREAD=1, on one node and over 2 vnodes. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 4, kPingPongs = 200, kLargeEvery = 10, kSmall = 64, kLarge = 32768 };
enum { kCollectiveRounds = 100, kReduceCount = 256, kChurnRounds = 20 };

static atomic_int failures;
static int world_rank;
static MPI_Comm thread_comms[kThreads];

#define CHECK(condition)                                                                        \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      fprintf(stderr, "rank %d: FAIL %s:%d: %s\n", world_rank, __FILE__, __LINE__, #condition); \
      atomic_fetch_add(&failures, 1);                                                           \
    }                                                                                           \
  } while (0)
#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS)

/* The value of element i of a message or contribution: unique per thread, round and source. */
static int value(int thread, int round, int source, int i) {
  return ((thread * 1000 + round) * 7 + source) * 131 + i;
}

/* Element by element; reports the first mismatch only. */
static void check_elements(const char* what, int thread, const int* got, const int* want,
                           int count) {
  for (int i = 0; i < count; ++i) {
    if (got[i] != want[i]) {
      fprintf(stderr, "rank %d thread %d: FAIL %s: element %d of %d is %d, expected %d\n",
              world_rank, thread, what, i, count, got[i], want[i]);
      atomic_fetch_add(&failures, 1);
      return;
    }
  }
}

static void* ping_pong(void* arg) {
  int thread = (int)(long)arg;
  int flag = -1;
  CHECK_MPI(MPI_Is_thread_main(&flag));
  CHECK(flag == 0);
  int peer = 1 - world_rank;
  int* out = malloc(sizeof(int) * kLarge);
  int* in = malloc(sizeof(int) * kLarge);
  int* want = malloc(sizeof(int) * kLarge);
  for (int round = 0; round < kPingPongs; ++round) {
    int count = round % kLargeEvery == 0 ? kLarge : kSmall;
    /* Rank 0 sends on tag `thread`, rank 1 answers on tag 100 + `thread`. */
    int send_tag = world_rank == 0 ? thread : 100 + thread;
    int recv_tag = world_rank == 0 ? 100 + thread : thread;
    for (int i = 0; i < count; ++i) {
      out[i] = value(thread, round, world_rank, i);
      want[i] = value(thread, round, peer, i);
    }
    MPI_Status status;
    if (world_rank == 0) CHECK_MPI(MPI_Send(out, count, MPI_INT, peer, send_tag, MPI_COMM_WORLD));
    memset(in, 0, sizeof(int) * count);
    CHECK_MPI(MPI_Recv(in, count, MPI_INT, MPI_ANY_SOURCE, recv_tag, MPI_COMM_WORLD, &status));
    CHECK(status.MPI_SOURCE == peer);
    CHECK(status.MPI_TAG == recv_tag);
    int received = -1;
    CHECK_MPI(MPI_Get_count(&status, MPI_INT, &received));
    CHECK(received == count);
    check_elements("ping-pong", thread, in, want, count);
    if (world_rank == 1) CHECK_MPI(MPI_Send(out, count, MPI_INT, peer, send_tag, MPI_COMM_WORLD));
  }
  free(out);
  free(in);
  free(want);
  return NULL;
}

static void* collectives(void* arg) {
  int thread = (int)(long)arg;
  MPI_Comm comm = thread_comms[thread];
  int size = 0;
  MPI_Comm_size(comm, &size);
  int mine[kReduceCount], sum[kReduceCount], want[kReduceCount];
  for (int round = 0; round < kCollectiveRounds; ++round) {
    for (int i = 0; i < kReduceCount; ++i) {
      mine[i] = value(thread, round, world_rank, i);
      want[i] = 0;
      for (int r = 0; r < size; ++r) want[i] += value(thread, round, r, i);
    }
    CHECK_MPI(MPI_Allreduce(mine, sum, kReduceCount, MPI_INT, MPI_SUM, comm));
    check_elements("allreduce", thread, sum, want, kReduceCount);

    MPI_Request request;
    memset(sum, 0, sizeof sum);
    CHECK_MPI(MPI_Iallreduce(mine, sum, kReduceCount, MPI_INT, MPI_SUM, comm, &request));
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    check_elements("iallreduce", thread, sum, want, kReduceCount);

    int root = round % size;
    for (int i = 0; i < kReduceCount; ++i) {
      want[i] = value(thread, round, root, i);
      mine[i] = world_rank == root ? want[i] : -1;
    }
    CHECK_MPI(MPI_Bcast(mine, kReduceCount, MPI_INT, root, comm));
    check_elements("bcast", thread, mine, want, kReduceCount);
    CHECK_MPI(MPI_Barrier(comm));
  }
  return NULL;
}

/* A user op: element-wise maximum. */
static void maximum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i) b[i] = a[i] > b[i] ? a[i] : b[i];
}

static void* churn(void* arg) {
  int thread = (int)(long)arg;
  MPI_Comm parent = thread_comms[thread];
  int peer = 1 - world_rank;
  for (int round = 0; round < kChurnRounds; ++round) {
    /* A communicator of this thread's own, dup'ed and freed. */
    MPI_Comm comm;
    CHECK_MPI(MPI_Comm_dup(parent, &comm));
    char name[MPI_MAX_OBJECT_NAME];
    snprintf(name, sizeof name, "thread %d round %d", thread, round);
    CHECK_MPI(MPI_Comm_set_name(comm, name));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));

    /* A keyval and an attribute on it. */
    int keyval = MPI_KEYVAL_INVALID;
    CHECK_MPI(
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL));
    static int attribute_values[kThreads];
    attribute_values[thread] = round;
    CHECK_MPI(MPI_Comm_set_attr(comm, keyval, &attribute_values[thread]));

    /* A vector datatype (every other int of 2 * 16) sent to the peer's same thread. */
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(16, 1, 2, MPI_INT, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    int type_size = 0;
    CHECK_MPI(MPI_Type_size(every_other, &type_size));
    CHECK(type_size == 16 * (int)sizeof(int));
    int out[32], in[32], want[32];
    for (int i = 0; i < 32; ++i) {
      out[i] = value(thread, round, world_rank, i);
      in[i] = -1;
      want[i] = i % 2 == 0 ? value(thread, round, peer, i) : -1;
    }
    CHECK_MPI(MPI_Sendrecv(out, 1, every_other, peer, 7, in, 1, every_other, peer, 7, comm,
                           MPI_STATUS_IGNORE));
    check_elements("vector sendrecv", thread, in, want, 32);
    CHECK_MPI(MPI_Type_free(&every_other));

    /* A user op, applied and freed. */
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(maximum, 1, &op));
    int mine = value(thread, round, world_rank, 0), max = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &max, 1, MPI_INT, op, comm));
    int want_max = value(thread, round, 1, 0);
    CHECK(max == want_max);
    CHECK_MPI(MPI_Op_free(&op));

    /* The objects are still this thread's own. */
    char got_name[MPI_MAX_OBJECT_NAME];
    int length = 0;
    CHECK_MPI(MPI_Comm_get_name(comm, got_name, &length));
    CHECK(strcmp(got_name, name) == 0);
    int* got_value = NULL;
    int found = 0;
    CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &got_value, &found));
    CHECK(found && got_value == &attribute_values[thread] && *got_value == round);
    CHECK(MPI_Send(out, 1, MPI_INT, 99, 0, comm) == MPI_ERR_RANK); /* its errhandler returns */

    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK(comm == MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  }
  return NULL;
}

static void run_threads(void* (*body)(void*)) {
  pthread_t threads[kThreads];
  for (long t = 0; t < kThreads; ++t) CHECK(pthread_create(&threads[t], NULL, body, (void*)t) == 0);
  for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
}

int main(int argc, char** argv) {
  int provided = -1;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  CHECK(provided == MPI_THREAD_MULTIPLE);
  int level = -1, is_main = 0;
  CHECK_MPI(MPI_Query_thread(&level));
  CHECK(level == MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Is_thread_main(&is_main));
  CHECK(is_main == 1);
  if (size == 2 && atomic_load(&failures) == 0) {
    /* Dup'ed in the same order on both ranks: then each thread owns one. */
    for (int t = 0; t < kThreads; ++t) {
      CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &thread_comms[t]));
    }
    run_threads(ping_pong);
    run_threads(collectives);
    run_threads(churn);
    for (int t = 0; t < kThreads; ++t) CHECK_MPI(MPI_Comm_free(&thread_comms[t]));
  }
  MPI_Finalize();
  int failed = atomic_load(&failures);
  if (failed != 0) fprintf(stderr, "shim_threads: %d check(s) failed\n", failed);
  return failed != 0;
}
