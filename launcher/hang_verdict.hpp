// The verdict hlaunch prints from the ranks' flight recorders (launcher/recorder_directory.hpp):
// which rank(s) the others wait for, then where each rank is.
//
//   rank 2 never entered allreduce #2 on comm 0 (it is stopped (SIGSTOP)); ranks 0-1,3 wait for it
//   rank 0: waiting in allreduce #2 on comm 0 (4 B, base:ring)
//   rank 2: stopped (SIGSTOP); outside any collective, last completed allreduce #1 on comm 0
//
// A call pending on a rank is matched with the other members by its number on the
// communicator (FlightRecorder's sequence, the same on every member); a member whose last call
// on that communicator has a smaller number never entered it. Members are every rank for a
// communicator as large as the job, otherwise the ranks whose recorders mention it.
#pragma once

#include <string>
#include <vector>

#include "launcher/recorder_directory.hpp"

namespace halyard::launcher {

// Lines (each ending in '\n') for the ranks `ranks` of a job of ranks.size() ranks.
std::string hang_verdict(const std::vector<RankRecord>& ranks);

// "0-4,6-15": sorted world ranks as ranges.
std::string rank_ranges(std::vector<int> ranks);

// True when some rank's recorder shows a call that HALYARD_COLL_TIMEOUT gave up on.
bool any_timed_out(const std::vector<RankRecord>& ranks);

}  // namespace halyard::launcher
