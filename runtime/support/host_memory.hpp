// Where ordinary host memory of this process certainly lies, told by address alone: the heap
// that malloc grows with brk, and the live part of the calling thread's stack. Asked before any
// device-memory query (collectives/core/memory_kind.cpp): a call whose buffers all lie there
// needs no question to CUDA, whatever the process did with CUDA.
//
// Why no device memory can lie there: CUDA device (and managed) memory lives at addresses the
// driver maps itself, and a mapping never overlaps the brk heap (brk cannot grow over a mapping,
// and nothing maps over the heap while malloc owns it) or a thread's stack between its stack
// pointer and its top (in use by that thread). Memory elsewhere (malloc's mmap chunks, other
// threads' arenas and stacks, fiber stacks) is simply not known here and is asked about.
#pragma once

#include <cstddef>

namespace halyard {

class SurelyHostMemory {
 public:
  // The ranges as they are now, for the calling thread (one sbrk(0) and one thread-local read).
  static SurelyHostMemory now();

  bool contains(const void* pointer) const {
    const auto* p = static_cast<const std::byte*>(pointer);
    return (p >= heap_begin_ && p < heap_end_) || (p >= stack_begin_ && p < stack_end_);
  }

 private:
  const std::byte* heap_begin_ = nullptr;
  const std::byte* heap_end_ = nullptr;
  const std::byte* stack_begin_ = nullptr;  // this frame: the live part starts here
  const std::byte* stack_end_ = nullptr;    // the top of the calling thread's stack
};

}  // namespace halyard
