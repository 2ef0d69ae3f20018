#include "launcher/agent_protocol.hpp"

#include "runtime/bootstrap/control_frame.hpp"
#include "runtime/support/error.hpp"

namespace halyard::launcher {
namespace {

using control::PayloadReader;
using control::PayloadWriter;

// Specs carry environments and output frames carry lines of at most 64 KiB, so this leaves
// ample room while still catching a peer that speaks another protocol.
constexpr std::size_t kMaxAgentFrame = 64u << 20;
constexpr std::size_t kHeaderBytes = 5;

std::string frame(AgentFrameKind kind, const std::string& payload) {
  std::string out;
  out.reserve(kHeaderBytes + payload.size());
  auto size = static_cast<std::uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((size >> (8 * i)) & 0xff));
  out.push_back(static_cast<char>(kind));
  out += payload;
  return out;
}

void write_strings(PayloadWriter& w, const std::vector<std::string>& strings) {
  w.i32(static_cast<std::int32_t>(strings.size()));
  for (const auto& s : strings) w.str(s);
}

std::vector<std::string> read_strings(PayloadReader& r, std::string_view field) {
  std::int32_t count = r.i32(field);
  if (count < 0) throw Error(ErrorCode::kBootstrap, "agent frame: negative " + std::string(field));
  std::vector<std::string> out;
  for (std::int32_t i = 0; i < count; ++i) out.push_back(r.str(field));
  return out;
}

}  // namespace

std::string encode_spec(const AgentSpec& spec) {
  PayloadWriter w;
  w.str(spec.program);
  write_strings(w, spec.argv);
  w.str(spec.cwd);
  write_strings(w, spec.env);
  w.str(spec.bind_to);
  w.i32(static_cast<std::int32_t>(spec.ranks.size()));
  for (const auto& r : spec.ranks) {
    w.i32(r.rank);
    write_strings(w, r.env);
  }
  return frame(AgentFrameKind::kSpec, w.bytes());
}

std::string encode_signal(int signal) {
  PayloadWriter w;
  w.i32(signal);
  return frame(AgentFrameKind::kSignal, w.bytes());
}

std::string encode_output(const AgentOutput& output) {
  PayloadWriter w;
  w.i32(output.rank).u8(static_cast<std::uint8_t>(output.stream)).str(output.line);
  return frame(AgentFrameKind::kOutput, w.bytes());
}

std::string encode_rank_exit(const AgentRankExit& exit) {
  PayloadWriter w;
  w.i32(exit.rank).i32(exit.wait_status);
  return frame(AgentFrameKind::kRankExit, w.bytes());
}

AgentSpec decode_spec(std::string_view payload) {
  PayloadReader r(payload);
  AgentSpec spec;
  spec.program = r.str("program");
  spec.argv = read_strings(r, "argv");
  spec.cwd = r.str("cwd");
  spec.env = read_strings(r, "env");
  spec.bind_to = r.str("bind_to");
  std::int32_t ranks = r.i32("ranks");
  for (std::int32_t i = 0; i < ranks; ++i) {
    AgentRank rank;
    rank.rank = r.i32("rank");
    rank.env = read_strings(r, "rank env");
    spec.ranks.push_back(std::move(rank));
  }
  r.expect_end();
  return spec;
}

int decode_signal(std::string_view payload) {
  PayloadReader r(payload);
  int signal = r.i32("signal");
  r.expect_end();
  return signal;
}

AgentOutput decode_output(std::string_view payload) {
  PayloadReader r(payload);
  AgentOutput out;
  out.rank = r.i32("rank");
  out.stream = r.u8("stream");
  out.line = r.str("line");
  r.expect_end();
  return out;
}

AgentRankExit decode_rank_exit(std::string_view payload) {
  PayloadReader r(payload);
  AgentRankExit exit;
  exit.rank = r.i32("rank");
  exit.wait_status = r.i32("wait status");
  r.expect_end();
  return exit;
}

void AgentFrameDecoder::feed(std::string_view bytes) {
  if (consumed_ > 0 && consumed_ == buffer_.size()) {
    buffer_.clear();
    consumed_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<AgentFrame> AgentFrameDecoder::next() {
  std::size_t available = buffer_.size() - consumed_;
  if (available < kHeaderBytes) return std::nullopt;
  const auto* header = reinterpret_cast<const unsigned char*>(buffer_.data() + consumed_);
  std::uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= static_cast<std::uint32_t>(header[i]) << (8 * i);
  auto kind = static_cast<AgentFrameKind>(header[4]);
  if (header[4] < static_cast<unsigned char>(AgentFrameKind::kSpec) ||
      header[4] > static_cast<unsigned char>(AgentFrameKind::kRankExit) || size > kMaxAgentFrame) {
    throw Error(ErrorCode::kBootstrap,
                "the agent channel carries something other than agent frames (a login banner or "
                "shell output on stdout?)");
  }
  if (available < kHeaderBytes + size) return std::nullopt;
  AgentFrame out{kind, buffer_.substr(consumed_ + kHeaderBytes, size)};
  consumed_ += kHeaderBytes + size;
  if (consumed_ > (1u << 20)) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
  return out;
}

}  // namespace halyard::launcher
