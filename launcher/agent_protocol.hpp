// What hlaunch and its per-host agents (`hlaunch --agent`, started through ssh, srun or
// directly) say to each other over the agent's stdin and stdout.
//
// The channel is whatever HALYARD_RSH provides (an ssh session, `ip netns exec`, srun), so it
// carries nothing but a byte stream: frames of a 4-byte little-endian payload length, a 1-byte
// kind and the payload (built with control::PayloadWriter). The agent's stderr stays plain text,
// so an ssh or agent failure reaches the user's terminal as it was written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace halyard::launcher {

enum class AgentFrameKind : std::uint8_t {
  kSpec = 1,      // hlaunch -> agent, first frame: what to start (AgentSpec)
  kSignal = 2,    // hlaunch -> agent: send this signal to every rank still running
  kOutput = 3,    // agent -> hlaunch: one whole line a rank wrote (rank, stream, bytes)
  kRankExit = 4,  // agent -> hlaunch: a rank ended (rank, wait status)
};

struct AgentRank {
  int rank = 0;
  std::vector<std::string> env;  // "NAME=VALUE" set for this rank only (HALYARD_RANK, ...)
};

struct AgentSpec {
  std::string program;            // as the user gave it: the agent looks it up on its own PATH
  std::vector<std::string> argv;  // argv[0] as given, then the arguments
  std::string cwd;                // hlaunch's working directory, used where it exists
  std::vector<std::string> env;   // "NAME=VALUE" for every rank (-x exports, job variables)
  std::string bind_to;            // "core", "numa", "package", "none", or "" for the default
  std::vector<AgentRank> ranks;   // in local-rank order
};

struct AgentOutput {
  int rank = 0;
  int stream = 1;  // 1 stdout, 2 stderr
  std::string line;
};

struct AgentRankExit {
  int rank = 0;
  int wait_status = 0;  // as waitpid reported it on the agent's host
};

std::string encode_spec(const AgentSpec& spec);
std::string encode_signal(int signal);
std::string encode_output(const AgentOutput& output);
std::string encode_rank_exit(const AgentRankExit& exit);

// A decoded frame: `kind` and its payload, to pass to the matching decode_* function.
struct AgentFrame {
  AgentFrameKind kind{};
  std::string payload;
};

AgentSpec decode_spec(std::string_view payload);
int decode_signal(std::string_view payload);
AgentOutput decode_output(std::string_view payload);
AgentRankExit decode_rank_exit(std::string_view payload);

// Reassembles frames from the byte stream. Throws Error(kBootstrap) on an unknown kind or an
// oversized frame: the other end is not an agent of this hlaunch (a login banner on stdout).
class AgentFrameDecoder {
 public:
  void feed(std::string_view bytes);
  std::optional<AgentFrame> next();

 private:
  std::string buffer_;
  std::size_t consumed_ = 0;
};

}  // namespace halyard::launcher
