// LoopRegistry: finds a per-runtime service from a Communicator.
//
// A Communicator reaches its runtime only through its event loop, and in-process tests run
// several runtimes (one loop each, in different threads) at once, so per-runtime services that
// the collective layer needs (the collective watchdog) are registered by loop.
#pragma once

#include <mutex>
#include <unordered_map>

namespace halyard {

class EventLoop;

template <class Service>
class LoopRegistry {
 public:
  // Registers `service` for `loop`; null removes the entry.
  void set(const EventLoop& loop, Service* service) {
    std::lock_guard lock(mutex_);
    if (service == nullptr) {
      by_loop_.erase(&loop);
    } else {
      by_loop_[&loop] = service;
    }
  }
  // The service registered for `loop`, or null.
  Service* find(const EventLoop& loop) const {
    std::lock_guard lock(mutex_);
    auto it = by_loop_.find(&loop);
    return it == by_loop_.end() ? nullptr : it->second;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const EventLoop*, Service*> by_loop_;
};

}  // namespace halyard
