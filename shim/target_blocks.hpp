// The target side of a one-sided operation in the form a Window takes it (rma_call.hpp): the
// (offset, bytes) blocks that `count` items of an MPI datatype cover.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shim/datatype_object.hpp"

namespace halyard::mpi_shim {

// The (offset, bytes) blocks that `count` items of `type` cover, in type-map order, adjacent
// ones merged: the target's side of an operation. One block (a contiguous target type, what
// nearly every operation has) is kept inline: no heap allocation on a small put's path.
class TargetBlocks {
 public:
  TargetBlocks(const TypeObject& type, std::size_t count);
  TargetBlocks(const TargetBlocks&) = delete;
  TargetBlocks& operator=(const TargetBlocks&) = delete;

  // offset, bytes, offset, bytes, ...
  std::span<const std::int64_t> pairs() const { return pairs_; }

 private:
  std::array<std::int64_t, 2> one_{};
  std::vector<std::int64_t> many_;
  std::span<const std::int64_t> pairs_;
};

}  // namespace halyard::mpi_shim
