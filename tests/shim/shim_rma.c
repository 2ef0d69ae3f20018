/* One-sided communication (issue 26): every operation and synchronization mode of each window
 * flavor against a serial model, derived datatypes (and contiguous ones whose data starts past
 * displacement 0), request forms, atomic accumulates,
 * exclusive locks, fence ordering, small operations packed per target among others that are
 * not, packs filled to their bound, attributes, names, info and error classes.
 *   shim_rma           the whole suite
 *   shim_rma busy      rank 1 computes for 1 s while rank 0 locks, puts and unlocks its
 *                      window: with a progress thread that must finish before rank 1 is done
 *   shim_rma killed    rank 1 is killed inside a fence epoch while rank 0 puts to it: the job
 *                      ends naming rank 1 instead of hanging in the fence */
#define _POSIX_C_SOURCE 200809L /* kill, getpid */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "shim_check.h"

#define N 16
#define ROUNDS 200

static int rank, size;

/* A window of N ints per rank in the given flavor; `memory` backs MPI_Win_create. */
static MPI_Win make_window(int flavor, int* memory, int** base) {
  MPI_Win win = MPI_WIN_NULL;
  switch (flavor) {
    case MPI_WIN_FLAVOR_CREATE:
      CHECK_MPI(MPI_Win_create(memory, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &win));
      *base = memory;
      break;
    case MPI_WIN_FLAVOR_ALLOCATE:
      CHECK_MPI(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, base,
                                 &win));
      break;
    case MPI_WIN_FLAVOR_DYNAMIC:
      CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
      CHECK_MPI(MPI_Win_attach(win, memory, N * sizeof(int)));
      *base = memory;
      break;
  }
  return win;
}

/* The target displacement of element `i` of `target`'s window. */
static MPI_Aint disp_of(int flavor, int* base, int target, int i) {
  if (flavor != MPI_WIN_FLAVOR_DYNAMIC) return i;
  MPI_Aint mine, all[64];
  MPI_Get_address(base, &mine);
  MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
  return all[target] + (MPI_Aint)(i * sizeof(int));
}

static void fill(int* base, int value) {
  for (int i = 0; i < N; ++i) base[i] = value;
}

/* Fence epochs: puts to the right, gets from the left, sums into rank 0, in order. */
static void fence_modes(int flavor) {
  int memory[N], *base = NULL, got[N], want[N];
  MPI_Win win = make_window(flavor, memory, &base);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Aint at_right = disp_of(flavor, base, right, 0), at_left = disp_of(flavor, base, left, 0);
  MPI_Aint at_root = disp_of(flavor, base, 0, 0);
  fill(base, -1);
  CHECK_MPI(MPI_Win_fence(0, win));
  int mine[N];
  for (int i = 0; i < N; ++i) mine[i] = rank * 100 + i;
  CHECK_MPI(MPI_Put(mine, N, MPI_INT, right, at_right, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) want[i] = left * 100 + i;
  CHECK_ARRAY("put under fence", base, want, N);
  /* Epoch 2: get what the left neighbour holds (its left's values). */
  CHECK_MPI(MPI_Get(got, N, MPI_INT, left, at_left, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  int left2 = (left + size - 1) % size;
  for (int i = 0; i < N; ++i) want[i] = left2 * 100 + i;
  CHECK_ARRAY("get under fence", got, want, N);
  /* Epoch 3: everyone adds its rank + i into rank 0; epoch 4 replaces element 0 by MAX. */
  if (rank == 0) fill(base, 0);
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) mine[i] = rank + i;
  CHECK_MPI(MPI_Accumulate(mine, N, MPI_INT, 0, at_root, N, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Accumulate(&rank, 1, MPI_INT, 0, at_root, 1, MPI_INT, MPI_MAX, win));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  if (rank == 0) {
    for (int i = 0; i < N; ++i) want[i] = size * (size - 1) / 2 + size * i;
    want[0] = size - 1 > want[0] ? size - 1 : want[0];
    CHECK_ARRAY("accumulates under fence", base, want, N);
  }
  if (flavor == MPI_WIN_FLAVOR_DYNAMIC) CHECK_MPI(MPI_Win_detach(win, memory));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(win == MPI_WIN_NULL);
}

/* Post/start/complete/wait: each rank exposes to its left and accesses its right. */
static void pscw(int flavor) {
  int memory[N], *base = NULL;
  MPI_Win win = make_window(flavor, memory, &base);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Aint at_right = disp_of(flavor, base, right, 0);
  fill(base, -1);
  MPI_Group world, left_group, right_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &left, &left_group);
  MPI_Group_incl(world, 1, &right, &right_group);
  for (int round = 0; round < 3; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_post(left_group, 0, win));
    CHECK_MPI(MPI_Win_start(right_group, 0, win));
    int value = rank * 10 + round;
    CHECK_MPI(MPI_Put(&value, 1, MPI_INT, right, at_right, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    if (round == 2) {
      int flag = 0;
      while (!flag) CHECK_MPI(MPI_Win_test(win, &flag));
    } else {
      CHECK_MPI(MPI_Win_wait(win));
    }
    CHECK(base[0] == left * 10 + round);
  }
  MPI_Group_free(&left_group);
  MPI_Group_free(&right_group);
  MPI_Group_free(&world);
  if (flavor == MPI_WIN_FLAVOR_DYNAMIC) CHECK_MPI(MPI_Win_detach(win, memory));
  CHECK_MPI(MPI_Win_free(&win));
}

/* Passive target: exclusive read-modify-write of a counter excludes; shared-lock accumulates
 * and fetch-and-op give exact totals; compare-and-swap elects one winner; request forms. */
static void passive(int flavor) {
  int memory[N], *base = NULL;
  MPI_Win win = make_window(flavor, memory, &base);
  MPI_Aint at_root = disp_of(flavor, base, 0, 0);
  fill(base, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < ROUNDS / 4; ++i) {
    int counter = 0;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    CHECK_MPI(MPI_Get(&counter, 1, MPI_INT, 0, at_root, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(0, win));
    ++counter;
    CHECK_MPI(MPI_Put(&counter, 1, MPI_INT, 0, at_root, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
  }
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  int one = 1, fetched = -1;
  long long sum_of_fetched = 0;
  for (int i = 0; i < ROUNDS; ++i) {
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0,
                             at_root + (flavor == MPI_WIN_FLAVOR_DYNAMIC ? 4 : 1), 1, MPI_INT,
                             MPI_SUM, win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &fetched, MPI_INT, 0,
                               at_root + (flavor == MPI_WIN_FLAVOR_DYNAMIC ? 8 : 2), MPI_SUM, win));
    CHECK_MPI(MPI_Win_flush_local(0, win));
    sum_of_fetched += fetched;
  }
  int candidate = rank + 1, compare = 0, previous = -1;
  CHECK_MPI(MPI_Compare_and_swap(&candidate, &compare, &previous, MPI_INT, 0,
                                 at_root + (flavor == MPI_WIN_FLAVOR_DYNAMIC ? 12 : 3), win));
  CHECK_MPI(MPI_Win_unlock(0, win));
  int won = previous == 0, winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(winners == 1);
  /* Every fetched value is distinct: their sum is 0 + 1 + ... + (size*ROUNDS - 1). */
  long long all_fetched = 0;
  MPI_Allreduce(&sum_of_fetched, &all_fetched, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  long long total = (long long)size * ROUNDS;
  CHECK(all_fetched == total * (total - 1) / 2);
  if (rank == 0) {
    CHECK(base[0] == size * (ROUNDS / 4));
    CHECK(base[1] == size * ROUNDS);
    CHECK(base[2] == size * ROUNDS);
    CHECK(base[3] >= 1 && base[3] <= size);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* Request forms under lock_all: each rank writes its slot of every rank and reads it back. */
  CHECK_MPI(MPI_Win_lock_all(0, win));
  int right = (rank + 1) % size;
  MPI_Aint slot = disp_of(flavor, base, right, 4 + rank % 8);
  int value = 7000 + rank, back = -1, old = -1, add = 5;
  MPI_Request requests[4];
  CHECK_MPI(MPI_Rput(&value, 1, MPI_INT, right, slot, 1, MPI_INT, win, &requests[0]));
  CHECK_MPI(MPI_Wait(&requests[0], MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Raccumulate(&add, 1, MPI_INT, right, slot, 1, MPI_INT, MPI_SUM, win, &requests[1]));
  CHECK_MPI(MPI_Wait(&requests[1], MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Rget_accumulate(&add, 1, MPI_INT, &old, 1, MPI_INT, right, slot, 1, MPI_INT,
                                MPI_NO_OP, win, &requests[2]));
  CHECK_MPI(MPI_Wait(&requests[2], MPI_STATUS_IGNORE));
  CHECK(old == 7005 + rank);
  CHECK_MPI(MPI_Rget(&back, 1, MPI_INT, right, slot, 1, MPI_INT, win, &requests[3]));
  CHECK_MPI(MPI_Wait(&requests[3], MPI_STATUS_IGNORE));
  CHECK(back == 7005 + rank);
  CHECK_MPI(MPI_Win_flush_all(win));
  CHECK_MPI(MPI_Win_flush_local_all(win));
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Win_unlock_all(win));
  if (flavor == MPI_WIN_FLAVOR_DYNAMIC) CHECK_MPI(MPI_Win_detach(win, memory));
  CHECK_MPI(MPI_Win_free(&win));
}

/* A derived target datatype (every other int) and a derived origin type (a column). */
static void derived(void) {
  int memory[N], *base = NULL;
  MPI_Win win = make_window(MPI_WIN_FLAVOR_CREATE, memory, &base);
  MPI_Datatype every_other, column;
  MPI_Type_vector(N / 2, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Type_vector(N / 2, 1, 3, MPI_INT, &column);
  MPI_Type_commit(&column);
  int source[3 * N / 2], right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int i = 0; i < 3 * N / 2; ++i) source[i] = rank * 1000 + i;
  fill(base, -1);
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(source, 1, column, right, 0, 1, every_other, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  int want[N];
  for (int i = 0; i < N; ++i) want[i] = i % 2 == 0 ? left * 1000 + 3 * (i / 2) : -1;
  CHECK_ARRAY("derived put", base, want, N);
  /* The next epoch writes what this one just read: a fence keeps them apart. */
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Accumulate(source, 1, column, right, 0, 1, every_other, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; i += 2) want[i] *= 2;
  CHECK_ARRAY("derived accumulate", base, want, N);
  int got[3 * N / 2];
  memset(got, 0, sizeof got);
  CHECK_MPI(MPI_Get(got, 1, column, right, 0, 1, every_other, win));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  for (int i = 0; i < N / 2; ++i) CHECK(got[3 * i] == 2 * (rank * 1000 + 3 * i));
  MPI_Type_free(&every_other);
  MPI_Type_free(&column);
  CHECK_MPI(MPI_Win_free(&win));
}

/* Contiguous types whose data does not start at displacement 0, on both sides of puts and gets
 * (the path that copies a contiguous put or get at once adds those offsets): 2 ints at byte 8 of
 * the origin buffer land at byte 4 past the target displacement, to the right and to itself. */
static void offset_types(int flavor) {
  int memory[N], *base = NULL;
  MPI_Win win = make_window(flavor, memory, &base);
  MPI_Datatype at_8, at_4;
  int two = 2;
  MPI_Aint eight = 8, four = 4;
  MPI_Datatype ints = MPI_INT;
  MPI_Type_create_struct(1, &two, &eight, &ints, &at_8);
  MPI_Type_commit(&at_8);
  MPI_Type_create_struct(1, &two, &four, &ints, &at_4);
  MPI_Type_commit(&at_4);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int source[4] = {-5, -6, rank * 10 + 1, rank * 10 + 2};
  fill(base, -1);
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(source, 1, at_8, right, 2, 1, at_4, win)); /* ints 3 and 4 */
  CHECK_MPI(MPI_Put(source, 1, at_8, rank, 8, 1, at_4, win));  /* ints 9 and 10 */
  CHECK_MPI(MPI_Win_fence(0, win));
  int want[N];
  for (int i = 0; i < N; ++i) want[i] = -1;
  want[3] = left * 10 + 1;
  want[4] = left * 10 + 2;
  want[9] = rank * 10 + 1;
  want[10] = rank * 10 + 2;
  CHECK_ARRAY("offset types put", base, want, N);
  int got[4] = {-7, -7, -7, -7};
  CHECK_MPI(MPI_Get(got, 1, at_8, right, 2, 1, at_4, win));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  const int got_want[4] = {-7, -7, rank * 10 + 1, rank * 10 + 2};
  CHECK_ARRAY("offset types get", got, got_want, 4);
  MPI_Type_free(&at_8);
  MPI_Type_free(&at_4);
  CHECK_MPI(MPI_Win_free(&win));
}

/* Accumulates of one origin to one target apply in order: a large MPI_REPLACE (sent by
 * rendezvous) and then a small one to its first element leave the small one's value. */
static void ordered_accumulates(void) {
  enum { kLarge = 16384 };
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(kLarge * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &base, &win));
  static int large[kLarge];
  for (int i = 0; i < kLarge; ++i) large[i] = rank + 1;
  int small = -(rank + 1), right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  CHECK_MPI(MPI_Accumulate(large, kLarge, MPI_INT, right, 0, kLarge, MPI_INT, MPI_REPLACE, win));
  CHECK_MPI(MPI_Accumulate(&small, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_REPLACE, win));
  CHECK_MPI(MPI_Win_unlock(right, win));
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  CHECK(base[0] == -(left + 1));
  CHECK(base[1] == left + 1 && base[kLarge - 1] == left + 1);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  /* A get as large (by rendezvous where it travels as messages, the reply read straight out of
   * the target's window) brings back what this rank wrote there, every element. */
  static int back[kLarge];
  for (int i = 0; i < kLarge; ++i) back[i] = -7;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
  CHECK_MPI(MPI_Get(back, kLarge, MPI_INT, right, 0, kLarge, MPI_INT, win));
  CHECK_MPI(MPI_Win_unlock(right, win));
  int wrong = back[0] == small ? 0 : 1;
  for (int i = 1; i < kLarge; ++i) wrong += back[i] != rank + 1;
  CHECK(wrong == 0);
  MPI_Barrier(MPI_COMM_WORLD); /* nobody frees while another still reads */
  CHECK_MPI(MPI_Win_free(&win));
}

/* Many small operations in one epoch, which the window packs towards a rank it reaches by
 * messages (--vnodes, HALYARD_RMA_DIRECT=0), mixed with operations that are never packed (a put
 * too large, a get, a request-based put): every one lands in the order issued. */
static void packed_operations(void) {
  enum { kCount = 8192, kSmall = 1000, kLargeFrom = 1000, kLargeTo = 6000, kSum = 7000 };
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(kCount * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &base, &win));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  for (int i = 0; i < kCount; ++i) base[i] = 0;
  CHECK_MPI(MPI_Win_unlock(rank, win));
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static int large[kLargeTo - kLargeFrom], fetched[kSmall];
  for (int i = 0; i < kLargeTo - kLargeFrom; ++i) large[i] = 7;
  const int one = 1, answer = 42;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  for (int i = 0; i < kSmall; ++i) {
    int value = rank * 100000 + i; /* reused at once: MPI_Put must have taken it */
    CHECK_MPI(MPI_Put(&value, 1, MPI_INT, right, i, 1, MPI_INT, win));
  }
  CHECK_MPI(MPI_Put(large, kLargeTo - kLargeFrom, MPI_INT, right, kLargeFrom, kLargeTo - kLargeFrom,
                    MPI_INT, win));
  /* MPI orders puts to one location only across a flush (the large put may be a one-sided write
   * across nodes, the small ones packed messages). */
  CHECK_MPI(MPI_Win_flush(right, win));
  for (int i = kLargeFrom; i < kLargeFrom + 10; ++i) {
    int value = -i; /* after the large put: these win */
    CHECK_MPI(MPI_Put(&value, 1, MPI_INT, right, i, 1, MPI_INT, win));
  }
  for (int i = 0; i < 500; ++i) {
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, right, kSum, 1, MPI_INT, MPI_SUM, win));
  }
  CHECK_MPI(MPI_Get(fetched, kSmall, MPI_INT, right, 0, kSmall, MPI_INT, win));
  MPI_Request request;
  CHECK_MPI(MPI_Rput(&answer, 1, MPI_INT, right, kSum + 1, 1, MPI_INT, win, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE)); /* completes alone, before any flush */
  CHECK_MPI(MPI_Win_unlock(right, win));
  int wrong_fetched = 0;
  for (int i = 0; i < kSmall; ++i) wrong_fetched += fetched[i] != rank * 100000 + i;
  CHECK(wrong_fetched == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  int wrong = 0;
  for (int i = 0; i < kSmall; ++i) wrong += base[i] != left * 100000 + i;
  for (int i = kLargeFrom; i < kLargeTo; ++i) wrong += base[i] != (i < kLargeFrom + 10 ? -i : 7);
  CHECK(wrong == 0);
  CHECK(base[kSum] == 500);
  CHECK(base[kSum + 1] == 42);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Win_free(&win));
}

/* Puts of 3000 bytes and gets of 5000 interleaved in one epoch towards a rank reached by
 * messages (--vnodes, HALYARD_RMA_DIRECT=0): the packs (256 KiB) and the answers to their gets
 * (256 KiB) each fill up and split at other operations (480 KB of puts, 400 KB of gets), and
 * every put lands and every get reads what the target holds. */
static void packs_at_their_bound(void) {
  enum { kPuts = 160, kPutInts = 750, kGets = kPuts / 2, kGetInts = 1250 };
  enum { kGetsFrom = kPuts * kPutInts, kCount = kGetsFrom + kGets * kGetInts };
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(kCount * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &base, &win));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  for (int i = 0; i < kCount; ++i) base[i] = i < kGetsFrom ? -1 : rank * 1000000 + i;
  CHECK_MPI(MPI_Win_unlock(rank, win));
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static int puts[kPuts][kPutInts], gets[kGets][kGetInts];
  for (int p = 0; p < kPuts; ++p) {
    for (int j = 0; j < kPutInts; ++j) puts[p][j] = rank * 1000000 + p * kPutInts + j;
  }
  memset(gets, 0, sizeof gets);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
  for (int p = 0; p < kPuts; ++p) {
    CHECK_MPI(MPI_Put(puts[p], kPutInts, MPI_INT, right, p * kPutInts, kPutInts, MPI_INT, win));
    if (p % 2 == 1) {
      const int g = p / 2;
      CHECK_MPI(MPI_Get(gets[g], kGetInts, MPI_INT, right, kGetsFrom + g * kGetInts, kGetInts,
                        MPI_INT, win));
    }
  }
  CHECK_MPI(MPI_Win_unlock(right, win));
  int wrong_gets = 0;
  for (int g = 0; g < kGets; ++g) {
    for (int j = 0; j < kGetInts; ++j) {
      wrong_gets += gets[g][j] != right * 1000000 + kGetsFrom + g * kGetInts + j;
    }
  }
  CHECK(wrong_gets == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  int wrong_puts = 0;
  for (int i = 0; i < kGetsFrom; ++i) wrong_puts += base[i] != left * 1000000 + i;
  CHECK(wrong_puts == 0);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Win_free(&win));
}

/* Puts and gets large enough to travel alone (one-sided writes and reads across nodes, CMA or
 * loads and stores on one node): contiguous, a target vector of 4 blocks, one of 64 blocks (a
 * message), a derived origin for a get (unpacked when it lands), request forms; every element
 * checked. */
static void large_transfers(int flavor) {
  /* Regions of the window: [0, kPart) is read, then a contiguous put lands at kContiguous, 4
   * blocks of kPart/4 ints 8 apart at kFour, 64 blocks of kPart/64 ints 1 apart at kMany. */
  enum { kPart = 16 * 1024, kContiguous = kPart, kFour = 2 * kPart, kMany = 3 * kPart + 64 };
  enum { kInts = 4 * kPart + 1024 };
  static int memory[kInts], expected[kInts];
  int* base = NULL;
  MPI_Win win;
  if (flavor == MPI_WIN_FLAVOR_CREATE) {
    CHECK_MPI(
        MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    base = memory;
  } else {
    CHECK_MPI(
        MPI_Win_allocate(sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  }
  for (int i = 0; i < kInts; ++i) base[i] = rank * 1000000 + i;
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static int out[kPart], in[kPart], strided[2 * kPart];
  for (int i = 0; i < kPart; ++i) out[i] = -(rank * 1000000 + i) - 1;
  MPI_Datatype four_blocks, many_blocks, every_other;
  CHECK_MPI(MPI_Type_vector(4, kPart / 4, kPart / 4 + 8, MPI_INT, &four_blocks));
  CHECK_MPI(MPI_Type_vector(64, kPart / 64, kPart / 64 + 1, MPI_INT, &many_blocks));
  CHECK_MPI(MPI_Type_vector(kPart, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&four_blocks));
  CHECK_MPI(MPI_Type_commit(&many_blocks));
  CHECK_MPI(MPI_Type_commit(&every_other));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  /* Reads of the right neighbour's untouched first region, before anyone writes. */
  CHECK_MPI(MPI_Get(in, kPart, MPI_INT, right, 0, kPart, MPI_INT, win));
  for (int i = 0; i < 2 * kPart; ++i) strided[i] = -7;
  MPI_Request request;
  CHECK_MPI(MPI_Rget(strided, 1, every_other, right, 0, kPart, MPI_INT, win, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Win_flush(right, win));
  int wrong = 0;
  for (int i = 0; i < kPart; ++i) {
    wrong += in[i] != right * 1000000 + i;
    wrong += strided[2 * i] != right * 1000000 + i || strided[2 * i + 1] != -7;
  }
  CHECK(wrong == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Put(out, kPart, MPI_INT, right, kContiguous, kPart, MPI_INT, win));
  CHECK_MPI(MPI_Put(out, kPart, MPI_INT, right, kFour, 1, four_blocks, win));
  CHECK_MPI(MPI_Rput(out, kPart, MPI_INT, right, kMany, 1, many_blocks, win, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Win_unlock_all(win));
  MPI_Barrier(MPI_COMM_WORLD);
  /* The serial model of what the left neighbour wrote here. */
  for (int i = 0; i < kInts; ++i) expected[i] = rank * 1000000 + i;
  for (int i = 0; i < kPart; ++i) {
    const int put = -(left * 1000000 + i) - 1;
    expected[kContiguous + i] = put;
    expected[kFour + (i / (kPart / 4)) * (kPart / 4 + 8) + i % (kPart / 4)] = put;
    expected[kMany + (i / (kPart / 64)) * (kPart / 64 + 1) + i % (kPart / 64)] = put;
  }
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  wrong = 0;
  for (int i = 0; i < kInts; ++i) wrong += base[i] != expected[i];
  CHECK(wrong == 0);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Type_free(&four_blocks));
  CHECK_MPI(MPI_Type_free(&many_blocks));
  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Win_free(&win));
}

/* Attributes, names, info, error handlers and error classes. */
static void describe(void) {
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(
      MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  void* value = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &value, &flag));
  CHECK(flag && value == base);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &value, &flag));
  CHECK(flag && *(MPI_Aint*)value == N * (MPI_Aint)sizeof(int));
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &value, &flag));
  CHECK(flag && *(int*)value == (int)sizeof(int));
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &value, &flag));
  CHECK(flag && *(int*)value == MPI_WIN_FLAVOR_ALLOCATE);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &value, &flag));
  CHECK(flag && *(int*)value == MPI_WIN_UNIFIED);
  char name[MPI_MAX_OBJECT_NAME];
  int length = -1;
  CHECK_MPI(MPI_Win_get_name(win, name, &length));
  CHECK(length == 0);
  CHECK_MPI(MPI_Win_set_name(win, "counters"));
  CHECK_MPI(MPI_Win_get_name(win, name, &length));
  CHECK(length == 8 && strcmp(name, "counters") == 0);
  MPI_Info info, used;
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "false");
  CHECK_MPI(MPI_Win_set_info(win, info));
  CHECK_MPI(MPI_Win_get_info(win, &used));
  char hint[16];
  CHECK_MPI(MPI_Info_get(used, "no_locks", sizeof hint, hint, &flag));
  CHECK(flag && strcmp(hint, "false") == 0);
  MPI_Info_free(&info);
  MPI_Info_free(&used);
  MPI_Group group;
  int group_size = 0;
  CHECK_MPI(MPI_Win_get_group(win, &group));
  MPI_Group_size(group, &group_size);
  CHECK(group_size == size);
  MPI_Group_free(&group);
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Win_get_errhandler(win, &handler));
  CHECK(handler == MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  int one = 1;
  CHECK_CLASS(MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  CHECK_CLASS(MPI_Put(&one, 1, MPI_INT, 0, N, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
  CHECK_CLASS(MPI_Put(&one, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
  CHECK_CLASS(MPI_Accumulate(&one, 1, MPI_FLOAT, 0, 0, 1, MPI_FLOAT, MPI_BAND, win), MPI_ERR_OP);
  CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC);
  CHECK_MPI(MPI_Win_unlock(0, win));
  CHECK_CLASS(MPI_Win_lock(99, 0, 0, win), MPI_ERR_LOCKTYPE);
  CHECK_CLASS(MPI_Win_shared_query(win, 0, (MPI_Aint*)&value, &length, &value), MPI_ERR_RMA_FLAVOR);
  CHECK_MPI(MPI_Win_free(&win));
  /* No window: MPI_COMM_WORLD's handler decides. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK_CLASS(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* MPI_Win_allocate_shared on the ranks of one node: direct loads and stores of a neighbour's
 * part, the parts contiguous. */
static void shared_windows(void) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank, node_size;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  int* mine = NULL;
  MPI_Win win;
  CHECK_MPI(
      MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  for (int i = 0; i < N; ++i) mine[i] = node_rank * 100 + i;
  CHECK_MPI(MPI_Win_sync(win));
  MPI_Barrier(node);
  CHECK_MPI(MPI_Win_sync(win));
  int next = (node_rank + 1) % node_size;
  MPI_Aint part = 0;
  int unit = 0;
  int* theirs = NULL;
  CHECK_MPI(MPI_Win_shared_query(win, next, &part, &unit, &theirs));
  CHECK(part == N * (MPI_Aint)sizeof(int) && unit == (int)sizeof(int));
  for (int i = 0; i < N; ++i) CHECK(theirs[i] == next * 100 + i);
  int* first = NULL;
  CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &part, &unit, &first));
  CHECK(first + N * node_rank == mine);
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Comm_free(&node);
}

/* Rank 1 computes for 1 s without calling MPI; rank 0's lock / put / unlock must not wait for
 * it (the progress thread serves the window). */
static void busy_target(void) {
  int memory[N] = {0}, *base = NULL;
  MPI_Win win = make_window(MPI_WIN_FLAVOR_CREATE, memory, &base);
  static int big_memory[8192];
  MPI_Win big;
  CHECK_MPI(MPI_Win_create(big_memory, sizeof big_memory, sizeof(int), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &big));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    double until = MPI_Wtime() + 1.0;
    volatile unsigned long spins = 0;
    while (MPI_Wtime() < until) ++spins;
  } else if (rank == 0) {
    double start = MPI_Wtime();
    int value = 42;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
    CHECK_MPI(MPI_Accumulate(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_REPLACE, win));
    CHECK_MPI(MPI_Win_unlock(1, win));
    /* A large one too: a one-sided write across nodes, served by the target's transport. */
    static int large[8192];
    for (int i = 0; i < 8192; ++i) large[i] = i;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, big));
    CHECK_MPI(MPI_Put(large, 8192, MPI_INT, 1, 0, 8192, MPI_INT, big));
    CHECK_MPI(MPI_Win_unlock(1, big));
    double took = MPI_Wtime() - start;
    printf("lock/accumulate/unlock and a locked large put against a busy target took %.3f s\n",
           took);
    CHECK(took < 0.8);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    CHECK(base[0] == 42);
    int wrong = 0;
    for (int i = 0; i < 8192; ++i) wrong += big_memory[i] != i;
    CHECK(wrong == 0);
  }
  CHECK_MPI(MPI_Win_free(&big));
  CHECK_MPI(MPI_Win_free(&win));
}

/* A put and a get of 48 KiB + 3 bytes between buffers that lie at different offsets modulo 32
 * bytes (origin at +8, the window's range at byte 1, the get's buffer at +4): on one node a
 * create window's single copy goes through the runtime's bounce buffer for such a pair. Every
 * byte is checked, and the bytes on either side of each range stay as they were. */
static void misplaced_transfers(void) {
  enum { kBytes = 48 * 1024 + 3, kSpan = kBytes + 64 };
  static unsigned char memory[kSpan], origin[kSpan], back[kSpan];
  MPI_Win win;
  CHECK_MPI(MPI_Win_create(memory, sizeof memory, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  memset(memory, 0xEE, sizeof memory);
  memset(back, 0xDD, sizeof back);
  for (int i = 0; i < kBytes; ++i) origin[8 + i] = (unsigned char)(i * 7 + rank);
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Put(origin + 8, kBytes, MPI_BYTE, right, 1, kBytes, MPI_BYTE, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Get(back + 4, kBytes, MPI_BYTE, right, 1, kBytes, MPI_BYTE, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Win_unlock_all(win));
  int wrong = 0;
  for (int i = 0; i < kBytes; ++i) wrong += back[4 + i] != (unsigned char)(i * 7 + rank);
  for (int i = 0; i < 4; ++i) wrong += back[i] != 0xDD || back[4 + kBytes + i] != 0xDD;
  CHECK(wrong == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  wrong = 0;
  for (int i = 0; i < kBytes; ++i) wrong += memory[1 + i] != (unsigned char)(i * 7 + left);
  wrong += memory[0] != 0xEE;
  for (int i = 1 + kBytes; i < kSpan; ++i) wrong += memory[i] != 0xEE;
  CHECK(wrong == 0);
  CHECK_MPI(MPI_Win_free(&win));
}

/* The quick path of MPI_Put and MPI_Get (one contiguous datatype for both sides, a window this
 * process maps, a lock epoch): a type whose data start 8 bytes past its origin moves from and to
 * the right bytes on both sides; a put that ends at the window's last int lands, and one an int
 * longer is refused with MPI_ERR_RMA_RANGE and writes nothing. */
static void quick_transfers(void) {
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(
      MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  fill(base, -1);
  MPI_Datatype at_8;
  int three = 3;
  MPI_Aint eight = 8;
  MPI_Datatype ints = MPI_INT;
  MPI_Type_create_struct(1, &three, &eight, &ints, &at_8);
  MPI_Type_commit(&at_8);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int source[8], back[8];
  for (int i = 0; i < 8; ++i) {
    source[i] = rank * 100 + i;
    back[i] = -7;
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
  CHECK_MPI(MPI_Put(source, 1, at_8, right, 4, 1, at_8, win));               /* ints 6-8 */
  CHECK_MPI(MPI_Put(source + 3, 2, MPI_INT, right, N - 2, 2, MPI_INT, win)); /* the last two */
  CHECK_CLASS(MPI_Put(source + 5, 3, MPI_INT, right, N - 2, 3, MPI_INT, win), MPI_ERR_RMA_RANGE);
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Get(back, 1, at_8, right, 4, 1, at_8, win));
  CHECK_MPI(MPI_Win_unlock(right, win));
  const int back_want[8] = {-7, -7, rank * 100 + 2, rank * 100 + 3, rank * 100 + 4, -7, -7, -7};
  CHECK_ARRAY("quick get", back, back_want, 8);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  int want[N];
  for (int i = 0; i < N; ++i) want[i] = -1;
  for (int i = 0; i < 3; ++i) want[6 + i] = left * 100 + 2 + i;
  want[N - 2] = left * 100 + 3;
  want[N - 1] = left * 100 + 4;
  CHECK_ARRAY("quick put", base, want, N);
  MPI_Type_free(&at_8);
  CHECK_MPI(MPI_Win_free(&win));
}

/* Rank 1 dies mid-epoch; rank 0's fence must not wait forever. */
static void killed_peer(void) {
  int memory[N] = {0}, *base = NULL;
  MPI_Win win = make_window(MPI_WIN_FLAVOR_CREATE, memory, &base);
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 1) kill(getpid(), SIGKILL);
  int value = 1;
  CHECK_MPI(MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "killed") == 0) {
    if (size >= 2) killed_peer();
    MPI_Finalize();
    return finish_checks("shim_rma killed");
  }
  if (argc > 1 && strcmp(argv[1], "busy") == 0) {
    if (size >= 2) busy_target();
    MPI_Finalize();
    return finish_checks("shim_rma busy");
  }
  const int flavors[] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE, MPI_WIN_FLAVOR_DYNAMIC};
  for (int f = 0; f < 3; ++f) {
    fence_modes(flavors[f]);
    pscw(flavors[f]);
    passive(flavors[f]);
  }
  derived();
  offset_types(MPI_WIN_FLAVOR_CREATE);
  offset_types(MPI_WIN_FLAVOR_ALLOCATE);
  ordered_accumulates();
  packed_operations();
  packs_at_their_bound();
  large_transfers(MPI_WIN_FLAVOR_CREATE);
  large_transfers(MPI_WIN_FLAVOR_ALLOCATE);
  misplaced_transfers();
  quick_transfers();
  describe();
  shared_windows();
  MPI_Finalize();
  return finish_checks("shim_rma");
}
