#include "runtime/node_memory.hpp"

#include <mutex>
#include <unordered_map>
#include <utility>

#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"

namespace halyard {

namespace {

// Keyed by event loop because a Communicator reaches its runtime only through its loop, and
// in-process tests run several runtimes (one loop each, in different threads) at once.
struct Registry {
  std::mutex mutex;
  std::unordered_map<const EventLoop*, NodeMemory*> by_loop;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

NodeMemory* node_memory_of(const Communicator& comm) {
  const EventLoop* loop = &comm.loop();
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.by_loop.find(loop);
  return it == r.by_loop.end() ? nullptr : it->second;
}

void register_node_memory(const EventLoop& loop, NodeMemory* memory) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (memory == nullptr) {
    r.by_loop.erase(&loop);
  } else {
    r.by_loop[&loop] = memory;
  }
}

void unregister_node_memory(const EventLoop& loop) {
  register_node_memory(loop, nullptr);
}

}  // namespace halyard
