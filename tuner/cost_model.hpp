// The task-based cost model (dissertation section 5.3, equations 5.4 and 5.5): the time of a
// HAN collective cut into u segments, predicted from the measured costs of its tasks at one
// segment size, so that one set of task costs serves every message size.
//
// A HAN pipeline has D stages (bcast: ib, sb; allreduce: sr, ir, ib, sb, or sr, ir, sb when the
// leaders run one flat allreduce). Run in lock step, step k of a u-segment pipeline holds stage j
// of segment k - j for every valid j; each step is one task (ib(0), sbib(1), ..., sb(u-1)). For
// u >= D the steps are: D-1 filling tasks (ib(0); sr(0), irsr(1), ibirsr(2)), u-D+1 full tasks
// (sbib; sbibirsr), of which the first is measured after the filling ones (Algorithm 10) and the
// others take the stabilised cost s, and D-1 draining tasks (sb; sbibir, sbib, sb):
//
//   T(u) = max_i ( sum fill_i + first_full_i + (u - D) * stable_full_i + sum drain_i )
//
// which is eq. 5.4 (D = 2) and eq. 5.5 (D = 4) with sbib(1) / sbibirsr(3) measured rather than
// taken as s, and sb(u-1) inside the maximum. The cost of a collective is the maximum over the
// processes of each one's total. One segment (u = 1) runs each stage alone (Algorithm 9); a
// pipeline shorter than its depth (1 < u < D) never fills and is measured as it runs.
#pragma once

#include <cstddef>
#include <vector>

namespace halyard::tuner {

// One task's cost on every rank of the job (us), indexed by world rank.
using RankTimes = std::vector<double>;

struct PipelineCosts {
  int depth = 0;                                // D
  std::vector<RankTimes> alone;                 // D entries: each stage alone (u = 1)
  std::vector<std::vector<RankTimes>> partial;  // u = 2..D-1: the u + D - 1 steps of that run
  std::vector<RankTimes> fill;                  // D - 1 entries
  RankTimes first_full;
  RankTimes stable_full;
  std::vector<RankTimes> drain;  // D - 1 entries
};

// T(u) in us. Throws std::invalid_argument when `costs` lacks what u needs (or u == 0).
double predict_us(const PipelineCosts& costs, std::size_t segments);

// The segments of a message: ceil(message / segment), at least 1.
std::size_t segment_count(std::size_t message_bytes, std::size_t segment_bytes);

}  // namespace halyard::tuner
