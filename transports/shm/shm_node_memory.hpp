// The shm transport's NodeMemory (runtime/node_memory.hpp): scratch slots in the node's segment
// and CMA reads of peers' buffers, for the intra-node collective primitives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/node_memory.hpp"
#include "transports/shm/shm_config.hpp"
#include "transports/shm/shm_segment.hpp"
#include "transports/shm/wake_channel.hpp"

namespace halyard::shm {

class ShmNodeMemory final : public NodeMemory {
 public:
  // `blocks` and `slots` are indexed by local rank; `local_of_world` maps world ranks to local
  // ones (-1 off this node). Publishes where this rank mapped the segment in its ProcessBlock,
  // so it must run before connect()'s closing barrier.
  ShmNodeMemory(std::byte* segment_base, const SegmentLayout& layout,
                std::vector<int> local_of_world, int my_local, std::vector<ProcessBlock*> blocks,
                SingleCopyMode mode, WakeChannel& wake);

  bool on_this_node(int world_rank) const override;
  bool single_copy_usable() override;
  bool single_copy_requested() const override { return mode_ == SingleCopyMode::kCma; }
  Status read(int world_rank, const void* remote, void* local, std::size_t bytes) override;
  std::span<std::byte> scratch_slot(int world_rank) override;
  std::size_t scratch_slot_bytes() const override { return kScratchSlotBytes; }
  std::span<std::byte> channel_region(int world_rank) override;
  const std::uint32_t* sleeping_flag(int world_rank) override;
  void wake(int world_rank) override;

 private:
  int local_of(int world_rank, const char* operation) const;
  bool probe_peers();

  std::vector<int> local_of_world_;
  int my_local_;
  std::vector<ProcessBlock*> blocks_;
  std::vector<std::byte*> slots_;
  std::vector<std::byte*> channels_;
  WakeChannel& wake_;
  SingleCopyMode mode_;
  std::optional<bool> usable_;  // probed once, on first use
};

}  // namespace halyard::shm
