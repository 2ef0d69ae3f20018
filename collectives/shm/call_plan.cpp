// How a call of the shm engine is laid out before it runs (channel.hpp): its buffers, where the
// members' blocks lie, how it is cut into chunks, and when it takes its seqs.
#include <algorithm>
#include <cstring>

#include "collectives/core/in_place.hpp"
#include "collectives/shm/channel.hpp"

namespace halyard::shm {

namespace {

using core::Collective;

std::uint64_t chunks_for(std::size_t bytes, std::size_t chunk_bytes) {
  if (bytes == 0 || chunk_bytes == 0) return 1;
  return (bytes + chunk_bytes - 1) / chunk_bytes;
}

}  // namespace

Channel::Call Channel::plan(const core::CollArgs& args) const {
  Call call;
  call.collective = args.collective;
  call.recv = static_cast<std::byte*>(args.recv);
  call.send = core::is_in_place(args.send) ? call.recv : static_cast<const std::byte*>(args.send);
  if (args.collective == Collective::kBcast) call.send = call.recv;
  const bool blocks =
      args.collective == Collective::kAllgather || args.collective == Collective::kGather;
  // In place, a rank's block already lies at its place in recv.
  if (blocks && core::is_in_place(args.send)) {
    call.send = call.recv + static_cast<std::size_t>(rank_) * args.bytes;
  }
  if (args.send_layout != nullptr || args.recv_layout != nullptr) [[unlikely]] {
    call.layouts = copied_layouts(args);
  }
  call.type = args.type;
  call.op = args.op;
  call.root = args.root;
  call.bytes = args.bytes;
  if (args.collective == Collective::kBarrier) {
    // One flag per member; two seqs where one member leaves first or last; no data.
    call.chunk_bytes = cell_bytes_;
    call.barrier = barrier_order_;
    call.chunks = barrier_order_.kind == BarrierOrder::Kind::kFlat ? 1 : 2;
    return call;
  }
  const std::size_t element = datatype_size(args.type);
  // Allreduce by slices where every rank reducing everything would cost too much: more ranks,
  // more bytes; on 2 ranks, where a member writes its result through a layout (the members
  // agree at the first chunk, Call::agrees_on_slices).
  const bool sliceable =
      args.collective == Collective::kAllreduce && args.bytes >= kSlicedAllreduceMinBytes;
  call.sliced = sliceable && size_ > 2;
  // Half a cell per chunk on more ranks, the step the sliced allreduce was measured with there
  // (docs/collectives.md): its results used to take the other half. They lie over their input
  // now, so the other half is idle; whole cells on 4 oversubscribed ranks measured within those
  // runs' 2x spread (docs/bench-data/2026-11-27-sliced-vector/), not enough to change the step.
  const std::size_t room = call.sliced ? cell_bytes_ / 2 : cell_bytes_;
  call.chunk_bytes = room / element * element;
  // The first chunk's part must lie in the cell: the answer takes its flag line's data.
  call.agrees_on_slices = sliceable && size_ == 2 && call.chunk_bytes > kInlineBytes;
  call.single_copy = goes_by_single_copy(args);
  if (call.single_copy) {
    call.chunk_bytes = args.bytes;
    call.chunks = 1;
    return call;
  }
  plan_blocks(call, args, element);
  if (!call.pairwise) call.chunks = chunks_for(call.bytes, call.chunk_bytes);
  return call;
}

// Allreduce and reduce (takes_layouts); in place, the input is recv.
std::unique_ptr<const CallLayouts> Channel::copied_layouts(const core::CollArgs& args) {
  auto layouts = std::make_unique<CallLayouts>();
  if (args.recv_layout != nullptr) layouts->recv = *args.recv_layout;
  if (core::is_in_place(args.send)) {
    layouts->send = layouts->recv;
  } else if (args.send_layout != nullptr) {
    layouts->send = *args.send_layout;
  }
  return layouts;
}

// Every member decides alike: the size is the same everywhere, and the node's answer too.
bool Channel::goes_by_single_copy(const core::CollArgs& args) const {
  return (args.collective == Collective::kBcast || args.collective == Collective::kReduce) &&
         size_ == 2 && args.bytes >= kSingleCopyMinBytes && args.bytes <= kSingleCopyMaxBytes &&
         memory_.single_copy_requested() && memory_.single_copy_usable();
}

// Alltoall in steps (advance_pairwise_alltoall) where the call is not a single chunk (whose
// steps the general algorithm's must be: single_chunk_calls.cpp): on 2 members, where it copies
// half of what the whole send vector through the cells would, and on more from blocks of half a
// cell, below which its size - 1 chunks cost more than the few the whole vector needs
// (2026-11-29, mpi_collectives, engine in steps / whole vector / Open MPI tuned, us: 8 ranks
// 16 KiB blocks 47-53 / 34-63 / 81-100, 32 KiB 69-80 / 66-103 / 105-151, 1 MiB 3,429-3,701 /
// 4,213-4,494 / 4,132-4,468; 4 ranks 16 KiB 8.8-12.9 / 6.0-11.1, 1 MiB 438-452 / 669-741 /
// 749-811; 2 ranks 1 MiB 65-68 / 101-105 / 97-100; docs/collectives.md, "Block collectives").
bool Channel::goes_pairwise(const core::CollArgs& args) const {
  return args.collective == Collective::kAlltoall &&
         args.bytes * static_cast<std::size_t>(size_) > kSingleChunkMaxBytes &&
         (size_ == 2 || args.bytes >= cell_bytes_ / 2);
}

bool Channel::takes_layouts(const core::CollArgs& args) const {
  return args.collective == Collective::kAllreduce ||
         (args.collective == Collective::kReduce && !goes_by_single_copy(args));
}

// The collectives with a block per member beyond gather and allgather (whose blocks follow the
// rank * bytes rule). Their chunks cut every block alike: chunk i carries bytes
// [i * chunk_bytes, (i + 1) * chunk_bytes) of each, so a call has as many chunks as its largest
// block needs; scatter(v)'s root shares its payload among the members, a slot each.
void Channel::plan_blocks(Call& call, const core::CollArgs& args, std::size_t element) const {
  const bool root = rank_ == args.root;
  switch (args.collective) {
    case Collective::kGatherv:
    case Collective::kAllgatherv:
      if (args.collective == Collective::kGatherv && !root) {
        call.learns_chunks = true;  // call.bytes is this rank's block
        return;
      }
      call.varied = true;
      call.root_tells_chunks = args.collective == Collective::kGatherv;
      call.blocks = base::BlockLayout(size_, args.counts, args.displacements, element);
      if (core::is_in_place(args.send)) call.send = call.recv + call.blocks.offset(rank_);
      call.bytes = largest_block_bytes(args);
      return;
    case Collective::kScatter:
    case Collective::kScatterv: {
      if (root && core::is_in_place(args.recv)) call.recv = nullptr;
      const bool varied = args.collective == Collective::kScatterv;
      // Scatter's whole payload rides in the root's flag line where it fits; scatterv's always
      // goes to the cell, since the root's line carries the chunk count then.
      const std::size_t slot = cell_bytes_ / static_cast<std::size_t>(size_) / element * element;
      const bool fits_inline =
          !varied && args.bytes * static_cast<std::size_t>(size_) <= kInlineBytes;
      call.chunk_bytes = fits_inline ? args.bytes : slot;
      if (varied && !root) {
        call.learns_chunks = true;  // call.bytes is this rank's block
        return;
      }
      if (!varied) return;
      call.varied = true;
      call.root_tells_chunks = true;
      call.blocks = base::BlockLayout(size_, args.counts, args.displacements, element);
      call.bytes = largest_block_bytes(args, rank_);
      return;
    }
    case Collective::kAlltoall:
      if (goes_pairwise(args)) {
        call.pairwise = true;  // call.bytes is one block; size - 1 steps cut it alike
        call.chunks = (size_ - 1) * chunks_for(call.bytes, call.chunk_bytes);
        return;
      }
      [[fallthrough]];  // the whole send vector published, one block per member
    case Collective::kReduceScatterBlock:
      call.varied = true;
      call.blocks = base::BlockLayout::uniform(size_, args.count, element);
      call.bytes = call.blocks.extent();
      return;
    case Collective::kReduceScatter:
      call.varied = true;
      call.blocks = base::BlockLayout(size_, args.counts, nullptr, element);
      return;
    case Collective::kAlltoallv:
      plan_alltoallv(call, args, element);
      return;
    default:
      return;
  }
}

void Channel::begin(Call& call) {
  call.begun = true;
  call.first_seq = next_seq_;
  next_seq_ += call.chunks;
}

void Channel::set_chunks(Call& call, std::uint64_t chunks) {
  next_seq_ = call.first_seq + chunks;
  call.chunks = chunks;
}

std::uint64_t Channel::chunks_told(int root, std::uint64_t seq) const {
  std::uint64_t chunks = 0;
  std::memcpy(&chunks, headers_[static_cast<std::size_t>(root)]->post[seq & 1].data, sizeof chunks);
  return chunks;
}

void Channel::tell_chunks(std::byte* line_data, std::uint64_t chunks) const {
  std::memcpy(line_data, &chunks, sizeof chunks);
}

std::size_t Channel::block_bytes(const Call& call, int rank) const {
  return call.varied ? call.blocks.bytes(rank) : call.bytes;
}

std::size_t Channel::block_offset(const Call& call, int rank) const {
  return call.varied ? call.blocks.offset(rank) : static_cast<std::size_t>(rank) * call.bytes;
}

std::size_t Channel::block_length(const Call& call, int rank) const {
  return chunk_part(call, block_bytes(call, rank));
}

}  // namespace halyard::shm
