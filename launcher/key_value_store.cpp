#include "launcher/key_value_store.hpp"

namespace halyard::launcher {

bool KeyValueStore::put(const std::string& key, std::string value) {
  auto [it, inserted] = values_.emplace(key, std::move(value));
  if (!inserted) return false;
  auto parked = waiters_.find(key);
  if (parked != waiters_.end()) {
    // Take the handlers out first: a handler may park a new get or put another key.
    std::vector<GetHandler> handlers = std::move(parked->second);
    waiters_.erase(parked);
    for (auto& handler : handlers) handler(it->second);
  }
  return true;
}

void KeyValueStore::get(const std::string& key, GetHandler handler) {
  auto it = values_.find(key);
  if (it != values_.end()) {
    handler(it->second);
    return;
  }
  waiters_[key].push_back(std::move(handler));
}

std::size_t KeyValueStore::waiting() const {
  std::size_t n = 0;
  for (const auto& [key, handlers] : waiters_) n += handlers.size();
  return n;
}

}  // namespace halyard::launcher
