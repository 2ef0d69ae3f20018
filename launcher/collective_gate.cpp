#include "launcher/collective_gate.hpp"

namespace halyard::launcher {

void CollectiveGate::arrive(int rank, Handler handler) {
  if (arrived_ranks_.count(rank) != 0) {
    handler(ErrorCode::kInvalidArgument,
            "rank " + std::to_string(rank) + " entered the same " + name_ + " twice");
    return;
  }
  arrived_ranks_.insert(rank);
  arrivals_.emplace_back(rank, std::move(handler));
  for (const auto& [gone_rank, why] : gone_) {
    if (arrived_ranks_.count(gone_rank) == 0) {
      fail_round(name_ + " cannot complete: rank " + std::to_string(gone_rank) + " " + why +
                 " without entering it");
      return;
    }
  }
  if (static_cast<int>(arrivals_.size()) < size_) return;
  std::vector<std::pair<int, Handler>> released = std::move(arrivals_);
  arrivals_.clear();
  arrived_ranks_.clear();
  for (auto& [r, h] : released) h(ErrorCode::kSuccess, {});
}

void CollectiveGate::rank_gone(int rank, const std::string& why) {
  gone_.emplace_back(rank, why);
  if (!arrivals_.empty() && arrived_ranks_.count(rank) == 0) {
    fail_round(name_ + " cannot complete: rank " + std::to_string(rank) + " " + why +
               " without entering it");
  }
}

void CollectiveGate::fail_round(const std::string& message) {
  std::vector<std::pair<int, Handler>> failed = std::move(arrivals_);
  arrivals_.clear();
  arrived_ranks_.clear();
  for (auto& [r, h] : failed) h(ErrorCode::kPeerFailed, message);
}

}  // namespace halyard::launcher
