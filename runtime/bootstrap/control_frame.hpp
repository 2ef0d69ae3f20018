// Framing of the control protocol between hlaunch's bootstrap server and the ranks.
//
// A frame is a 4-byte little-endian payload length, a 1-byte type and the payload. Payloads are
// built from fixed-width little-endian integers and length-prefixed strings, so both ends parse
// them without trusting the sender: a short or oversized frame is an Error, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace halyard::control {

enum class FrameType : std::uint8_t {
  // The hello's three frames (runtime/bootstrap/hello_proof.hpp): the job token never travels.
  kChallenge = 0,  // server -> client, first frame, on accept: the server's nonce
  kHello = 1,      // client -> server, first frame: rank, client nonce, proof of the token
  kHelloOk = 2,    // server -> client: the proof was accepted; the server's own proof
  kPut = 3,        // client -> server: request id, key, value
  kGet = 4,        // client -> server: request id, key (the reply waits for the key)
  kFence = 5,      // client -> server: request id
  kBarrier = 6,    // client -> server: request id
  kAbort = 7,      // client -> server: code, message; the server acknowledges with kReply id 0
  kReply = 8,      // server -> client: request id, error code, value or error message
  kNotice = 9,     // server -> client, unsolicited: kind, rank, code, message
  kFinalize = 10,  // client -> server: request id; the rank ends on purpose (reply, then close)
};

constexpr std::size_t kFrameHeaderBytes = 5;
// Bigger frames are refused: control messages are addresses and table rows, so anything this
// large is a stray connection speaking another protocol.
constexpr std::size_t kMaxFramePayload = 16u << 20;

struct Frame {
  FrameType type{};
  std::string payload;
};

// Bytes of a whole frame ready to be written to the socket.
std::string encode_frame(FrameType type, std::string_view payload);

// Reassembles frames from a byte stream that arrives in arbitrary pieces.
class FrameDecoder {
 public:
  explicit FrameDecoder(std::size_t max_payload = kMaxFramePayload) : max_payload_(max_payload) {}

  // Frames announcing more payload bytes than this are refused (at most kMaxFramePayload). The
  // bootstrap server keeps it small until a connection has proved it belongs to the job, so a
  // stranger cannot make hlaunch buffer megabytes.
  void set_max_payload(std::size_t max_payload);
  std::size_t max_payload() const { return max_payload_; }

  // Appends received bytes. Throws Error(kBootstrap) when a header announces an oversized
  // payload or an unknown frame type; the connection is then unusable.
  void feed(const char* data, std::size_t size);
  // The next complete frame, or nullopt until more bytes arrive.
  std::optional<Frame> next();
  // Bytes received but not yet part of a complete frame.
  std::size_t buffered() const { return buffer_.size() - consumed_; }

 private:
  void check_header() const;

  std::size_t max_payload_;
  std::string buffer_;
  std::size_t consumed_ = 0;
};

// Builds a payload field by field.
class PayloadWriter {
 public:
  PayloadWriter& u8(std::uint8_t v);
  PayloadWriter& i32(std::int32_t v);
  PayloadWriter& u64(std::uint64_t v);
  PayloadWriter& str(std::string_view v);  // u32 length, then the bytes
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

// Reads a payload field by field; every read throws Error(kBootstrap) naming the field when
// the payload is too short.
class PayloadReader {
 public:
  explicit PayloadReader(std::string_view payload) : in_(payload) {}
  std::uint8_t u8(std::string_view field);
  std::int32_t i32(std::string_view field);
  std::uint64_t u64(std::string_view field);
  std::string str(std::string_view field);
  // Throws unless every byte was read: trailing bytes mean the two ends disagree on the format.
  void expect_end() const;

 private:
  std::string_view take(std::size_t n, std::string_view field);
  std::string_view in_;
};

}  // namespace halyard::control
