// A table of shim objects named by MPI handles of one kind (requests, messages, groups, info
// objects, keyvals, user error handlers): the handle's top byte is the kind, the rest the index.
// Index 0 is the null handle. The first `reserved` indices name no entry (a kind may have more
// predefined handles than its null one: MPI_MESSAGE_NO_PROC); the predefined objects added next
// (MPI_GROUP_EMPTY, MPI_INFO_ENV) are found but never removed. Slots of removed objects are
// reused; a deque keeps every entry in place while the table grows, and a vector of pointers to
// the live entries finds one by index in a few instructions (the deque's indexing costs ~30:
// one-sided calls and MPI_Wait look a handle up on every call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "shim/handle_bits.hpp"

namespace halyard::mpi_shim {

template <typename Entry>
class HandleTable {
 public:
  explicit HandleTable(int kind, std::size_t reserved = 1) : kind_(kind) {
    entries_.resize(reserved);
    live_.assign(reserved, nullptr);
    predefined_ = reserved - 1;
  }
  // Moving keeps the entries where they are (a deque's move takes its blocks), so live_ stays
  // right; a copy would not.
  HandleTable(HandleTable&&) noexcept = default;
  HandleTable& operator=(HandleTable&&) noexcept = default;
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;

  // Adds a predefined object; call before any add().
  int add_predefined(Entry entry) {
    const int handle = append(std::move(entry));
    predefined_ = entries_.size() - 1;
    return handle;
  }

  int add(Entry entry) {
    if (free_.empty()) return append(std::move(entry));
    std::size_t index = free_.back();
    free_.pop_back();
    entries_[index] = std::move(entry);
    live_[index] = &*entries_[index];
    return handle_of(index);
  }

  // Null when `handle` is of another kind, null or names no live object.
  Entry* find(int handle) { return live_[index_of(handle)]; }  // live_[0] is null

  bool is_predefined(int handle) const {
    std::size_t index = index_of(handle);
    return index != 0 && index <= predefined_;
  }

  // Drops a live, not predefined object; false when there is none.
  bool remove(int handle) {
    std::size_t index = index_of(handle);
    if (index == 0 || index <= predefined_) return false;
    entries_[index].reset();
    live_[index] = nullptr;
    free_.push_back(index);
    return true;
  }

  // Drops every object that is not predefined.
  void clear() {
    entries_.resize(predefined_ + 1);
    live_.resize(predefined_ + 1);
    free_.clear();
  }

 private:
  int handle_of(std::size_t index) const { return kind_ | static_cast<int>(index); }

  int append(Entry entry) {
    entries_.emplace_back(std::move(entry));
    live_.push_back(&*entries_.back());
    return handle_of(entries_.size() - 1);
  }

  std::size_t index_of(int handle) const {
    const std::size_t index = handle_index(handle, kind_);
    return index < live_.size() && live_[index] != nullptr ? index : 0;
  }

  int kind_;
  std::deque<std::optional<Entry>> entries_;
  std::vector<Entry*> live_;  // index -> its entry in entries_, null where none lives
  std::vector<std::size_t> free_;
  std::size_t predefined_ = 0;  // the last index that is reserved or predefined
};

}  // namespace halyard::mpi_shim
