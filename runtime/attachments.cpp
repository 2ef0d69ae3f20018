#include "runtime/attachments.hpp"

#include <string>
#include <utility>
#include <vector>

#include "runtime/support/error.hpp"

namespace halyard {

std::shared_ptr<void> Attachments::attach(const std::type_info& type, std::size_t hash,
                                          std::shared_ptr<void> object) {
  std::lock_guard lock(mutex_);
  if (const Entry* attached = entry_of(type, hash)) return attached->object;  // `object` goes after
  const std::size_t count = count_.load(std::memory_order_relaxed);
  if (count == kCapacity) {
    throw Error(ErrorCode::kInternal, "more than " + std::to_string(kCapacity) +
                                          " kinds of state attached to one runtime object");
  }
  entries_[count] = {&type, hash, object};
  count_.store(count + 1, std::memory_order_release);
  return object;
}

void Attachments::clear() {
  std::vector<std::shared_ptr<void>> released;
  {
    std::lock_guard lock(mutex_);
    const std::size_t count = count_.load(std::memory_order_relaxed);
    count_.store(0, std::memory_order_release);
    for (std::size_t i = 0; i < count; ++i) {
      released.push_back(std::move(entries_[i].object));
      entries_[i].type = nullptr;
    }
  }
  while (!released.empty()) released.pop_back();
}

}  // namespace halyard
