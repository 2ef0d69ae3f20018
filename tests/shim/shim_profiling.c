/* The profiling interface (issue 25), as a tool uses it: this program defines its own MPI_Init,
 * MPI_Send and MPI_Allreduce, which count the calls and forward them to PMPI_Init, PMPI_Send
 * and PMPI_Allreduce. The program's definitions replace the library's (weak) ones, the library
 * still does the work, and calls that the library makes inside itself (MPI_Sendrecv sending,
 * say) or that go to PMPI_ directly are not counted: the counts are exact and every result is
 * checked.
 */
#include <mpi.h>

#include "shim_check.h"

enum { kRounds = 20, kCount = 7 };

static int init_calls, send_calls, allreduce_calls;
static long sent_items, reduced_items;

int MPI_Init(int* argc, char*** argv) {
  ++init_calls;
  return PMPI_Init(argc, argv);
}

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  ++send_calls;
  sent_items += count;
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  ++allreduce_calls;
  reduced_items += count;
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

static int value(int who, int round, int i) {
  return who * 1009 + round * 17 + i;
}

int main(int argc, char** argv) {
  int rank, size, left, right;
  CHECK_MPI(MPI_Init(&argc, &argv));
  ring_position(&rank, &size, &left, &right);
  int out[kCount], in[kCount], want[kCount];
  for (int round = 0; round < kRounds; ++round) {
    /* Around the ring with the program's MPI_Send. */
    MPI_Request receive;
    for (int i = 0; i < kCount; ++i) out[i] = value(rank, round, i);
    CHECK_MPI(MPI_Irecv(in, kCount, MPI_INT, left, round, MPI_COMM_WORLD, &receive));
    CHECK_MPI(MPI_Send(out, kCount, MPI_INT, right, round, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&receive, MPI_STATUS_IGNORE));
    for (int i = 0; i < kCount; ++i) want[i] = value(left, round, i);
    CHECK_ARRAY("MPI_Send through the wrapper", in, want, kCount);

    /* The sum with the program's MPI_Allreduce. */
    for (int i = 0; i < kCount; ++i) {
      want[i] = 0;
      for (int r = 0; r < size; ++r) want[i] += value(r, round, i);
    }
    CHECK_MPI(MPI_Allreduce(out, in, kCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_ARRAY("MPI_Allreduce through the wrapper", in, want, kCount);
  }

  /* Calls around the wrapped ones that must not reach the wrappers. */
  CHECK_MPI(PMPI_Allreduce(out, in, kCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK_ARRAY("PMPI_Allreduce called directly", in, want, kCount);
  CHECK_MPI(PMPI_Send(out, kCount, MPI_INT, rank, 99, MPI_COMM_WORLD));
  CHECK_MPI(PMPI_Recv(in, kCount, MPI_INT, rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_ARRAY("PMPI_Send to self", in, out, kCount);
  CHECK_MPI(MPI_Sendrecv(out, kCount, MPI_INT, right, 5, in, kCount, MPI_INT, left, 5,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  int reduced[kCount];
  CHECK_MPI(MPI_Reduce(out, reduced, kCount, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  MPI_Request request;
  CHECK_MPI(MPI_Iallreduce(out, reduced, kCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  CHECK_ARRAY("MPI_Iallreduce", reduced, want, kCount);
  int initialized = 0;
  CHECK_MPI(PMPI_Initialized(&initialized));
  CHECK(initialized == 1);
  CHECK_MPI(MPI_Pcontrol(0));
  CHECK_MPI(PMPI_Pcontrol(2, "ignored"));

  CHECK(init_calls == 1);
  CHECK(send_calls == kRounds);
  CHECK(sent_items == (long)kRounds * kCount);
  CHECK(allreduce_calls == kRounds);
  CHECK(reduced_items == (long)kRounds * kCount);
  CHECK_MPI(MPI_Finalize());
  return finish_checks("shim_profiling");
}
