// MPI collectives, forwarded to Halyard's collectives. The MPI arguments are checked here, once,
// with MPI's words and error classes (argument_checks.hpp); the call then takes the common path
// below the C++ API (collectives/post_call.hpp) without being checked again. Reductions keep their
// element type; collectives that only move data travel as bytes, which lets the send and receive
// sides use different datatypes of equal size, as MPI allows. MPI_IN_PLACE becomes
// halyard::kInPlace wherever Halyard has an in-place form, so the shim adds no copies there.
#include <mpi.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "collectives/core/in_place.hpp"
#include "collectives/core/validate.hpp"
#include "collectives/post_call.hpp"
#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/reduction_args.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;
using halyard::Datatype;
using halyard::core::CollArgs;
using halyard::core::Collective;

namespace {

constexpr Datatype kBytes = Datatype::kUint8;

const void* halyard_send(const void* sendbuf) {
  return is_in_place(sendbuf) ? halyard::kInPlace : sendbuf;
}

// The bytes of one block, described by one side's (count, type).
struct Block {
  std::size_t bytes;
  std::string description;  // "sendcount 4 x MPI_INT (16 bytes)"
};

Block block_of(int count, MPI_Datatype datatype, const char* side) {
  std::string count_name = std::string(side) + "count";
  std::string type_name = std::string(side) + "type";
  std::size_t n = checked_count(count, count_name.c_str());
  const DatatypeInfo& type = checked_datatype(datatype, type_name.c_str());
  std::size_t bytes = bytes_of(n, type);
  return {bytes, count_name + " " + std::to_string(count) + " x " + type.name + " (" +
                     std::to_string(bytes) + " bytes)"};
}

// Halyard moves equal blocks on both sides; MPI requires matching type signatures anyway.
std::size_t matching_block(const Block& send, const Block& recv) {
  if (send.bytes != recv.bytes) {
    fail(MPI_ERR_ARG, send.description + " does not match " + recv.description);
  }
  return send.bytes;
}

std::size_t blocks(std::size_t block, const halyard::Communicator& comm) {
  return block * static_cast<std::size_t>(comm.size());
}

// Set while a blocking MPI collective is on the stack: its call is marked blocking
// (CollArgs::blocking), since it waits for the request at once.
thread_local bool in_blocking_collective = false;

struct BlockingCollective {
  BlockingCollective() { in_blocking_collective = true; }
  ~BlockingCollective() { in_blocking_collective = false; }
  BlockingCollective(const BlockingCollective&) = delete;
  BlockingCollective& operator=(const BlockingCollective&) = delete;
};

// Posts a call whose MPI arguments were checked: settle (byte size, memory kind) and go.
halyard::Request start(CollArgs args) {
  halyard::core::settle(args);
  args.blocking = in_blocking_collective;
  return halyard::post_call(args);
}

void post(MPI_Comm comm, MPI_Request* request, const halyard::Request& posted) {
  *request = shim_state().add_request({posted, shim_state().comm(comm).errhandler});
}

void check_request_out(MPI_Request* request) {
  if (request == nullptr) fail(MPI_ERR_ARG, "request is NULL");
}

halyard::Request start_reduce(const halyard::Communicator& comm, const void* sendbuf, void* recvbuf,
                              int count, MPI_Datatype datatype, MPI_Op op, int root) {
  ReductionArgs args = checked_reduction(count, datatype, op);
  check_root(root, comm);
  bool is_root = comm.rank() == root;
  check_buffer(sendbuf, args.count, "sendbuf", is_root);
  if (is_root) check_buffer(recvbuf, args.count, "recvbuf");
  halyard::Request request = start({Collective::kReduce,
                                    comm,
                                    halyard_send(sendbuf),
                                    recvbuf,
                                    args.count,
                                    {},
                                    {},
                                    args.type,
                                    args.op,
                                    root});
  if (!in_blocking_collective) args.keep_until_done(request);
  return request;
}

halyard::Request start_allreduce(const halyard::Communicator& comm, const void* sendbuf,
                                 void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  ReductionArgs args = checked_reduction(count, datatype, op);
  check_buffer(sendbuf, args.count, "sendbuf", true);
  check_buffer(recvbuf, args.count, "recvbuf");
  halyard::Request request = start({Collective::kAllreduce,
                                    comm,
                                    halyard_send(sendbuf),
                                    recvbuf,
                                    args.count,
                                    {},
                                    {},
                                    args.type,
                                    args.op});
  if (!in_blocking_collective) args.keep_until_done(request);
  return request;
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
  return start(
      {Collective::kAllgather, comm, halyard_send(sendbuf), recvbuf, block, {}, {}, kBytes});
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
  return guarded("MPI_Gather", comm, [&] {
    BlockingCollective blocking;
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_root(root, c);
    bool is_root = c.rank() == root;
    std::size_t block = 0;
    if (!is_root) {
      block = block_of(sendcount, sendtype, "send").bytes;  // the receive side is not significant
    } else {
      Block recv = block_of(recvcount, recvtype, "recv");
      block = is_in_place(sendbuf) ? recv.bytes
                                   : matching_block(block_of(sendcount, sendtype, "send"), recv);
      check_buffer(recvbuf, blocks(block, c), "recvbuf");
    }
    check_buffer(sendbuf, block, "sendbuf", is_root);
    start({Collective::kGather, c, halyard_send(sendbuf), recvbuf, block, {}, {}, kBytes, {}, root})
        .wait_ok();
  });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guarded("MPI_Scatter", comm, [&] {
    BlockingCollective blocking;
    const halyard::Communicator& c = shim_state().comm(comm).comm;
    check_root(root, c);
    bool is_root = c.rank() == root;
    std::size_t block = 0;
    std::vector<std::byte> own_block;
    if (!is_root) {
      block = block_of(recvcount, recvtype, "recv").bytes;  // the send side is not significant
    } else {
      Block send = block_of(sendcount, sendtype, "send");
      block = is_in_place(recvbuf) ? send.bytes
                                   : matching_block(send, block_of(recvcount, recvtype, "recv"));
      check_buffer(sendbuf, blocks(block, c), "sendbuf");
      if (is_in_place(recvbuf)) {
        // Halyard's scatter has no in-place form: the root's own block lands in a scratch
        // buffer and is dropped (MPI leaves it where it is in sendbuf).
        own_block.resize(block);
        recvbuf = own_block.data();
      }
    }
    check_buffer(recvbuf, block, "recvbuf");
    start({Collective::kScatter, c, sendbuf, recvbuf, block, {}, {}, kBytes, {}, root}).wait_ok();
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
