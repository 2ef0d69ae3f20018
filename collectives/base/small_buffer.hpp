// SmallBuffer<N>: a step machine's working bytes, kept inside the machine up to N bytes and on
// reused scratch beyond (runtime/support/scratch_pool.hpp: no page faults, no fresh mapping per
// call). Machines come from a per-thread pool (StepMachine::launch), so a small collective's
// scratch costs no allocation; a std::vector cost a malloc, a zero fill and a free per call.
// The bytes are not initialised: every user writes them before reading (a reused buffer holds
// an earlier call's).
#pragma once

#include <cstddef>
#include <optional>

#include "runtime/support/scratch_pool.hpp"

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
      data_ = heap_.emplace(bytes).data();
    }
  }
  std::byte* data() const noexcept { return data_; }

 private:
  alignas(16) std::byte in_place_[N];
  std::optional<ScratchBuffer> heap_;
  std::byte* data_ = nullptr;
};

}  // namespace halyard::base
