// Pooled<T>: class-level operator new/delete that recycle T-sized blocks through a per-thread
// free list, for the objects the runtime creates once per message (request states, arrivals,
// deliveries, sends in flight).
//
// Even with glibc's tcache a malloc/free pair costs tens of nanoseconds, and the small-message
// path used to make several per message: a measurable share of a 0.4 us shm ping-pong. A free
// list pop or push is a few instructions. Blocks freed on another thread join that thread's
// list (they are plain ::operator new blocks), and each list keeps at most kMaxCached blocks so
// a burst of millions of in-flight operations does not pin its memory forever.
#pragma once

#include <cstddef>
#include <new>

#include "runtime/support/fast_tls.hpp"

namespace halyard {

template <typename T>
class Pooled {
 public:
  static constexpr std::size_t kMaxCached = 4096;

  static void* operator new(std::size_t bytes) {
    FreeList& list = free_list();
    if (kPooling && bytes == block_size() && list.head != nullptr) {
      Node* node = list.head;
      list.head = node->next;
      --list.count;
      return node;
    }
    return ::operator new(bytes < block_size() ? block_size() : bytes);
  }

  static void operator delete(void* p, std::size_t bytes) noexcept {
    if (p == nullptr) return;
    FreeList& list = free_list();
    if (kPooling && bytes == block_size() && !list.closed && list.count < kMaxCached) {
      if (!list.release_registered) register_release(list);
      list.head = ::new (p) Node{list.head};
      ++list.count;
      return;
    }
    ::operator delete(p);
  }

 private:
  // Under AddressSanitizer every object gets a fresh block, so use-after-free is still caught.
#if defined(__SANITIZE_ADDRESS__)
  static constexpr bool kPooling = false;
#else
  static constexpr bool kPooling = true;
#endif

  struct Node {
    Node* next;
  };
  // Trivially destructible, so that reaching it takes no guard variable (which the compiler
  // would read through __tls_get_addr at every call): the blocks go back to the heap from a
  // separate thread-local, registered with the first block the list keeps.
  struct FreeList {
    Node* head = nullptr;
    std::size_t count = 0;
    bool closed = false;  // the thread is exiting: later frees go straight back to the heap
    bool release_registered = false;
  };
  struct ReleaseAtThreadExit {
    ~ReleaseAtThreadExit() {
      FreeList& list = free_list();
      list.closed = true;
      while (list.head != nullptr) {
        Node* next = list.head->next;
        ::operator delete(list.head);
        list.head = next;
      }
      list.count = 0;
    }
  };
  [[gnu::noinline]] static void register_release(FreeList& list) {
    list.release_registered = true;
    thread_local ReleaseAtThreadExit release;
    static_cast<void>(release);
  }

  // sizeof(T) is only known once T is complete, which it is wherever new/delete are used.
  static constexpr std::size_t block_size() {
    return sizeof(T) < sizeof(Node) ? sizeof(Node) : sizeof(T);
  }

  static FreeList& free_list() {
    HALYARD_FAST_TLS thread_local FreeList list;
    return list;
  }
};

// PoolAllocator<T>: the same per-thread free lists for std::allocate_shared, whose control block
// and object share one allocation (the type it allocates is that block, known only to the
// library). Collectives make one such object per call.
template <typename T>
struct PoolAllocator {
  using value_type = T;

  PoolAllocator() noexcept = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)

  T* allocate(std::size_t n) {
    if (n == 1) return static_cast<T*>(Pooled<T>::operator new(sizeof(T)));
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n == 1) {
      Pooled<T>::operator delete(p, sizeof(T));
    } else {
      ::operator delete(p);
    }
  }

  template <typename U>
  friend bool operator==(const PoolAllocator&, const PoolAllocator<U>&) noexcept {
    return true;
  }
};

}  // namespace halyard
