// ScratchBuffer: temporary buffers reused from call to call (the intra-node CMA machines'
// pieces, the step machines' scratch beyond their inline bytes, large active messages).
//
// A fresh large allocation costs a page fault per 4 KiB on first touch (and glibc hands big
// freed blocks back to the kernel), which for a 64 KiB reduction piece costs more than the
// reduction itself. Freeing one that malloc had mapped also raises glibc's mmap threshold to its
// size, so that the application's own blocks up to that size then come from the heap, where
// varying sizes fragment it. The pool keeps a few freed buffers per thread (the thread that
// drives the event loop) and hands them out again; it holds at most 32, of at most 16 MiB each
// and 32 MiB in all.
#pragma once

#include <cstddef>
#include <vector>

namespace halyard {

// At least `bytes` of scratch, uninitialised in the sense that a reused buffer holds an earlier
// user's bytes (a fresh one is zeroed).
class ScratchBuffer {
 public:
  explicit ScratchBuffer(std::size_t bytes);
  ~ScratchBuffer();
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;

  std::byte* data() noexcept { return buffer_.data(); }

 private:
  std::vector<std::byte> buffer_;  // always at its full size: reuse never fills it again
};

}  // namespace halyard
