// BufferPool: temporary buffers the CMA machines reuse from call to call.
//
// A fresh large allocation costs a page fault per 4 KiB on first touch (and glibc hands big
// freed blocks back to the kernel), which for a 64 KiB reduction piece costs more than the
// reduction itself. The pool keeps a few freed buffers per thread (the thread that drives the
// event loop) and hands them out again.
#pragma once

#include <cstddef>
#include <vector>

namespace halyard::intranode {

class PooledBuffer {
 public:
  explicit PooledBuffer(std::size_t bytes);
  ~PooledBuffer();
  PooledBuffer(const PooledBuffer&) = delete;
  PooledBuffer& operator=(const PooledBuffer&) = delete;

  std::byte* data() noexcept { return buffer_.data(); }

 private:
  std::vector<std::byte> buffer_;
};

}  // namespace halyard::intranode
