#include "shim/target_blocks.hpp"

namespace halyard::mpi_shim {

TargetBlocks::TargetBlocks(const TypeObject& type, std::size_t count) {
  if (count == 0 || type.map.empty()) return;
  // Items back to back with no hole (MPI_CHAR, MPI_DOUBLE, a contiguous type): one block, not
  // one per item merged byte by byte (a 1 MiB put of MPI_CHAR took 3 ms that way).
  if (type.contiguous_for(count)) {
    one_ = {type.map.front().offset, static_cast<std::int64_t>(count * type.size)};
    pairs_ = one_;
    return;
  }
  for (std::size_t item = 0; item < count; ++item) {
    const std::int64_t origin = static_cast<std::int64_t>(item) * type.extent;
    for (const TypeRun& run : type.map) {
      const auto block_bytes = static_cast<std::int64_t>(run.block_bytes());
      for (std::size_t b = 0; b < run.blocks; ++b) {
        const std::int64_t offset = origin + run.offset + static_cast<std::int64_t>(b) * run.stride;
        std::size_t n = many_.size();
        if (n >= 2 && many_[n - 2] + many_[n - 1] == offset) {
          many_[n - 1] += block_bytes;
        } else {
          many_.push_back(offset);
          many_.push_back(block_bytes);
        }
      }
    }
  }
  pairs_ = many_;
}

}  // namespace halyard::mpi_shim
