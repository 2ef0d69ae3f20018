// MPI neighborhood collectives on cartesian, graph and distributed graph communicators: every
// form computes where each neighbour's block lies in the send and receive buffers, and the
// engine in collectives/neighbor moves one message per edge. Blocks travel as bytes of their
// (count, datatype): from the user's buffer when contiguous, else packed into one staging buffer
// and unpacked from it when the exchange succeeds (packed_blocks.hpp); a neighbour that is
// MPI_PROC_NULL (a non-periodic edge of a cartesian grid) moves nothing, and its block of the
// receive buffer is left as it was.
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "collectives/neighbor/neighbor_exchange.hpp"
#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/intercomm.hpp"
#include "shim/packed_blocks.hpp"
#include "shim/persistent_collective.hpp"
#include "shim/shim_state.hpp"
#include "shim/topology.hpp"

using namespace halyard::mpi_shim;

namespace {

std::string indexed(const char* name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

// Where the blocks of `neighbors` neighbours lie in one buffer. Made lazily, inside the call's
// guard, once the communicator's topology is known (and so that a bad count is reported as the
// call's error).
using Layout = std::function<std::vector<TypedBlock>(std::size_t neighbors)>;

// The same block for every neighbour (allgather's send side).
Layout same_block(int count, MPI_Datatype type, const char* side) {
  return [=](std::size_t neighbors) {
    std::string name = std::string(side) + "count";
    std::size_t n = checked_count(count, name.c_str());
    const TypeObject& info = checked_datatype(type, (std::string(side) + "type").c_str());
    return std::vector<TypedBlock>(neighbors, TypedBlock{0, n, &info});
  };
}

// Block i at i * count extents (allgather's receive side, alltoall).
Layout consecutive_blocks(int count, MPI_Datatype type, const char* side) {
  return [=](std::size_t neighbors) {
    std::vector<TypedBlock> blocks = same_block(count, type, side)(neighbors);
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      blocks[i].origin = static_cast<MPI_Aint>(i * blocks[i].count) * blocks[i].type->extent;
    }
    return blocks;
  };
}

// counts[i] elements of `type` at displs[i] extents (the v forms).
Layout counted_blocks(const int counts[], const int displs[], MPI_Datatype type, const char* side) {
  return [=](std::size_t neighbors) {
    const TypeObject& info = checked_datatype(type, (std::string(side) + "type").c_str());
    std::string counts_name = std::string(side) + "counts";
    if (neighbors > 0 && (counts == nullptr || displs == nullptr)) {
      fail(MPI_ERR_ARG, counts_name + " or the displacements are NULL");
    }
    std::vector<TypedBlock> blocks;
    for (std::size_t i = 0; i < neighbors; ++i) {
      std::size_t n = checked_count(counts[i], indexed(counts_name.c_str(), i).c_str());
      blocks.push_back({static_cast<MPI_Aint>(displs[i]) * info.extent, n, &info});
    }
    return blocks;
  };
}

// counts[i] elements of types[i] at displs[i] bytes (the w forms).
Layout typed_blocks(const int counts[], const MPI_Aint displs[], const MPI_Datatype types[],
                    const char* side) {
  return [=](std::size_t neighbors) {
    std::string counts_name = std::string(side) + "counts";
    std::string types_name = std::string(side) + "types";
    if (neighbors > 0 && (counts == nullptr || displs == nullptr || types == nullptr)) {
      fail(MPI_ERR_ARG, counts_name + ", the displacements or " + types_name + " are NULL");
    }
    std::vector<TypedBlock> blocks;
    for (std::size_t i = 0; i < neighbors; ++i) {
      std::size_t n = checked_count(counts[i], indexed(counts_name.c_str(), i).c_str());
      const TypeObject& info = checked_datatype(types[i], indexed(types_name.c_str(), i).c_str());
      blocks.push_back({displs[i], n, &info});
    }
    return blocks;
  };
}

// The blocks of one buffer as bytes (packed_blocks.hpp: staged when a block's type has holes).
// A block of an MPI_PROC_NULL neighbour is neither packed nor unpacked: it stays as it was.
PackedBlocks neighbor_blocks(const void* buffer, std::vector<TypedBlock> blocks,
                             const std::vector<Neighbor>& peers, const char* name,
                             TypedBuffer::Use use) {
  // MPI_IN_PLACE is not allowed in neighborhood collectives.
  check_buffer(buffer, data_bytes(blocks), name);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (peers[i].rank < 0) blocks[i].count = 0;
  }
  return {buffer, blocks, use};
}

// Posts the exchange of `comm`'s neighbours with the blocks laid out as given (under
// CheckingOnly, checks them and posts nothing).
Started start_exchange(const halyard::Communicator& comm, const void* sendbuf,
                       const Layout& send_layout, void* recvbuf, const Layout& recv_layout) {
  const Topology& topology = checked_topology(comm, MPI_UNDEFINED);
  const std::vector<Neighbor> sources = topology.in_neighbors(comm.rank());
  const std::vector<Neighbor> destinations = topology.out_neighbors(comm.rank());
  const PackedBlocks send = neighbor_blocks(sendbuf, send_layout(destinations.size()), destinations,
                                            "sendbuf", TypedBuffer::Use::kSend);
  const PackedBlocks recv = neighbor_blocks(recvbuf, recv_layout(sources.size()), sources,
                                            "recvbuf", TypedBuffer::Use::kReceive);
  std::vector<halyard::NeighborReceive> receives;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    receives.push_back({sources[i].rank, sources[i].lane, recv.block_data(i), recv.counts()[i]});
  }
  std::vector<halyard::NeighborSend> sends;
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    sends.push_back(
        {destinations[i].rank, destinations[i].lane, send.block_data(i), send.counts()[i]});
  }
  if (in_checking_only()) return halyard::Request::make_completed(comm.loop(), {});
  // The step holds both staging buffers until the exchange is over.
  return {halyard::ineighbor_exchange(comm, topology.lanes(), receives, sends),
          both_steps(send.unpack_step(), recv.unpack_step())};
}

// How a call completes: blocking forms wait; the I-forms hand out an MPI_Request.
struct CallForm {
  bool blocking;
  MPI_Request* request;
};
constexpr CallForm kBlocking{true, nullptr};
CallForm nonblocking(MPI_Request* request) {
  return {false, request};
}

// One neighborhood collective call, from its MPI arguments to its completion.
int neighbor_call(const char* call, MPI_Comm comm, CallForm form, const void* sendbuf,
                  const Layout& send, void* recvbuf, const Layout& recv) {
  return guarded(call, comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    refuse_intercomm(entry.comm, call);
    if (form.blocking) {
      wait_for(start_exchange(entry.comm, sendbuf, send, recvbuf, recv));
      return;
    }
    check_request_out(form.request);
    post(comm, form.request, start_exchange(entry.comm, sendbuf, send, recvbuf, recv));
  });
}

// The persistent form (MPI-4 MPI_Neighbor_*_init): the layouts keep the caller's arrays, which
// MPI requires to stay unchanged while the request lives.
int neighbor_init(const char* call, MPI_Comm comm, MPI_Request* request, const void* sendbuf,
                  Layout send, void* recvbuf, Layout recv) {
  return persistent_collective(call, comm, request, [=](const halyard::Communicator& c) -> Started {
    refuse_intercomm(c, call);
    return start_exchange(c, sendbuf, send, recvbuf, recv);
  });
}

}  // namespace

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return neighbor_call("MPI_Neighbor_allgather", comm, kBlocking, sendbuf,
                       same_block(sendcount, sendtype, "send"), recvbuf,
                       consecutive_blocks(recvcount, recvtype, "recv"));
}

int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  return neighbor_call("MPI_Ineighbor_allgather", comm, nonblocking(request), sendbuf,
                       same_block(sendcount, sendtype, "send"), recvbuf,
                       consecutive_blocks(recvcount, recvtype, "recv"));
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  return neighbor_call("MPI_Neighbor_allgatherv", comm, kBlocking, sendbuf,
                       same_block(sendcount, sendtype, "send"), recvbuf,
                       counted_blocks(recvcounts, displs, recvtype, "recv"));
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return neighbor_call("MPI_Ineighbor_allgatherv", comm, nonblocking(request), sendbuf,
                       same_block(sendcount, sendtype, "send"), recvbuf,
                       counted_blocks(recvcounts, displs, recvtype, "recv"));
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return neighbor_call("MPI_Neighbor_alltoall", comm, kBlocking, sendbuf,
                       consecutive_blocks(sendcount, sendtype, "send"), recvbuf,
                       consecutive_blocks(recvcount, recvtype, "recv"));
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request* request) {
  return neighbor_call("MPI_Ineighbor_alltoall", comm, nonblocking(request), sendbuf,
                       consecutive_blocks(sendcount, sendtype, "send"), recvbuf,
                       consecutive_blocks(recvcount, recvtype, "recv"));
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return neighbor_call("MPI_Neighbor_alltoallv", comm, kBlocking, sendbuf,
                       counted_blocks(sendcounts, sdispls, sendtype, "send"), recvbuf,
                       counted_blocks(recvcounts, rdispls, recvtype, "recv"));
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  return neighbor_call("MPI_Ineighbor_alltoallv", comm, nonblocking(request), sendbuf,
                       counted_blocks(sendcounts, sdispls, sendtype, "send"), recvbuf,
                       counted_blocks(recvcounts, rdispls, recvtype, "recv"));
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                           MPI_Comm comm) {
  return neighbor_call("MPI_Neighbor_alltoallw", comm, kBlocking, sendbuf,
                       typed_blocks(sendcounts, sdispls, sendtypes, "send"), recvbuf,
                       typed_blocks(recvcounts, rdispls, recvtypes, "recv"));
}

int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* request) {
  return neighbor_call("MPI_Ineighbor_alltoallw", comm, nonblocking(request), sendbuf,
                       typed_blocks(sendcounts, sdispls, sendtypes, "send"), recvbuf,
                       typed_blocks(recvcounts, rdispls, recvtypes, "recv"));
}

int MPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info, MPI_Request* request) {
  return neighbor_init("MPI_Neighbor_allgather_init", comm, request, sendbuf,
                       same_block(sendcount, sendtype, "send"), recvbuf,
                       consecutive_blocks(recvcount, recvtype, "recv"));
}

int MPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                 MPI_Request* request) {
  return neighbor_init("MPI_Neighbor_allgatherv_init", comm, request, sendbuf,
                       same_block(sendcount, sendtype, "send"), recvbuf,
                       counted_blocks(recvcounts, displs, recvtype, "recv"));
}

int MPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Info, MPI_Request* request) {
  return neighbor_init("MPI_Neighbor_alltoall_init", comm, request, sendbuf,
                       consecutive_blocks(sendcount, sendtype, "send"), recvbuf,
                       consecutive_blocks(recvcount, recvtype, "recv"));
}

int MPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                MPI_Request* request) {
  return neighbor_init("MPI_Neighbor_alltoallv_init", comm, request, sendbuf,
                       counted_blocks(sendcounts, sdispls, sendtype, "send"), recvbuf,
                       counted_blocks(recvcounts, rdispls, recvtype, "recv"));
}

int MPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info,
                                MPI_Request* request) {
  return neighbor_init("MPI_Neighbor_alltoallw_init", comm, request, sendbuf,
                       typed_blocks(sendcounts, sdispls, sendtypes, "send"), recvbuf,
                       typed_blocks(recvcounts, rdispls, recvtypes, "recv"));
}

}  // extern "C"
