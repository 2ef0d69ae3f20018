// LoopRegistry: finds a per-runtime service from a Communicator.
//
// A Communicator reaches its runtime only through its event loop, and in-process tests run
// several runtimes (one loop each, in different threads) at once, so per-runtime services that
// the collective layer needs (the collective watchdog, device support) are registered by loop.
// Each registry owns one of the loop's service slots: every collective call looks its services
// up, and a load from the loop costs nothing where a process-wide locked map cost ~100
// instructions a call. The slot is atomic because a progress thread may read it while the
// owning thread registers (a service registers before its runtime makes collectives run, so
// acquire/release is all the ordering needed).
#pragma once

#include <atomic>
#include <cstddef>
#include <stdexcept>

#include "runtime/event_loop.hpp"

namespace halyard {

namespace detail {
// Hands out the loop's service slots, one per registry. Registries are function-local statics,
// one per service type, so slots run out only if a service is added without raising
// EventLoop::kServiceSlots. Not a member of the template: all registries share the count.
inline std::size_t next_loop_service_slot() {
  static std::atomic<std::size_t> next{0};
  std::size_t slot = next.fetch_add(1);
  if (slot >= EventLoop::kServiceSlots) {
    throw std::logic_error("LoopRegistry: no service slot left (raise EventLoop::kServiceSlots)");
  }
  return slot;
}
}  // namespace detail

template <class Service>
class LoopRegistry {
 public:
  LoopRegistry() : slot_(detail::next_loop_service_slot()) {}

  // Registers `service` for `loop`; null removes the entry.
  void set(const EventLoop& loop, Service* service) {
    loop.service_slot(slot_).store(service, std::memory_order_release);
  }
  // The service registered for `loop`, or null.
  Service* find(const EventLoop& loop) const {
    return static_cast<Service*>(loop.service_slot(slot_).load(std::memory_order_acquire));
  }

 private:
  std::size_t slot_;
};

}  // namespace halyard
