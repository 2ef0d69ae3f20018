// MPI collectives, forwarded to Halyard's collectives. The MPI arguments are checked here, once,
// with MPI's words and error classes (argument_checks.hpp); the call then takes the common path
// below the C++ API (collectives/post_call.hpp) without being checked again. Reductions keep their
// element type; collectives that only move data travel as bytes, which lets the send and receive
// sides use different datatypes of equal size, as MPI allows. MPI_IN_PLACE becomes
// halyard::kInPlace wherever Halyard has an in-place form, so the shim adds no copies there.
// Every buffer goes through TypedBuffer: contiguous data moves from the user's memory, data of a
// derived type with holes is packed before and unpacked after the call.
#include <mpi.h>

#include <memory>
#include <optional>
#include <vector>

#include "collectives/call_args.hpp"
#include "collectives/core/in_place.hpp"
#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/collective_starts.hpp"
#include "shim/intercomm.hpp"
#include "shim/intercomm_collectives.hpp"
#include "shim/reduction_args.hpp"
#include "shim/shim_state.hpp"
#include "shim/typed_buffer.hpp"

using namespace halyard::mpi_shim;
using halyard::core::Collective;

namespace {

using Use = TypedBuffer::Use;

// A reduction's MPI arguments, checked: `count` items of `type`, and what Halyard computes in.
struct CheckedReduction {
  std::size_t count;
  const TypeObject& type;
  ReductionArgs args;
};

CheckedReduction checked_call(const void* sendbuf, const void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, bool receives) {
  std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  ReductionArgs args = checked_reduction(n, datatype, type, op);
  check_buffer(sendbuf, n, type, "sendbuf", receives);
  if (receives) check_buffer(recvbuf, n, type, "recvbuf");
  return {n, type, std::move(args)};
}

// A reduction's call on the given buffers (root -1: no root), whichever way they were prepared.
halyard::core::CollArgs reduction_call(Collective collective, const halyard::Communicator& comm,
                                       const void* send, void* recv, const ReductionArgs& args,
                                       int root = -1) {
  return halyard::call_args::reducing(collective, comm, send, recv, args.count, args.type, args.op,
                                      root);
}

// How a checked reduction reaches Halyard: on the user's buffers (contiguous data, reduced in its
// element type: the common call, which builds nothing else), through layouts or staging (a type
// with holes), or staged (a custom op: its registration is kept for a non-blocking call, and its
// function reads packed items).
enum class Route { kDirect, kHoled, kStaged };
Route route_of(const CheckedReduction& c) {
  if (c.args.custom != nullptr) return Route::kStaged;
  return c.count == 0 || c.type.contiguous_for(c.count) ? Route::kDirect : Route::kHoled;
}

// The user's buffer where a kDirect reduction reads or writes it (MPI_IN_PLACE stays kInPlace).
const void* direct_send(const void* sendbuf, const CheckedReduction& c) {
  return is_in_place(sendbuf) ? halyard::kInPlace : contiguous_start(sendbuf, c.count, c.type);
}
void* direct_recv(void* recvbuf, const CheckedReduction& c) {
  return contiguous_start(recvbuf, c.count, c.type);
}

// A kHoled reduction posted on the user's buffers with their layouts where the chosen
// algorithm takes them (start_laid_out): nothing staged, packed before or unpacked after the
// call. nullopt: the caller stages. `call` holds the user's buffers (kInPlace for MPI_IN_PLACE).
std::optional<Started> start_without_staging(const halyard::core::CollArgs& call,
                                             const CheckedReduction& c, bool receives) {
  std::optional<halyard::BufferLayout> send, recv;
  if (!is_in_place(call.send)) send.emplace(buffer_layout(c.type, call.send, c.count));
  if (receives) recv.emplace(buffer_layout(c.type, call.recv, c.count));
  std::optional<halyard::Request> request =
      start_laid_out(call, send ? &*send : nullptr, recv ? &*recv : nullptr);
  if (!request) return std::nullopt;
  return Started(std::move(*request));
}

// The buffers and element type of a staged reduction. A derived type reduces in its one element
// type; the Halyard count is the packed bytes over that type's size (a complex: two parts each).
struct Reduction {
  const void* send;  // what Halyard reads: the user's memory, a staging buffer or kInPlace
  TypedBuffer sent;  // holds a staged contribution
  TypedBuffer recv;  // empty where the receive buffer is not significant
  ReductionArgs args;
};

Reduction staged(CheckedReduction&& c, const void* sendbuf, void* recvbuf, bool receives) {
  bool in_place = is_in_place(sendbuf);
  Reduction r{halyard::kInPlace,
              {},
              receives ? TypedBuffer(recvbuf, c.count, c.type,
                                     in_place ? Use::kSendAndReceive : Use::kReceive)
                       : TypedBuffer(),
              std::move(c.args)};
  if (in_place) return r;
  if (r.recv.staged()) {
    // Pack the contribution where the result goes and reduce in place: one copy fewer.
    r.recv.pack_from(sendbuf);
    return r;
  }
  r.sent = TypedBuffer(sendbuf, c.count, c.type, Use::kSend);
  r.send = r.sent.data();
  return r;
}

const void* user_send(const void* sendbuf) {
  return is_in_place(sendbuf) ? halyard::kInPlace : sendbuf;
}

const void* send_or_in_place(const void* sendbuf, const TypedBuffer& send) {
  return is_in_place(sendbuf) ? halyard::kInPlace : send.data();
}

}  // namespace

namespace halyard::mpi_shim {

Started start_barrier(const halyard::Communicator& comm) {
  if (intercomm_of(comm) != nullptr) return inter_barrier(comm);
  return {start({Collective::kBarrier, comm}), {}};
}

Started start_reduce(const halyard::Communicator& comm, const void* sendbuf, void* recvbuf,
                     int count, MPI_Datatype datatype, MPI_Op op, int root) {
  if (intercomm_of(comm) != nullptr)
    return inter_reduce(comm, sendbuf, recvbuf, count, datatype, op, root);
  check_root(root, comm);
  bool is_root = comm.rank() == root;
  CheckedReduction c = checked_call(sendbuf, recvbuf, count, datatype, op, is_root);
  const Route route = route_of(c);
  if (route == Route::kDirect) {
    return {start(reduction_call(Collective::kReduce, comm, direct_send(sendbuf, c),
                                 is_root ? direct_recv(recvbuf, c) : recvbuf, c.args, root))};
  }
  if (route == Route::kHoled) {
    if (std::optional<Started> started = start_without_staging(
            reduction_call(Collective::kReduce, comm, user_send(sendbuf), recvbuf, c.args, root), c,
            is_root)) {
      return std::move(*started);
    }
  }
  Reduction r = staged(std::move(c), sendbuf, recvbuf, is_root);
  void* halyard_recv = is_root ? r.recv.data() : recvbuf;  // not significant elsewhere
  halyard::Request request =
      start(reduction_call(Collective::kReduce, comm, r.send, halyard_recv, r.args, root));
  if (!in_blocking_collective()) r.args.keep_until_done(request);
  return {request, unpack_all(r.sent, r.recv)};
}

Started start_allreduce(const halyard::Communicator& comm, const void* sendbuf, void* recvbuf,
                        int count, MPI_Datatype datatype, MPI_Op op) {
  if (intercomm_of(comm) != nullptr)
    return inter_allreduce(comm, sendbuf, recvbuf, count, datatype, op);
  CheckedReduction c = checked_call(sendbuf, recvbuf, count, datatype, op, true);
  const Route route = route_of(c);
  if (route == Route::kDirect) {
    return {start(reduction_call(Collective::kAllreduce, comm, direct_send(sendbuf, c),
                                 direct_recv(recvbuf, c), c.args))};
  }
  if (route == Route::kHoled) {
    if (std::optional<Started> started = start_without_staging(
            reduction_call(Collective::kAllreduce, comm, user_send(sendbuf), recvbuf, c.args), c,
            true)) {
      return std::move(*started);
    }
  }
  Reduction r = staged(std::move(c), sendbuf, recvbuf, true);
  halyard::Request request =
      start(reduction_call(Collective::kAllreduce, comm, r.send, r.recv.data(), r.args));
  if (!in_blocking_collective()) r.args.keep_until_done(request);
  return {request, unpack_all(r.sent, r.recv)};
}

Started start_bcast(const halyard::Communicator& comm, void* buffer, int count,
                    MPI_Datatype datatype, int root) {
  if (intercomm_of(comm) != nullptr) return inter_bcast(comm, buffer, count, datatype, root);
  std::size_t n = checked_count(count);
  const TypeObject& type = checked_datatype(datatype);
  check_root(root, comm);
  check_buffer(buffer, n, type, "buffer");
  if (type.contiguous_for(n)) {
    // The common call: the user's memory, nothing staged.
    std::byte* data = contiguous_start(buffer, n, type);
    return {start(halyard::call_args::moving(Collective::kBcast, comm, data, data, n * type.size,
                                             kBytes, root))};
  }
  TypedBuffer data(buffer, n, type, comm.rank() == root ? Use::kSend : Use::kReceive);
  return {start({Collective::kBcast,
                 comm,
                 data.data(),
                 data.data(),
                 data.bytes(),
                 {},
                 {},
                 kBytes,
                 {},
                 root}),
          unpack_all(data)};
}

Started start_allgather(const halyard::Communicator& comm, const void* sendbuf, int sendcount,
                        MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype) {
  if (intercomm_of(comm) != nullptr)
    return inter_allgather(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  Block recv = block_of(recvcount, recvtype, "recv");
  bool in_place = is_in_place(sendbuf);
  Block send = in_place ? recv : block_of(sendcount, sendtype, "send");
  std::size_t block = in_place ? recv.bytes : matching_block(send, recv);
  check_buffer(sendbuf, block, *send.type, "sendbuf", true);
  check_buffer(recvbuf, blocks(block, comm), *recv.type, "recvbuf");
  TypedBuffer sent =
      in_place ? TypedBuffer() : TypedBuffer(sendbuf, send.count, *send.type, Use::kSend);
  TypedBuffer received =
      all_blocks(recvbuf, recv, comm, in_place ? Use::kSendAndReceive : Use::kReceive);
  return {start({Collective::kAllgather,
                 comm,
                 send_or_in_place(sendbuf, sent),
                 received.data(),
                 block,
                 {},
                 {},
                 kBytes}),
          unpack_all(sent, received)};
}

Started start_alltoall(const halyard::Communicator& comm, const void* sendbuf, int sendcount,
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  if (intercomm_of(comm) != nullptr)
    return inter_alltoall(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  Block recv = block_of(recvcount, recvtype, "recv");
  bool in_place = is_in_place(sendbuf);
  Block send = in_place ? recv : block_of(sendcount, sendtype, "send");
  std::size_t block = in_place ? recv.bytes : matching_block(send, recv);
  check_buffer(recvbuf, blocks(block, comm), *recv.type, "recvbuf");
  check_buffer(sendbuf, blocks(block, comm), *send.type, "sendbuf", true);
  TypedBuffer received = all_blocks(recvbuf, recv, comm, Use::kReceive);
  if (!in_place) {
    TypedBuffer sent = all_blocks(sendbuf, send, comm, Use::kSend);
    return {
        start({Collective::kAlltoall, comm, sent.data(), received.data(), block, {}, {}, kBytes}),
        unpack_all(sent, received)};
  }
  // Halyard's alltoall has no in-place form: send from a packed copy of recvbuf, kept alive
  // until the request completes (the non-blocking form returns before that).
  auto copy = std::make_shared<std::vector<std::byte>>(blocks(block, comm));
  pack(*recv.type, recvbuf, blocks(recv.count, comm), copy->data());
  halyard::Request request =
      start({Collective::kAlltoall, comm, copy->data(), received.data(), block, {}, {}, kBytes});
  // A blocking call may come back as a null request, already complete (the self entries' on
  // one member): then the copy is no longer needed.
  if (request.valid()) request.on_complete([copy](const halyard::Status&) {});
  return {request, unpack_all(received)};
}

Started start_gather(const halyard::Communicator& c, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root) {
  if (intercomm_of(c) != nullptr)
    return inter_gather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  check_root(root, c);
  bool is_root = c.rank() == root;
  bool in_place = is_root && is_in_place(sendbuf);
  TypedBuffer sent;
  TypedBuffer received;
  std::size_t block = 0;
  if (!is_root) {
    Block send = block_of(sendcount, sendtype, "send");  // the receive side is not significant
    block = send.bytes;
    check_buffer(sendbuf, block, *send.type, "sendbuf");
    sent = TypedBuffer(sendbuf, send.count, *send.type, Use::kSend);
  } else {
    Block recv = block_of(recvcount, recvtype, "recv");
    Block send = in_place ? recv : block_of(sendcount, sendtype, "send");
    block = in_place ? recv.bytes : matching_block(send, recv);
    check_buffer(sendbuf, block, *send.type, "sendbuf", true);
    check_buffer(recvbuf, blocks(block, c), *recv.type, "recvbuf");
    if (!in_place) sent = TypedBuffer(sendbuf, send.count, *send.type, Use::kSend);
    received = all_blocks(recvbuf, recv, c, in_place ? Use::kSendAndReceive : Use::kReceive);
  }
  void* halyard_recv = is_root ? received.data() : recvbuf;
  return {start({Collective::kGather,
                 c,
                 send_or_in_place(sendbuf, sent),
                 halyard_recv,
                 block,
                 {},
                 {},
                 kBytes,
                 {},
                 root}),
          unpack_all(sent, received)};
}

Started start_scatter(const halyard::Communicator& c, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root) {
  if (intercomm_of(c) != nullptr)
    return inter_scatter(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  check_root(root, c);
  bool is_root = c.rank() == root;
  bool in_place = is_root && is_in_place(recvbuf);
  TypedBuffer sent;
  TypedBuffer received;
  std::size_t block = 0;
  std::shared_ptr<std::vector<std::byte>> own_block;
  if (!is_root) {
    Block recv = block_of(recvcount, recvtype, "recv");  // the send side is not significant
    block = recv.bytes;
    check_buffer(recvbuf, block, *recv.type, "recvbuf");
    received = TypedBuffer(recvbuf, recv.count, *recv.type, Use::kReceive);
  } else {
    Block send = block_of(sendcount, sendtype, "send");
    Block recv = in_place ? send : block_of(recvcount, recvtype, "recv");
    block = in_place ? send.bytes : matching_block(send, recv);
    check_buffer(sendbuf, blocks(block, c), *send.type, "sendbuf");
    sent = all_blocks(sendbuf, send, c, Use::kSend);
    if (in_place) {
      // Halyard's scatter has no in-place form: the root's own block lands in a scratch
      // buffer, kept until the request completes, and is dropped (MPI leaves it in sendbuf).
      own_block = std::make_shared<std::vector<std::byte>>(block);
    } else {
      check_buffer(recvbuf, block, *recv.type, "recvbuf");
      received = TypedBuffer(recvbuf, recv.count, *recv.type, Use::kReceive);
    }
  }
  void* halyard_recv = in_place ? own_block->data() : received.data();
  const void* halyard_send = is_root ? sent.data() : sendbuf;  // not significant elsewhere
  halyard::Request request =
      start({Collective::kScatter, c, halyard_send, halyard_recv, block, {}, {}, kBytes, {}, root});
  // A blocking call may come back as a null request, already complete (the shm engine's):
  // then nothing is left to keep alive.
  if (own_block && request.valid()) request.on_complete([own_block](const halyard::Status&) {});
  return {request, unpack_all(sent, received)};
}

}  // namespace halyard::mpi_shim

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  return blocking_call("MPI_Barrier", comm,
                       [&](const halyard::Communicator& c) { return start_barrier(c); });
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Ibarrier", comm, request,
                          [&](const halyard::Communicator& c) { return start_barrier(c); });
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return blocking_call("MPI_Bcast", comm, [&](const halyard::Communicator& c) {
    return start_bcast(c, buffer, count, datatype, root);
  });
}

int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_call("MPI_Ibcast", comm, request, [&](const halyard::Communicator& c) {
    return start_bcast(c, buffer, count, datatype, root);
  });
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  return blocking_call("MPI_Reduce", comm, [&](const halyard::Communicator& c) {
    return start_reduce(c, sendbuf, recvbuf, count, datatype, op, root);
  });
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Ireduce", comm, request, [&](const halyard::Communicator& c) {
    return start_reduce(c, sendbuf, recvbuf, count, datatype, op, root);
  });
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  return blocking_call("MPI_Allreduce", comm, [&](const halyard::Communicator& c) {
    return start_allreduce(c, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iallreduce", comm, request, [&](const halyard::Communicator& c) {
    return start_allreduce(c, sendbuf, recvbuf, count, datatype, op);
  });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking_call("MPI_Allgather", comm, [&](const halyard::Communicator& c) {
    return start_allgather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iallgather", comm, request, [&](const halyard::Communicator& c) {
    return start_allgather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
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
  return blocking_call("MPI_Alltoall", comm, [&](const halyard::Communicator& c) {
    return start_alltoall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Ialltoall", comm, request, [&](const halyard::Communicator& c) {
    return start_alltoall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

}  // extern "C"
