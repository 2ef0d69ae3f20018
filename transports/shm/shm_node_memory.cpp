#include "transports/shm/shm_node_memory.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "runtime/support/cma_copy.hpp"
#include "runtime/support/log.hpp"

namespace halyard::shm {

ShmNodeMemory::ShmNodeMemory(std::byte* segment_base, const SegmentLayout& layout,
                             std::vector<int> local_of_world, int my_local,
                             std::vector<ProcessBlock*> blocks, SingleCopyMode mode,
                             WakeChannel& wake)
    : local_of_world_(std::move(local_of_world)),
      my_local_(my_local),
      blocks_(std::move(blocks)),
      wake_(wake),
      mode_(mode) {
  for (std::uint32_t q = 0; q < blocks_.size(); ++q) {
    slots_.push_back(segment_base + layout.scratch(q));
    channels_.push_back(segment_base + layout.channels(q));
  }
  std::atomic_ref<std::uint64_t>(blocks_[static_cast<std::size_t>(my_local_)]->segment_address)
      .store(reinterpret_cast<std::uintptr_t>(segment_base), std::memory_order_release);
}

int ShmNodeMemory::local_of(int world_rank, const char* operation) const {
  if (world_rank < 0 || static_cast<std::size_t>(world_rank) >= local_of_world_.size() ||
      local_of_world_[static_cast<std::size_t>(world_rank)] < 0) {
    throw Error(ErrorCode::kInvalidArgument, std::string("NodeMemory::") + operation +
                                                 ": world_rank " + std::to_string(world_rank) +
                                                 " is not a rank on this node");
  }
  return local_of_world_[static_cast<std::size_t>(world_rank)];
}

bool ShmNodeMemory::on_this_node(int world_rank) const {
  return world_rank >= 0 && static_cast<std::size_t>(world_rank) < local_of_world_.size() &&
         local_of_world_[static_cast<std::size_t>(world_rank)] >= 0;
}

bool ShmNodeMemory::single_copy_usable() {
  if (mode_ == SingleCopyMode::kNone) return false;
  // With HALYARD_SHM_SINGLE_COPY=cma a refusal must fail loudly, not fall back: say yes and let
  // read() report it.
  if (mode_ == SingleCopyMode::kCma) return true;
  if (!usable_) usable_ = probe_peers();
  return *usable_;
}

bool ShmNodeMemory::probe_peers() {
  // Read a few bytes of every peer's own mapping of the segment: the address is valid in its
  // process for the job's life, so only a policy refusal (Yama, seccomp, namespaces) can fail.
  for (std::size_t q = 0; q < blocks_.size(); ++q) {
    if (static_cast<int>(q) == my_local_) continue;
    auto pid = std::atomic_ref<std::int32_t>(blocks_[q]->pid).load(std::memory_order_acquire);
    auto address =
        std::atomic_ref<std::uint64_t>(blocks_[q]->segment_address).load(std::memory_order_acquire);
    std::uint64_t probe = 0;
    int error = cma_read(pid, address, &probe, sizeof probe);
    if (error != 0) {
      log::debug(
          "shm: CMA towards local rank {} (pid {}) failed ({}); intra-node collectives use "
          "the shared scratch instead",
          q, pid, std::strerror(error));
      return false;
    }
  }
  return true;
}

Status ShmNodeMemory::read(int world_rank, const void* remote, void* local, std::size_t bytes) {
  int q = local_of(world_rank, "read");
  if (bytes == 0) return {};
  auto pid = std::atomic_ref<std::int32_t>(blocks_[static_cast<std::size_t>(q)]->pid)
                 .load(std::memory_order_acquire);
  int error = cma_read(pid, reinterpret_cast<std::uintptr_t>(remote), local, bytes);
  if (error == 0) {
    Status ok;
    ok.bytes = bytes;
    return ok;
  }
  if (error == ESRCH) {
    // The process is gone: a dead peer, which the user should hear as such whether the
    // launcher's notice or this read comes first.
    return Status::failure(ErrorCode::kPeerFailed,
                           "world rank " + std::to_string(world_rank) + " (pid " +
                               std::to_string(pid) + ") is gone: a CMA read of " +
                               std::to_string(bytes) + " bytes from it found no such process");
  }
  return Status::failure(ErrorCode::kTransport,
                         "shm: CMA read of " + std::to_string(bytes) + " bytes from world rank " +
                             std::to_string(world_rank) + " (pid " + std::to_string(pid) +
                             ") failed: " + std::strerror(error));
}

std::span<std::byte> ShmNodeMemory::scratch_slot(int world_rank) {
  int q = local_of(world_rank, "scratch_slot");
  return {slots_[static_cast<std::size_t>(q)], kScratchSlotBytes};
}

std::span<std::byte> ShmNodeMemory::channel_region(int world_rank) {
  int q = local_of(world_rank, "channel_region");
  return {channels_[static_cast<std::size_t>(q)], kChannelRegionBytes};
}

const std::uint32_t* ShmNodeMemory::sleeping_flag(int world_rank) {
  int q = local_of(world_rank, "sleeping_flag");
  return &blocks_[static_cast<std::size_t>(q)]->sleeping;
}

void ShmNodeMemory::wake(int world_rank) {
  int q = local_of(world_rank, "wake");
  wake_.poke_if_sleeping(blocks_[static_cast<std::size_t>(q)]->sleeping, world_rank);
}

}  // namespace halyard::shm
