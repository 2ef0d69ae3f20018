// Counts the ranks entering a fence or a barrier and releases them together.
//
// Pure logic, no sockets. Because every put is acknowledged before the client can enter a
// fence, releasing a fence once all ranks arrived is enough to make every earlier put visible
// to every later get: fence and barrier differ only in name and in what callers expect.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime/support/error.hpp"

namespace halyard::launcher {

class CollectiveGate {
 public:
  // Called once per arrival: with kSuccess when the round completes, else with the reason.
  using Handler = std::function<void(ErrorCode code, const std::string& message)>;

  CollectiveGate(std::string name, int size) : name_(std::move(name)), size_(size) {}

  // Records that `rank` entered the current round. The last arrival releases every handler of
  // the round; a rank entering twice, or a round that a departed rank can never join, fails.
  void arrive(int rank, Handler handler);

  // `rank` is gone for good (its process ended) with `why` (e.g. "exited with status 0"). The
  // current round, and any later one, can no longer complete: fail them now rather than hang.
  void rank_gone(int rank, const std::string& why);

  int arrived() const { return static_cast<int>(arrivals_.size()); }

 private:
  void fail_round(const std::string& message);

  std::string name_;
  int size_;
  std::vector<std::pair<int, Handler>> arrivals_;  // the current round
  std::set<int> arrived_ranks_;
  std::vector<std::pair<int, std::string>> gone_;  // departed ranks and how they left
};

}  // namespace halyard::launcher
