// The buffer MPI_Buffer_attach lends to buffered sends (MPI_Bsend, MPI_Ibsend). Each buffered
// send copies its message into a region of it, of the message's size plus MPI_BSEND_OVERHEAD,
// and gives the region back when the send completes; a message that finds no room is refused
// (MPI_ERR_BUFFER), as MPI requires, instead of being buffered elsewhere.
#pragma once

#include <cstddef>
#include <map>
#include <utility>

namespace halyard::mpi_shim {

class BsendBuffer {
 public:
  bool attached() const { return base_ != nullptr; }
  void attach(std::byte* base, std::size_t size);
  // The buffer and its size; the caller has waited for every region to come back.
  std::pair<std::byte*, std::size_t> detach();

  // A region for a message of `bytes` (first fit), or null when it does not fit now.
  std::byte* reserve(std::size_t bytes);
  void release(std::byte* region);
  // Regions not given back yet (sends in flight).
  std::size_t regions_in_use() const { return used_.size(); }

 private:
  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
  std::map<std::size_t, std::size_t> used_;  // offset -> length, message plus overhead
};

BsendBuffer& bsend_buffer();

}  // namespace halyard::mpi_shim
