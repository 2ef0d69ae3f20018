#include "shim/typed_buffer.hpp"

#include <algorithm>

namespace halyard::mpi_shim {

TypedBuffer::TypedBuffer(const void* buf, std::size_t count, const TypeObject& type, Use use)
    : bytes_(count * type.size),
      user_(static_cast<std::byte*>(const_cast<void*>(buf))),
      count_(count) {
  if (type.contiguous_for(count)) {
    MPI_Aint start = type.map.empty() ? 0 : type.map.front().offset;
    data_ = user_ == nullptr && start == 0 ? nullptr : user_ + start;
    return;
  }
  staging_ = std::make_shared<std::vector<std::byte>>(bytes_);
  data_ = staging_->data();
  if (use != Use::kReceive) pack(type, user_, count, staging_->data());
  if (use != Use::kSend) unpack_type_ = type.shared_from_this();
}

void TypedBuffer::complete(std::size_t received) const {
  if (unpack_type_ == nullptr) return;
  unpack(*unpack_type_, staging_->data(), std::min(received, bytes_), user_, count_);
}

CompletionStep unpack_all(std::vector<TypedBuffer> buffers) {
  if (std::none_of(buffers.begin(), buffers.end(), [](auto& b) { return b.staged(); })) return {};
  return [buffers = std::move(buffers)](const Status&) {
    for (const TypedBuffer& buffer : buffers) buffer.complete();
  };
}

CompletionStep unpack_received(TypedBuffer buffer) {
  if (!buffer.staged()) return {};
  return [buffer = std::move(buffer)](const Status& status) { buffer.complete(status.bytes); };
}

}  // namespace halyard::mpi_shim
