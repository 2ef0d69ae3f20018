// From per-iteration times to the figures hbench reports: each rank summarizes its own samples,
// then the ranks' summaries are combined the OSU way (average, minimum and maximum of the
// per-rank averages).
#pragma once

#include <vector>

#include "runtime/communicator.hpp"

namespace hbench {

struct RankTiming {
  double avg_us = 0;
  double min_us = 0;
  double max_us = 0;
};

struct Summary {
  double avg_us = 0;  // mean of the ranks' averages
  double min_us = 0;  // fastest rank's average
  double max_us = 0;  // slowest rank's average
  std::vector<RankTiming> per_rank;
};

RankTiming summarize_samples(const std::vector<double>& samples_us);

// Ranks whose `took_part` is false (ranks 2.. of a ping-pong) are left out of the figures.
Summary combine_ranks(const std::vector<RankTiming>& per_rank, const std::vector<bool>& took_part);

// Collective over `world`: every rank learns every rank's timing (the same Summary on all).
Summary gather_summary(const halyard::Communicator& world, const RankTiming& mine, bool took_part);

}  // namespace hbench
