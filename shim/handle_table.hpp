// A table of shim objects named by MPI handles of one kind (requests, messages, groups, info
// objects, keyvals, user error handlers): the handle's top byte is the kind, the rest the index.
// Index 0 is the null handle. The first `reserved` indices name no entry (a kind may have more
// predefined handles than its null one: MPI_MESSAGE_NO_PROC); the predefined objects added next
// (MPI_GROUP_EMPTY, MPI_INFO_ENV) are found but never removed. Slots of removed objects are
// reused; a deque keeps every entry in place while the table grows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

namespace halyard::mpi_shim {

template <typename Entry>
class HandleTable {
 public:
  explicit HandleTable(int kind, std::size_t reserved = 1) : kind_(kind) {
    entries_.resize(reserved);
    predefined_ = reserved - 1;
  }

  // Adds a predefined object; call before any add().
  int add_predefined(Entry entry) {
    entries_.emplace_back(std::move(entry));
    predefined_ = entries_.size() - 1;
    return handle_of(predefined_);
  }

  int add(Entry entry) {
    if (free_.empty()) {
      entries_.emplace_back(std::move(entry));
      return handle_of(entries_.size() - 1);
    }
    std::size_t index = free_.back();
    free_.pop_back();
    entries_[index] = std::move(entry);
    return handle_of(index);
  }

  // Null when `handle` is of another kind, null or names no live object.
  Entry* find(int handle) {
    std::size_t index = index_of(handle);
    return index == 0 ? nullptr : &*entries_[index];
  }

  bool is_predefined(int handle) const {
    std::size_t index = index_of(handle);
    return index != 0 && index <= predefined_;
  }

  // Drops a live, not predefined object; false when there is none.
  bool remove(int handle) {
    std::size_t index = index_of(handle);
    if (index == 0 || index <= predefined_) return false;
    entries_[index].reset();
    free_.push_back(index);
    return true;
  }

  // Drops every object that is not predefined.
  void clear() {
    entries_.resize(predefined_ + 1);
    free_.clear();
  }

 private:
  static constexpr std::uint32_t kKindMask = 0xff000000u;

  int handle_of(std::size_t index) const { return kind_ | static_cast<int>(index); }

  std::size_t index_of(int handle) const {
    auto bits = static_cast<std::uint32_t>(handle);
    if ((bits & kKindMask) != static_cast<std::uint32_t>(kind_)) return 0;
    std::size_t index = bits & ~kKindMask;
    return index < entries_.size() && entries_[index].has_value() ? index : 0;
  }

  int kind_;
  std::deque<std::optional<Entry>> entries_;
  std::vector<std::size_t> free_;
  std::size_t predefined_ = 0;  // the last index that is reserved or predefined
};

}  // namespace halyard::mpi_shim
