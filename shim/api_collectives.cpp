// MPI collectives of the first subset, forwarded to Halyard's collectives. The MPI arguments are
// checked here, once, with MPI's words and error classes (argument_checks.hpp); the call then
// takes the common path below the C++ API (collectives/post_call.hpp) without being checked
// again. Reductions keep their element type; collectives that only move data travel as bytes
// (collective_calls.hpp). MPI_IN_PLACE is halyard::kInPlace and passes straight through, except
// for alltoall, which has no in-place form in Halyard (start_alltoall sends from a copy).
#include <mpi.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;
using halyard::core::Collective;

namespace {

halyard::Request start_reduce(const halyard::Communicator& comm, const void* sendbuf, void* recvbuf,
                              int count, MPI_Datatype datatype, MPI_Op op, int root) {
  ReductionArgs args = reduction_args(count, datatype, op);
  check_root(root, comm);
  bool is_root = comm.rank() == root;
  check_buffer(sendbuf, args.count, "sendbuf", is_root);
  if (is_root) check_buffer(recvbuf, args.count, "recvbuf");
  return start(
      {Collective::kReduce, comm, sendbuf, recvbuf, args.count, {}, {}, args.type, args.op, root});
}

halyard::Request start_allreduce(const halyard::Communicator& comm, const void* sendbuf,
                                 void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  ReductionArgs args = reduction_args(count, datatype, op);
  check_buffer(sendbuf, args.count, "sendbuf", true);
  check_buffer(recvbuf, args.count, "recvbuf");
  return start(
      {Collective::kAllreduce, comm, sendbuf, recvbuf, args.count, {}, {}, args.type, args.op});
}

halyard::Request start_bcast(const halyard::Communicator& comm, void* buffer, int count,
                             MPI_Datatype datatype, int root) {
  std::size_t n = checked_count(count);
  const DatatypeInfo& type = checked_datatype(datatype);
  check_root(root, comm);
  check_buffer(buffer, n, "buffer");
  return start(
      {Collective::kBcast, comm, buffer, buffer, bytes_of(n, type), {}, {}, kBytes, {}, root});
}

halyard::Request start_allgather(const halyard::Communicator& comm, const void* sendbuf,
                                 int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                 MPI_Datatype recvtype) {
  Block recv = block_of(recvcount, recvtype, "recv");
  std::size_t block = is_in_place(sendbuf)
                          ? recv.bytes
                          : matching_block(block_of(sendcount, sendtype, "send"), recv);
  check_buffer(sendbuf, block, "sendbuf", true);
  check_buffer(recvbuf, blocks(block, comm), "recvbuf");
  return start({Collective::kAllgather, comm, sendbuf, recvbuf, block, {}, {}, kBytes});
}

halyard::Request start_alltoall(const halyard::Communicator& comm, const void* sendbuf,
                                int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype) {
  Block recv = block_of(recvcount, recvtype, "recv");
  std::size_t block = is_in_place(sendbuf)
                          ? recv.bytes
                          : matching_block(block_of(sendcount, sendtype, "send"), recv);
  check_buffer(recvbuf, blocks(block, comm), "recvbuf");
  check_buffer(sendbuf, blocks(block, comm), "sendbuf", true);
  if (!is_in_place(sendbuf)) {
    return start({Collective::kAlltoall, comm, sendbuf, recvbuf, block, {}, {}, kBytes});
  }
  // Halyard's alltoall has no in-place form: send from a copy of recvbuf, kept alive until
  // the request completes (the non-blocking form returns before that).
  auto copy = std::make_shared<std::vector<std::byte>>(blocks(block, comm));
  if (!copy->empty()) std::memcpy(copy->data(), recvbuf, copy->size());
  halyard::Request request =
      start({Collective::kAlltoall, comm, copy->data(), recvbuf, block, {}, {}, kBytes});
  request.on_complete([copy](const halyard::Status&) {});
  return request;
}

// Gather and scatter (RootedSides in collective_calls.hpp).
halyard::Request start_rooted(const halyard::Communicator& c, const RootedSides& call,
                              const void* blocks_buf, int blocks_count, MPI_Datatype blocks_type,
                              const void* own, int own_count, MPI_Datatype own_type, int root) {
  check_root(root, c);
  bool is_root = c.rank() == root;
  std::size_t block = 0;
  if (!is_root) {
    // The side with the blocks is not significant here.
    block = block_of(own_count, own_type, call.own_side).bytes;
  } else {
    Block whole = block_of(blocks_count, blocks_type, call.blocks_side);
    block = is_in_place(own) ? whole.bytes
                             : matching_block(block_of(own_count, own_type, call.own_side), whole);
    check_buffer(blocks_buf, blocks(block, c), (std::string(call.blocks_side) + "buf").c_str());
  }
  check_buffer(own, block, (std::string(call.own_side) + "buf").c_str(), is_root);
  const bool gather = call.collective == Collective::kGather;
  return start({call.collective,
                c,
                gather ? own : blocks_buf,
                const_cast<void*>(gather ? blocks_buf : own),
                block,
                {},
                {},
                kBytes,
                {},
                root});
}

halyard::Request start_gather(const halyard::Communicator& c, const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root) {
  return start_rooted(c, {Collective::kGather, "recv", "send"}, recvbuf, recvcount, recvtype,
                      sendbuf, sendcount, sendtype, root);
}

halyard::Request start_scatter(const halyard::Communicator& c, const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root) {
  return start_rooted(c, {Collective::kScatter, "send", "recv"}, sendbuf, sendcount, sendtype,
                      recvbuf, recvcount, recvtype, root);
}

}  // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  return guarded("MPI_Barrier", comm, [&] {
    BlockingCollective blocking;
    start({Collective::kBarrier, shim_state().comm(comm).comm}).wait_ok();
  });
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return guarded("MPI_Ibarrier", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_request_out(request);
    post(comm, request, start({Collective::kBarrier, c}));
  });
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return guarded("MPI_Bcast", comm, [&] {
    BlockingCollective blocking;
    start_bcast(shim_state().comm(comm).comm, buffer, count, datatype, root).wait_ok();
  });
}

int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request* request) {
  return guarded("MPI_Ibcast", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_request_out(request);
    post(comm, request, start_bcast(c, buffer, count, datatype, root));
  });
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  return guarded("MPI_Reduce", comm, [&] {
    BlockingCollective blocking;
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    start_reduce(c, sendbuf, recvbuf, count, datatype, op, root).wait_ok();
  });
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request) {
  return guarded("MPI_Ireduce", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_request_out(request);
    post(comm, request, start_reduce(c, sendbuf, recvbuf, count, datatype, op, root));
  });
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  return guarded("MPI_Allreduce", comm, [&] {
    BlockingCollective blocking;
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    start_allreduce(c, sendbuf, recvbuf, count, datatype, op).wait_ok();
  });
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  return guarded("MPI_Iallreduce", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_request_out(request);
    post(comm, request, start_allreduce(c, sendbuf, recvbuf, count, datatype, op));
  });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return guarded("MPI_Allgather", comm, [&] {
    BlockingCollective blocking;
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    start_allgather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype).wait_ok();
  });
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return guarded("MPI_Iallgather", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_request_out(request);
    post(comm, request,
         start_allgather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return blocking_call("MPI_Gather", comm, [&](const halyard::Communicator& c) {
    return start_gather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_call("MPI_Igather", comm, request, [&](const halyard::Communicator& c) {
    return start_gather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return blocking_call("MPI_Scatter", comm, [&](const halyard::Communicator& c) {
    return start_scatter(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  return nonblocking_call("MPI_Iscatter", comm, request, [&](const halyard::Communicator& c) {
    return start_scatter(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return guarded("MPI_Alltoall", comm, [&] {
    BlockingCollective blocking;
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    start_alltoall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype).wait_ok();
  });
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return guarded("MPI_Ialltoall", comm, [&] {
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_request_out(request);
    post(comm, request,
         start_alltoall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}

}  // extern "C"
