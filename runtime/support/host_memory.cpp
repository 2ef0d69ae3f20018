#include "runtime/support/host_memory.hpp"

#include <pthread.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "runtime/support/fast_tls.hpp"

namespace halyard {

namespace {

// Where the brk heap begins: field 47 (start_brk) of /proc/self/stat (Linux 3.5 and later),
// read once. Null when it cannot be read: the heap is then not a known range.
const std::byte* heap_start() {
  static const std::byte* const start = [] {
    std::ifstream file("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    // Field 2, the command, is in parentheses and may hold spaces: count from the last ')'.
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) return static_cast<const std::byte*>(nullptr);
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    unsigned long long value = 0;
    for (int number = 3; number <= 47 && fields >> field; ++number) {
      if (number == 47) value = std::stoull(field);
    }
    return reinterpret_cast<const std::byte*>(static_cast<std::uintptr_t>(value));
  }();
  return start;
}

// The calling thread's stack [low, top), asked once per thread (for the main thread glibc reads
// /proc/self/maps). Both null when unknown.
struct ThreadStack {
  const std::byte* low = nullptr;
  const std::byte* top = nullptr;
  bool asked = false;
};

HALYARD_FAST_TLS thread_local ThreadStack this_thread_stack;

const ThreadStack& thread_stack() {
  ThreadStack& stack = this_thread_stack;
  if (!stack.asked) {
    stack.asked = true;
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      void* low = nullptr;
      std::size_t bytes = 0;
      if (pthread_attr_getstack(&attributes, &low, &bytes) == 0) {
        stack.low = static_cast<const std::byte*>(low);
        stack.top = stack.low + bytes;
      }
      pthread_attr_destroy(&attributes);
    }
  }
  return stack;
}

}  // namespace

// Not inlined: this frame lies below every frame of the caller, so [this frame, top) holds the
// caller's stack buffers.
[[gnu::noinline]] SurelyHostMemory SurelyHostMemory::now() {
  SurelyHostMemory ranges;
  ranges.heap_begin_ = heap_start();
  if (ranges.heap_begin_ != nullptr) ranges.heap_end_ = static_cast<const std::byte*>(sbrk(0));
  const auto* frame = static_cast<const std::byte*>(__builtin_frame_address(0));
  const ThreadStack& stack = thread_stack();
  // Only while running on the thread's own stack: on a fiber's stack (makecontext, a coroutine
  // library) [frame, top) would span other mappings.
  if (frame >= stack.low && frame < stack.top) {
    ranges.stack_begin_ = frame;
    ranges.stack_end_ = stack.top;
  }
  return ranges;
}

}  // namespace halyard
