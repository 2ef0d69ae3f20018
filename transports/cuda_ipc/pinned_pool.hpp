// PinnedPool: page-locked host buffers for staging device data on node leaders. Pinning costs
// milliseconds for large buffers, so released buffers are kept and handed out again.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/device_support.hpp"

namespace halyard::cuda_ipc {

class PinnedPool : public std::enable_shared_from_this<PinnedPool> {
 public:
  PinnedPool() = default;
  ~PinnedPool();
  PinnedPool(const PinnedPool&) = delete;
  PinnedPool& operator=(const PinnedPool&) = delete;

  // A buffer of at least `bytes` (the smallest free one that fits, else a new one). It comes
  // back to the pool when the last copy of the handle goes, even after the runtime is gone.
  PinnedBuffer acquire(std::size_t bytes);

 private:
  struct Block {
    std::byte* memory;
    std::size_t bytes;
  };
  void give_back(Block block);

  std::mutex mutex_;
  std::vector<Block> free_;
};

}  // namespace halyard::cuda_ipc
