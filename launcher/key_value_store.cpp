#include "launcher/key_value_store.hpp"

#include "runtime/bootstrap/control_messages.hpp"

namespace halyard::launcher {

bool KeyValueStore::put(const std::string& key, std::string value) {
  auto [it, inserted] = values_.emplace(key, std::move(value));
  if (!inserted) return false;
  bytes_ += key.size() + it->second.size();
  auto parked = waiters_.find(key);
  if (parked != waiters_.end()) {
    // Take the handlers out first: a handler may park a new get or put another key.
    std::vector<GetHandler> handlers = std::move(parked->second);
    waiters_.erase(parked);
    waiting_ -= handlers.size();
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
  ++waiting_;
}

std::string KeyValueStore::would_exceed(const std::string& key, const std::string& value,
                                        bool is_get) const {
  if (key.size() > control::kMaxKeyBytes) {
    return "bootstrap key of " + std::to_string(key.size()) + " bytes exceeds the limit of " +
           std::to_string(control::kMaxKeyBytes);
  }
  if (value.size() > control::kMaxValueBytes) {
    return "bootstrap value of " + std::to_string(value.size()) + " bytes (key '" + key +
           "') exceeds the limit of " + std::to_string(control::kMaxValueBytes);
  }
  if (is_get) {
    if (waiting_ >= kMaxWaitingGets && values_.count(key) == 0) {
      return "too many bootstrap gets are waiting (" + std::to_string(waiting_) + ")";
    }
  } else if (bytes_ + key.size() + value.size() > kMaxBytes) {
    return "the bootstrap store is full (" + std::to_string(bytes_) + " bytes)";
  }
  return {};
}

}  // namespace halyard::launcher
