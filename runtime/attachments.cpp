#include "runtime/attachments.hpp"

namespace halyard {

std::shared_ptr<void> Attachments::find(std::type_index type) const {
  std::lock_guard lock(mutex_);
  for (const auto& [key, object] : entries_) {
    if (key == type) return object;
  }
  return nullptr;
}

std::shared_ptr<void> Attachments::attach(std::type_index type, std::shared_ptr<void> object) {
  std::lock_guard lock(mutex_);
  for (const auto& [key, attached] : entries_) {
    if (key == type) return attached;  // `object` is released after the lock
  }
  entries_.emplace_back(type, object);
  return object;
}

void Attachments::clear() {
  std::vector<std::pair<std::type_index, std::shared_ptr<void>>> released;
  {
    std::lock_guard lock(mutex_);
    released.swap(entries_);
  }
  while (!released.empty()) released.pop_back();
}

}  // namespace halyard
