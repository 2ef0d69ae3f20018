#include "launcher/hang_verdict.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace halyard::launcher {

namespace {

using recorder::Call;
using recorder::CallState;

bool pending(const Call& call) {
  auto state = static_cast<CallState>(call.state);
  return state == CallState::kPosted || state == CallState::kTimedOut;
}

std::string call_name(const Call& call) {
  return std::string(call.collective) + " #" + std::to_string(call.sequence) + " on comm " +
         std::to_string(call.comm);
}

std::string process_text(char state) {
  switch (state) {
    case 'T':
      return "stopped (SIGSTOP)";
    case 't':
      return "stopped by a debugger";
    case 'R':
      return "running (computing, or polling)";
    case 'Z':
    case '?':
      return "exited";
    default:
      return "";
  }
}

// The rank's oldest pending call on each communicator: the one it waits in.
std::vector<Call> waited_calls(const RankRecord& rank) {
  std::map<std::uint32_t, Call> oldest;
  for (const Call& call : rank.calls) {
    if (pending(call)) oldest.try_emplace(call.comm, call);
  }
  std::vector<Call> out;
  for (auto& [comm, call] : oldest) out.push_back(call);
  return out;
}

// The number of the rank's last call on `comm`, nullopt when none is recorded.
std::optional<std::uint64_t> last_sequence(const RankRecord& rank, std::uint32_t comm) {
  std::optional<std::uint64_t> last;
  for (const Call& call : rank.calls) {
    if (call.comm == comm) last = call.sequence;
  }
  return last;
}

std::string where(const RankRecord& rank) {
  std::string out = "rank " + std::to_string(rank.rank) + ": ";
  std::string process = process_text(rank.process_state);
  if (!process.empty()) out += process + "; ";
  if (!rank.has_recorder) {
    return out +
           "no flight recorder (not initialized yet, HALYARD_RECORDER_SIZE=0, or on another host)";
  }
  if (rank.calls.empty()) return out + "has called no collective yet";
  std::vector<Call> waiting = waited_calls(rank);
  if (waiting.empty()) {
    const Call& last = rank.calls.back();
    std::string verb =
        static_cast<CallState>(last.state) == CallState::kFailed ? "failed in" : "completed";
    return out + "outside any collective, last " + verb + " " + call_name(last);
  }
  std::string list;
  for (const Call& call : waiting) {
    list += (list.empty() ? "" : "; ") + call_name(call) + " (" + std::to_string(call.bytes) +
            " B, " + call.algorithm + ")";
    if (static_cast<CallState>(call.state) == CallState::kTimedOut) list += ", timed out";
  }
  const bool exited = rank.process_state == 'Z' || rank.process_state == '?';
  out += (exited ? "was waiting in " : "waiting in ") + list;
  if (rank.waits_for_record != 0 && !rank.waits_for.empty()) {
    out += "; its receives wait for rank(s) " + rank_ranges(rank.waits_for);
  }
  return out;
}

bool is_member(const RankRecord& rank, const Call& call, std::size_t job_size) {
  return call.comm_size == job_size || last_sequence(rank, call.comm).has_value();
}

}  // namespace

std::string rank_ranges(std::vector<int> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

bool any_timed_out(const std::vector<RankRecord>& ranks) {
  for (const RankRecord& rank : ranks) {
    for (const Call& call : rank.calls) {
      if (static_cast<CallState>(call.state) == CallState::kTimedOut) return true;
    }
  }
  return false;
}

std::string hang_verdict(const std::vector<RankRecord>& ranks) {
  // (comm, sequence) -> the call and the ranks waiting in it.
  std::map<std::tuple<std::uint32_t, std::uint64_t>, std::pair<Call, std::vector<int>>> waits;
  for (const RankRecord& rank : ranks) {
    for (const Call& call : waited_calls(rank)) {
      auto& entry = waits[{call.comm, call.sequence}];
      entry.first = call;
      entry.second.push_back(rank.rank);
    }
  }
  std::string out;
  for (const auto& [key, entry] : waits) {
    const auto& [call, waiters] = entry;
    std::vector<int> missing;
    std::string missing_why;
    for (const RankRecord& rank : ranks) {
      if (!is_member(rank, call, ranks.size()) && rank.has_recorder) continue;
      std::optional<std::uint64_t> last = last_sequence(rank, call.comm);
      if (last && *last >= call.sequence) continue;
      missing.push_back(rank.rank);
      std::string process = process_text(rank.process_state);
      if (!process.empty()) missing_why += (missing_why.empty() ? "" : ", ") + process;
    }
    std::string them = waiters.size() == 1 ? "rank " : "ranks ";
    std::string wait = (waiters.size() == 1 ? " waits" : " wait");
    if (missing.empty()) {
      out += them + rank_ranges(waiters) + wait + " in " + call_name(call) +
             ", which every member entered: a message or a peer's progress is missing\n";
      continue;
    }
    out += (missing.size() == 1 ? "rank " : "ranks ") + rank_ranges(missing) + " never entered " +
           call_name(call) + (missing_why.empty() ? "" : " (" + missing_why + ")") + "; " + them +
           rank_ranges(waiters) + wait + " for " + (missing.size() == 1 ? "it" : "them") + "\n";
  }
  const bool any_recorder = std::any_of(ranks.begin(), ranks.end(),
                                        [](const RankRecord& rank) { return rank.has_recorder; });
  if (!any_recorder) {
    out += "no rank keeps a flight recorder (HALYARD_RECORDER_SIZE=0, or none initialized yet)\n";
  } else if (waits.empty()) {
    out += "no rank is waiting in a collective\n";
  }
  for (const RankRecord& rank : ranks) out += where(rank) + "\n";
  return out;
}

}  // namespace halyard::launcher
