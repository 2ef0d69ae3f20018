// The one place where an MPI (buffer, count, datatype) becomes the contiguous bytes Halyard moves.
// When the type's map is one run that `count` items extend without a gap, the bytes are the
// user's memory itself (no copy). Otherwise they are a staging buffer: packed at once for data
// that is sent, unpacked into the user's memory by complete() for data that is received. Every
// call site (p2p, collectives) goes through it; non-blocking calls give their PendingRequest a
// completion step (unpack_all, unpack_received) so that MPI_Wait / MPI_Test unpack, and the
// staging buffer lives until then.
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/support/error.hpp"
#include "shim/datatype_object.hpp"

namespace halyard::mpi_shim {

class TypedBuffer {
 public:
  enum class Use { kSend, kReceive, kSendAndReceive };

  TypedBuffer() = default;  // nothing: no bytes
  TypedBuffer(const void* buf, std::size_t count, const TypeObject& type, Use use);

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  bool staged() const { return staging_ != nullptr; }

  // Packs `count` items of the same type from `buf` into a staging buffer made for receiving:
  // a reduction's contribution goes straight where its result will be.
  void pack_from(const void* buf) const;

  // Unpacks the first `received` bytes into the user's buffer; nothing unless staged for
  // receiving.
  void complete(std::size_t received) const;
  void complete() const { complete(bytes_); }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::byte* user_ = nullptr;
  std::size_t count_ = 0;
  std::shared_ptr<const TypeObject> unpack_type_;  // set when staged for receiving
  std::shared_ptr<std::byte> staging_;             // from staging_memory()
};

// `bytes` of staging memory, uninitialised, handed back for reuse when the last owner drops it:
// a fresh allocation per call would cost page faults (and new addresses for the transports)
// that outweigh the packing itself.
std::shared_ptr<std::byte> staging_memory(std::size_t bytes);

// What MPI_Wait / MPI_Test run when a non-blocking call completes successfully.
using CompletionStep = std::function<void(const Status&)>;

// A collective's step: unpacks every buffer in full; holds their staging buffers until then.
// Empty when nothing is staged: then nothing is copied or allocated (the common case of
// contiguous data, on every blocking collective's path).
CompletionStep unpack_all(std::vector<TypedBuffer> buffers);
template <class... Buffers>
requires(std::same_as<std::remove_cvref_t<Buffers>, TypedBuffer>&&...) CompletionStep
    unpack_all(Buffers&&... buffers) {
  if (!(buffers.staged() || ...)) return {};
  std::vector<TypedBuffer> staged;
  (staged.push_back(std::forward<Buffers>(buffers)), ...);
  return unpack_all(std::move(staged));
}
// A receive's step: unpacks as many bytes as arrived.
CompletionStep unpack_received(TypedBuffer buffer);

}  // namespace halyard::mpi_shim
