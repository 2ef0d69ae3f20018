// SmallBuffer<N>: a step machine's working bytes, kept inside the machine up to N bytes and on
// the heap beyond. Machines come from a per-thread pool (StepMachine::launch), so a small
// collective's scratch costs no allocation; a std::vector cost a malloc, a zero fill and a free
// per call. The bytes are not initialised: every user writes them before reading.
#pragma once

#include <cstddef>
#include <memory>

namespace halyard::base {

template <std::size_t N>
class SmallBuffer {
 public:
  SmallBuffer() = default;
  // data_ may point into the object itself.
  SmallBuffer(const SmallBuffer&) = delete;
  SmallBuffer& operator=(const SmallBuffer&) = delete;

  // Makes room for `bytes` (once: what was there is not kept).
  void allocate(std::size_t bytes) {
    if (bytes <= N) {
      data_ = in_place_;
    } else {
      heap_ = std::make_unique_for_overwrite<std::byte[]>(bytes);
      data_ = heap_.get();
    }
  }
  std::byte* data() const noexcept { return data_; }

 private:
  alignas(16) std::byte in_place_[N];
  std::unique_ptr<std::byte[]> heap_;
  std::byte* data_ = nullptr;
};

}  // namespace halyard::base
