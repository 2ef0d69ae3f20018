// The memory of an allocated window (MPI_Win_allocate(_shared)) on one node: one POSIX
// shared-memory segment that the node's lowest rank of the window creates and every rank of the
// node maps, each rank's part at its own offset (MPI_Win_allocate_shared's contiguous layout).
// MPI_Win_allocate uses it too, so that ranks of a node load and store into each other's windows
// directly (the unified memory model) instead of sending a message per operation.
#pragma once

#include <cstddef>
#include <string>

namespace halyard {

class NodeSegment {
 public:
  NodeSegment() = default;
  // The segment `name` of `bytes`: created (exclusively, zero-filled) or opened and mapped.
  // Throws WindowError(kNoMemory) naming errno when the system refuses.
  NodeSegment(const std::string& name, std::size_t bytes, bool create);
  ~NodeSegment();
  NodeSegment(NodeSegment&& other) noexcept;
  NodeSegment& operator=(NodeSegment&& other) noexcept;
  NodeSegment(const NodeSegment&) = delete;
  NodeSegment& operator=(const NodeSegment&) = delete;

  std::byte* data() const { return data_; }
  // Removes the name once every rank has mapped it (the mappings stay).
  void unlink();

 private:
  std::string name_;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace halyard
