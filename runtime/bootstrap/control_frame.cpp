#include "runtime/bootstrap/control_frame.hpp"

#include <algorithm>
#include <string>

#include "runtime/support/error.hpp"

namespace halyard::control {
namespace {

void append_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

std::uint64_t read_le(std::string_view in, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    v |= std::uint64_t{static_cast<unsigned char>(in[static_cast<std::size_t>(i)])} << (8 * i);
  }
  return v;
}

bool known_type(std::uint8_t t) {
  // kChallenge is 0, below the range of the others.
  if (t == static_cast<std::uint8_t>(FrameType::kChallenge)) return true;
  return t >= static_cast<std::uint8_t>(FrameType::kHello) &&
         t <= static_cast<std::uint8_t>(FrameType::kFinalize);
}

}  // namespace

std::string encode_frame(FrameType type, std::string_view payload) {
  if (payload.size() > kMaxFramePayload) {
    throw Error(ErrorCode::kInvalidArgument,
                "control frame payload of " + std::to_string(payload.size()) +
                    " bytes exceeds the limit of " + std::to_string(kMaxFramePayload));
  }
  std::string out;
  out.reserve(kFrameHeaderBytes + payload.size());
  append_le(out, payload.size(), 4);
  out.push_back(static_cast<char>(type));
  out.append(payload);
  return out;
}

void FrameDecoder::set_max_payload(std::size_t max_payload) {
  max_payload_ = std::min(max_payload, kMaxFramePayload);
}

void FrameDecoder::feed(const char* data, std::size_t size) {
  // Drop what was consumed before growing, so a long-lived connection does not accumulate.
  if (consumed_ > 0) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
  buffer_.append(data, size);
  check_header();
}

void FrameDecoder::check_header() const {
  std::string_view pending(buffer_.data() + consumed_, buffer_.size() - consumed_);
  if (pending.size() < kFrameHeaderBytes) return;
  std::uint64_t length = read_le(pending, 4);
  auto type = static_cast<std::uint8_t>(pending[4]);
  if (length > max_payload_) {
    throw Error(ErrorCode::kBootstrap, "control frame announces " + std::to_string(length) +
                                           " payload bytes, more than the limit of " +
                                           std::to_string(max_payload_));
  }
  if (!known_type(type)) {
    throw Error(ErrorCode::kBootstrap, "control frame has unknown type " + std::to_string(type));
  }
}

std::optional<Frame> FrameDecoder::next() {
  std::string_view pending(buffer_.data() + consumed_, buffer_.size() - consumed_);
  if (pending.size() < kFrameHeaderBytes) return std::nullopt;
  std::size_t length = static_cast<std::size_t>(read_le(pending, 4));
  if (pending.size() < kFrameHeaderBytes + length) return std::nullopt;
  Frame frame;
  frame.type = static_cast<FrameType>(pending[4]);
  frame.payload.assign(pending.substr(kFrameHeaderBytes, length));
  consumed_ += kFrameHeaderBytes + length;
  // The following frame's header may already be here; validate it now so a bad stream is
  // reported as early as possible.
  check_header();
  return frame;
}

PayloadWriter& PayloadWriter::u8(std::uint8_t v) {
  out_.push_back(static_cast<char>(v));
  return *this;
}

PayloadWriter& PayloadWriter::i32(std::int32_t v) {
  append_le(out_, static_cast<std::uint32_t>(v), 4);
  return *this;
}

PayloadWriter& PayloadWriter::u64(std::uint64_t v) {
  append_le(out_, v, 8);
  return *this;
}

PayloadWriter& PayloadWriter::str(std::string_view v) {
  append_le(out_, v.size(), 4);
  out_.append(v);
  return *this;
}

std::string_view PayloadReader::take(std::size_t n, std::string_view field) {
  if (in_.size() < n) {
    throw Error(ErrorCode::kBootstrap,
                "malformed control frame: payload ends inside field '" + std::string(field) + "'");
  }
  std::string_view out = in_.substr(0, n);
  in_.remove_prefix(n);
  return out;
}

std::uint8_t PayloadReader::u8(std::string_view field) {
  return static_cast<std::uint8_t>(take(1, field)[0]);
}

std::int32_t PayloadReader::i32(std::string_view field) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(read_le(take(4, field), 4)));
}

std::uint64_t PayloadReader::u64(std::string_view field) {
  return read_le(take(8, field), 8);
}

std::string PayloadReader::str(std::string_view field) {
  auto length = static_cast<std::size_t>(read_le(take(4, field), 4));
  return std::string(take(length, field));
}

void PayloadReader::expect_end() const {
  if (!in_.empty()) {
    throw Error(ErrorCode::kBootstrap, "malformed control frame: " + std::to_string(in_.size()) +
                                           " unexpected trailing bytes");
  }
}

}  // namespace halyard::control
