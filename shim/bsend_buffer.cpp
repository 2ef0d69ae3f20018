#include "shim/bsend_buffer.hpp"

#include <mpi.h>

namespace halyard::mpi_shim {

void BsendBuffer::attach(std::byte* base, std::size_t size) {
  base_ = base;
  size_ = size;
  used_.clear();
}

std::pair<std::byte*, std::size_t> BsendBuffer::detach() {
  std::pair<std::byte*, std::size_t> was{base_, size_};
  base_ = nullptr;
  size_ = 0;
  return was;
}

std::byte* BsendBuffer::reserve(std::size_t bytes) {
  const std::size_t length = bytes + MPI_BSEND_OVERHEAD;
  std::size_t offset = 0;  // the start of the gap before each used region, then the tail
  for (const auto& [start, taken] : used_) {
    if (start - offset >= length) break;
    offset = start + taken;
  }
  if (offset > size_ || size_ - offset < length) return nullptr;
  used_.emplace(offset, length);
  return base_ + offset;
}

void BsendBuffer::release(std::byte* region) {
  used_.erase(static_cast<std::size_t>(region - base_));
}

BsendBuffer& bsend_buffer() {
  static BsendBuffer buffer;
  return buffer;
}

}  // namespace halyard::mpi_shim
