// Communicators from C++ (built with hmpicxx): MPI_Comm_split with colors, keys and
// MPI_UNDEFINED, MPI_Comm_dup (own matching context, inherited error handler), collectives and
// point-to-point on the new communicators, and MPI_Comm_free.
#include <mpi.h>

#include <numeric>
#include <vector>

#include "shim_check.h"

namespace {

// Ranks split by parity, ordered by descending world rank (key = -rank).
void check_split(int rank, int size) {
  MPI_Comm parity = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &parity));
  CHECK(parity != MPI_COMM_NULL);
  std::vector<int> members;
  for (int r = size - 1; r >= 0; --r) {
    if (r % 2 == rank % 2) members.push_back(r);
  }
  int sub_rank = -1, sub_size = -1;
  CHECK_MPI(MPI_Comm_rank(parity, &sub_rank));
  CHECK_MPI(MPI_Comm_size(parity, &sub_size));
  CHECK(sub_size == static_cast<int>(members.size()));
  CHECK(sub_rank >= 0 && sub_rank < sub_size && members[static_cast<size_t>(sub_rank)] == rank);

  // Allgather of world ranks yields the members in communicator order.
  std::vector<int> gathered(members.size(), -1);
  CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, gathered.data(), 1, MPI_INT, parity));
  CHECK_ARRAY("MPI_Allgather on a split", gathered, members, members.size());

  // Allreduce of world ranks over the group.
  long sum = -1, mine = rank;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, parity));
  CHECK(sum == std::accumulate(members.begin(), members.end(), 0L));

  // Bcast from the group's last rank, which is the lowest world rank of the parity.
  int from_root = rank;
  CHECK_MPI(MPI_Bcast(&from_root, 1, MPI_INT, sub_size - 1, parity));
  CHECK(from_root == members.back());
  CHECK_MPI(MPI_Comm_free(&parity));
  CHECK(parity == MPI_COMM_NULL);

  // MPI_UNDEFINED leaves a rank out.
  MPI_Comm first_only = MPI_COMM_SELF;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 5 : MPI_UNDEFINED, 0, &first_only));
  CHECK((rank == 0) == (first_only != MPI_COMM_NULL));
  if (first_only != MPI_COMM_NULL) {
    int n = -1;
    CHECK_MPI(MPI_Comm_size(first_only, &n));
    CHECK(n == 1);
    CHECK_MPI(MPI_Comm_free(&first_only));
  }
}

// A message on a duplicate never matches a receive on the original, even with equal tags.
void check_dup(int rank, int size) {
  MPI_Comm copy = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &copy));
  CHECK(copy != MPI_COMM_WORLD && copy != MPI_COMM_NULL);
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(copy, &handler));
  CHECK(handler == MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  int copy_rank = -1, copy_size = -1;
  CHECK_MPI(MPI_Comm_rank(copy, &copy_rank));
  CHECK_MPI(MPI_Comm_size(copy, &copy_size));
  CHECK(copy_rank == rank && copy_size == size);

  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int on_world = 1000 + rank, on_copy = 2000 + rank;
  int got_world = -1, got_copy = -1;
  MPI_Request requests[4];
  // Receives posted copy-first, sends world-first: only the context decides the matching.
  CHECK_MPI(MPI_Irecv(&got_copy, 1, MPI_INT, left, 7, copy, &requests[0]));
  CHECK_MPI(MPI_Irecv(&got_world, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &requests[1]));
  CHECK_MPI(MPI_Isend(&on_world, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &requests[2]));
  CHECK_MPI(MPI_Isend(&on_copy, 1, MPI_INT, right, 7, copy, &requests[3]));
  CHECK_MPI(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE));
  CHECK(got_world == 1000 + left && got_copy == 2000 + left);

  CHECK_MPI(MPI_Barrier(copy));
  CHECK_MPI(MPI_Comm_free(&copy));
  CHECK(copy == MPI_COMM_NULL);
}

}  // namespace

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank = -1, size = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  // Many communicators over the run: freed handles are reused and stay correct.
  for (int round = 0; round < 3; ++round) {
    check_split(rank, size);
    check_dup(rank, size);
  }
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_communicators");
}
