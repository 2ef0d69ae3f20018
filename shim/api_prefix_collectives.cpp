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
#include "shim/collective_starts.hpp"
#include "shim/intercomm.hpp"
#include "shim/intercomm_collectives.hpp"
#include "shim/mpi_error.hpp"
#include "shim/reduction_args.hpp"
#include "shim/typed_buffer.hpp"

using namespace halyard::mpi_shim;
using halyard::core::Collective;

namespace {

using Use = TypedBuffer::Use;

// The buffers of a reduction collective whose input is `send_items` items of `type` and whose
// result is `recv_items` (in place, recvbuf holds the input and takes the result).
struct ReducedBuffers {
  TypedBuffer sent;
  TypedBuffer received;
  const void* send;  // what Halyard reads: the user's memory, a staging buffer or kInPlace
};

ReducedBuffers reduced_buffers(const void* sendbuf, void* recvbuf, std::size_t send_items,
                               std::size_t recv_items, const TypeObject& type) {
  const bool in_place = is_in_place(sendbuf);
  check_buffer(sendbuf, send_items, type, "sendbuf", true);
  check_buffer(recvbuf, in_place ? send_items : recv_items, type, "recvbuf");
  ReducedBuffers b;
  b.received = TypedBuffer(recvbuf, in_place ? send_items : recv_items, type,
                           in_place ? Use::kSendAndReceive : Use::kReceive);
  if (!in_place) b.sent = TypedBuffer(sendbuf, send_items, type, Use::kSend);
  b.send = in_place ? sendbuf : b.sent.data();
  return b;
}

// Posts `args` and keeps the reduction's custom op (if any) until a non-blocking call is done.
Started start_reduction(const halyard::core::CollArgs& args, const ReductionArgs& unit,
                        CompletionStep complete) {
  halyard::Request request = start(args);
  if (!in_blocking_collective()) unit.keep_until_done(request);
  return {std::move(request), std::move(complete)};
}

Started start_prefix(const halyard::Communicator& c, Collective collective, const void* sendbuf,
                     void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  const std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  const ReductionArgs unit = checked_reduction(1, datatype, type, op);
  ReducedBuffers b = reduced_buffers(sendbuf, recvbuf, n, n, type);
  // Exscan leaves rank 0's recvbuf untouched: nothing staged is unpacked there.
  const bool untouched = collective == Collective::kExscan && c.rank() == 0;
  return start_reduction(
      {collective, c, b.send, b.received.data(), n * unit.count, {}, {}, unit.type, unit.op}, unit,
      untouched ? unpack_all(b.sent) : unpack_all(b.sent, b.received));
}

}  // namespace

namespace halyard::mpi_shim {

Started start_reduce_scatter_block(const halyard::Communicator& c, const void* sendbuf,
                                   void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op) {
  if (intercomm_of(c) != nullptr)
    return inter_reduce_scatter_block(c, sendbuf, recvbuf, recvcount, datatype, op);
  const std::size_t n = checked_count(recvcount, "recvcount");
  const TypeObject& type = checked_datatype(datatype);
  // What one item is in Halyard's elements (a custom op: bytes).
  const ReductionArgs unit = checked_reduction(1, datatype, type, op);
  ReducedBuffers b = reduced_buffers(sendbuf, recvbuf, blocks(n, c), n, type);
  return start_reduction({Collective::kReduceScatterBlock,
                          c,
                          b.send,
                          b.received.data(),
                          n * unit.count,
                          {},
                          {},
                          unit.type,
                          unit.op},
                         unit, unpack_all(b.sent, b.received));
}

Started start_reduce_scatter(const halyard::Communicator& c, const void* sendbuf, void* recvbuf,
                             const int recvcounts[], MPI_Datatype datatype, MPI_Op op) {
  if (intercomm_of(c) != nullptr)
    return inter_reduce_scatter(c, sendbuf, recvbuf, recvcounts, datatype, op);
  if (recvcounts == nullptr) fail(MPI_ERR_ARG, "recvcounts is NULL");
  const TypeObject& type = checked_datatype(datatype);
  const ReductionArgs unit = checked_reduction(1, datatype, type, op);
  // In Halyard's elements; read during the call only (the algorithm copies them).
  std::vector<std::size_t> counts(static_cast<std::size_t>(c.size()));
  std::size_t whole = 0;
  for (int r = 0; r < c.size(); ++r) {
    const std::string name = "recvcounts[" + std::to_string(r) + "]";
    counts[static_cast<std::size_t>(r)] = checked_count(recvcounts[r], name.c_str());
    whole += counts[static_cast<std::size_t>(r)];
  }
  ReducedBuffers b =
      reduced_buffers(sendbuf, recvbuf, whole, counts[static_cast<std::size_t>(c.rank())], type);
  for (std::size_t& count : counts) count *= unit.count;
  return start_reduction({Collective::kReduceScatter, c, b.send, b.received.data(),
                          whole * unit.count, counts.data(), nullptr, unit.type, unit.op},
                         unit, unpack_all(b.sent, b.received));
}

Started start_scan(const halyard::Communicator& c, const void* sendbuf, void* recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op) {
  refuse_intercomm(c, "MPI_Scan");
  return start_prefix(c, Collective::kScan, sendbuf, recvbuf, count, datatype, op);
}

Started start_exscan(const halyard::Communicator& c, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op) {
  refuse_intercomm(c, "MPI_Exscan");
  return start_prefix(c, Collective::kExscan, sendbuf, recvbuf, count, datatype, op);
}

}  // namespace halyard::mpi_shim

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
    return start_scan(c, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iscan", comm, request, [&](const halyard::Communicator& c) {
    return start_scan(c, sendbuf, recvbuf, count, datatype, op);
  });
}

// Rank 0's recvbuf is left untouched (MPI leaves it undefined).
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  return blocking_call("MPI_Exscan", comm, [&](const halyard::Communicator& c) {
    return start_exscan(c, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iexscan", comm, request, [&](const halyard::Communicator& c) {
    return start_exscan(c, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                     MPI_Op op) {
  return guarded("MPI_Reduce_local", MPI_COMM_WORLD, [&] {
    const std::size_t n = checked_count(count);
    const TypeObject& type = checked_datatype(datatype);
    const ReductionArgs unit = checked_reduction(1, datatype, type, op);
    check_buffer(inbuf, n, type, "inbuf");
    check_buffer(inoutbuf, n, type, "inoutbuf");
    TypedBuffer in(inbuf, n, type, Use::kSend);
    TypedBuffer inout(inoutbuf, n, type, Use::kSendAndReceive);
    halyard::reduce_local(in.data(), inout.data(), n * unit.count, unit.type, unit.op);
    inout.complete();
  });
}

}  // extern "C"
