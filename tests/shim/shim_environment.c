/* The environment calls: init state, thread level, ranks, sizes, clocks, processor names,
 * versions and datatype sizes.
 *
 *   shim_environment EXPECTED_SIZE EXPECTED_NODES
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "shim_check.h"

static void check_type_sizes(void) {
  struct {
    MPI_Datatype type;
    int size;
  } expected[] = {
      {MPI_CHAR, sizeof(char)},
      {MPI_SIGNED_CHAR, sizeof(signed char)},
      {MPI_UNSIGNED_CHAR, sizeof(unsigned char)},
      {MPI_BYTE, 1},
      {MPI_SHORT, sizeof(short)},
      {MPI_UNSIGNED_SHORT, sizeof(unsigned short)},
      {MPI_INT, sizeof(int)},
      {MPI_UNSIGNED, sizeof(unsigned)},
      {MPI_LONG, sizeof(long)},
      {MPI_UNSIGNED_LONG, sizeof(unsigned long)},
      {MPI_LONG_LONG, sizeof(long long)},
      {MPI_LONG_LONG_INT, sizeof(long long)},
      {MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long)},
      {MPI_FLOAT, sizeof(float)},
      {MPI_DOUBLE, sizeof(double)},
      {MPI_INT8_T, sizeof(int8_t)},
      {MPI_INT16_T, sizeof(int16_t)},
      {MPI_INT32_T, sizeof(int32_t)},
      {MPI_INT64_T, sizeof(int64_t)},
      {MPI_UINT8_T, sizeof(uint8_t)},
      {MPI_UINT16_T, sizeof(uint16_t)},
      {MPI_UINT32_T, sizeof(uint32_t)},
      {MPI_UINT64_T, sizeof(uint64_t)},
      {MPI_C_BOOL, sizeof(bool)},
  };
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
    int size = -1;
    CHECK_MPI(MPI_Type_size(expected[i].type, &size));
    if (size != expected[i].size) {
      fprintf(stderr, "datatype %zu: size %d, expected %d\n", i, size, expected[i].size);
      CHECK(size == expected[i].size);
    }
  }
}

static void check_clock(void) {
  double tick = MPI_Wtick();
  CHECK(tick > 0.0 && tick <= 1e-6);
  double previous = MPI_Wtime();
  for (int i = 0; i < 100000; ++i) {
    double now = MPI_Wtime();
    CHECK(now >= previous);
    if (now < previous) break;
    previous = now;
  }
}

/* Ranks of one (emulated) node share a name, ranks of different nodes do not. */
static void check_processor_names(int size, int expected_nodes) {
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = -1;
  CHECK_MPI(MPI_Get_processor_name(name, &length));
  CHECK(length > 0 && length == (int)strlen(name));
  static char all[8][MPI_MAX_PROCESSOR_NAME];
  if (size > 8) return;
  memset(all, 0, sizeof all);
  CHECK_MPI(MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                          MPI_CHAR, MPI_COMM_WORLD));
  int distinct = 0;
  for (int r = 0; r < size; ++r) {
    bool seen = false;
    for (int s = 0; s < r; ++s) seen = seen || strcmp(all[r], all[s]) == 0;
    if (!seen) ++distinct;
  }
  CHECK(distinct == expected_nodes);
  if (expected_nodes > 1) CHECK(strstr(name, "/vnode") != NULL);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: shim_environment EXPECTED_SIZE EXPECTED_NODES\n");
    return 2;
  }
  int expected_size = atoi(argv[1]);
  int expected_nodes = atoi(argv[2]);

  int flag = -1;
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag == 0);
  int version = 0, subversion = -1;
  CHECK_MPI(MPI_Get_version(&version, &subversion));
  CHECK(version == 3 && subversion == 1);

  int provided = -1;
  CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  CHECK(provided == MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag == 0);

  int rank = -1, size = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size == expected_size);
  CHECK(rank >= 0 && rank < size);
  int self_rank = -1, self_size = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &self_rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &self_size));
  CHECK(self_rank == 0 && self_size == 1);
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler));
  CHECK(handler == MPI_ERRORS_ARE_FATAL);

  /* Ranks are distinct and complete: their sum is size * (size - 1) / 2. */
  long rank_sum = -1, my_rank = rank;
  CHECK_MPI(MPI_Allreduce(&my_rank, &rank_sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  CHECK(rank_sum == (long)size * (size - 1) / 2);

  check_type_sizes();
  check_clock();
  check_processor_names(size, expected_nodes);

  CHECK_MPI(MPI_Finalize());
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == 1);
  return finish_checks("shim_environment");
}
