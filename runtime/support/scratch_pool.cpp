#include "runtime/support/scratch_pool.hpp"

#include "runtime/support/fast_tls.hpp"

#include <utility>

namespace halyard {

namespace {

// Bounds on what the pool keeps, so that a one-off huge reduction does not pin its memory: a
// burst of buffers in flight (a window's packs to another node: with 64 KiB packs, 64 puts of
// 16 KiB made 21 active messages of 48 KiB: with 8 scratch buffers kept (and 4 packs) such an
// epoch took 1.9-5.3 ms, with 32 of each 0.6-0.7) is kept whole, up to 32 MiB in all. Buffers
// of up to 16 MiB are kept: the flat reduce-scatter's two blocks of 16 MiB took 127 ms a call
// when each call's came fresh (faulted in and zeroed), 22 ms when kept (2026-11-28, 2 ranks).
constexpr std::size_t kKeptBuffers = 32;
constexpr std::size_t kLargestKept = std::size_t{16} << 20;
constexpr std::size_t kKeptBytes = std::size_t{32} << 20;

struct FreeBuffers {
  std::vector<std::vector<std::byte>> buffers;
  std::size_t bytes = 0;  // the sum of their sizes
};

FreeBuffers& free_buffers() {
  HALYARD_FAST_TLS thread_local FreeBuffers pool;
  return pool;
}

}  // namespace

ScratchBuffer::ScratchBuffer(std::size_t bytes) {
  FreeBuffers& pool = free_buffers();
  auto best = pool.buffers.end();  // the smallest kept buffer that holds `bytes`
  for (auto it = pool.buffers.begin(); it != pool.buffers.end(); ++it) {
    if (it->size() >= bytes && (best == pool.buffers.end() || it->size() < best->size())) {
      best = it;
    }
  }
  if (best != pool.buffers.end()) {
    pool.bytes -= best->size();
    buffer_ = std::move(*best);
    pool.buffers.erase(best);
    return;
  }
  buffer_.resize(bytes);
}

ScratchBuffer::~ScratchBuffer() {
  FreeBuffers& pool = free_buffers();
  if (buffer_.size() <= kLargestKept && pool.buffers.size() < kKeptBuffers &&
      pool.bytes + buffer_.size() <= kKeptBytes) {
    pool.bytes += buffer_.size();
    pool.buffers.push_back(std::move(buffer_));
  }
}

}  // namespace halyard
