#include "collectives/intranode/buffer_pool.hpp"

#include "runtime/support/fast_tls.hpp"

#include <utility>

namespace halyard::intranode {

namespace {

// Bounds on what the pool keeps, so that a one-off huge reduction does not pin its memory.
constexpr std::size_t kKeptBuffers = 8;
constexpr std::size_t kLargestKept = std::size_t{4} << 20;

std::vector<std::vector<std::byte>>& free_buffers() {
  HALYARD_FAST_TLS thread_local std::vector<std::vector<std::byte>> buffers;
  return buffers;
}

}  // namespace

PooledBuffer::PooledBuffer(std::size_t bytes) {
  auto& pool = free_buffers();
  for (auto it = pool.begin(); it != pool.end(); ++it) {
    if (it->capacity() >= bytes) {
      buffer_ = std::move(*it);
      pool.erase(it);
      break;
    }
  }
  // Growing within capacity neither allocates nor touches the bytes again.
  buffer_.resize(bytes);
}

PooledBuffer::~PooledBuffer() {
  auto& pool = free_buffers();
  if (buffer_.capacity() <= kLargestKept && pool.size() < kKeptBuffers) {
    pool.push_back(std::move(buffer_));
  }
}

}  // namespace halyard::intranode
