// The v-variants (MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv, MPI_Alltoallw and
// their I-forms), forwarded to Halyard's gatherv, scatterv, allgatherv and alltoallv as bytes:
// each side's per-rank blocks become byte counts and byte displacements (PackedBlocks: in the
// user's buffer when every block is contiguous, else in one staging buffer that holds them
// packed), so MPI_Alltoallw (a datatype per peer, displacements in bytes) is alltoallv in bytes
// too. The byte arrays live during the call only: the algorithms copy what they keep.
#include <mpi.h>

#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/collective_calls.hpp"
#include "shim/collective_starts.hpp"
#include "shim/intercomm.hpp"
#include "shim/intercomm_collectives.hpp"
#include "shim/mpi_error.hpp"
#include "shim/packed_blocks.hpp"
#include "shim/shim_state.hpp"

using namespace halyard::mpi_shim;
using halyard::core::Collective;

namespace {

std::string indexed(const char* name, int r) {
  return std::string(name) + "[" + std::to_string(r) + "]";
}

// Block r: counts[r] elements of types[r] (or of `datatype` when types is null) at displs[r],
// in elements of `datatype` (MPI's v-variants) or in bytes (types given: MPI_Alltoallw).
struct SideArgs {
  const int* counts;
  const char* counts_name;
  const int* displs;
  const char* displs_name;
  MPI_Datatype datatype;
  const MPI_Datatype* types;
  const char* type_name;  // "recvtype", or "recvtypes" for the per-peer array
};

// The blocks a side names, and the bytes of data they hold (`data_bytes`).
TypedBlocks blocks_of(const halyard::Communicator& comm, const SideArgs& side,
                      std::size_t& data_bytes) {
  if (side.counts == nullptr) fail(MPI_ERR_ARG, std::string(side.counts_name) + " is NULL");
  if (side.displs == nullptr) fail(MPI_ERR_ARG, std::string(side.displs_name) + " is NULL");
  const bool per_peer = side.types != nullptr;
  const TypeObject* shared = per_peer ? nullptr : &checked_datatype(side.datatype, side.type_name);
  const int ranks = comm.size();
  TypedBlocks blocks;
  blocks.reserve(static_cast<std::size_t>(ranks));
  data_bytes = 0;
  for (int r = 0; r < ranks; ++r) {
    // The checks of checked_count and checked_datatype, with the argument's indexed name
    // ("recvcounts[3]") built only for the message of a failure: a string per rank and call
    // would cost a small call more than the rest of its checks.
    const int count = side.counts[r];
    if (count < 0) [[unlikely]]
      invalid_count(count, indexed(side.counts_name, r).c_str());
    const std::size_t n = static_cast<std::size_t>(count);
    const TypeObject* found = per_peer ? datatype_table().find(side.types[r]) : shared;
    if (found == nullptr || !found->committed) [[unlikely]]
      found = &checked_datatype(side.types[r], indexed(side.type_name, r).c_str());  // throws
    const TypeObject& type = *found;
    data_bytes += n * type.size;
    // Displacements count extents (bytes for MPI_Alltoallw), and may be negative.
    blocks.push_back(
        {static_cast<MPI_Aint>(side.displs[r]) * (per_peer ? 1 : type.extent), n, &type});
  }
  return blocks;
}

// One side's blocks in `buf` as the bytes Halyard moves (packed_blocks.hpp: staged when a
// block's type has holes).
PackedBlocks side_blocks(const halyard::Communicator& comm, const void* buf, const char* buf_name,
                         const SideArgs& side, TypedBuffer::Use use) {
  std::size_t bytes = 0;
  const TypedBlocks blocks = blocks_of(comm, side, bytes);
  check_buffer(buf, bytes, buf_name);
  return {buf, std::span<const TypedBlock>(blocks.data(), blocks.size()), use};
}

// This rank's own block: `send` must carry what the other side's layout expects of it.
std::size_t own_block(const Block& send, const PackedBlocks& layout, const char* counts_name,
                      int rank) {
  const std::size_t expected = layout.counts()[static_cast<std::size_t>(rank)];
  if (send.bytes != expected) {
    fail(MPI_ERR_ARG, send.description() + " does not match " + indexed(counts_name, rank) + " (" +
                          std::to_string(expected) + " bytes)");
  }
  return expected;
}

// Gatherv and scatterv (RootedSides in collective_calls.hpp): `layout_args` describe the
// root's blocks.
Started start_rooted_v(const halyard::Communicator& c, const RootedSides& call, const void* blocks,
                       const SideArgs& layout_args, const void* own, int own_count,
                       MPI_Datatype own_type, int root) {
  check_root(root, c);
  const bool is_root = c.rank() == root;
  const bool gather = call.collective == Collective::kGatherv;
  // The buffers' names for the messages ("recvbuf" holds a gatherv's blocks).
  const char* const blocks_name = gather ? "recvbuf" : "sendbuf";
  const char* const own_name = gather ? "sendbuf" : "recvbuf";
  const bool in_place = is_root && is_in_place(own);
  Block own_side{};
  if (!in_place) own_side = block_of(own_count, own_type, call.own_side);
  // Initialized, not assigned: moving the blocks' inline arrays costs a copy of each.
  const PackedBlocks layout =
      is_root ? side_blocks(c, blocks, blocks_name, layout_args,
                            gather ? TypedBuffer::Use::kReceive : TypedBuffer::Use::kSend)
              : PackedBlocks();
  std::size_t own_bytes = own_side.bytes;  // off the root, the blocks' side is not significant
  if (is_root) {
    // In place, the root's block is already among the blocks: staged, it is packed there.
    if (in_place && gather) layout.pack_block(static_cast<std::size_t>(root));
    own_bytes = in_place ? layout.counts()[static_cast<std::size_t>(root)]
                         : own_block(own_side, layout, layout_args.counts_name, root);
  }
  // The own block may be of a type with holes: packed (gather) or unpacked (scatter) here.
  TypedBuffer own_data;
  if (!in_place) {
    check_buffer(own, own_side.count, *own_side.type, own_name);
    own_data = TypedBuffer(own, own_side.count, *own_side.type,
                           gather ? TypedBuffer::Use::kSend : TypedBuffer::Use::kReceive);
  }
  const void* own_bytes_at = in_place ? own : own_data.data();
  const void* blocks_at = is_root ? layout.data() : blocks;
  return {start({call.collective,
                 c,
                 gather ? own_bytes_at : blocks_at,
                 const_cast<void*>(gather ? blocks_at : own_bytes_at),
                 own_bytes,
                 layout.counts().data(),
                 layout.displacements().data(),
                 kBytes,
                 {},
                 root}),
          both_steps(unpack_all(own_data), layout.unpack_step())};
}

// MPI_Alltoallv and MPI_Alltoallw, once their sides are described. MPI_IN_PLACE: the blocks
// leave from recvbuf, laid out as its side says; the send side is not significant.
Started start_alltoall_layouts(const halyard::Communicator& c, const void* sendbuf,
                               const SideArgs& send_side, void* recvbuf,
                               const SideArgs& recv_side) {
  const bool in_place = is_in_place(sendbuf);
  const PackedBlocks recv =
      side_blocks(c, recvbuf, "recvbuf", recv_side,
                  in_place ? TypedBuffer::Use::kSendAndReceive : TypedBuffer::Use::kReceive);
  const PackedBlocks send =
      in_place ? PackedBlocks()
               : side_blocks(c, sendbuf, "sendbuf", send_side, TypedBuffer::Use::kSend);
  if (!in_place) {
    // This rank's block to itself: both sides of the copy must agree.
    const auto me = static_cast<std::size_t>(c.rank());
    if (send.counts()[me] != recv.counts()[me]) {
      fail(MPI_ERR_ARG, indexed(send_side.counts_name, c.rank()) + " (" +
                            std::to_string(send.counts()[me]) + " bytes) does not match " +
                            indexed(recv_side.counts_name, c.rank()) + " (" +
                            std::to_string(recv.counts()[me]) + " bytes)");
    }
  }
  return {start({Collective::kAlltoallv,
                 c,
                 in_place ? sendbuf : send.data(),
                 recv.data(),
                 0,
                 recv.counts().data(),
                 recv.displacements().data(),
                 kBytes,
                 {},
                 -1,
                 send.counts().data(),
                 send.displacements().data()}),
          both_steps(send.unpack_step(), recv.unpack_step())};
}

}  // namespace

namespace halyard::mpi_shim {

Started start_gatherv(const halyard::Communicator& c, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int displs[], MPI_Datatype recvtype, int root) {
  if (intercomm_of(c) != nullptr)
    return inter_gatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root);
  return start_rooted_v(c, {Collective::kGatherv, "send"}, recvbuf,
                        {recvcounts, "recvcounts", displs, "displs", recvtype, nullptr, "recvtype"},
                        sendbuf, sendcount, sendtype, root);
}

Started start_scatterv(const halyard::Communicator& c, const void* sendbuf, const int sendcounts[],
                       const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root) {
  if (intercomm_of(c) != nullptr)
    return inter_scatterv(c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                          root);
  return start_rooted_v(c, {Collective::kScatterv, "recv"}, sendbuf,
                        {sendcounts, "sendcounts", displs, "displs", sendtype, nullptr, "sendtype"},
                        recvbuf, recvcount, recvtype, root);
}

Started start_allgatherv(const halyard::Communicator& c, const void* sendbuf, int sendcount,
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int displs[], MPI_Datatype recvtype) {
  if (intercomm_of(c) != nullptr)
    return inter_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
  const bool in_place = is_in_place(sendbuf);
  const PackedBlocks recv =
      side_blocks(c, recvbuf, "recvbuf",
                  {recvcounts, "recvcounts", displs, "displs", recvtype, nullptr, "recvtype"},
                  TypedBuffer::Use::kReceive);
  // In place, this rank's block is already among the blocks: staged, it is packed there.
  if (in_place) recv.pack_block(static_cast<std::size_t>(c.rank()));
  TypedBuffer sent;  // packed here for a type with holes
  std::size_t own = recv.counts()[static_cast<std::size_t>(c.rank())];
  if (!in_place) {
    const Block send = block_of(sendcount, sendtype, "send");
    own = own_block(send, recv, "recvcounts", c.rank());
    check_buffer(sendbuf, send.count, *send.type, "sendbuf");
    sent = TypedBuffer(sendbuf, send.count, *send.type, TypedBuffer::Use::kSend);
  }
  return {start({Collective::kAllgatherv, c, in_place ? sendbuf : sent.data(), recv.data(), own,
                 recv.counts().data(), recv.displacements().data(), kBytes}),
          both_steps(unpack_all(sent), recv.unpack_step())};
}

Started start_alltoallv(const halyard::Communicator& c, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int rdispls[], MPI_Datatype recvtype) {
  if (intercomm_of(c) != nullptr)
    return inter_alltoallv(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype);
  return start_alltoall_layouts(
      c, sendbuf, {sendcounts, "sendcounts", sdispls, "sdispls", sendtype, nullptr, "sendtype"},
      recvbuf, {recvcounts, "recvcounts", rdispls, "rdispls", recvtype, nullptr, "recvtype"});
}

Started start_alltoallw(const halyard::Communicator& c, const void* sendbuf, const int sendcounts[],
                        const int sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                        const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[]) {
  if (intercomm_of(c) != nullptr)
    return inter_alltoallw(c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes);
  if (recvtypes == nullptr) fail(MPI_ERR_ARG, "recvtypes is NULL");
  if (sendtypes == nullptr && !is_in_place(sendbuf)) fail(MPI_ERR_ARG, "sendtypes is NULL");
  return start_alltoall_layouts(
      c, sendbuf,
      {sendcounts, "sendcounts", sdispls, "sdispls", MPI_DATATYPE_NULL, sendtypes, "sendtypes"},
      recvbuf,
      {recvcounts, "recvcounts", rdispls, "rdispls", MPI_DATATYPE_NULL, recvtypes, "recvtypes"});
}

}  // namespace halyard::mpi_shim

extern "C" {

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  return blocking_call("MPI_Gatherv", comm, [&](const halyard::Communicator& c) {
    return start_gatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root);
  });
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Igatherv", comm, request, [&](const halyard::Communicator& c) {
    return start_gatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root);
  });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  return blocking_call("MPI_Scatterv", comm, [&](const halyard::Communicator& c) {
    return start_scatterv(c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                          root);
  });
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iscatterv", comm, request, [&](const halyard::Communicator& c) {
    return start_scatterv(c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                          root);
  });
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  return blocking_call("MPI_Allgatherv", comm, [&](const halyard::Communicator& c) {
    return start_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
  });
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request) {
  return nonblocking_call("MPI_Iallgatherv", comm, request, [&](const halyard::Communicator& c) {
    return start_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
  });
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking_call("MPI_Alltoallv", comm, [&](const halyard::Communicator& c) {
    return start_alltoallv(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype);
  });
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking_call("MPI_Ialltoallv", comm, request, [&](const halyard::Communicator& c) {
    return start_alltoallv(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype);
  });
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return blocking_call("MPI_Alltoallw", comm, [&](const halyard::Communicator& c) {
    return start_alltoallw(c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes);
  });
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking_call("MPI_Ialltoallw", comm, request, [&](const halyard::Communicator& c) {
    return start_alltoallw(c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes);
  });
}

}  // extern "C"
