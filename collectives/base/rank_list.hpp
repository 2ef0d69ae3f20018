// RankList: the peers of one rank in a flat algorithm (a tree's children), kept in place.
//
// Every small collective builds such a list per call: a binomial tree has at most log2(size)
// children, so 32 in place cover every int-sized communicator, and a std::vector would cost a
// heap allocation and a free per call. Linear algorithms (size - 1 children) spill to the heap.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace halyard::base {

class RankList {
 public:
  static constexpr std::size_t kInPlace = 32;

  void push_back(int rank) {
    if (heap_.empty() && size_ < kInPlace) {
      in_place_[size_++] = rank;
      return;
    }
    if (heap_.empty()) heap_.assign(in_place_.begin(), in_place_.begin() + size_);
    heap_.push_back(rank);
    ++size_;
  }

  // The same ranks in the opposite order.
  RankList reversed() const {
    RankList out;
    for (std::size_t i = size_; i > 0; --i) out.push_back((*this)[i - 1]);
    return out;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const int* begin() const noexcept { return heap_.empty() ? in_place_.data() : heap_.data(); }
  const int* end() const noexcept { return begin() + size_; }
  int operator[](std::size_t i) const noexcept { return begin()[i]; }

 private:
  std::array<int, kInPlace> in_place_;
  std::vector<int> heap_;  // all the ranks once there are more than kInPlace
  std::size_t size_ = 0;
};

}  // namespace halyard::base
