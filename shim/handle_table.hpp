// A table of MPI handles of one kind: the handle's top byte is the kind, the rest an index into
// a deque (entries stay put while others are added; freed slots are reused). The first
// `reserved` indices are never filled: index 0 is the kind's null handle, and a kind may have
// more predefined handles that name no entry (MPI_MESSAGE_NO_PROC).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace halyard::mpi_shim {

template <typename Entry, int Kind, std::size_t Reserved = 1>
class HandleTable {
 public:
  int add(Entry entry) {
    while (slots_.size() < Reserved) slots_.emplace_back();
    std::size_t index = slots_.size();
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
      slots_[index] = std::move(entry);
    } else {
      slots_.emplace_back(std::move(entry));
    }
    return Kind | static_cast<int>(index);
  }
  // Null when `handle` names no entry of this table.
  Entry* find(int handle) {
    std::size_t index = index_of(handle);
    return index == 0 ? nullptr : &*slots_[index];
  }
  void remove(int handle) {
    std::size_t index = index_of(handle);
    if (index == 0) return;
    slots_[index].reset();
    free_.push_back(index);
  }
  void clear() {
    slots_.clear();
    free_.clear();
  }

 private:
  // The index of a filled slot `handle` names, else 0.
  std::size_t index_of(int handle) const {
    constexpr std::uint32_t kKindMask = 0xff000000u;
    auto bits = static_cast<std::uint32_t>(handle);
    if ((bits & kKindMask) != static_cast<std::uint32_t>(Kind)) return 0;
    std::size_t index = bits & ~kKindMask;
    return index < slots_.size() && slots_[index].has_value() ? index : 0;
  }

  std::deque<std::optional<Entry>> slots_;
  std::vector<std::size_t> free_;
};

}  // namespace halyard::mpi_shim
