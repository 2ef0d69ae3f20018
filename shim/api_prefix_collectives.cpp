// Reduce-scatter and the prefix reductions (MPI_Reduce_scatter_block, MPI_Reduce_scatter,
// MPI_Scan, MPI_Exscan and their I-forms), forwarded to Halyard's collectives of the same names
// with their element type; and MPI_Reduce_local, Halyard's reduce_local (the collectives'
// reduction kernels, no communication).
#include <mpi.h>

#include <string>
#include <vector>

#include "collectives/collectives.hpp"
#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/mpi_error.hpp"

using namespace halyard::mpi_shim;
using halyard::core::Collective;

namespace {

halyard::Request start_reduce_scatter_block(const halyard::Communicator& c, const void* sendbuf,
                                            void* recvbuf, int recvcount, MPI_Datatype datatype,
                                            MPI_Op op) {
  const ReductionArgs args = reduction_args(recvcount, datatype, op);
  const std::size_t whole = blocks(args.count, c);
  check_buffer(sendbuf, whole, "sendbuf", true);
  // In place, recvbuf holds the whole input.
  check_buffer(recvbuf, is_in_place(sendbuf) ? whole : args.count, "recvbuf");
  return start({Collective::kReduceScatterBlock,
                c,
                sendbuf,
                recvbuf,
                args.count,
                {},
                {},
                args.type,
                args.op});
}

halyard::Request start_reduce_scatter(const halyard::Communicator& c, const void* sendbuf,
                                      void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                      MPI_Op op) {
  if (recvcounts == nullptr) fail(MPI_ERR_ARG, "recvcounts is NULL");
  const ReductionArgs args = reduction_args(0, datatype, op);
  // In elements; read during the call only (the algorithm copies them).
  std::vector<std::size_t> counts(static_cast<std::size_t>(c.size()));
  std::size_t whole = 0;
  for (int r = 0; r < c.size(); ++r) {
    const std::string name = "recvcounts[" + std::to_string(r) + "]";
    counts[static_cast<std::size_t>(r)] = checked_count(recvcounts[r], name.c_str());
    whole += counts[static_cast<std::size_t>(r)];
  }
  check_buffer(sendbuf, whole, "sendbuf", true);
  check_buffer(recvbuf, is_in_place(sendbuf) ? whole : counts[static_cast<std::size_t>(c.rank())],
               "recvbuf");
  return start({Collective::kReduceScatter, c, sendbuf, recvbuf, whole, counts.data(), nullptr,
                args.type, args.op});
}

halyard::Request start_scan(const halyard::Communicator& c, Collective collective,
                            const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op) {
  const ReductionArgs args = reduction_args(count, datatype, op);
  check_buffer(sendbuf, args.count, "sendbuf", true);
  check_buffer(recvbuf, args.count, "recvbuf");
  return start({collective, c, sendbuf, recvbuf, args.count, {}, {}, args.type, args.op});
}

}  // namespace

extern "C" {

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking_call("MPI_Reduce_scatter_block", comm, [&](const halyard::Communicator& c) {
    return start_reduce_scatter_block(c, sendbuf, recvbuf, recvcount, datatype, op);
  });
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  return nonblocking_call(
      "MPI_Ireduce_scatter_block", comm, request, [&](const halyard::Communicator& c) {
        return start_reduce_scatter_block(c, sendbuf, recvbuf, recvcount, datatype, op);
      });
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking_call("MPI_Reduce_scatter", comm, [&](const halyard::Communicator& c) {
    return start_reduce_scatter(c, sendbuf, recvbuf, recvcounts, datatype, op);
  });
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call(
      "MPI_Ireduce_scatter", comm, request, [&](const halyard::Communicator& c) {
        return start_reduce_scatter(c, sendbuf, recvbuf, recvcounts, datatype, op);
      });
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm) {
  return blocking_call("MPI_Scan", comm, [&](const halyard::Communicator& c) {
    return start_scan(c, Collective::kScan, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iscan", comm, request, [&](const halyard::Communicator& c) {
    return start_scan(c, Collective::kScan, sendbuf, recvbuf, count, datatype, op);
  });
}

// Rank 0's recvbuf is left untouched (MPI leaves it undefined).
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  return blocking_call("MPI_Exscan", comm, [&](const halyard::Communicator& c) {
    return start_scan(c, Collective::kExscan, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iexscan", comm, request, [&](const halyard::Communicator& c) {
    return start_scan(c, Collective::kExscan, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                     MPI_Op op) {
  return guarded("MPI_Reduce_local", MPI_COMM_WORLD, [&] {
    const ReductionArgs args = reduction_args(count, datatype, op);
    check_buffer(inbuf, args.count, "inbuf");
    check_buffer(inoutbuf, args.count, "inoutbuf");
    halyard::reduce_local(inbuf, inoutbuf, args.count, args.type, args.op);
  });
}

}  // extern "C"
