#include "runtime/support/scratch_pool.hpp"

#include "runtime/support/fast_tls.hpp"

#include <utility>

namespace halyard {

namespace {

// Bounds on what the pool keeps, so that a one-off huge reduction does not pin its memory.
constexpr std::size_t kKeptBuffers = 8;
constexpr std::size_t kLargestKept = std::size_t{4} << 20;

std::vector<std::vector<std::byte>>& free_buffers() {
  HALYARD_FAST_TLS thread_local std::vector<std::vector<std::byte>> buffers;
  return buffers;
}

}  // namespace

ScratchBuffer::ScratchBuffer(std::size_t bytes) {
  auto& pool = free_buffers();
  auto best = pool.end();  // the smallest kept buffer that holds `bytes`
  for (auto it = pool.begin(); it != pool.end(); ++it) {
    if (it->size() >= bytes && (best == pool.end() || it->size() < best->size())) best = it;
  }
  if (best != pool.end()) {
    buffer_ = std::move(*best);
    pool.erase(best);
    return;
  }
  buffer_.resize(bytes);
}

ScratchBuffer::~ScratchBuffer() {
  auto& pool = free_buffers();
  if (buffer_.size() <= kLargestKept && pool.size() < kKeptBuffers) {
    pool.push_back(std::move(buffer_));
  }
}

}  // namespace halyard
