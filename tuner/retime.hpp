// htune --validate's second comparison. The exhaustive sweep times each configuration once, so
// its best is the lowest of many noisy figures (biased low: the winner's curse), while a chosen
// configuration keeps whatever figure it drew, slow or not. Re-timing the exhaustive best and
// every mode's choice in the same rounds, in rotating order, compares them under the same
// conditions; the report gives this ratio beside the single sweep's.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "runtime/communicator.hpp"
#include "tuner/search.hpp"

namespace halyard::tuner {

struct RetimedSize {
  std::size_t bytes = 0;
  std::map<std::string, double> us;  // by configuration label: the median over the rounds
};

struct Retimed {
  select::Collective collective = select::Collective::kBcast;
  std::vector<RetimedSize> sizes;  // as the exhaustive search's
};

// One Retimed per exhaustive outcome in `outcomes`, covering its best and the choice of every
// model outcome of the same collective. Collective over `comm`; every rank gets the same figures.
std::vector<Retimed> retime_choices(const Communicator& comm,
                                    const std::vector<SearchOutcome>& outcomes,
                                    const BenchSettings& bench, int rounds);

}  // namespace halyard::tuner
