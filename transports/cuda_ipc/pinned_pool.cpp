#include "transports/cuda_ipc/pinned_pool.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "transports/cuda_ipc/cuda_error.hpp"

namespace halyard::cuda_ipc {

PinnedPool::~PinnedPool() {
  for (const Block& b : free_) (void)cudaFreeHost(b.memory);
}

PinnedBuffer PinnedPool::acquire(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 1);
  Block block{nullptr, 0};
  {
    std::lock_guard lock(mutex_);
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->bytes >= bytes && (best == free_.end() || it->bytes < best->bytes)) best = it;
    }
    if (best != free_.end()) {
      block = *best;
      free_.erase(best);
    }
  }
  if (block.memory == nullptr) {
    void* memory = nullptr;
    // Portable: usable from every device context. Mapped: kernels store their result straight
    // into it (with unified addressing, at the same address as on the host).
    check_cuda(cudaHostAlloc(&memory, bytes, cudaHostAllocPortable | cudaHostAllocMapped),
               "cudaHostAlloc");
    block = {static_cast<std::byte*>(memory), bytes};
  }
  std::weak_ptr<PinnedPool> pool = weak_from_this();
  return PinnedBuffer(block.memory, [pool, block](std::byte*) {
    if (auto alive = pool.lock()) {
      alive->give_back(block);
    } else {
      (void)cudaFreeHost(block.memory);
    }
  });
}

void PinnedPool::give_back(Block block) {
  std::lock_guard lock(mutex_);
  free_.push_back(block);
}

}  // namespace halyard::cuda_ipc
