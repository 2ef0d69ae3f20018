#include "shim/typed_buffer.hpp"

#include <algorithm>
#include <mutex>

namespace halyard::mpi_shim {

namespace {

// Buffers given back, kept for the next call that needs as much; at most kKeptBytes in all.
class StagingPool {
 public:
  std::byte* take(std::size_t bytes, std::size_t& capacity) {
    std::lock_guard lock(mutex_);
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->capacity >= bytes && (best == free_.end() || it->capacity < best->capacity))
        best = it;
    }
    if (best == free_.end()) {
      capacity = bytes;
      return new std::byte[std::max<std::size_t>(bytes, 1)];
    }
    std::byte* memory = best->memory;
    capacity = best->capacity;
    kept_bytes_ -= capacity;
    free_.erase(best);
    return memory;
  }

  void give_back(std::byte* memory, std::size_t capacity) {
    std::lock_guard lock(mutex_);
    if (kept_bytes_ + capacity > kKeptBytes) {
      delete[] memory;
      return;
    }
    kept_bytes_ += capacity;
    free_.push_back({memory, capacity});
  }

 private:
  static constexpr std::size_t kKeptBytes = std::size_t{64} << 20;
  struct Free {
    std::byte* memory;
    std::size_t capacity;
  };
  std::mutex mutex_;
  std::vector<Free> free_;
  std::size_t kept_bytes_ = 0;
};

StagingPool& staging_pool() {
  static auto* pool = new StagingPool();  // never destroyed: buffers may be released at exit
  return *pool;
}

}  // namespace

std::shared_ptr<std::byte> staging_memory(std::size_t bytes) {
  std::size_t capacity = 0;
  std::byte* memory = staging_pool().take(bytes, capacity);
  return {memory, [capacity](std::byte* p) { staging_pool().give_back(p, capacity); }};
}

TypedBuffer::TypedBuffer(const void* buf, std::size_t count, const TypeObject& type, Use use)
    : bytes_(count * type.size),
      user_(static_cast<std::byte*>(const_cast<void*>(buf))),
      count_(count) {
  if (bytes_ == 0 || type.contiguous_for(count)) {
    data_ = contiguous_start(user_, count, type);  // nothing moves
    return;
  }
  staging_ = staging_memory(bytes_);
  data_ = staging_.get();
  if (use != Use::kReceive) pack(type, user_, count, staging_.get());
  if (use != Use::kSend) unpack_type_ = type.shared_from_this();
}

void TypedBuffer::pack_from(const void* buf) const {
  pack(*unpack_type_, buf, count_, staging_.get());
}

void TypedBuffer::complete(std::size_t received) const {
  if (unpack_type_ == nullptr) return;
  unpack(*unpack_type_, staging_.get(), std::min(received, bytes_), user_, count_);
}

CompletionStep unpack_all(std::vector<TypedBuffer> buffers) {
  if (std::none_of(buffers.begin(), buffers.end(), [](auto& b) { return b.staged(); })) return {};
  return [buffers = std::move(buffers)](const Status&) {
    for (const TypedBuffer& buffer : buffers) buffer.complete();
  };
}

CompletionStep unpack_received(TypedBuffer buffer) {
  if (!buffer.staged()) return {};
  return [buffer = std::move(buffer)](const Status& status) { buffer.complete(status.bytes); };
}

}  // namespace halyard::mpi_shim
