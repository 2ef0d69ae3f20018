#include "collectives/neighbor/neighbor_exchange.hpp"

#include <string>
#include <vector>

#include "collectives/core/collective_tag.hpp"
#include "runtime/support/error.hpp"

namespace halyard {

Request ineighbor_exchange(const Communicator& comm, int lanes,
                           std::span<const NeighborReceive> receives,
                           std::span<const NeighborSend> sends) {
  // Every rank takes the same number of tags, so later collectives still match.
  std::vector<int> tags(static_cast<std::size_t>(lanes));
  for (int& tag : tags) tag = next_collective_tag(comm);
  auto tag_of = [&](int lane) {
    if (lane < 0 || lane >= lanes) {
      throw Error(ErrorCode::kInvalidArgument, "neighbor exchange: lane " + std::to_string(lane) +
                                                   " outside 0.." + std::to_string(lanes - 1));
    }
    return tags[static_cast<std::size_t>(lane)];
  };
  std::vector<Request> requests;
  requests.reserve(receives.size() + sends.size());
  for (const NeighborReceive& r : receives) {
    if (r.peer >= 0)
      requests.push_back(comm.irecv_internal(r.peer, tag_of(r.lane), r.buffer, r.bytes));
  }
  for (const NeighborSend& s : sends) {
    if (s.peer >= 0)
      requests.push_back(comm.isend_internal(s.peer, tag_of(s.lane), s.buffer, s.bytes));
  }
  if (requests.empty()) return Request::make_completed(comm.loop(), Status{});
  return when_all(comm.loop(), requests);
}

}  // namespace halyard
